import type { EventEmitter } from 'node:events'
import { DueQueue, realDueTimers, type DueTimers } from './due-queue.js'
import { jitteredIntervalMs } from './idle-timers.js'
import { trackerModuleUrl } from './peer-network.js'
import { torrentDormantMaxAnnouncesInFlight } from '../../config/defaults.js'

// Announces for dormant torrents (docs/torrents.md, Dormant torrents). A dormant torrent has no
// webtorrent object, so nothing of webtorrent's announces it; if nothing did, trackers would
// forget it after their interval and DHT nodes after theirs, and no peer would ever come to wake
// it. One scheduler for the whole engine keeps them announced: a due time per torrent in one
// DueQueue (one timer for the earliest), the first announce spread at random over
// `firstSpreadMs` (a restart restores hundreds at once), each next one after the interval the
// trackers asked for, shortened by up to `jitter` like the live torrents' (idle-timers.ts), so they
// drift apart. Each announce is one-shot: a bittorrent-tracker client made for it and destroyed
// after it (no interval of its own), plus a DHT announce when the DHT is on.

export interface DormantTarget {
  infoHash: string
  announce: readonly string[]
  /** Private torrents are never announced on the DHT. */
  private: boolean
  /** Uploaded bytes reported to trackers (this engine run's, as a live torrent does). */
  uploaded: number
}

export interface AnnounceResult {
  /** How many trackers answered (0 with trackers: try again sooner). */
  answered: number
  trackers: number
  /** The shortest interval a tracker asked for. */
  intervalMs?: number
}

/** One announce of one torrent, to all its trackers (and the DHT); `signal` ends it early (the engine closes). */
export type AnnounceOnce = (target: DormantTarget, event: 'started' | 'update', signal: AbortSignal) => Promise<AnnounceResult>

export interface DormantAnnouncerOptions {
  announceOnce: AnnounceOnce
  /** The first announce of a torrent that just went (or was restored) dormant: at a random time within this. */
  firstSpreadMs: number
  /** When no tracker says (DHT only, or a tracker without an interval). */
  defaultIntervalMs: number
  jitter: number
  /** A torrent none of whose trackers answered is tried again after this, doubling up to retryMaxMs. */
  retryMinMs: number
  retryMaxMs: number
  /** Announces in flight at once; due ones wait for a slot (defaults.torrentDormantMaxAnnouncesInFlight). */
  maxInFlight?: number
  timers?: DueTimers
  random?: () => number
  onError?: (err: unknown, infoHash: string) => void
  /**
   * The announces in flight have all ended (their tracker clients are destroyed): the memory
   * settler may trim. `firstAnnouncesDone`: and since the last such call, the first announce of
   * every torrent that went dormant has ended, so a wave's garbage (the tracker clients, parsers
   * and responses of hundreds of announces, promoted to V8's old generation) is all dead now.
   */
  onIdle?: (info: { firstAnnouncesDone: boolean }) => void
}

interface Scheduled {
  target: DormantTarget
  started: boolean
  failures: number
  /** Its first announce since it went dormant has not ended yet. */
  first: boolean
}

export class DormantAnnouncer {
  readonly #options: DormantAnnouncerOptions
  readonly #random: () => number
  readonly #timers: DueTimers
  readonly #scheduled = new Map<string, Scheduled>()
  readonly #queue: DueQueue<string>
  /** Due but waiting for a slot, oldest first. */
  readonly #waiting: string[] = []
  /**
   * Announces in flight. A count, not a set of info hashes: a torrent woken and dormant again
   * while its last announce is out has two in flight, and both hold a slot.
   */
  #inFlight = 0
  /** Ends the announces in flight at close: their tracker sockets do not outlive the engine. */
  readonly #closing = new AbortController()
  #announced = 0
  /** Scheduled torrents whose first announce has not ended. */
  #firstsPending = 0
  /** A first announce ended since onIdle last said `firstAnnouncesDone`. */
  #firstEnded = false

  constructor(options: DormantAnnouncerOptions) {
    this.#options = options
    this.#random = options.random ?? Math.random
    this.#timers = options.timers ?? realDueTimers
    this.#queue = new DueQueue({ timers: this.#timers, onDue: (keys) => this.#due(keys) })
  }

  get size(): number {
    return this.#scheduled.size
  }

  /** Announces sent so far (status). */
  get announced(): number {
    return this.#announced
  }

  /** When the torrent's next announce is due (tests, status). */
  dueAt(infoHash: string): number | undefined {
    return this.#queue.dueAt(infoHash)
  }

  /** Keeps a dormant torrent announced; `started` for one restored at start (trackers may not know it). */
  add(target: DormantTarget, options: { started?: boolean } = {}): void {
    if (this.#scheduled.get(target.infoHash)?.first) this.#firstsPending--
    this.#scheduled.set(target.infoHash, { target, started: options.started ?? false, failures: 0, first: true })
    this.#firstsPending++
    this.#queue.set(target.infoHash, this.#timers.now() + Math.floor(this.#random() * this.#options.firstSpreadMs))
  }

  /** The torrent woke (or is gone): its live torrent announces for itself from now on. */
  delete(infoHash: string): void {
    if (this.#scheduled.get(infoHash)?.first) this.#firstsPending--
    this.#scheduled.delete(infoHash)
    this.#queue.delete(infoHash)
    const waiting = this.#waiting.indexOf(infoHash)
    if (waiting >= 0) this.#waiting.splice(waiting, 1)
  }

  close(): void {
    this.#scheduled.clear()
    this.#firstsPending = 0
    this.#waiting.length = 0
    this.#queue.close()
    this.#closing.abort()
  }

  #due(keys: string[]): void {
    this.#waiting.push(...keys)
    this.#drain()
  }

  #drain(): void {
    const max = this.#options.maxInFlight ?? torrentDormantMaxAnnouncesInFlight
    while (this.#inFlight < max && this.#waiting.length > 0) {
      const infoHash = this.#waiting.shift()!
      const scheduled = this.#scheduled.get(infoHash)
      if (scheduled) void this.#announce(infoHash, scheduled)
    }
  }

  async #announce(infoHash: string, scheduled: Scheduled): Promise<void> {
    this.#inFlight++
    let result: AnnounceResult | undefined
    try {
      result = await this.#options.announceOnce(scheduled.target, scheduled.started ? 'started' : 'update', this.#closing.signal)
      this.#announced++
    } catch (err) {
      this.#options.onError?.(err, infoHash)
    } finally {
      this.#inFlight--
    }
    // Woken or removed meanwhile: its live torrent (or nothing) announces now.
    if (this.#scheduled.get(infoHash) === scheduled) {
      if (scheduled.first) {
        scheduled.first = false
        this.#firstsPending--
        this.#firstEnded = true
      }
      const failed = !result || (result.trackers > 0 && result.answered === 0)
      let next: number
      if (failed) {
        next = Math.min(this.#options.retryMinMs * 2 ** scheduled.failures, this.#options.retryMaxMs)
        scheduled.failures++
      } else {
        scheduled.failures = 0
        scheduled.started = false
        next = jitteredIntervalMs(result!.intervalMs ?? this.#options.defaultIntervalMs, this.#options.jitter, this.#random)
      }
      this.#queue.set(infoHash, this.#timers.now() + next)
    }
    this.#drain()
    if (this.#inFlight === 0) {
      const firstAnnouncesDone = this.#firstEnded && this.#firstsPending === 0
      if (firstAnnouncesDone) this.#firstEnded = false
      this.#options.onIdle?.({ firstAnnouncesDone })
    }
  }
}

interface OneShotTracker {
  announceUrl: string
  setInterval(ms?: number): void
}

interface OneShotClient extends EventEmitter {
  _trackers: OneShotTracker[]
  start(opts?: Record<string, unknown>): void
  update(opts?: Record<string, unknown>): void
  destroy(cb?: () => void): void
}

type TrackerClientClass = new (opts: Record<string, unknown>) => OneShotClient

let trackerClientClass: Promise<TrackerClientClass> | undefined

export interface TrackerAnnounceOptions {
  /** The webtorrent client's peer id (hex) and port: the peer that will answer when woken. */
  peerId: () => string
  port: () => number
  /** The same proxy options the live torrents' trackers get (the VPN's dispatcher, engine.ts). */
  proxyOpts: () => Record<string | symbol, unknown>
  /** The client's DHT when it has one. */
  dht: () => { announce(infoHash: string, port: number, cb: (err?: Error) => void): void } | undefined
  /** Gives up on trackers that have not answered by then. */
  timeoutMs: number
  /** A DHT announce that failed (it does not hold up the trackers' answers). */
  onDhtError?: (err: Error, infoHash: string) => void
}

/** The real AnnounceOnce: bittorrent-tracker's client (the copy webtorrent uses), made for one announce. */
export function trackerAnnounceOnce(options: TrackerAnnounceOptions): AnnounceOnce {
  return async (target, event, signal) => {
    if (signal.aborted) return { answered: 0, trackers: 0 }
    const dht = target.private ? undefined : options.dht()
    const port = options.port()
    if (dht) dht.announce(target.infoHash, port, (err) => { if (err) options.onDhtError?.(err, target.infoHash) })
    if (target.announce.length === 0) return { answered: 0, trackers: 0 }
    const Client = await (trackerClientClass ??= import(trackerModuleUrl('client.js')).then((m: { default: TrackerClientClass }) => m.default))
    if (signal.aborted) return { answered: 0, trackers: target.announce.length }
    const client = new Client({
      infoHash: target.infoHash,
      peerId: options.peerId(),
      announce: [...target.announce],
      port,
      wrtc: false,
      proxyOpts: options.proxyOpts(),
      getAnnounceOpts: () => ({ uploaded: target.uploaded, downloaded: 0, left: 0 }),
    })
    const trackers = client._trackers.length
    const intervals: number[] = []
    // The one-shot client arms no re-announce timer: a tracker's interval is only noted here.
    for (const tracker of client._trackers) tracker.setInterval = (ms?: number) => { if (ms) intervals.push(ms) }
    const answeredBy = new Set<string>()
    let warnings = 0
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', finish)
        resolve()
      }
      const timer = setTimeout(finish, options.timeoutMs)
      timer.unref()
      signal.addEventListener('abort', finish)
      const check = () => {
        if (answeredBy.size + warnings >= trackers) finish()
      }
      client.on('update', (data: { announce?: string }) => {
        if (data.announce) answeredBy.add(data.announce)
        check()
      })
      client.on('warning', () => {
        warnings++
        check()
      })
      client.on('error', () => {
        warnings++
        check()
      })
      // Peers the tracker returns are not dialled: a dormant torrent waits to be connected to.
      client.on('peer', () => {})
      if (trackers === 0) finish()
      else if (event === 'started') client.start()
      else client.update()
    })
    client.destroy()
    return { answered: answeredBy.size, trackers, intervalMs: intervals.length > 0 ? Math.min(...intervals) : undefined }
  }
}
