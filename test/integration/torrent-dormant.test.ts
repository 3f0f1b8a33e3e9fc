import { mkdir, mkdtemp, open, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine, type TorrentEngineEvent, type TorrentEngineOptions } from '../../src/services/torrent/engine.js'
import { startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { startOpentracker, until, type OpenTracker } from '../helpers/opentracker.js'
import { makeTorrent, sha256, writeTorrentFiles, type FixtureTorrent } from '../helpers/torrent-fixtures.js'
import { seedsTorrent } from '../helpers/bt-probe.js'
import type { DueTimers } from '../../src/services/torrent/due-queue.js'
import { randomBytes } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { trackerAnnounceOnce } from '../../src/services/torrent/dormant-announcer.js'

// Dormant torrents (docs/torrents.md): a complete seeding torrent without peers gives up its
// webtorrent object after the idle grace, keeps being announced by the engine's scheduler, and
// a peer's handshake wakes it. Real parts: opentracker, aria2c as the independent peer, real
// files. The grace and the first-announce spread are shortened through the engine's options.

const offline: Omit<TorrentEngineOptions, 'downloadDir' | 'logger'> = { dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false }
const pieceLength = 64 * 1024
const files = [
  { path: 'episode.mkv', data: randomBytes(9 * pieceLength + 1234) },
  { path: 'extras/notes.txt', data: randomBytes(3 * pieceLength) },
]

const dirs: string[] = []
const engines: WebTorrentEngine[] = []
const peers: Aria2Peer[] = []
const trackers: OpenTracker[] = []

afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.stop()
  for (const engine of engines.splice(0)) await engine.close()
})
afterAll(async () => {
  for (const tracker of trackers.splice(0)) await tracker.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

interface Started {
  engine: WebTorrentEngine
  events: TorrentEngineEvent[]
}

function startEngine(options: { data: string; state: string; announce?: string[]; graceMs?: number; timers?: DueTimers; utp?: boolean }, torrent: FixtureTorrent): Started {
  const engine = new WebTorrentEngine({
    ...offline,
    utp: options.utp ?? false,
    downloadDir: options.data,
    stateDir: options.state,
    logger: silentLogger(),
    announce: options.announce,
    idleGraceMs: options.graceMs ?? 300,
    dormantFirstAnnounceSpreadMs: 0,
    dormancyTimers: options.timers,
  })
  engines.push(engine)
  const events: TorrentEngineEvent[] = []
  engine.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => events.push(event))
  return { engine, events }
}

async function download(torrent: FixtureTorrent, root: string, name: string, args: string[] = []): Promise<void> {
  const torrentPath = join(root, `${name}.torrent`)
  await writeFile(torrentPath, torrent.torrentFile)
  const target = join(root, name)
  const peer = await startAria2({ torrentPath, dir: target, mode: 'download', args })
  peers.push(peer)
  await peer.exited
  for (const file of files) expect(sha256(await readFile(join(target, torrent.name, file.path)))).toBe(sha256(file.data))
}

async function setup(prefix: string) {
  const root = await mkdtemp(join(tmpdir(), prefix))
  dirs.push(root)
  const data = join(root, 'data')
  const state = join(root, 'state')
  const tracker = await startOpentracker()
  trackers.push(tracker)
  const torrent = makeTorrent({ name: 'Show', files, pieceLength, announce: [tracker.announceUrl] })
  await tracker.allow([torrent.infoHash])
  await writeTorrentFiles(data, torrent)
  // As the tasks store keeps it: the engine reads a dormant torrent's metadata back from here.
  await mkdir(join(state, 'torrents'), { recursive: true })
  await writeFile(join(state, 'torrents', `${torrent.infoHash}.torrent`), torrent.torrentFile)
  return { root, data, state, tracker, torrent }
}

describe('dormant torrents', () => {
  it('goes dormant without peers, is woken by an independent peer\'s handshake and seeds it all, and a restart restores it dormant, announced to a tracker that never saw it live', async () => {
    const { root, data, state, tracker, torrent } = await setup('ma-torrent-dormant-')
    const one = startEngine({ data, state }, torrent)
    await until(async () => one.engine.dormancy().dormant === 1, 20_000, 'the idle torrent to go dormant')
    expect(one.engine.dormancy().live).toBe(0)
    // What the task reports does not change: complete, seeding, no peers.
    expect(one.engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1, size: torrent.size, downloaded: torrent.size, peers: 0 })
    expect(one.events.filter((e) => e.type === 'dormant')).toEqual([{ type: 'dormant', infoHash: torrent.infoHash, dormant: true }])

    // aria2c learns the agent from the tracker and connects: the handshake wakes the torrent.
    await tracker.waitForSeeders(torrent.infoHash, 1)
    await download(torrent, root, 'first')
    expect(one.events.some((e) => e.type === 'dormant' && !e.dormant)).toBe(true)
    expect(one.engine.stats(torrent.infoHash)!.uploaded).toBeGreaterThanOrEqual(torrent.size)
    // Its peer gone, it sleeps again; what it uploaded still counts.
    await until(async () => one.engine.dormancy().dormant === 1, 20_000, 'the torrent to go dormant again')
    expect(one.engine.stats(torrent.infoHash)!.uploaded).toBeGreaterThanOrEqual(torrent.size)
    await one.engine.close()

    // A restart against a tracker that has never heard of this torrent: it comes back dormant
    // (no webtorrent object), and only the engine's scheduler can announce it there.
    const fresh = await startOpentracker([torrent.infoHash])
    trackers.push(fresh)
    const two = startEngine({ data, state, announce: [fresh.announceUrl] }, torrent)
    await until(async () => two.events.some((e) => e.type === 'done'), 10_000, 'the restored torrent to be done')
    expect(two.engine.dormancy()).toMatchObject({ live: 0, dormant: 1 })
    expect(two.engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1, peers: 0 })
    await fresh.waitForSeeders(torrent.infoHash, 1)
    // This peer insists on an encrypted handshake, which names the torrent only by a hash of its info hash.
    const viaFresh = makeTorrent({ name: 'Show', files, pieceLength, announce: [fresh.announceUrl] })
    expect(viaFresh.infoHash).toBe(torrent.infoHash)
    await download(viaFresh, root, 'second', ['--bt-require-crypto=true', '--bt-min-crypto-level=arc4'])
  }, 120_000)

  it('restores a torrent whose map matches straight to dormant without reading its data, and a reader wakes it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ma-torrent-dormant-restore-'))
    dirs.push(root)
    const data = join(root, 'data')
    const state = join(root, 'state')
    const torrent = makeTorrent({ name: 'Quiet', files, pieceLength })
    await writeTorrentFiles(data, torrent)
    const path = join(data, torrent.name, files[0]!.path)
    const mtime = 1_700_000_000
    for (const file of files) await utimes(join(data, torrent.name, file.path), mtime, mtime)
    await mkdir(join(state, 'torrents'), { recursive: true })
    await writeFile(join(state, 'torrents', `${torrent.infoHash}.torrent`), torrent.torrentFile)
    const one = startEngine({ data, state, announce: [], graceMs: 60_000 }, torrent)
    await until(async () => one.events.some((e) => e.type === 'ready'), 10_000, 'first verification')
    expect(one.engine.dormancy()).toMatchObject({ live: 1, dormant: 0 })
    await one.engine.close()

    // A byte changes behind the engine's back with the mtime put back: a start that hashed would
    // find the piece bad; a restored dormant torrent has read nothing and still says complete.
    const handle = await open(path, 'r+')
    await handle.write(Buffer.from([0x55 ^ files[0]!.data[5]!]), 0, 1, 5)
    await handle.close()
    await utimes(path, mtime, mtime)
    const two = startEngine({ data, state, announce: [], graceMs: 60_000 }, torrent)
    await until(async () => two.events.some((e) => e.type === 'done'), 10_000, 'the restored torrent')
    expect(two.engine.dormancy()).toMatchObject({ live: 0, dormant: 1 })
    expect(two.events.map((e) => e.type)).toEqual(['dormant', 'metadata', 'ready', 'done'])
    expect(two.engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1 })

    // A stream of the second file wakes it (live again, from the map: nothing hashed). The task
    // hears only that it is awake: its metadata, ready and done are those it already has.
    const beforeWake = two.events.length
    const chunks: Buffer[] = []
    for await (const chunk of two.engine.createReadStream(torrent.infoHash, 1)) chunks.push(chunk as Buffer)
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(files[1]!.data))
    expect(two.engine.dormancy()).toMatchObject({ live: 1, dormant: 0 })
    expect(two.engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1 })
    expect(two.events.slice(beforeWake)).toEqual([{ type: 'dormant', infoHash: torrent.infoHash, dormant: false }])
  }, 60_000)

  it('verifies a dormant torrent whose files changed before its wake, and tells its task all again', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ma-torrent-dormant-changed-'))
    dirs.push(root)
    const data = join(root, 'data')
    const state = join(root, 'state')
    const torrent = makeTorrent({ name: 'Touched', files, pieceLength })
    await writeTorrentFiles(data, torrent)
    await mkdir(join(state, 'torrents'), { recursive: true })
    await writeFile(join(state, 'torrents', `${torrent.infoHash}.torrent`), torrent.torrentFile)
    const one = startEngine({ data, state, announce: [], graceMs: 200 }, torrent)
    await until(async () => one.engine.dormancy().dormant === 1, 20_000, 'dormant')
    // Its map no longer matches (an mtime moved): the wake cannot trust it and hashes the data.
    await utimes(join(data, torrent.name, files[1]!.path), 1_600_000_000, 1_600_000_000)
    const beforeWake = one.events.length
    const { port } = await one.engine.listening()
    const pieces = Math.ceil(torrent.size / pieceLength)
    expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000)).toBe(true)
    expect(one.events.slice(beforeWake).map((e) => e.type).filter((type) => type !== 'peer')).toEqual(['dormant', 'metadata', 'ready', 'done'])
  }, 60_000)

  it('ends an announce to a tracker that never answers as soon as the engine closes, not at its timeout', async () => {
    // A UDP "tracker" that reads and never replies: only the timeout or the close can end the announce.
    const silent = createSocket('udp4')
    let received = 0
    silent.on('message', () => { received++ })
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve))
    try {
      const announce = trackerAnnounceOnce({ peerId: () => 'aa'.repeat(20), port: () => 6881, proxyOpts: () => ({}), dht: () => undefined, timeoutMs: 600_000 })
      const closing = new AbortController()
      const target = { infoHash: 'bb'.repeat(20), announce: [`udp://127.0.0.1:${silent.address().port}`], private: false, uploaded: 0 }
      const result = announce(target, 'started', closing.signal)
      await until(async () => received > 0, 10_000, 'the announce to reach the tracker')
      closing.abort()
      await expect(result).resolves.toMatchObject({ answered: 0, trackers: 1 })
    } finally {
      silent.close()
    }
  }, 30_000)

  describe('races', () => {
    const pieces = Math.ceil(files.reduce((sum, f) => sum + f.data.length, 0) / pieceLength)

    async function quietTorrent(prefix: string) {
      const root = await mkdtemp(join(tmpdir(), prefix))
      dirs.push(root)
      const data = join(root, 'data')
      const state = join(root, 'state')
      const torrent = makeTorrent({ name: 'Race', files, pieceLength })
      await writeTorrentFiles(data, torrent)
      await mkdir(join(state, 'torrents'), { recursive: true })
      await writeFile(join(state, 'torrents', `${torrent.infoHash}.torrent`), torrent.torrentFile)
      return { data, state, torrent }
    }

    /** A quiet torrent's engine once the torrent is dormant, and its peer port. */
    async function dormantEngine(prefix: string) {
      const quiet = await quietTorrent(prefix)
      const started = startEngine({ data: quiet.data, state: quiet.state, announce: [], graceMs: 200 }, quiet.torrent)
      await until(async () => started.engine.dormancy().dormant === 1, 20_000, 'dormant')
      const { port } = await started.engine.listening()
      return { ...quiet, ...started, port }
    }

    it('answers two handshakes that arrive at once with one wake, and every piece to both', async () => {
      const { torrent, events, port } = await dormantEngine('ma-torrent-dormant-two-')
      const answers = await Promise.all([seedsTorrent(port, torrent.infoHash, pieces, 10_000), seedsTorrent(port, torrent.infoHash, pieces, 10_000)])
      expect(answers).toEqual([true, true])
      expect(events.filter((e) => e.type === 'dormant' && !e.dormant)).toHaveLength(1)
    }, 60_000)

    it('refuses the peer of a wake that a removal overtakes, and keeps nothing of the torrent', async () => {
      const { data, torrent, engine, events, port } = await dormantEngine('ma-torrent-dormant-remove-')
      let removal: Promise<void> | undefined
      // The wake has begun (the record is gone, the webtorrent torrent about to be made): remove now.
      engine.start({ infoHash: torrent.infoHash }, (event) => {
        if (event.type === 'dormant' && !event.dormant && !removal) removal = engine.remove(torrent.infoHash, { deleteFiles: false })
      })
      const answered = await seedsTorrent(port, torrent.infoHash, pieces, 10_000)
      await removal
      expect(removal).toBeDefined()
      expect(answered).toBe(false)
      expect(engine.dormancy()).toMatchObject({ live: 0, dormant: 0 })
      expect(engine.stats(torrent.infoHash)).toBeUndefined()
      expect(events.some((e) => e.type === 'dormant' && !e.dormant)).toBe(true)
      // The files stay (deleteFiles: false); the map goes with the torrent.
      expect(sha256(await readFile(join(data, torrent.name, files[0]!.path)))).toBe(sha256(files[0]!.data))
    }, 60_000)

    it('refuses the peer of a wake that a pause overtakes instead of holding it until a resume', async () => {
      const { torrent, engine, port } = await dormantEngine('ma-torrent-dormant-pause-wake-')
      let pausing: Promise<void> | undefined
      // The wake has begun (the record is gone, the webtorrent torrent about to be made): pause now.
      engine.start({ infoHash: torrent.infoHash }, (event) => {
        if (event.type === 'dormant' && !event.dormant && !pausing) pausing = engine.pause(torrent.infoHash)
      })
      // Far longer than the test's own limit: only an answer (a refusal) ends this in time.
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 120_000)).toBe(false)
      await pausing
      expect(pausing).toBeDefined()
      expect(engine.dormancy()).toMatchObject({ live: 0, dormant: 0 })
    }, 30_000)

    it('seeds a dormant torrent again after a pause and a resume, and rechecks one, from its saved metadata rather than its magnet link', async () => {
      // No magnet link and no peers to ask: only the saved .torrent can bring it back.
      const { torrent, engine, events, port } = await dormantEngine('ma-torrent-dormant-pause-')
      await engine.pause(torrent.infoHash)
      expect(engine.dormancy()).toMatchObject({ live: 0, dormant: 0 })
      const before = events.length
      await engine.resume(torrent.infoHash)
      await until(async () => events.slice(before).some((e) => e.type === 'done'), 10_000, 'the resumed torrent to be complete')
      expect(engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1, size: torrent.size })
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000)).toBe(true)

      await until(async () => engine.dormancy().dormant === 1, 20_000, 'dormant again')
      await engine.recheck(torrent.infoHash)
      expect(engine.stats(torrent.infoHash)).toMatchObject({ done: true, progress: 1, size: torrent.size })
    }, 60_000)

    it('fails a reader and refuses a peer at once when a dormant torrent cannot be woken, instead of holding them open', async () => {
      const { state, torrent, engine, events, port } = await dormantEngine('ma-torrent-dormant-lost-')
      // The saved .torrent the wake reads back is gone (a state dir cleaned by hand).
      await rm(join(state, 'torrents', `${torrent.infoHash}.torrent`))
      const read = (async () => {
        for await (const chunk of engine.createReadStream(torrent.infoHash, 0)) void chunk
      })()
      await expect(read).rejects.toThrow(/could not be woken/)
      expect(events.some((e) => e.type === 'error')).toBe(true)
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000)).toBe(false)
    }, 60_000)

    it('closes its uTP listener while every torrent sleeps (utp-native wakes the process every 20 ms for one) and opens it on the same port when a TCP peer wakes one', async () => {
      const { data, state, torrent } = await quietTorrent('ma-torrent-dormant-utp-')
      const { pending, timers } = manualTimers()
      const { engine } = startEngine({ data, state, announce: [], graceMs: 1, timers, utp: true }, torrent)
      const { port } = await engine.listening()
      await until(async () => engine.dormancy().live === 1 && pending.length > 0, 20_000, 'an idle live torrent')
      expect(await udpBound(port), 'listening for uTP while the torrent is live').toBe(true)
      for (const fire of pending.splice(0)) fire()
      await until(async () => engine.dormancy().dormant === 1, 20_000, 'dormant')
      await until(async () => !(await udpBound(port)), 10_000, 'the uTP listener to close')
      // A peer's uTP attempt gets no answer; over TCP its handshake wakes the torrent as before.
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 3000, 'utp')).toBe(false)
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000)).toBe(true)
      await until(async () => udpBound(port), 10_000, 'the uTP listener open again')
      // Live again (its grace is the test's to fire): answered over uTP on the same port.
      expect(engine.dormancy().live).toBe(1)
      expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000, 'utp')).toBe(true)
    }, 60_000)

    it('answers a handshake that arrives just as the torrent goes dormant, whichever side of the sleep it lands on', async () => {
      const { data, state, torrent } = await quietTorrent('ma-torrent-dormant-sleep-')
      // The grace's timer fires when the test says so: the handshake is sent right after.
      const { pending, timers } = manualTimers()
      const { engine } = startEngine({ data, state, announce: [], graceMs: 1, timers }, torrent)
      const { port } = await engine.listening()
      for (const lagMs of [0, 0, 2, 5, 10, 25]) {
        await until(async () => engine.dormancy().live === 1 && pending.length > 0, 20_000, 'an idle live torrent')
        await new Promise((resolve) => setTimeout(resolve, 5))
        for (const fire of pending.splice(0)) fire()
        if (lagMs > 0) await new Promise((resolve) => setTimeout(resolve, lagMs))
        expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000), `handshake ${lagMs} ms after the grace ran out`).toBe(true)
        // Its peer gone, it is idle again: wait for the torrent to be live and idle for the next round.
        await until(async () => engine.dormancy().live === 1 || engine.dormancy().dormant === 1, 10_000, 'settled')
        if (engine.dormancy().dormant === 1) {
          expect(await seedsTorrent(port, torrent.infoHash, pieces, 10_000)).toBe(true)
        }
      }
    }, 120_000)
  })
})

/** A UDP socket of this host is bound to `port` (/proc/net/udp and udp6, what `ss -uln` reads). */
async function udpBound(port: number): Promise<boolean> {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  for (const table of ['/proc/net/udp', '/proc/net/udp6']) {
    const text = await readFile(table, 'utf8').catch(() => '')
    for (const line of text.split('\n').slice(1)) if (line.trim().split(/\s+/)[1]?.endsWith(hex)) return true
  }
  return false
}

/** Dormancy timers that fire only when the test calls what `pending` holds. */
function manualTimers(): { pending: (() => void)[]; timers: DueTimers } {
  const pending: (() => void)[] = []
  const timers: DueTimers = {
    now: () => Date.now(),
    setTimeout: (fn) => { pending.push(fn); return fn },
    clearTimeout: (handle) => { const i = pending.indexOf(handle as () => void); if (i >= 0) pending.splice(i, 1) },
  }
  return { pending, timers }
}
