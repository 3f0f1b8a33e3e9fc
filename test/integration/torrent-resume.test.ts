import { mkdtemp, open, readdir, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine, type TorrentEngineOptions } from '../../src/services/torrent/engine.js'
import { until } from '../helpers/opentracker.js'
import { randomTorrent, writeTorrentFiles, type FixtureTorrent } from '../helpers/torrent-fixtures.js'

// Resume without re-hashing (docs/torrents.md, Resume): real engines on real files, no peers.
// A byte changed behind the engine's back with the file's mtime put back is invisible to a
// start that trusts the verified-piece map, and found by one that hashes: that tells which of
// the two a start did.

const offline: Omit<TorrentEngineOptions, 'downloadDir' | 'logger'> = { dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false, announce: [] }
const pieceLength = 64 * 1024
const first = randomTorrent('first', [6 * pieceLength + 100, 3 * pieceLength], { pieceLength })
const second = randomTorrent('second', [5 * pieceLength], { pieceLength })
const pieceCount = (t: FixtureTorrent) => Math.ceil(t.size / pieceLength)

let root = ''
const roots: string[] = []
const engines: WebTorrentEngine[] = []

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close()
})
afterAll(async () => {
  for (const dir of [root, ...roots]) if (dir) await rm(dir, { recursive: true, force: true })
})

function engine(downloadDir: string, stateDir: string): WebTorrentEngine {
  const e = new WebTorrentEngine({ downloadDir, stateDir, logger: silentLogger(), ...offline })
  engines.push(e)
  return e
}

function ready(e: WebTorrentEngine, torrent: FixtureTorrent): Promise<void> {
  return new Promise((resolve, reject) => {
    e.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => {
      if (event.type === 'ready') resolve()
      if (event.type === 'error') reject(event.error)
    })
  })
}

/** Flips one byte of a file; with `keepMtime` its mtime is set back to the whole second it had. */
async function corrupt(path: string, at: number, mtimeSeconds: number | null): Promise<void> {
  const handle = await open(path, 'r+')
  const byte = Buffer.alloc(1)
  await handle.read(byte, 0, 1, at)
  byte[0] = byte[0]! ^ 0xff
  await handle.write(byte, 0, 1, at)
  await handle.close()
  await utimes(path, mtimeSeconds ?? Date.now() / 1000 + 5, mtimeSeconds ?? Date.now() / 1000 + 5)
}

describe('resume from verified-piece maps', () => {
  it('seeds unchanged data at once after a restart, re-verifies only the torrent whose files changed, and rechecks on demand', async () => {
    root = await mkdtemp(join(tmpdir(), 'ma-torrent-resume-'))
    const data = join(root, 'data')
    const state = join(root, 'state')
    await writeTorrentFiles(data, first)
    await writeTorrentFiles(data, second)
    // Whole-second mtimes, so that a test can put one back exactly.
    const mtime = 1_700_000_000
    const paths = {
      first: first.files.map((f) => join(data, first.name, f.path)),
      second: second.files.map((f) => join(data, second.name, f.path)),
    }
    for (const path of [...paths.first, ...paths.second]) await utimes(path, mtime, mtime)

    // First start: no map, both torrents are hashed, found complete, and their maps written.
    const one = engine(data, state)
    await Promise.all([ready(one, first), ready(one, second)])
    expect(one.stats(first.infoHash)).toMatchObject({ done: true, progress: 1 })
    await one.close()
    expect((await readdir(join(state, 'torrents'))).sort()).toEqual([`${first.infoHash}.pieces.json`, `${second.infoHash}.pieces.json`].sort())

    // Behind the engine's back: piece 1 of `first` changes with its mtime put back; piece 0 of
    // `second` changes and its mtime moves.
    await corrupt(paths.first[0]!, pieceLength + 5, mtime)
    await corrupt(paths.second[0]!, 7, null)

    const two = engine(data, state)
    await Promise.all([ready(two, first), ready(two, second)])
    // `first` was not read: its map was trusted (done, the changed piece unnoticed).
    expect(two.stats(first.infoHash)).toMatchObject({ done: true, progress: 1 })
    // `second` was hashed again and lost exactly the changed piece.
    expect(two.stats(second.infoHash)?.done).toBe(false)
    expect(two.stats(second.infoHash)?.progress).toBeCloseTo((pieceCount(second) - 1) / pieceCount(second), 5)

    // A recheck hashes every piece of `first`: the changed piece is found and will be fetched again.
    await two.recheck(first.infoHash)
    expect(two.stats(first.infoHash)?.done).toBe(false)
    expect(two.stats(first.infoHash)?.progress).toBeLessThan(1)
    await two.close()

    // The map written after the recheck holds: the next start knows the piece is missing without hashing.
    const three = engine(data, state)
    await ready(three, first)
    await until(async () => three.stats(first.infoHash) !== undefined, 5_000, 'stats')
    expect(three.stats(first.infoHash)?.done).toBe(false)
    expect(three.stats(first.infoHash)?.downloaded).toBe(first.size - pieceLength)
  })

  it('resumes a partial download with its map: what was verified stays verified without hashing, the rest is still wanted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-torrent-resume-partial-'))
    roots.push(dir)
    const data = join(dir, 'data')
    const state = join(dir, 'state')
    // Only the first file is there: its pieces verify, the second file's do not.
    const partial = { ...first, files: [first.files[0]!] }
    await writeTorrentFiles(data, partial)
    const firstFile = join(data, first.name, first.files[0]!.path)
    const mtime = 1_700_000_000
    await utimes(firstFile, mtime, mtime)
    const one = engine(data, state)
    await ready(one, first)
    const verified = one.stats(first.infoHash)!.downloaded
    // Pieces 0-5 lie wholly in the first file; piece 6 spans both files.
    expect(verified).toBe(6 * pieceLength)
    expect(one.stats(first.infoHash)?.done).toBe(false)
    await one.close()

    // Piece 0 changes behind the engine's back, mtime put back (webtorrent's own spot check of a
    // bitfield looks at the second verified piece of each file, not this one).
    await corrupt(firstFile, 10, mtime)
    const two = engine(data, state)
    await ready(two, first)
    expect(two.stats(first.infoHash)?.downloaded).toBe(verified)
    expect(two.stats(first.infoHash)?.done).toBe(false)
  })

  it('never shows a complete torrent as unfinished to a task that samples its stats on each event, hashed or trusted from its map', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-torrent-resume-events-'))
    roots.push(dir)
    const data = join(dir, 'data')
    const state = join(dir, 'state')
    await writeTorrentFiles(data, second)
    // As a task's progress poll does (task-progress-poll.ts): a sample on every engine event.
    // webtorrent says ready before it checks done, and marks a trusted map's pieces only after
    // its metadata event: a task once went from seeding to downloading and back at each start.
    const sampled = (idleGraceMs: number) => new Promise<string[]>((resolve, reject) => {
      const e = new WebTorrentEngine({ downloadDir: data, stateDir: state, logger: silentLogger(), ...offline, idleGraceMs })
      engines.push(e)
      const seen: string[] = []
      e.start({ infoHash: second.infoHash, torrentFile: second.torrentFile }, (event) => {
        const stats = e.stats(second.infoHash)
        if (stats?.hasMetadata) seen.push(`${event.type} ready=${stats.ready} done=${stats.done} progress=${stats.progress}`)
        if (event.type === 'done') resolve(seen)
        if (event.type === 'error') reject(event.error)
      })
    })
    // Hashed (no map yet), then trusted from the map it wrote (live: dormancy off).
    expect(await sampled(0)).toEqual(['metadata ready=false done=false progress=0', 'ready ready=true done=true progress=1', 'done ready=true done=true progress=1'])
    await engines.pop()!.close()
    expect(await sampled(0)).toEqual(['metadata ready=false done=true progress=1', 'ready ready=true done=true progress=1', 'done ready=true done=true progress=1'])
    expect(engines.at(-1)!.stats(second.infoHash)).toMatchObject({ done: true, progress: 1, downloaded: second.size })
  })
})
