import type { EventEmitter } from 'node:events'
import { stat } from 'node:fs/promises'
import type { Torrent } from 'webtorrent'
import type { ParsedTorrent } from 'parse-torrent'
import type { Logger } from '../../log.js'
import { DueQueue, realDueTimers, type DueTimers } from './due-queue.js'
import { DormantAnnouncer, type AnnounceOnce } from './dormant-announcer.js'
import { dormantRecordOf, infoHashHashOf, installWakeHook, type DormantRecord } from './dormancy.js'
import type { TorrentEngineEvent } from './engine.js'

// The dormancy lifecycle of the engine's torrents (docs/torrents.md, Dormant torrents): when an
// idle live torrent goes to sleep (one grace timer for all, due-queue.ts), the sleep itself, a
// restart straight to dormant, the announces while dormant (dormant-announcer.ts) and the wake
// for a peer's handshake or a reader. The engine owns its torrents and their queue of steps; this
// module decides when a torrent sleeps or wakes and asks the engine (DormancyHost) to stop or
// start it on that queue, so every pause, removal, recheck or wake stays ordered with it.

/** What dormancy keeps on the engine's per-torrent entry. */
export interface DormantEntry {
  input: { infoHash: string }
  torrent: Torrent | null
  paused: boolean
  torrentFile?: Uint8Array
  /** torrentFile was dropped because the state dir keeps it: every later start reads it back. */
  torrentFileSaved?: boolean
  /** Set while the torrent is dormant: no webtorrent object, only this (dormancy.ts). */
  dormant?: DormantRecord
  /** Between the decision to sleep and the record (a peer arriving then waits for the wake). */
  sleeping?: boolean
  /** One wake for every peer and reader asking at once. */
  waking?: Promise<Torrent | null>
  /** Uploads of earlier webtorrent torrents of this run (before a sleep or a network switch). */
  uploadedCarry: number
  /** Read streams open on the torrent: it does not go dormant under them. */
  streams: number
}

/** What the lifecycle needs of the engine. */
export interface DormancyHost<E extends DormantEntry> {
  entry(infoHash: string): E | undefined
  /** Runs `step` on the torrent's queue of steps (after everything asked before it). */
  enqueue(entry: E, step: () => Promise<void>): Promise<void>
  /** Stops the live torrent (its last map written), its uploads kept for the task. */
  halt(entry: E): Promise<void>
  /**
   * Starts a live webtorrent torrent (on the queue already). `wake`: for a peer or a reader; a
   * wake whose map still matches tells the task nothing (it heard metadata, ready and done already).
   */
  launchLive(infoHash: string, options?: { wake?: boolean }): Promise<void>
  whenReady(infoHash: string): Promise<Torrent>
  emit(entry: E, event: TorrentEngineEvent): void
  /** The engine is closed. */
  closed(): boolean
  /** The engine is closed or switching networks: nothing is started or put to sleep. */
  busy(): boolean
  /** The torrents' network is open (the VPN up when routed). */
  networkOpen(): boolean
  /** The map on disk names every piece and the files still match it (piece-map.ts). */
  mapComplete(infoHash: string, torrent: { pieces: number; files: { path: string }[] }, root: string): Promise<boolean>
  /** Where the state dir keeps the torrent's .torrent. */
  savedTorrentPath(infoHash: string): string
  /** The live webtorrent torrent of this info hash in `client` (an incoming peer's lookup), if any. */
  liveTorrent(client: object, infoHash: string): Torrent | undefined
  /** The info hash whose MSE hash this is, for every torrent the engine holds. */
  infoHashOfHash(infoHashHash: string): string | undefined
  log: Logger
}

export interface DormantLifecycleOptions<E extends DormantEntry> {
  host: DormancyHost<E>
  /** 0: torrents never go dormant. */
  idleGraceMs: number
  timers?: DueTimers
  firstSpreadMs: number
  defaultIntervalMs: number
  jitter: number
  retryMinMs: number
  retryMaxMs: number
  announceOnce: AnnounceOnce
  /** The dormant torrents' announces in flight have all ended (dormant-announcer.ts `onIdle`). */
  onAnnouncesIdle?: (info: { firstAnnouncesDone: boolean }) => void
}

export class DormantLifecycle<E extends DormantEntry> {
  readonly #host: DormancyHost<E>
  readonly #timers: DueTimers
  #idleGraceMs: number
  /** When each idle live torrent goes dormant: one timer for all (due-queue.ts). */
  readonly #idle: DueQueue<string>
  readonly #announcer: DormantAnnouncer
  /** Dormant torrents by their MSE info hash hash (encrypted handshakes). */
  readonly #byHashHash = new Map<string, string>()

  constructor(options: DormantLifecycleOptions<E>) {
    this.#host = options.host
    this.#timers = options.timers ?? realDueTimers
    this.#idleGraceMs = options.idleGraceMs
    this.#idle = new DueQueue({ timers: options.timers, onDue: (keys) => { for (const key of keys) this.#sleep(key) } })
    this.#announcer = new DormantAnnouncer({
      timers: options.timers,
      firstSpreadMs: options.firstSpreadMs,
      defaultIntervalMs: options.defaultIntervalMs,
      jitter: options.jitter,
      retryMinMs: options.retryMinMs,
      retryMaxMs: options.retryMaxMs,
      announceOnce: options.announceOnce,
      onError: (err, infoHash) => this.#host.log.debug({ err, infoHash }, 'dormant torrent announce failed'),
      onIdle: options.onAnnouncesIdle,
    })
  }

  /** Whether torrents may go dormant at all. */
  get enabled(): boolean {
    return this.#idleGraceMs > 0
  }

  /** Announces the scheduler has sent (the torrents status). */
  get announces(): number {
    return this.#announcer.announced
  }

  /**
   * A peer's handshake for a dormant torrent wakes it instead of being refused (dormancy.ts).
   * Returns why not when the client is shaped otherwise: then no torrent goes dormant, since
   * peers could not reach one.
   */
  hookClient(client: object): string | undefined {
    if (!this.enabled) return undefined
    const unsupported = installWakeHook<Torrent>(client, {
      live: (infoHash) => this.#host.liveTorrent(client, infoHash),
      liveByInfoHashHash: (hashHash) => {
        const infoHash = this.#host.infoHashOfHash(hashHash)
        return infoHash ? this.#host.liveTorrent(client, infoHash) : undefined
      },
      byInfoHash: (infoHash) => this.#wakeFor(infoHash),
      byInfoHashHash: (hashHash) => {
        const infoHash = this.#byHashHash.get(hashHash)
        return infoHash ? this.#wakeFor(infoHash) : null
      },
    })
    if (unsupported) this.#idleGraceMs = 0
    return unsupported
  }

  /** A live torrent was made: idle (complete, no peers, no reader) for the grace, it goes dormant. */
  watch(entry: E, torrent: Torrent): void {
    if (!this.enabled) return
    const infoHash = entry.input.infoHash
    torrent.on('ready', () => this.#checkIdle(entry, torrent))
    torrent.on('done', () => this.#checkIdle(entry, torrent))
    torrent.on('wire', (wire: EventEmitter) => {
      this.#idle.delete(infoHash)
      // webtorrent takes the wire out of `wires` right after its 'close'.
      wire.once('close', () => setImmediate(() => this.#checkIdle(entry, torrent)))
    })
  }

  /** A read stream opened on the torrent: it does not go dormant under its reader. Returns its close. */
  readerOpened(entry: E): () => void {
    entry.streams++
    this.#idle.delete(entry.input.infoHash)
    return () => {
      entry.streams--
      if (entry.torrent) this.#checkIdle(entry, entry.torrent)
    }
  }

  /** The torrent stops (pause, removal, recheck, network switch, close) or starts live: no grace, no record. */
  forget(entry: E): void {
    this.#idle.delete(entry.input.infoHash)
    const record = entry.dormant
    if (!record) return
    entry.dormant = undefined
    this.#byHashHash.delete(record.infoHashHash)
    this.#announcer.delete(record.infoHash)
    this.#host.emit(entry, { type: 'dormant', infoHash: record.infoHash, dormant: false })
  }

  /** A start whose map says complete: dormant at once, the task told as a live start would (metadata, ready, done). */
  async restore(entry: E, parsed: ParsedTorrent, root: string, torrentFile: Uint8Array | undefined): Promise<void> {
    const infoHash = entry.input.infoHash
    await this.#enterDormant(entry, dormantRecordOf(parsed as Parameters<typeof dormantRecordOf>[0], root), { started: true })
    const record = entry.dormant!
    if (torrentFile) this.#host.emit(entry, { type: 'metadata', infoHash, name: record.name, size: record.length, files: record.files.map((f) => ({ path: f.path, size: f.size })), torrentFile, saved: true })
    this.#host.emit(entry, { type: 'ready', infoHash })
    this.#host.emit(entry, { type: 'done', infoHash })
  }

  /** Whether the torrent is dormant or going so (a reader must wake it). */
  asleep(entry: E): boolean {
    return Boolean(entry.dormant || entry.sleeping)
  }

  /** One wake however many ask at once; resolves with the ready live torrent, or null (removed, paused, failed). Never rejects. */
  wake(entry: E): Promise<Torrent | null> {
    const infoHash = entry.input.infoHash
    entry.waking ??= (async () => {
      try {
        await this.#host.enqueue(entry, () => this.#host.launchLive(infoHash, { wake: true }))
        // Nothing was started (paused or removed meanwhile, a network switch, its .torrent
        // unreadable): waiting for a 'ready' that will not come would hold the peer's connection
        // (or the reader) open for good.
        if (!entry.torrent || entry.torrent.destroyed) return null
        return await this.#host.whenReady(infoHash)
      } catch (err) {
        this.#host.log.debug({ err, infoHash }, 'dormant torrent could not be woken')
        return null
      } finally {
        entry.waking = undefined
      }
    })()
    return entry.waking
  }

  close(): void {
    this.#idle.close()
    this.#announcer.close()
  }

  /** Arms the torrent's grace when it is idle now (complete, no wire, no reader), disarms it when not. */
  #checkIdle(entry: E, torrent: Torrent): void {
    if (entry.torrent !== torrent || torrent.destroyed) return
    const infoHash = entry.input.infoHash
    if (!this.#idleNow(entry, torrent)) this.#idle.delete(infoHash)
    else if (!this.#idle.has(infoHash)) this.#idle.set(infoHash, this.#timers.now() + this.#idleGraceMs)
  }

  #idleNow(entry: E, torrent: Torrent): boolean {
    return this.#idleGraceMs > 0 && !entry.paused && torrent.ready && torrent.done && torrent.wires.length === 0 && entry.streams === 0
      && this.#host.networkOpen()
  }

  /**
   * The grace ran out: the webtorrent torrent is destroyed (files kept, its last map written) and
   * only a record stays, announced by the scheduler. Queued on the torrent's chain, so a pause,
   * removal, recheck or wake asked meanwhile runs after it and sees the record.
   */
  #sleep(infoHash: string): void {
    const entry = this.#host.entry(infoHash)
    if (!entry || !entry.torrent) return
    entry.sleeping = true
    // An encrypted handshake names the torrent by this hash: found from now on, through the halt.
    const hashHash = infoHashHashOf(infoHash)
    this.#byHashHash.set(hashHash, infoHash)
    void this.#host.enqueue(entry, async () => {
      try {
        const torrent = entry.torrent
        if (!torrent || torrent.destroyed || this.#host.busy() || !this.#idleNow(entry, torrent)) return
        const root = torrent.path
        const record = dormantRecordOf(torrent, root)
        const shape = { pieces: torrent.pieces.length, files: torrent.files.map((file) => ({ path: file.path })) }
        // No `stopped` to the trackers: the torrent goes on seeding, only without its webtorrent object.
        const tracker = (torrent as unknown as { discovery?: { tracker?: { stop(): void } | null } | null }).discovery?.tracker
        if (tracker) tracker.stop = () => {}
        await this.#host.halt(entry)
        if (entry.paused || this.#host.busy()) return
        if (!(await this.#host.mapComplete(infoHash, shape, root))) {
          // Its files changed under it (or its map could not be written): live again, and verified.
          this.#host.log.info({ infoHash }, 'idle torrent\'s files do not match its verified-piece map; it stays live')
          await this.#host.launchLive(infoHash)
          return
        }
        await this.#enterDormant(entry, record, { started: false })
        this.#host.log.debug({ infoHash }, 'idle seeding torrent is dormant: only its metadata is kept')
      } finally {
        entry.sleeping = false
        if (!entry.dormant) this.#byHashHash.delete(hashHash)
      }
    })
  }

  async #enterDormant(entry: E, record: DormantRecord, options: { started: boolean }): Promise<void> {
    // The .torrent stays in memory only when the state dir has no copy to read back at the wake.
    if (entry.torrentFile && await stat(this.#host.savedTorrentPath(record.infoHash)).then((s) => s.isFile(), () => false)) {
      entry.torrentFile = undefined
      entry.torrentFileSaved = true
    }
    entry.dormant = record
    this.#byHashHash.set(record.infoHashHash, record.infoHash)
    this.#announcer.add({ infoHash: record.infoHash, announce: record.announce, private: record.private, uploaded: entry.uploadedCarry }, options)
    this.#host.emit(entry, { type: 'dormant', infoHash: record.infoHash, dormant: true })
  }

  /** A peer's handshake for a torrent that is dormant or going so: wake it. Null: not ours. */
  #wakeFor(infoHash: string): Promise<Torrent | null> | null {
    const entry = this.#host.entry(infoHash)
    if (!entry || entry.paused || this.#host.closed() || !this.asleep(entry)) return null
    return this.wake(entry)
  }
}
