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

interface Announce { infoHash: string; event: string; left: number }

class LateClosingTracker {
  readonly announces: Announce[] = []
  /** Announces to hang up on without an answer (a tracker restarting, a dropped connection). */
  dropNext = 0
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #waiters: (() => void)[] = []

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
        this.announces.push({ infoHash: bytes.toString('hex'), event: url.searchParams.get('event') ?? '', left: Number(url.searchParams.get('left')) })
        for (const wake of this.#waiters.splice(0)) wake()
        const body = bencode({ interval: 1800, peers: Buffer.alloc(0) })
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
      // Both announces of a torrent that starts complete reach the tracker, as a seeder (left 0).
      for (const event of ['started', 'completed']) {
        await tracker.announced((a) => a.infoHash === torrent.infoHash && a.event === event && a.left === 0, `the ${event} announce of ${torrent.name}`)
      }
    }
    expect(tracker.announces).toHaveLength(2 * torrents.length)
  })

  it('announces again to a tracker that dropped the announces of a new seeder, so its peers can find it', async () => {
    const dir = join(root, 'dropped')
    const torrent = randomTorrent('dropped', [64 * 1024])
    await writeTorrentFiles(dir, torrent)
    const engine = new WebTorrentEngine({ downloadDir: dir, logger: silentLogger(), announce: [announceUrl], announceRetryMinMs: 100, dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false })
    engines.push(engine)
    // Both `started` and `completed` of the new seeder are lost.
    tracker.dropNext = 2
    await seed(engine, torrent)
    const announce = await tracker.announced((a) => a.infoHash === torrent.infoHash, 'an announce of the seeder after the dropped ones', 5_000)
    expect(announce).toMatchObject({ left: 0, event: 'started' })
    expect(tracker.dropNext).toBe(0)
  })
})
