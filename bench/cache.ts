// `npm run bench -- cache` (issue 11, docs/hls-cache.md): the persistent HLS segment cache.
// - missReadyMs: a session of a 720p source with an empty cache, start() -> onReady (the moment
//   the session actor posts session-ready), transcoding into a new entry;
// - hitReadyMs: the same source again once the entry is complete, start() -> onReady, which
//   includes the lookup through the `cache` actor, VerifyComplete of every segment and the pin
//   (median of BENCH_CACHE_HITS rounds, default 10). Goal: under 20 ms. Every HIT round also
//   fetches every segment and compares it with the first run's bytes;
// - evictionPass: the real `cache`, `cacheShard` and `cacheEntry` machines loading 10,000
//   complete entries (BENCH_CACHE_ENTRIES) that fill the budget (loadMs: one actor each), then
//   one new entry of half the budget, which evicts the least recently used 5,000, each through
//   its actor (evictMs), with peak RSS / heap above the start. The disk is an in-memory model
//   here: what is measured is the actors and the LRU plan, not the filesystem.
// Prints ONE JSON line; `ratio` is hitReadyMs / missReadyMs (the anchor: transcoding).
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createActor, fromPromise, type AnyActorRef } from 'xstate'
import { silentLogger } from '../src/log.js'
import { mintStreamToken } from '../src/services/auth/stream-token.js'
import { createHlsEngine } from '../src/services/hls/engine.js'
import { createStreamServer } from '../src/server/stream-server.js'
import { cacheMachine } from '../src/machines/cache.machine.js'
import { cacheShardMachine } from '../src/machines/cache-shard.machine.js'
import { cacheEntryMachine } from '../src/machines/cache-entry.machine.js'
import { cacheEntryRefs } from '../src/system/cache-part.js'
import { startCacheKit, waitUntil } from '../test/helpers/cache-kit.js'

const run = promisify(execFile)
const hitRounds = Number(process.env.BENCH_CACHE_HITS ?? 10)
const evictionEntries = Number(process.env.BENCH_CACHE_ENTRIES ?? 10_000)
const round = (value: number) => Math.round(value * 10) / 10
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function sessions(root: string) {
  const source = join(root, 'source.mp4')
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '20', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', source])
  const cache = await startCacheKit({ dir: join(root, 'cache'), logger: silentLogger() })
  const engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir: join(root, 'work'), logger: silentLogger(), store: cache.part.store! })
  const secret = 'YmVuY2gtY2FjaGUtc2VjcmV0LTMyLWJ5dGVzLWxvbmc'
  const server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), sessions: { get: () => undefined }, secret: () => secret, routes: { hls: engine.routes } })
  const url = (sessionId: string, name: string) => `${server.url}/hls/${sessionId}/${mintStreamToken({ secret, scope: `hls:${sessionId}`, expiresAtSeconds: Math.floor(Date.now() / 1000) + 600 })}/${name}`
  const start = (sessionId: string) => new Promise<{ ms: number; cacheHit: boolean; stop: () => Promise<void> }>((resolve, reject) => {
    const started = performance.now()
    const handle = engine.start({ sessionId, session: { sessionId, PlayMethod: 'hls', quality: '720p', filePath: source }, source }, {
      onReady: (info) => resolve({ ms: performance.now() - started, cacheHit: info.cacheHit, stop: () => handle.stop() }),
      onReadinessTimeout: () => reject(new Error('readiness timeout')),
      onFailed: reject,
    })
  })
  const segments = async (sessionId: string) => {
    const index = await (await fetch(url(sessionId, 'index.m3u8'))).text()
    const names = ['init.mp4', ...index.split('\n').filter((line) => /^seg-\d+\.m4s$/.test(line))]
    return new Map(await Promise.all(names.map(async (name) => [name, Buffer.from(await (await fetch(url(sessionId, name))).arrayBuffer())] as const)))
  }
  try {
    const miss = await start('miss')
    if (miss.cacheHit) throw new Error('the first session was a HIT')
    await waitUntil(() => cache.part.status().entries === 1, 120_000, 'the entry')
    const first = await segments('miss')
    await miss.stop()
    await waitUntil(() => cache.part.status().pinned === 0, 10_000, 'unpinned')
    const hits: number[] = []
    let segmentsCompared = 0
    for (let index = 0; index < hitRounds; index++) {
      const hit = await start(`hit-${index}`)
      if (!hit.cacheHit) throw new Error(`round ${index} was not a HIT`)
      hits.push(hit.ms)
      const again = await segments(`hit-${index}`)
      for (const [name, bytes] of first) {
        if (!again.get(name)?.equals(bytes)) throw new Error(`HIT ${name} differs from the first run`)
        segmentsCompared++
      }
      await hit.stop()
      await waitUntil(() => cache.part.status().pinned === 0, 10_000, 'unpinned')
    }
    return { missReadyMs: miss.ms, hits, segments: first.size - 1, segmentsCompared, status: cache.part.status() }
  } finally {
    await engine.stopAll()
    await server.close()
    cache.stop()
  }
}

async function evictionPass(entries: number) {
  const bytes = 1_000_000
  const budget = entries * bytes
  let removed = 0
  const entry = cacheEntryMachine.provide({
    actors: {
      acquire: fromPromise(async () => true),
      commit: fromPromise(async () => ({ bytes: budget / 2 })),
      remove: fromPromise(async () => {
        removed++
        return true
      }),
    },
  })
  const logic = cacheMachine.provide({
    actors: { shard: cacheShardMachine.provide({ actors: { entry } }), scan: fromPromise(async () => Array.from({ length: entries }, (_, i) => ({ key: createHash('sha256').update(String(i)).digest('hex').slice(0, 8), bytes, lastUsedAt: (i * 7919) % entries }))) },
  })
  const base = process.memoryUsage()
  let peakRss = base.rss
  let peakHeap = base.heapUsed
  const sample = setInterval(() => {
    const now = process.memoryUsage()
    peakRss = Math.max(peakRss, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 5)
  const started = performance.now()
  const actor: AnyActorRef = createActor(logic, { input: { budgetBytes: budget, statsLogIntervalMs: 86_400_000 } })
  actor.start()
  await waitUntil(() => cacheEntryRefs(actor).length === entries, 600_000, 'the load')
  const loadMs = performance.now() - started
  // One new entry of half the budget: the LRU half of the 10,000 is evicted, each through its actor.
  const evictStarted = performance.now()
  actor.send({ type: 'cache.open', key: 'zzzzzzzz', request: { requestId: 'r', sessionId: 's', source: 'x', at: entries } })
  await waitUntil(() => cacheEntryRefs(actor).length === entries + 1, 10_000, 'the writer')
  actor.send({ type: 'cache.written', key: 'zzzzzzzz', sessionId: 's', payload: {} })
  await waitUntil(() => removed >= entries / 2 && cacheEntryRefs(actor).length === entries / 2 + 1, 600_000, 'the eviction pass')
  const evictMs = performance.now() - evictStarted
  clearInterval(sample)
  const context = (actor.getSnapshot() as { context: { totalBytes: number } }).context
  actor.stop()
  return { entries, loadMs: round(loadMs), evicted: removed, evictMs: round(evictMs), totalBytesAfter: context.totalBytes, budgetBytes: budget, peakRssMb: round((peakRss - base.rss) / 1e6), peakHeapMb: round((peakHeap - base.heapUsed) / 1e6) }
}

const root = await mkdtemp(join(tmpdir(), 'media-agent-bench-cache-'))
try {
  const loadBefore = loadavg()[0]!
  const played = await sessions(root)
  const eviction = await evictionPass(evictionEntries)
  const hitReadyMs = median(played.hits)
  process.stdout.write(`${JSON.stringify({
    bench: 'cache',
    node: process.version,
    loadAverage1m: { before: round(loadBefore * 10) / 10, after: Math.round(loadavg()[0]! * 100) / 100 },
    source: '1280x720 H.264 30 fps, 20 s', output: '720p libx264, 2 s fMP4 segments',
    hitReadyMs: round(hitReadyMs),
    hitAllMs: played.hits.map(round),
    missReadyMs: round(played.missReadyMs),
    ratio: Math.round((hitReadyMs / played.missReadyMs) * 1000) / 1000,
    hitBytesEqualFirstRun: true,
    segmentsCompared: played.segmentsCompared,
    evictionPass: eviction,
    goals: { hitReadyMsUnder: 20 },
  })}\n`)
} finally {
  await rm(root, { recursive: true, force: true })
}
