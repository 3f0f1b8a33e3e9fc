// Child process of hls-kill9.test.ts: an HLS engine with one slow (real-time) session. Prints
// `running <pgid,...>` once ffmpeg runs, then waits to be killed with SIGKILL.
import { pino } from 'pino'
import { createHlsEngine } from '../../src/services/hls/engine.js'

const [source, workDir] = process.argv.slice(2) as [string, string]
const engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir, logger: pino({ level: 'silent' }), extraInputArgs: ['-readrate', '1'] })
engine.start({ sessionId: 'kill9', session: { sessionId: 'kill9', PlayMethod: 'hls', quality: '480p', filePath: source }, source }, {
  onReady: () => {
    process.stdout.write(`running ${engine.inspect().flatMap((session) => session.pids).join(',')}\n`)
  },
  onReadinessTimeout: () => {},
  onFailed: (error) => {
    process.stdout.write(`failed ${error.message}\n`)
  },
})
setInterval(() => {}, 60_000)
