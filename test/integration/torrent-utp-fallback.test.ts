import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import parseTorrent from 'parse-torrent'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createRootLogger } from '../../src/log.js'
import { WebTorrentEngine, type TorrentEngineEvent, type TorrentEngineOptions } from '../../src/services/torrent/engine.js'
import { installUtpFallback } from '../../src/services/torrent/utp-fallback.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { randomTorrent, writeTorrentFiles } from '../helpers/torrent-fixtures.js'

// uTP is on (the default) and the seeder does not speak uTP: aria2c on loopback, with opentracker.
// webtorrent alone tries uTP four times (5 s connect timeout each, 1 s + 5 s + 15 s of backoff)
// before TCP: the metadata of a magnet arrived after ~42 s. The engine gives a uTP attempt
// utpFallbackMs (1 s) and then tries TCP at once. DHT, LSD, PEX and NAT traversal stay off.

/**
 * webtorrent's own second uTP attempt to the seeder ends 11 s after its first started (5 s timeout,
 * 1 s backoff, 5 s timeout), and its first TCP attempt is ~41 s in: metadata before this bound means
 * TCP was tried after the first uTP attempt at the latest.
 */
const beforeStockSecondUtpAttemptEndsMs = 10_000

const loopbackWithUtp: Omit<TorrentEngineOptions, 'downloadDir' | 'logger'> = { dht: false, lsd: false, pex: false, utp: true, natUpnp: false, natPmp: false }

const movie = randomBytes(2 * 1024 * 1024 + 777)

let root = ''
let tracker: OpenTracker
let seeder: Aria2Peer | undefined
let magnetURI = ''
let infoHash = ''
const engines: WebTorrentEngine[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-torrent-utp-'))
  tracker = await startOpentracker()
  await mkdir(join(root, 'seed'))
  await writeFile(join(root, 'seed', 'movie.mkv'), movie)
  const torrentPath = join(root, 'movie.torrent')
  await mktorrent(join(root, 'seed', 'movie.mkv'), torrentPath, tracker.announceUrl, 15)
  infoHash = (await parseTorrent(await readFile(torrentPath))).infoHash
  magnetURI = `magnet:?xt=urn:btih:${infoHash}`
  await tracker.allow([infoHash])
  seeder = await startAria2({ torrentPath, dir: join(root, 'seed'), mode: 'seed' })
  await tracker.waitForSeeders(infoHash, 1)
})

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close()
})

afterAll(async () => {
  await seeder?.stop()
  await tracker?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

/** An engine whose debug log is kept (one JSON object per line). */
function engine(downloadDir: string, over: Partial<TorrentEngineOptions> = {}) {
  const lines: { msg?: string; addr?: string; reason?: string; level?: number }[] = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as (typeof lines)[number])
      done()
    },
  })
  const logger = createRootLogger({ level: 'debug', pretty: false, destination })
  const e = new WebTorrentEngine({ downloadDir, logger, announce: [tracker.announceUrl], ...loopbackWithUtp, ...over })
  engines.push(e)
  return { engine: e, lines }
}

function waitFor(e: WebTorrentEngine, input: { infoHash: string; magnetURI?: string; torrentFile?: Uint8Array }, type: TorrentEngineEvent['type'], withinMs: number) {
  return new Promise<TorrentEngineEvent>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${withinMs} ms`)), withinMs)
    e.start(input, (event) => {
      if (event.type === 'error') {
        clearTimeout(timer)
        reject(event.error)
      } else if (event.type === type) {
        clearTimeout(timer)
        resolve(event)
      }
    })
  })
}

describe('uTP on, peers without uTP', () => {
  it('gets a magnet\'s metadata and first bytes from a TCP-only seeder within one short uTP attempt', async () => {
    const { engine: leecher, lines } = engine(join(root, 'leecher'))
    const started = Date.now()
    const metadata = await waitFor(leecher, { infoHash, magnetURI }, 'metadata', beforeStockSecondUtpAttemptEndsMs)
    expect(metadata).toMatchObject({ type: 'metadata', infoHash, name: 'movie.mkv', size: movie.length })
    const head = await buffer(leecher.createReadStream(infoHash, 0, { start: 0, end: 64 * 1024 - 1 }))
    const elapsed = Date.now() - started
    expect(head.equals(movie.subarray(0, 64 * 1024))).toBe(true)
    expect(elapsed).toBeLessThan(beforeStockSecondUtpAttemptEndsMs)
    // It was the fallback that reached the seeder: its uTP attempt was cut for TCP.
    expect(lines.filter((l) => l.msg === 'uTP did not connect; trying TCP').map((l) => l.addr)).toContain(`127.0.0.1:${seeder!.port}`)
    expect(lines.filter((l) => (l.level ?? 0) >= 40)).toEqual([])
  })

  it('still connects over uTP to a peer that speaks it', async () => {
    const fixture = randomTorrent('utp-peer', [600_000], { pieceLength: 16 * 1024 })
    await tracker.allow([fixture.infoHash])
    const seedDir = join(root, 'seed-utp')
    await writeTorrentFiles(seedDir, fixture)
    const { engine: utpSeeder } = engine(seedDir)
    await waitFor(utpSeeder, { infoHash: fixture.infoHash, torrentFile: fixture.torrentFile }, 'done', 30_000)
    await tracker.waitForSeeders(fixture.infoHash, 1)
    const { port } = await utpSeeder.listening()

    const { engine: leecher, lines } = engine(join(root, 'leecher-utp'))
    await waitFor(leecher, { infoHash: fixture.infoHash, magnetURI: `magnet:?xt=urn:btih:${fixture.infoHash}` }, 'done', 30_000)
    // The only connection was the leecher's outgoing uTP attempt, and it was never cut for TCP.
    expect(lines.filter((l) => l.msg === 'uTP did not connect; trying TCP').map((l) => l.addr)).not.toContain(`127.0.0.1:${port}`)
  })

  it('leaves webtorrent alone and says so when its internals are not the expected shape', () => {
    const reasons: string[] = []
    const torrent = { _peers: new Map() }
    installUtpFallback(torrent, { fallbackMs: 1000, onUnsupported: (reason) => reasons.push(reason) })
    expect(torrent).toEqual({ _peers: new Map() })
    expect(reasons).toHaveLength(1)

    // An _addPeer whose peers lack the hooks used: they are passed through untouched.
    const odd = { id: 'x' }
    const changed = { _peers: new Map(), _addPeer: () => odd }
    installUtpFallback(changed, { fallbackMs: 1000, onUnsupported: (reason) => reasons.push(reason) })
    const addPeer = changed._addPeer as unknown as (peer: string, type: string, source: string) => unknown
    expect(addPeer('127.0.0.1:6881', 'utp', 'tracker')).toBe(odd)
    expect(odd).toEqual({ id: 'x' })
    expect(reasons).toHaveLength(2)
  })
})
