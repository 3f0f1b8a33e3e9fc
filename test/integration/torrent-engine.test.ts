import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buffer } from 'node:stream/consumers'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createRootLogger, silentLogger } from '../../src/log.js'
import { WebTorrentEngine, type TorrentEngineEvent, type TorrentEngineOptions } from '../../src/services/torrent/engine.js'
import { FileTasksStore } from '../../src/services/torrent/tasks-store.js'
import { createTaskManager, type TaskManager } from '../../src/system/task-bindings.js'
import { startOpentracker, until, type OpenTracker } from '../helpers/opentracker.js'
import { randomTorrent, sha256, writeTorrentFiles, type FixtureTorrent } from '../helpers/torrent-fixtures.js'

// The webtorrent engine between two of its own instances on loopback, with a real opentracker:
// streaming a file that is still downloading, pause/resume, restart from saved metadata,
// removal, and a full disk.

const loopbackOnly: Omit<TorrentEngineOptions, 'downloadDir' | 'logger'> = { dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false }

let root = ''
let tracker: OpenTracker
const engines: WebTorrentEngine[] = []
const managers: TaskManager[] = []
const mounts: string[] = []

const movie = randomTorrent('movie', [900_000, 70_000, 5], { pieceLength: 16 * 1024 })
const small = randomTorrent('small', [512 * 1024], { pieceLength: 16 * 1024 })
const small2 = randomTorrent('small-two', [512 * 1024], { pieceLength: 16 * 1024 })
const big = randomTorrent('big', [8 * 1024 * 1024], { pieceLength: 64 * 1024 })

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-torrent-engine-'))
  tracker = await startOpentracker([movie, small, small2, big].map((t) => t.infoHash))
})

afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.close()
  for (const engine of engines.splice(0)) await engine.close()
  for (const mount of mounts.splice(0)) execFileSync('umount', ['-l', mount])
})

afterAll(async () => {
  await tracker?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

// MA_TEST_LOG=debug prints the engine's log (tracker warnings among it) when a run needs a post-mortem.
const testLogger = () => (process.env.MA_TEST_LOG ? createRootLogger({ level: process.env.MA_TEST_LOG as 'debug', pretty: false }) : silentLogger())

function engine(downloadDir: string, over: Partial<TorrentEngineOptions> = {}): WebTorrentEngine {
  const e = new WebTorrentEngine({ downloadDir, logger: testLogger(), announce: [tracker.announceUrl], ...loopbackOnly, ...over })
  engines.push(e)
  return e
}

async function seed(torrent: FixtureTorrent): Promise<WebTorrentEngine> {
  const dir = join(root, `seed-${torrent.name}-${Math.random().toString(36).slice(2)}`)
  await writeTorrentFiles(dir, torrent)
  const seeder = engine(dir)
  await new Promise<void>((resolve, reject) => {
    seeder.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => {
      if (event.type === 'done') resolve()
      if (event.type === 'error') reject(event.error)
    })
  })
  await tracker.waitForSeeders(torrent.infoHash, 1)
  return seeder
}

function events(e: WebTorrentEngine, torrent: FixtureTorrent, input: { torrentFile?: Uint8Array; magnetURI?: string } = { torrentFile: torrent.torrentFile }) {
  const seen: TorrentEngineEvent[] = []
  const waiters: { type: string; resolve: (event: TorrentEngineEvent) => void }[] = []
  e.start({ infoHash: torrent.infoHash, ...input }, (event) => {
    seen.push(event)
    for (const w of waiters.filter((w) => w.type === event.type)) w.resolve(event)
  })
  const next = (type: TorrentEngineEvent['type']) => {
    const already = seen.find((event) => event.type === type)
    return already ? Promise.resolve(already) : new Promise<TorrentEngineEvent>((resolve) => waiters.push({ type, resolve }))
  }
  return { seen, next }
}

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false
  const probe = join(tmpdir(), `ma-tmpfs-probe-${process.pid}`)
  try {
    execFileSync('mkdir', ['-p', probe])
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('umount', [probe])
    return true
  } catch {
    return false
  } finally {
    execFileSync('rmdir', [probe])
  }
}

describe('webtorrent engine on loopback', () => {
  it('streams a byte range of a file that is not downloaded yet, waiting for its pieces', async () => {
    const leecher = engine(join(root, 'stream'))
    events(leecher, movie)
    // The stream is asked for before any peer exists: it must wait, not fail or return short.
    const range = buffer(leecher.createReadStream(movie.infoHash, 0, { start: 100_000, end: 300_000 }))
    const single = buffer(leecher.createReadStream(movie.infoHash, 1, { start: 0, end: 0 }))
    await seed(movie)
    expect((await range).equals(movie.files[0]!.data.subarray(100_000, 300_001))).toBe(true)
    expect(await single).toEqual(movie.files[1]!.data.subarray(0, 1))
    const whole = await buffer(leecher.createReadStream(movie.infoHash, 2))
    expect(whole).toEqual(movie.files[2]!.data)
  })

  it('downloads, pauses without traffic, resumes, and restarts from saved metadata without a tracker', async () => {
    await seed(movie)
    const dir = join(root, 'restart')
    const first = engine(dir)
    const run = events(first, movie)
    await run.next('done')
    expect(first.stats(movie.infoHash)).toMatchObject({ done: true, progress: 1, size: movie.size, hasMetadata: true })
    await first.pause(movie.infoHash)
    expect(first.stats(movie.infoHash)).toBeUndefined()
    await first.resume(movie.infoHash)
    await until(async () => first.stats(movie.infoHash)?.done === true, 10_000, 'the resumed torrent to verify')
    await first.close()

    // A new process: no tracker at all, only the saved .torrent and the files on disk.
    const second = engine(dir, { announce: [] })
    const restarted = events(second, movie)
    await restarted.next('done')
    expect(second.stats(movie.infoHash)).toMatchObject({ done: true, peers: 0 })
    for (const [index, file] of movie.files.entries()) {
      expect(sha256(await readFile(second.stats(movie.infoHash)!.files[index]!.path))).toBe(sha256(file.data))
    }
  })

  it('removes a torrent with or without its files', async () => {
    await seed(small)
    const dir = join(root, 'remove')
    const leecher = engine(dir)
    await events(leecher, small).next('done')
    await leecher.remove(small.infoHash, { deleteFiles: false })
    expect((await stat(join(dir, 'small', 'a-0.bin'))).size).toBe(512 * 1024)
    await events(leecher, small).next('done')
    await leecher.remove(small.infoHash, { deleteFiles: true })
    expect(await readdir(dir)).toEqual([])
    expect(() => leecher.stats(small.infoHash)).not.toThrow()
    await expect(buffer(leecher.createReadStream(small.infoHash, 0))).rejects.toMatchObject({ code: 'MA_ERR_TORRENT_NOT_FOUND' })
  })

  it('turns a write failing with ENOSPC into a disk-full error on that torrent alone', async () => {
    await Promise.all([seed(small), seed(small2)])
    // A chunk store with a 256 KiB "disk" for torrent `small`; `small-two` writes freely.
    class QuotaStore {
      chunkLength: number
      #chunks = new Map<number, Buffer>()
      #limited: boolean
      constructor(chunkLength: number, opts: { name?: string }) {
        this.chunkLength = chunkLength
        this.#limited = String(opts.name).startsWith('small -')
      }
      put(index: number, buf: Buffer, cb: (err?: Error | null) => void) {
        const used = [...this.#chunks.values()].reduce((n, b) => n + b.length, 0)
        if (this.#limited && used + buf.length > 256 * 1024) {
          queueMicrotask(() => cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })))
          return
        }
        this.#chunks.set(index, Buffer.from(buf))
        queueMicrotask(() => cb(null))
      }
      get(index: number, optsOrCb: { offset?: number; length?: number } | null | ((err: Error | null, buf?: Buffer) => void), maybeCb?: (err: Error | null, buf?: Buffer) => void) {
        const cb = typeof optsOrCb === 'function' ? optsOrCb : maybeCb!
        const opts = typeof optsOrCb === 'function' ? null : optsOrCb
        const chunk = this.#chunks.get(index)
        if (!chunk) return queueMicrotask(() => cb(new Error('missing chunk')))
        const offset = opts?.offset ?? 0
        queueMicrotask(() => cb(null, chunk.subarray(offset, offset + (opts?.length ?? chunk.length - offset))))
      }
      close(cb?: () => void) { if (cb) queueMicrotask(cb) }
      destroy(cb?: () => void) { if (cb) queueMicrotask(cb) }
    }
    const e = engine(join(root, 'quota'), { store: QuotaStore })
    const full = events(e, small)
    const other = events(e, small2)
    const failure = await full.next('error')
    expect(failure).toMatchObject({ type: 'error', error: { code: 'MA_ERR_TORRENT_DISK_FULL' } })
    expect((failure as { error: Error }).error.message).toBe(`no space left on device while writing "small" to ${join(root, 'quota')}`)
    await other.next('done')
    expect(e.stats(small2.infoHash)).toMatchObject({ done: true })
  })

  it.runIf(canMountTmpfs())('fails only the task that fills the disk, with "no space left", while the others go on', async () => {
    const disk = join(root, 'tiny-disk')
    await mkdir(disk)
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk])
    mounts.push(disk)
    await Promise.all([seed(small), seed(big), seed(small2)])
    const e = engine(disk)
    const manager = await createTaskManager({ engine: e, store: new FileTasksStore({ stateDir: join(root, 'state-full'), logger: silentLogger() }), logger: silentLogger(), seedRatio: 5, progressIntervalMs: 100 })
    managers.push(manager)
    const report = (id: string) => manager.reports().find((t) => t.id === id)
    manager.apply({ type: 'add_task', taskId: 'small', source: small.infoHash })
    await until(async () => report('small')?.state === 'seeding', 30_000, 'the small task to finish')
    manager.apply({ type: 'add_task', taskId: 'big', source: `magnet:?xt=urn:btih:${big.infoHash}&dn=big` })
    await until(async () => report('big')?.state === 'error', 30_000, 'the big task to hit the full disk')
    expect(report('big')?.error).toContain('no space left')
    expect(report('small')?.state).toBe('seeding')
    // Freeing the space lets a new task run.
    manager.apply({ type: 'delete_task', taskId: 'big', deleteFiles: true })
    await manager.whenDeleted('big')
    manager.apply({ type: 'add_task', taskId: 'small2', source: small2.infoHash })
    await until(async () => report('small2')?.state === 'seeding', 30_000, 'the next task to finish')
    expect(sha256(await readFile(join(disk, 'small-two', 'a-0.bin')))).toBe(sha256(small2.files[0]!.data))
  })
})
