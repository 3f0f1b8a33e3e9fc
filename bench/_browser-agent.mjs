// The browser bench's agent process (bench/browser.ts starts it): what `npm start`'s embedded
// default runs, the reference server and the daemon in one process from dist/, with the daemon's
// node flags and malloc settings, but on the bench's ports and dirs, with the funnel off (the
// embedded default's fixed port and a fresh install's funnel do not suit a benchmark). The browser
// driver stays in the bench's own process, as a person's browser is not in the agent's.
//
//   node <daemon flags> bench/_browser-agent.mjs <config.toml> <access token>
//
// Prints one JSON line {"url"} on stdout once the agent has registered; stops on SIGTERM or when
// its stdin closes (the bench ended, however it ended).
// BENCH_BROWSER_TRACE=<file>: the agent's debug log (JSON lines, epoch ms), appended to the file
// the bench writes each session's creation to.
import { createWriteStream, readFileSync } from 'node:fs'
import { createReferenceServer } from '../dist/reference-server/index.js'
import { parseConfigText } from '../dist/config/load.js'
import { createRootLogger, silentLogger } from '../dist/log.js'
import { startAgent } from '../dist/system/start-agent.js'

const [configPath, accessToken] = process.argv.slice(2)
if (!configPath || !accessToken) {
  process.stderr.write('usage: _browser-agent.mjs <config.toml> <access token>\n')
  process.exit(2)
}
const server = await createReferenceServer({ accessToken })
const text = readFileSync(configPath, 'utf8').replace('@SERVER_URL@', server.url)
const { config } = parseConfigText(text, { file: configPath })
const trace = process.env.BENCH_BROWSER_TRACE
const logger = trace ? createRootLogger({ level: 'debug', pretty: false, destination: createWriteStream(trace, { flags: 'a' }) }) : silentLogger()
const registered = server.waitFor('register', undefined, 30_000)
const agent = await startAgent(config, logger)
await registered
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  void (async () => {
    await agent.stop().catch(() => {})
    await server.close().catch(() => {})
    process.exit(0)
  })()
}
process.on('SIGTERM', stop)
// The bench holds our stdin open while it lives: its end (the bench exited, even killed) stops us.
process.stdin.on('end', stop)
process.stdin.resume()
