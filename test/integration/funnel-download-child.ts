// One "daemon" getting the managed tunnel helper (test/integration/funnel-helper-download.test.ts):
// the same ensureHelper the funnel actor runs, in a process of its own. argv: managedPath urlBase.
import { ensureHelper } from '../../src/services/funnel/helper-download.js'

const [managedPath, urlBase] = process.argv.slice(2)
ensureHelper({ helperPath: '', managedPath: managedPath!, urlBase: urlBase! }).then(
  (path) => process.stdout.write(`${path}\n`),
  (err: { code?: string; message: string }) => {
    process.stderr.write(`${err.code ?? 'ERR'} ${err.message}\n`)
    process.exit(1)
  },
)
