import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parseTorrent from 'parse-torrent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine } from '../../src/services/torrent/engine.js'
import { FileTasksStore } from '../../src/services/torrent/tasks-store.js'
import { createTaskManager, type TaskManager } from '../../src/system/task-bindings.js'
import type { TaskReport } from '../../src/protocol/wire.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { startOpentracker, until, type OpenTracker } from '../helpers/opentracker.js'
import { sha256 } from '../helpers/torrent-fixtures.js'

// The agent against real, independent BitTorrent software on loopback: Debian's opentracker as
// the tracker and aria2c as the other peer. First aria2c seeds and the agent downloads; then the
// first seeder goes away and a second aria2c downloads everything from the agent alone.

const files: Record<string, Buffer> = {
  'movie.mkv': randomBytes(3 * 1024 * 1024 + 12_345),
  'subs/movie.en.srt': randomBytes(40_000),
  'extras/notes.txt': randomBytes(1),
}

let root = ''
let torrentPath = ''
let infoHash = ''
let tracker: OpenTracker
let seeder: Aria2Peer | undefined
let leecher: Aria2Peer | undefined
let engine: WebTorrentEngine | undefined
let manager: TaskManager | undefined
let http: Server
let torrentUrl = ''

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-torrent-real-'))
  const content = join(root, 'seed', 'Movie Pack')
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(content, path, '..'), { recursive: true })
    await writeFile(join(content, path), data)
  }
  tracker = await startOpentracker()
  torrentPath = join(root, 'movie-pack.torrent')
  await mktorrent(content, torrentPath, tracker.announceUrl, 15)
  const torrentBytes = await readFile(torrentPath)
  infoHash = (await parseTorrent(torrentBytes)).infoHash
  await tracker.allow([infoHash])
  seeder = await startAria2({ torrentPath, dir: join(root, 'seed'), mode: 'seed' })
  await tracker.waitForSeeders(infoHash, 1)

  http = createServer((req, res) => {
    if (req.url === '/movie-pack.torrent') res.writeHead(200, { 'content-type': 'application/x-bittorrent' }).end(torrentBytes)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  torrentUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/movie-pack.torrent`
})

afterAll(async () => {
  await manager?.close()
  await engine?.close()
  await leecher?.stop()
  await seeder?.stop()
  await tracker?.stop()
  await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)))
  if (root) await rm(root, { recursive: true, force: true })
})

function report(id: string): TaskReport | undefined {
  return manager?.reports().find((t) => t.id === id)
}

describe('torrent downloads with real peers', () => {
  it('downloads a multi-file torrent from an independent seeder and every file matches', async () => {
    const stateDir = join(root, 'state')
    const downloads = join(root, 'downloads')
    engine = new WebTorrentEngine({
      downloadDir: downloads, logger: silentLogger(), dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
    })
    const store = new FileTasksStore({ stateDir, logger: silentLogger() })
    const changes: string[] = []
    manager = await createTaskManager({ engine, store, logger: silentLogger(), seedRatio: 1, progressIntervalMs: 200, onChange: (c) => changes.push(c.state) })
    manager.apply({ type: 'add_task', taskId: 'movie', source: torrentUrl })
    await until(async () => report('movie')?.state === 'seeding', 60_000, 'the download to finish')

    const done = report('movie')!
    expect(done).toMatchObject({ infoHash, name: 'Movie Pack', progress: 1, size: Object.values(files).reduce((n, b) => n + b.length, 0) })
    expect(done.files.map((f) => f.path).sort()).toEqual(Object.keys(files).map((p) => join(downloads, 'Movie Pack', p)).sort())
    for (const [path, data] of Object.entries(files)) {
      expect(sha256(await readFile(join(downloads, 'Movie Pack', path)))).toBe(sha256(data))
    }
    expect(changes).toContain('downloading')
    // tasks.json and the saved metadata carry the task across a restart.
    await store.flush()
    const saved = JSON.parse(await readFile(join(stateDir, 'tasks.json'), 'utf8')) as { tasks: { id: string; state: string; infoHash: string }[] }
    expect(saved.tasks).toEqual([expect.objectContaining({ id: 'movie', state: 'seeding', infoHash })])
    expect(await store.readMetadata(infoHash)).toBeDefined()
  })

  it('keeps one task per info hash when the same torrent is added again', async () => {
    manager!.apply({ type: 'add_task', taskId: 'movie', source: torrentUrl })
    manager!.apply({ type: 'add_task', taskId: 'movie-again', source: `magnet:?xt=urn:btih:${infoHash}` })
    await until(async () => report('movie-again')?.state === 'error', 10_000, 'the duplicate to be refused')
    expect(report('movie-again')?.error).toContain('already task movie')
    expect(manager!.reports().filter((t) => t.id === 'movie')).toHaveLength(1)
    manager!.apply({ type: 'delete_task', taskId: 'movie-again', deleteFiles: true })
    await manager!.whenDeleted('movie-again')
    expect(report('movie')?.state).toBe('seeding')
    expect(sha256(await readFile(join(root, 'downloads', 'Movie Pack', 'movie.mkv')))).toBe(sha256(files['movie.mkv']!))
  })

  it('seeds to a second independent peer after the first seeder is gone, then completes at the seed ratio', async () => {
    await seeder!.stop()
    seeder = undefined
    const target = join(root, 'leecher')
    leecher = await startAria2({ torrentPath, dir: target, mode: 'download' })
    await leecher.exited
    for (const [path, data] of Object.entries(files)) {
      expect(sha256(await readFile(join(target, 'Movie Pack', path)))).toBe(sha256(data))
    }
    // Everything the second peer got came from the agent: uploaded reaches size, ratio 1.0.
    await until(async () => report('movie')?.state === 'completed', 20_000, 'the seed ratio to be reached')
    const completed = report('movie')!
    expect(completed.uploaded).toBeGreaterThanOrEqual(completed.size)
    expect(completed).toMatchObject({ peers: 0, uploadSpeed: 0 })
  })
})
