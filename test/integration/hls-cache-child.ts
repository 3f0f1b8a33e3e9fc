// Child process of hls-cache.test.ts: a second daemon's cache + HLS engine on the same cache dir.
// Starts one session of `source`, prints `outcome <write|hit|bypass>` once the store answered,
// `ready <cacheHit>` at readiness and `done` after stopping the session once the output is whole
// (or once it is ready, for a HIT or bypass); then exits.
import { pino } from 'pino'
import { createHlsEngine } from '../../src/services/hls/engine.js'
import type { SegmentStore } from '../../src/services/hls/segment-store.js'
import { startCacheKit, waitUntil } from '../helpers/cache-kit.js'

const [source, cacheDir, workDir] = process.argv.slice(2) as [string, string, string]
const cache = await startCacheKit({ dir: cacheDir })
const store = cache.part.store!
let outcome = 'none'
const reporting: SegmentStore = {
  async open(request) {
    const entry = await store.open(request)
    outcome = entry.cacheHit ? 'hit' : entry.commit ? 'write' : 'bypass'
    process.stdout.write(`outcome ${outcome}\n`)
    return entry
  },
}
const engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir, logger: pino({ level: 'silent' }), store: reporting })
const handle = engine.start({ sessionId: 'second', session: { sessionId: 'second', PlayMethod: 'hls', quality: '480p', filePath: source }, source }, {
  onReady: (info) => process.stdout.write(`ready ${String(info.cacheHit)}\n`),
  onReadinessTimeout: () => {},
  onFailed: (error) => process.stdout.write(`failed ${error.message}\n`),
})
await waitUntil(() => outcome !== 'none', 30_000, 'the store')
if (outcome === 'write') await waitUntil(() => cache.part.status().entries === 1, 60_000, 'the entry')
else await waitUntil(() => engine.inspect()[0]?.state === 'complete' || engine.inspect()[0]?.state === 'cached', 60_000, 'the session')
await handle.stop()
await waitUntil(() => cache.part.status().pinned === 0, 10_000, 'unpinned')
cache.stop()
process.stdout.write('done\n')
process.exit(0)
