// Child process of cache-writer-lock.test.ts: another daemon asking for the writer lock of a key.
// Prints `locked` or `refused`; with `hold`, keeps the lock until killed.
import { acquireWriterLock } from '../../src/services/cache/writer-lock.js'

const [path, mode] = process.argv.slice(2) as [string, string]
const lock = await acquireWriterLock(path)
process.stdout.write(`${lock ? 'locked' : 'refused'}\n`)
if (lock && mode === 'hold') setInterval(() => {}, 60_000)
else {
  await lock?.release()
  process.exit(0)
}
