import * as defaults from '../../config/defaults.js'
import { compactHeap } from './startup-memory.js'

// Memory given back after a wave of releases (issue 20, docs/torrents.md "Memory"). A seedbox's
// torrents go dormant in waves: when the grace of a batch runs out together, or when a restart
// restores hundreds straight to dormant. Each dormant torrent frees its webtorrent object, but V8
// keeps the emptied heap pages committed until a compacting GC, and its regular collections
// leave them: measured at 1,000 torrents, 55.6 MiB committed for 39.4 used once all were
// dormant, 66.4 for 47.8 after a restart. So once releases have stopped for `quietMs`, one
// compacting, memory-reducing GC runs (compactHeap: the same "last resort" GC as after start-up;
// nothing without `--expose-gc`), at most once per `minIntervalMs`, so a torrent going dormant
// every few seconds on a busy seedbox costs one such GC a few minutes, not one each.

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
  timers?: SettleTimers
  /** Told after each GC that ran, with what it took (the daemon logs it at debug). */
  onCompacted?: (result: { tookMs: number; releases: number }) => void
}

export class MemorySettler {
  readonly #quietMs: number
  readonly #minIntervalMs: number
  readonly #compact: () => boolean
  readonly #timers: SettleTimers
  readonly #onCompacted: MemorySettlerOptions['onCompacted']
  #timer: unknown
  #releases = 0
  #lastAt = Number.NEGATIVE_INFINITY
  #closed = false

  constructor(options: MemorySettlerOptions = {}) {
    this.#quietMs = options.quietMs ?? defaults.memorySettleQuietMs
    this.#minIntervalMs = options.minIntervalMs ?? defaults.memorySettleMinIntervalMs
    this.#compact = options.compact ?? (() => compactHeap())
    this.#timers = options.timers ?? realTimers
    this.#onCompacted = options.onCompacted
  }

  /** Something sizeable was let go (a torrent went dormant): the heap is compacted once things are quiet. */
  released(): void {
    if (this.#closed) return
    this.#releases++
    this.#arm(this.#quietMs)
  }

  /** Releases counted since the last GC (for tests and the debug log). */
  get pending(): number {
    return this.#releases
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
    if (this.#closed || this.#releases === 0) return
    const wait = this.#lastAt + this.#minIntervalMs - this.#timers.now()
    if (wait > 0) {
      this.#arm(wait)
      return
    }
    const releases = this.#releases
    this.#releases = 0
    const started = this.#timers.now()
    this.#lastAt = started
    if (this.#compact()) this.#onCompacted?.({ tookMs: this.#timers.now() - started, releases })
  }
}
