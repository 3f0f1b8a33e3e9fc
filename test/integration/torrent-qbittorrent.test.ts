import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parseTorrent from 'parse-torrent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine } from '../../src/services/torrent/engine.js'
import { mktorrent } from '../helpers/aria2.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { seedingInQbittorrent, startQbittorrent, type Qbittorrent } from '../helpers/qbittorrent.js'
import { sha256 } from '../helpers/torrent-fixtures.js'

// The agent's engine against qBittorrent-nox (libtorrent 2), the client the torrent benchmarks
// measure the agent against (bench/torrent.ts, bench/seeding.ts), on loopback behind a real
// opentracker: qBittorrent seeds a multi-file torrent and the agent downloads it; then the agent
// is the only seeder and a second, fresh qBittorrent downloads everything from it. Every file's
// sha256 is checked on both sides. This also keeps test/helpers/qbittorrent.ts working in CI.

const files: Record<string, Buffer> = {
  'movie.mkv': randomBytes(5 * 1024 * 1024 + 4321),
  'subs/movie.en.srt': randomBytes(30_000),
}
const totalSize = Object.values(files).reduce((n, data) => n + data.length, 0)

let root = ''
let torrentFile: Uint8Array
let infoHash = ''
let tracker: OpenTracker
let seeder: Qbittorrent | undefined
let leecher: Qbittorrent | undefined
let engine: WebTorrentEngine | undefined

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-torrent-qbt-'))
  const content = join(root, 'seed', 'Movie Pack')
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(content, path, '..'), { recursive: true })
    await writeFile(join(content, path), data)
  }
  tracker = await startOpentracker()
  const torrentPath = join(root, 'movie-pack.torrent')
  await mktorrent(content, torrentPath, tracker.announceUrl, 16)
  torrentFile = await readFile(torrentPath)
  infoHash = (await parseTorrent(torrentFile)).infoHash
  await tracker.allow([infoHash])
})

afterAll(async () => {
  await engine?.close()
  await leecher?.stop()
  await seeder?.stop()
  await tracker?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('torrent interop with qBittorrent', () => {
  it('downloads a multi-file torrent that qBittorrent seeds, and every file matches', async () => {
    seeder = await startQbittorrent()
    // qBittorrent hashes the data first (no skip): it seeds only what it verified.
    await seeder.add(torrentFile, join(root, 'seed'))
    const [seeding] = await seeder.waitFor([infoHash], (torrents) => torrents.every(seedingInQbittorrent), { what: 'the seeder to verify its data' })
    expect(seeding).toMatchObject({ progress: 1, size: totalSize })
    await tracker.waitForSeeders(infoHash, 1)

    const downloads = join(root, 'agent')
    engine = new WebTorrentEngine({
      downloadDir: downloads, logger: silentLogger(), dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
    })
    await new Promise<void>((resolve, reject) => {
      engine!.start({ infoHash, torrentFile }, (event) => {
        if (event.type === 'done') resolve()
        if (event.type === 'error') reject(event.error)
      })
    })
    expect(engine.stats(infoHash)).toMatchObject({ done: true, progress: 1, size: totalSize })
    for (const [path, data] of Object.entries(files)) {
      expect(sha256(await readFile(join(downloads, 'Movie Pack', path)))).toBe(sha256(data))
    }
    // The bytes came from qBittorrent: it is the only other peer.
    const [afterUpload] = await seeder.waitFor([infoHash], ([torrent]) => torrent!.uploaded >= totalSize, { what: 'qBittorrent to count its upload' })
    expect(afterUpload!.uploaded).toBeGreaterThanOrEqual(totalSize)
  }, 120_000)

  it('seeds everything to a fresh qBittorrent once the first seeder is gone', async () => {
    const firstProfile = seeder!.profileDir
    await seeder!.stop()
    seeder = undefined
    // stop() removes the profile the helper made: no qBittorrent files are left behind.
    await expect(readFile(join(firstProfile, 'qBittorrent', 'config', 'qBittorrent.conf'))).rejects.toThrow()

    leecher = await startQbittorrent()
    const target = join(root, 'qbt-leecher')
    await leecher.add(torrentFile, target)
    const [done] = await leecher.waitFor([infoHash], (torrents) => torrents.every(seedingInQbittorrent), { timeoutMs: 90_000, what: 'qBittorrent to download from the agent' })
    expect(done).toMatchObject({ progress: 1 })
    // Every byte came over the wire in this session (the all-time `downloaded` lags on qBittorrent's timer).
    expect(done!.downloaded_session).toBeGreaterThanOrEqual(totalSize)
    for (const [path, data] of Object.entries(files)) {
      expect(sha256(await readFile(join(target, 'Movie Pack', path)))).toBe(sha256(data))
    }
    expect(engine!.stats(infoHash)!.uploaded).toBeGreaterThanOrEqual(totalSize)
  }, 120_000)
})
