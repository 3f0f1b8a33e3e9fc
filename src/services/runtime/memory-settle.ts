import * as defaults from '../../config/defaults.js'
import { trimMalloc } from './malloc-trim.js'
import { compactHeap } from './startup-memory.js'

// Memory given back after a wave of releases (issue 20, docs/torrents.md "Memory"). A seedbox's
// torrents go dormant in waves: when the grace of a batch runs out together, or when a restart
// restores hundreds straight to dormant. Each dormant torrent frees its webtorrent object, but V8
// keeps the emptied heap pages committed until a compacting GC, and its regular collections
// leave them: measured at 1,000 torrents, 55.6 MiB committed for 39.4 used once all were
// dormant, 66.4 for 47.8 after a restart. So once releases have stopped for `quietMs`, one
// compacting, memory-reducing GC runs (compactHeap: the same "last resort" GC as after start-up;
// nothing without `--expose-gc`), at most once per `minIntervalMs`, so a torrent going dormant
// every few seconds on a busy seedbox costs one such GC a few minutes, not one each. After the GC,
// glibc is asked to give back what was freed below its arenas' live allocations (malloc-trim.ts):
// the webtorrent objects' sockets, buffers and parsers live there, not in V8's heap.

export interface SettleTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  now(): number
}

const realTimers: SettleTimers = {
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms)
    // Never what keeps the daemon alive.
    handle.unref()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => performance.now(),
}

export interface MemorySettlerOptions {
  /** Releases must stop this long before the GC runs. */
  quietMs?: number
  /** Least time between two of these GCs. */
  minIntervalMs?: number
  /** Runs the GC; returns whether it ran (compactHeap by default). */
  compact?: () => boolean
  /** Gives the C allocator's free memory back after the GC; whether it released any (trimMalloc by default). */
  trim?: () => boolean
  /** The process's resident bytes, read before and after (process.memoryUsage.rss by default). */
  rss?: () => number
  timers?: SettleTimers
  /** Told after each settle that ran, with what it took (the daemon logs it at debug). */
  onSettled?: (result: SettleResult) => void
}

export interface SettleResult {
  tookMs: number
  /** Torrents gone dormant since the last settle (each wants a GC). */
  releases: number
  /** Native-only releases since the last settle (announces ended; each wants a trim only). */
  nativeReleases: number
  /** Whether the compacting GC ran (not without releases, nor without --expose-gc). */
  compacted: boolean
  /** Whether malloc_trim released anything (false too without the native helper). */
  trimmed: boolean
  /** Resident memory before minus after, in MiB (negative if something grew meanwhile). */
  rssFreedMiB: number
}

const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10

export class MemorySettler {
  readonly #quietMs: number
  readonly #minIntervalMs: number
  readonly #compact: () => boolean
  readonly #trim: () => boolean
  readonly #rss: () => number
  readonly #timers: SettleTimers
  readonly #onSettled: MemorySettlerOptions['onSettled']
  #timer: unknown
  #releases = 0
  #nativeReleases = 0
  /** When the last settle ran (a trim alone waits a least interval after it)... */
  #lastAt = Number.NEGATIVE_INFINITY
  /** ...and the last one that compacted (a GC waits a least interval after that only: a cheap trim in between must not hold a wave's GC back). */
  #lastCompactAt = Number.NEGATIVE_INFINITY
  #closed = false

  constructor(options: MemorySettlerOptions = {}) {
    this.#quietMs = options.quietMs ?? defaults.memorySettleQuietMs
    this.#minIntervalMs = options.minIntervalMs ?? defaults.memorySettleMinIntervalMs
    this.#compact = options.compact ?? (() => compactHeap())
    this.#trim = options.trim ?? trimMalloc
    this.#rss = options.rss ?? (() => process.memoryUsage.rss())
    this.#timers = options.timers ?? realTimers
    this.#onSettled = options.onSettled
  }

  /** Something sizeable was let go (a torrent went dormant): the heap is compacted once things are quiet. */
  released(): void {
    if (this.#closed) return
    this.#releases++
    this.#arm(this.#quietMs)
  }

  /**
   * The first announces of the torrents that went dormant have all ended (dormant-announcer.ts):
   * a wave's GC runs before them (they are spread over the minute after it), and each made a
   * tracker client, a socket, an HTTP parser and a response that V8's 1 MiB young generation
   * promoted to the old one. They are dead now but hold their pages until a compacting GC:
   * measured at 1,000 dormant torrents, 9.5 MiB of RSS (heap committed 43.6 -> 34.0 MiB), more
   * than half of what the torrents themselves hold. So one more settle, as after a release: once
   * per wave, since only the end of a wave's first announces calls it.
   */
  wavesAnnounced(): void {
    this.released()
  }

  /**
   * Memory outside V8's heap was let go, and no heap worth a GC (the dormant torrents' announces
   * ended: their tracker sockets and HTTP parsers): glibc is asked for its free memory back
   * `quietMs` after the first of them, at most once per least interval after any settle (a GC
   * waits that long after the previous GC only, so these trims never hold a wave's GC back). It
   * does not push a settle already armed further away: on a seedbox of thousands an announce ends
   * every second or so, and that must not keep postponing a dormant wave's GC. A trim costs ~0.2
   * ms when there is little to give back.
   */
  nativeReleased(): void {
    if (this.#closed) return
    this.#nativeReleases++
    if (this.#timer === undefined) this.#arm(this.#quietMs)
  }

  /** Releases counted since the last settle (for tests and the debug log). */
  get pending(): number {
    return this.#releases + this.#nativeReleases
  }

  close(): void {
    this.#closed = true
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #arm(delayMs: number): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer)
    this.#timer = this.#timers.setTimeout(() => this.#due(), delayMs)
  }

  #due(): void {
    this.#timer = undefined
    if (this.#closed || this.pending === 0) return
    const wait = (this.#releases > 0 ? this.#lastCompactAt : this.#lastAt) + this.#minIntervalMs - this.#timers.now()
    if (wait > 0) {
      this.#arm(wait)
      return
    }
    const releases = this.#releases
    const nativeReleases = this.#nativeReleases
    this.#releases = 0
    this.#nativeReleases = 0
    const started = this.#timers.now()
    this.#lastAt = started
    const rssBefore = this.#rss()
    if (releases > 0) this.#lastCompactAt = started
    const compacted = releases > 0 && this.#compact()
    // Without the GC, dead torrents' native memory is still held: a trim would find little.
    if (!compacted && nativeReleases === 0) return
    // Only after the GC: it is what frees the native memory that dead JavaScript objects held.
    const trimmed = this.#trim()
    this.#onSettled?.({ tookMs: this.#timers.now() - started, releases, nativeReleases, compacted, trimmed, rssFreedMiB: mib(rssBefore - this.#rss()) })
  }
}
