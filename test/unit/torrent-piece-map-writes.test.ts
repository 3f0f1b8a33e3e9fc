import { EventEmitter } from 'node:events'
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Torrent } from 'webtorrent'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { torrentMetadataDirName } from '../../src/config/defaults.js'
import { silentLogger } from '../../src/log.js'
import { writeFileAtomic } from '../../src/services/state/atomic-file.js'
import type { FilePool } from '../../src/services/torrent/file-store.js'
import { PieceMaps, statFiles, type PieceMap } from '../../src/services/torrent/piece-map.js'

// docs/torrents.md, Resume: how the engine's recorder writes a torrent's verified-piece map, seen
// through a fake torrent (webtorrent's events and bitfield) and a spy in place of the file pool.
// The kill -9 test (test/integration/torrent-pieces-kill9.test.ts) cannot see a missing fdatasync
// (the page cache outlives the process), so the order is pinned here with spies: the files' sync
// ends before they are stat'ed, and the map is written after both.

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return { ...actual, stat: vi.fn(actual.stat) }
})
vi.mock('../../src/services/state/atomic-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/services/state/atomic-file.js')>()
  return { ...actual, writeFileAtomic: vi.fn(actual.writeFileAtomic) }
})

const infoHash = 'c'.repeat(40)
const log = silentLogger()

/** Shaped like webtorrent's Torrent where piece-map.ts reads it. */
class FakeTorrent extends EventEmitter {
  bitfield = { buffer: new Uint8Array(1) }
  pieces = [{}, {}, {}]
  files = [{ path: 'a.bin' }, { path: 'sub/b.bin' }]
  set(bits: number) {
    this.bitfield.buffer[0] = bits
  }
}

/** FilePool's sync as a spy: `synced` is called when a sync has finished. */
class SpyPool {
  synced = vi.fn()
  /** Runs while a sync is under way (a piece verified meanwhile, a failing disk). */
  during: () => void = () => {}
  sync = vi.fn(async (paths: Iterable<string>) => {
    void paths
    this.during()
    await new Promise((resolve) => setTimeout(resolve, 5))
    this.synced()
  })
}

let state: string
let data: string
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'ma-piece-state-'))
  data = await mkdtemp(join(tmpdir(), 'ma-piece-data-'))
  await mkdir(join(data, 'sub'))
  await writeFile(join(data, 'a.bin'), 'aaaa')
  await writeFile(join(data, 'sub', 'b.bin'), 'bb')
})
afterEach(async () => {
  await rm(state, { recursive: true, force: true })
  await rm(data, { recursive: true, force: true })
})

const paths = () => [join(data, 'a.bin'), join(data, 'sub', 'b.bin')]
const layout = () => ({ pieces: [{}, {}, {}], files: [{ path: 'a.bin' }, { path: 'sub/b.bin' }] })

async function saveMap(bits: number): Promise<PieceMap> {
  const map: PieceMap = { version: 1, infoHash, pieces: 3, bitfield: Buffer.from([bits]).toString('base64'), files: await statFiles(paths()) }
  await mkdir(join(state, torrentMetadataDirName), { recursive: true })
  await writeFile(join(state, torrentMetadataDirName, `${infoHash}.pieces.json`), JSON.stringify(map))
  return map
}

const readMap = async (maps: PieceMaps) => JSON.parse(await readFile(maps.path(infoHash), 'utf8')) as PieceMap

const order = (fn: { mock: { invocationCallOrder: number[] } }) => fn.mock.invocationCallOrder
const stats = () => vi.mocked(stat).mock.calls.map(([path]) => String(path)).filter((path) => path.startsWith(data))
const settled = () => new Promise((resolve) => setTimeout(resolve, 20))

function setup() {
  const pool = new SpyPool()
  vi.mocked(stat).mockClear()
  vi.mocked(writeFileAtomic).mockClear()
  const maps = new PieceMaps({ stateDir: state, pool: pool as unknown as FilePool, logger: log, writeIntervalMs: 60_000 })
  return { pool, maps }
}

describe('verified-piece map writes', () => {
  it('writes the map of a start whose launch before was abandoned after its map had matched', async () => {
    const { maps } = setup()
    await saveMap(0xe0)
    // A launch reads the map (it matches) and is abandoned before the torrent is added (a pause).
    expect((await maps.startOptions(infoHash, layout(), data)).add).toEqual({ skipVerify: true })
    // A recheck drops the map; the next start hashes every piece.
    await maps.forget(infoHash)
    const resume = await maps.startOptions(infoHash, layout(), data)
    expect(resume).toEqual({ add: {} })
    const torrent = new FakeTorrent()
    maps.track(torrent as unknown as Torrent, infoHash, data, resume.matched)
    torrent.set(0xe0)
    torrent.emit('ready')
    await maps.stopped(infoHash)
    // Without a map on disk this start's verified pieces must be recorded, whatever matched before.
    expect(await readMap(maps)).toMatchObject({ pieces: 3, bitfield: Buffer.from([0xe0]).toString('base64') })
  })

  it('makes the files durable before it stats them, and writes the map naming only pieces verified before the sync, after both', async () => {
    const { pool, maps } = setup()
    const resume = await maps.startOptions(infoHash, layout(), data)
    vi.mocked(stat).mockClear()
    const torrent = new FakeTorrent()
    maps.track(torrent as unknown as Torrent, infoHash, data, resume.matched)
    torrent.set(0x80)
    // Piece 1 is verified while the files are being synced: its bytes may not be durable yet.
    pool.during = () => torrent.set(0xc0)
    torrent.emit('ready')
    await vi.waitFor(() => expect(writeFileAtomic).toHaveBeenCalledTimes(1))
    expect(pool.sync).toHaveBeenCalledTimes(1)
    expect(pool.sync.mock.calls[0]![0]).toEqual(paths())
    expect(stats()).toEqual(paths())
    const statOrder = order(vi.mocked(stat)).slice(-2)
    expect(order(pool.synced)[0]!).toBeLessThan(Math.min(...statOrder))
    expect(order(vi.mocked(writeFileAtomic))[0]!).toBeGreaterThan(Math.max(...statOrder))
    expect((await readMap(maps)).bitfield).toBe(Buffer.from([0x80]).toString('base64'))
    pool.during = () => {}
    await maps.stopped(infoHash)
    expect(order(pool.synced)[1]!).toBeLessThan(order(vi.mocked(writeFileAtomic))[1]!)
    expect((await readMap(maps)).bitfield).toBe(Buffer.from([0xc0]).toString('base64'))
  })

  it('writes no map when the files cannot be made durable, and tries again at the next write', async () => {
    const { pool, maps } = setup()
    const resume = await maps.startOptions(infoHash, layout(), data)
    const torrent = new FakeTorrent()
    maps.track(torrent as unknown as Torrent, infoHash, data, resume.matched)
    torrent.set(0xe0)
    pool.during = () => { throw Object.assign(new Error('EIO'), { code: 'EIO' }) }
    torrent.emit('ready')
    await settled()
    expect(pool.sync).toHaveBeenCalledTimes(1)
    expect(writeFileAtomic).not.toHaveBeenCalled()
    pool.during = () => {}
    await maps.stopped(infoHash)
    expect((await readMap(maps)).bitfield).toBe(Buffer.from([0xe0]).toString('base64'))
  })

  it('neither syncs nor stats the files of a torrent resumed complete at ready and done; the map at stop still looks at them', async () => {
    const { pool, maps } = setup()
    const saved = await saveMap(0xe0)
    vi.mocked(stat).mockClear()
    const resume = await maps.startOptions(infoHash, layout(), data)
    expect(resume).toEqual({ add: { skipVerify: true }, matched: saved })
    expect(stats()).toEqual(paths())
    const torrent = new FakeTorrent()
    maps.track(torrent as unknown as Torrent, infoHash, data, resume.matched)
    torrent.set(0xe0)
    torrent.emit('ready')
    torrent.emit('done')
    await settled()
    expect(pool.sync).not.toHaveBeenCalled()
    expect(stats()).toEqual(paths())
    expect(writeFileAtomic).not.toHaveBeenCalled()
    // A file touched meanwhile (bytes of a piece not yet verified, say): the last map records it.
    await utimes(join(data, 'a.bin'), 1_000, 2_000)
    await maps.stopped(infoHash)
    expect(pool.sync).toHaveBeenCalledTimes(1)
    expect(writeFileAtomic).toHaveBeenCalledTimes(1)
    expect((await readMap(maps)).files[0]).toEqual({ size: 4, mtimeMs: 2_000_000 })
  })
})
