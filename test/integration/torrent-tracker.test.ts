import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine } from '../../src/services/torrent/engine.js'
import { bencode, randomTorrent, writeTorrentFiles, type FixtureTorrent } from '../helpers/torrent-fixtures.js'

// A tracker that behaves like opentracker on a busy machine: it answers an announce with
// HTTP/1.1 and no `Connection: close`, reads nothing more on that connection, and closes it a
// little later. A client that keeps the connection for its next announce loses that announce;
// webtorrent would not announce again for the tracker's interval, so a seeder stayed invisible.

interface Announce { infoHash: string; event: string; left: number; port: number }

class LateClosingTracker {
  readonly announces: Announce[] = []
  /** Announces to hang up on without an answer (a tracker restarting, a dropped connection). */
  dropNext = 0
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #waiters: (() => void)[] = []
  /** Ports that announced each info hash (all on loopback): handed to the others as peers. */
  readonly #swarms = new Map<string, Set<number>>()

  constructor(readonly closeDelayMs: number) {
    this.#server = createServer((socket) => {
      this.#sockets.add(socket)
      socket.on('close', () => this.#sockets.delete(socket))
      socket.on('error', () => {})
      let head = ''
      socket.on('data', (chunk) => {
        if (head.includes('\r\n\r\n')) return // one request per connection; later ones go unread
        head += chunk.toString('latin1')
        if (!head.includes('\r\n\r\n')) return
        const url = new URL(head.slice(head.indexOf(' ') + 1, head.indexOf(' HTTP/')), 'http://tracker')
        // info_hash is percent-encoded binary: decode it byte by byte.
        const raw = /[?&]info_hash=([^&]*)/.exec(url.search)?.[1] ?? ''
        const bytes = Buffer.from(raw.replace(/%([0-9a-f]{2})|([^%])/gi, (_, hex: string, ch: string) => (hex ? String.fromCharCode(parseInt(hex, 16)) : ch)), 'latin1')
        if (this.dropNext > 0) {
          this.dropNext -= 1
          socket.destroy()
          return
        }
        const infoHash = bytes.toString('hex')
        const port = Number(url.searchParams.get('port'))
        this.announces.push({ infoHash, event: url.searchParams.get('event') ?? '', left: Number(url.searchParams.get('left')), port })
        for (const wake of this.#waiters.splice(0)) wake()
        const swarm = this.#swarms.get(infoHash) ?? new Set<number>()
        this.#swarms.set(infoHash, swarm.add(port))
        const others = [...swarm].filter((p) => p !== port)
        const peers = Buffer.concat(others.map((p) => Buffer.from([127, 0, 0, 1, p >> 8, p & 0xff])))
        const body = bencode({ interval: 1800, peers })
        socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`), body]))
        setTimeout(() => socket.destroy(), this.closeDelayMs).unref()
      })
    })
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server.address() as { port: number }).port}/announce`
  }

  /** Resolves once the tracker has recorded an announce matching `match`. */
  async announced(match: (a: Announce) => boolean, what: string, timeoutMs = 10_000): Promise<Announce> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.announces.find(match)
      if (found) return found
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the tracker saw ${JSON.stringify(this.announces)}`)
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve)
        timer = setTimeout(resolve, left)
      })
      clearTimeout(timer)
    }
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}

let root = ''
let tracker: LateClosingTracker
let announceUrl = ''
const engines: WebTorrentEngine[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-torrent-tracker-'))
  tracker = new LateClosingTracker(2_000)
  announceUrl = await tracker.listen()
})

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close()
})

afterAll(async () => {
  await tracker?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

async function seed(engine: WebTorrentEngine, torrent: FixtureTorrent): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    engine.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => {
      if (event.type === 'done') resolve()
      if (event.type === 'error') reject(event.error)
    })
  })
}

describe('tracker announces', () => {
  it('reaches a tracker that closes each connection after its answer, for torrents started one right after another', async () => {
    const dir = join(root, 'seeds')
    const torrents = [randomTorrent('first', [64 * 1024]), randomTorrent('second', [64 * 1024]), randomTorrent('third', [64 * 1024])]
    for (const torrent of torrents) await writeTorrentFiles(dir, torrent)
    const engine = new WebTorrentEngine({ downloadDir: dir, logger: silentLogger(), announce: [announceUrl], dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false })
    engines.push(engine)
    for (const torrent of torrents) {
      // Each torrent starts while the tracker still holds the previous answers' connections open.
      await seed(engine, torrent)
      // A torrent that starts complete announces itself a seeder (left 0) and nothing more: BEP 3's
      // `completed` is for a download that completes, "not sent if the file was complete when started".
      await tracker.announced((a) => a.infoHash === torrent.infoHash && a.event === 'started' && a.left === 0, `the started announce of ${torrent.name}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(tracker.announces.map((a) => a.event)).toEqual(torrents.map(() => 'started'))
  })

  it('tells the tracker `completed` once a download completes, with nothing left', async () => {
    const torrent = randomTorrent('fetched', [3 * 64 * 1024 + 5], { pieceLength: 64 * 1024 })
    const seedDir = join(root, 'fetched-seed')
    await writeTorrentFiles(seedDir, torrent)
    const offline = { announce: [announceUrl], dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false, logger: silentLogger() }
    const seeder = new WebTorrentEngine({ downloadDir: seedDir, ...offline })
    const leecher = new WebTorrentEngine({ downloadDir: join(root, 'fetched-leech'), ...offline })
    engines.push(seeder, leecher)
    await seed(seeder, torrent)
    await tracker.announced((a) => a.infoHash === torrent.infoHash && a.event === 'started', 'the seeder')
    const { port } = await leecher.listening()
    await seed(leecher, torrent)
    await tracker.announced((a) => a.port === port && a.event === 'completed', 'the completed announce of the download')
    expect(tracker.announces.filter((a) => a.port === port).map((a) => [a.event, a.left])).toEqual([['started', torrent.size], ['completed', 0]])
  })

  it('announces again to a tracker that dropped the announces of a new seeder, so its peers can find it', async () => {
    const dir = join(root, 'dropped')
    const torrent = randomTorrent('dropped', [64 * 1024])
    await writeTorrentFiles(dir, torrent)
    const engine = new WebTorrentEngine({ downloadDir: dir, logger: silentLogger(), announce: [announceUrl], announceRetryMinMs: 100, dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false })
    engines.push(engine)
    // The new seeder's `started` is lost, and so is the first announce again.
    tracker.dropNext = 2
    await seed(engine, torrent)
    const announce = await tracker.announced((a) => a.infoHash === torrent.infoHash, 'an announce of the seeder after the dropped ones', 5_000)
    expect(announce).toMatchObject({ left: 0, event: 'started' })
    expect(tracker.dropNext).toBe(0)
  })
})
