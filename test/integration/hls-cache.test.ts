// The persistent HLS segment cache with real ffmpeg (issue 11; contract 2.6, 3, 6.3; protocol.md
// 7.1; docs/hls-cache.md): a second play is a HIT whose bytes equal the first run's, a damaged or
// 0.9.9-style (4 s) entry is invalidated and re-encoded, a second daemon on the same dir never
// corrupts an entry, a failed commit (disk full) leaves the session playing uncached.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, truncate, stat, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheIdentity } from '../../src/services/cache/cache-key.js'
import { createCacheDisk } from '../../src/services/cache/cache-disk.js'
import { verifyEntry } from '../../src/services/cache/verify-entry.js'
import { startCacheKit, waitUntil, type CacheKit } from '../helpers/cache-kit.js'
import { decodeWithFfmpeg, fetchBytes, playlistSegments, run, startEngineKit, startSession, type EngineKit } from './hls-kit.js'

let root: string
let source: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'media-agent-ma11-'))
  const plain = join(root, 'plain.mp4')
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=330', '-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', plain])
  const srt = join(root, 'subs.srt')
  await writeFile(srt, '1\n00:00:00,500 --> 00:00:02,000\nfirst line\n\n2\n00:00:03,000 --> 00:00:05,000\nsecond line\n')
  source = join(root, 'movie.mkv')
  await run('ffmpeg', ['-v', 'error', '-i', plain, '-i', srt, '-map', '0', '-map', '1', '-c', 'copy', '-c:s', 'srt', source])
}, 60_000)

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

interface Kits { cache: CacheKit; engine: EngineKit; dir: string; close(): Promise<void> }

async function kits(name: string, options: { disk?: Parameters<typeof startCacheKit>[0]['disk']; extraInputArgs?: string[] } = {}): Promise<Kits> {
  const dir = join(root, name)
  const { extraInputArgs, ...cacheOptions } = options
  const cache = await startCacheKit({ dir, ...cacheOptions })
  const engine = await startEngineKit({ store: cache.part.store!, ...(extraInputArgs ? { extraInputArgs } : {}) })
  // Closes the kits it holds at the time: a test that restarts one puts the new one in its place.
  const held: Kits = { cache, engine, dir, async close() { await held.engine.close(); held.cache.stop() } }
  return held
}

const keyOf = (path: string) => cacheIdentity({ source: path, quality: '480p', audioIndex: 0 })!.key

/** Every file a player fetches, by name. */
async function fetchAll(kit: EngineKit, sessionId: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const base = kit.base(sessionId)
  const names = ['master.m3u8', 'index.m3u8', 'init.mp4', 'sub-0.m3u8', 'sub-0.vtt']
  const index = await fetchBytes(`${base}/index.m3u8`)
  expect(index.status).toBe(200)
  names.push(...playlistSegments(index.body.toString()))
  for (const name of names) {
    const got = await fetchBytes(`${base}/${name}`)
    expect(got.status, name).toBe(200)
    files.set(name, got.body)
  }
  return files
}

async function playWhole(kit: Kits, sessionId: string): Promise<Map<string, Buffer>> {
  const session = startSession(kit.engine, sessionId, source, { quality: '480p' })
  const ready = await session.ready
  expect(ready.cacheHit).toBe(false)
  await waitUntil(() => kit.cache.part.status().entries === 1, 60_000, 'the entry to be complete')
  const files = await fetchAll(kit.engine, sessionId)
  await session.handle.stop()
  await waitUntil(() => kit.cache.part.status().pinned === 0, 10_000, 'the entry to be unpinned')
  return files
}

describe('hls cache with real ffmpeg', () => {
  it('serves a second play of the same source as a HIT, ready at once, with every byte of the first run', async () => {
    const kit = await kits('hit')
    try {
      const first = await playWhole(kit, 'first')
      const entry = join(kit.dir, keyOf(source))
      expect((await readdir(entry)).sort()).toEqual(expect.arrayContaining(['.complete', 'entry.json', 'init.mp4', 'master.m3u8', 'index.m3u8', 'seg-0.m4s', 'seg-3.m4s', 'sub-0.m3u8', 'sub-0.vtt']))
      const meta = JSON.parse(await readFile(join(entry, 'entry.json'), 'utf8')) as Record<string, unknown>
      expect(meta).toMatchObject({ source, quality: '480p', audioIndex: 0, segmentSeconds: 2, segments: 4 })
      // The writer's run directories are gone once it ended; its lock too.
      await waitUntil(async () => !(await readdir(entry)).some((name) => name.startsWith('run-')) && !(await readdir(kit.dir)).some((name) => name.endsWith('.lock')), 10_000, 'the tidy')

      const second = startSession(kit.engine, 'second', source, { quality: '480p' })
      expect(await second.ready).toMatchObject({ cacheHit: true })
      const again = await fetchAll(kit.engine, 'second')
      expect([...again.keys()].sort()).toEqual([...first.keys()].sort())
      for (const [name, bytes] of first) expect(again.get(name)!.equals(bytes), name).toBe(true)
      expect(kit.engine.engine.inspect().find((session) => session.sessionId === 'second')).toMatchObject({ state: 'cached', pids: [] })
      const decoded = await decodeWithFfmpeg(`${kit.engine.base('second')}/master.m3u8`)
      expect(decoded.stderr).toBe('')
      // As many frames as the first run's own files hold (init.mp4 + every segment, concatenated).
      const firstRun = join(root, 'first-run.mp4')
      await writeFile(firstRun, Buffer.concat([first.get('init.mp4')!, ...playlistSegments(first.get('index.m3u8')!.toString()).map((name) => first.get(name)!)]))
      const { stdout } = await run('ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', firstRun])
      expect(decoded.videoFrames).toBe(Number(stdout.trim()))
      expect(kit.cache.part.status()).toMatchObject({ entries: 1, pinned: 1, hits: 1, misses: 1 })

      // A pinned entry survives `cache clear`; once unpinned it goes.
      const clear = kit.cache.part.adminRoutes.find((route) => route.path === '/api/cache/clear')!
      expect(await clear.handle({ url: new URL('http://x/api/cache/clear'), body: {} })).toMatchObject({ status: 200, json: { entries: 1, removed: 0 } })
      await second.handle.stop()
      await waitUntil(() => kit.cache.part.status().pinned === 0, 10_000, 'unpinned')
      expect(await clear.handle({ url: new URL('http://x/api/cache/clear'), body: {} })).toMatchObject({ status: 200, json: { entries: 0, sizeBytes: 0, removed: 1 } })
      expect(await readdir(kit.dir)).not.toContain(keyOf(source))
    } finally {
      await kit.close()
    }
  }, 120_000)

  it('commits an entry completed by seek-runs and serves it as a HIT: their segments are on the run from 0\'s timeline, so it verifies', async () => {
    // Real time, so the segments asked for are ahead of the run from 0 and restart ffmpeg there.
    const kit = await kits('after-seek', { extraInputArgs: ['-readrate', '1'] })
    try {
      const session = startSession(kit.engine, 'seeker', source, { quality: '480p' })
      expect((await session.ready).cacheHit).toBe(false)
      const base = kit.engine.base('seeker')
      expect((await fetchBytes(`${base}/seg-3.m4s`)).status).toBe(200) // a seek-run from 3
      expect((await fetchBytes(`${base}/seg-1.m4s`)).status).toBe(200) // behind it: a seek-run from 1 writes 1-3
      const runs = kit.engine.engine.inspect().find((s) => s.sessionId === 'seeker')?.run ?? 0
      expect(runs).toBeGreaterThanOrEqual(2)
      await waitUntil(() => kit.cache.part.status().entries === 1, 60_000, 'the entry to be complete')
      await session.handle.stop()
      await waitUntil(() => kit.cache.part.status().pinned === 0, 10_000, 'the entry to be unpinned')

      const again = startSession(kit.engine, 'replay', source, { quality: '480p' })
      expect(await again.ready).toMatchObject({ cacheHit: true })
      const decoded = await decodeWithFfmpeg(`${kit.engine.base('replay')}/master.m3u8`)
      expect(decoded.stderr).toBe('')
      await again.handle.stop()
    } finally {
      await kit.close()
    }
  }, 120_000)

  it('invalidates an entry with a truncated segment and re-encodes it in the same session', async () => {
    const kit = await kits('truncated')
    try {
      await playWhole(kit, 'first')
      const entry = join(kit.dir, keyOf(source))
      const segment = join(entry, 'seg-2.m4s')
      const size = (await stat(segment)).size
      await truncate(segment, size - 100)
      const again = startSession(kit.engine, 'again', source, { quality: '480p' })
      expect((await again.ready).cacheHit).toBe(false)
      await waitUntil(() => kit.cache.part.status().entries === 1, 60_000, 'the re-encoded entry')
      expect((await verifyEntry(entry, source)).ok).toBe(true)
      await again.handle.stop()
      expect(kit.cache.part.status()).toMatchObject({ hits: 0, misses: 2 })
    } finally {
      await kit.close()
    }
  }, 120_000)

  it('invalidates an entry made with 4 s segments (0.9.9) and re-encodes it at 2 s', async () => {
    const kit = await kits('four-seconds')
    try {
      // A real 4 s-segment fMP4 entry as 0.9.9 wrote it, complete with its marker.
      const entry = join(kit.dir, keyOf(source))
      await mkdir(entry, { recursive: true })
      await run('ffmpeg', ['-v', 'error', '-i', source, '-map', '0:v', '-map', '0:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-force_key_frames', 'expr:gte(t,4*n_forced)', '-c:a', 'aac',
        '-f', 'hls', '-hls_time', '4', '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(entry, 'seg-%d.m4s'), '-hls_list_size', '0', '-hls_playlist_type', 'vod', join(entry, 'index.m3u8')])
      await writeFile(join(entry, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000\nindex.m3u8\n')
      const names = (await readdir(entry))
      let bytes = 0
      for (const name of names) bytes += (await stat(join(entry, name))).size
      await writeFile(join(entry, 'entry.json'), JSON.stringify({ source, quality: '480p', audioIndex: 0, durationSeconds: 7, segmentSeconds: 4, segments: 2, bytes, agentVersion: '0.9.9' }))
      await writeFile(join(entry, '.complete'), '')
      kit.cache.stop()
      const restarted = await startCacheKit({ dir: kit.dir })
      kit.cache = restarted
      const engine = await startEngineKit({ store: restarted.part.store! })
      await kit.engine.close()
      kit.engine = engine
      await waitUntil(() => restarted.part.status().entries === 1, 10_000, 'the entry found at start')
      const session = startSession(engine, 'again', source, { quality: '480p' })
      expect((await session.ready).cacheHit).toBe(false)
      await waitUntil(() => restarted.part.status().entries === 1 && restarted.part.status().misses === 1, 60_000, 'the re-encoded entry')
      await waitUntil(async () => JSON.parse(await readFile(join(entry, 'entry.json'), 'utf8').catch(() => '{}')).segmentSeconds === 2, 60_000, 'a 2 s entry')
      expect((await verifyEntry(entry, source)).ok).toBe(true)
      await session.handle.stop()
    } finally {
      await kit.close()
    }
  }, 120_000)

  it('goes on uncached when the commit fails for a full disk, and leaves no entry behind', async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    const dir = join(root, 'disk-full')
    const kit = await kits('disk-full', { disk: createCacheDisk(dir, { writeFile: async () => { throw full } }) })
    try {
      const session = startSession(kit.engine, 'full', source, { quality: '480p' })
      await session.ready
      await waitUntil(() => kit.engine.engine.inspect()[0]?.state === 'complete', 60_000, 'the transcode to finish')
      const files = await fetchAll(kit.engine, 'full')
      expect(files.size).toBeGreaterThan(4)
      await waitUntil(async () => !(await readdir(join(dir, keyOf(source)))).includes('master.m3u8'), 10_000, 'the commit to be cleaned up')
      expect(kit.cache.part.status().entries).toBe(0)
      await session.handle.stop()
      await waitUntil(async () => !(await readdir(dir)).includes(keyOf(source)), 10_000, 'the abandoned entry to go')
    } finally {
      await kit.close()
    }
  }, 120_000)

  it('lets a second daemon on the same dir transcode uncached while the first writes, and keeps the entry whole', async () => {
    const kit = await kits('two-daemons')
    try {
      const first = startSession(kit.engine, 'first', source, { quality: '480p' })
      await first.ready
      // The second daemon starts (and scans the dir) while the first holds the writer lock.
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'hls-cache-child.ts'), source, kit.dir, join(root, 'second-work')], { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      try {
        expect(await exited, err).toBe(0)
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      expect(out).toContain('outcome bypass')
      expect(out).toContain('ready false')
      await waitUntil(() => kit.cache.part.status().entries === 1, 60_000, 'the first daemon\'s entry')
      await first.handle.stop()
      await waitUntil(() => kit.cache.part.status().pinned === 0, 10_000, 'unpinned')
      expect((await verifyEntry(join(kit.dir, keyOf(source)), source)).ok).toBe(true)
      // Now the second daemon finds the entry complete: a HIT there too.
      const again = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'hls-cache-child.ts'), source, kit.dir, join(root, 'second-work')], { stdio: ['ignore', 'pipe', 'pipe'] })
      let out2 = ''
      again.stdout.on('data', (chunk: Buffer) => (out2 += chunk.toString()))
      expect(await new Promise((resolve) => again.once('exit', resolve))).toBe(0)
      expect(out2).toContain('outcome hit')
      expect((await verifyEntry(join(kit.dir, keyOf(source)), source)).ok).toBe(true)
    } finally {
      await kit.close()
    }
  }, 180_000)
})
