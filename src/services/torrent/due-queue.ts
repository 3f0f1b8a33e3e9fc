// Keyed deadlines behind ONE timer (docs/torrents.md, Dormant torrents). The engine has two
// things to do "at some time per torrent" - put an idle seeding torrent to sleep after its grace,
// announce a dormant torrent again - and a timer per torrent would wake the event loop once per
// torrent. Here a set of keys with due times arms a single timer for the earliest; when it fires,
// every key due by then is handed to `onDue` (and dropped from the queue), at most `batch` at a
// time, and the timer is armed again for what remains. An empty queue arms nothing.

export interface DueTimers {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const realDueTimers: DueTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms)
    handle.unref?.()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

export interface DueQueueOptions<K> {
  onDue(keys: K[]): void
  timers?: DueTimers
  /** At most this many keys per firing; the rest are handed on at the next (armed at once). Default: all. */
  batch?: number
}

export class DueQueue<K> {
  readonly #due = new Map<K, number>()
  readonly #timers: DueTimers
  readonly #onDue: (keys: K[]) => void
  readonly #batch: number
  #handle: unknown
  /** When the armed timer fires (undefined: none armed). */
  #armedFor: number | undefined
  #closed = false

  constructor(options: DueQueueOptions<K>) {
    this.#timers = options.timers ?? realDueTimers
    this.#onDue = options.onDue
    this.#batch = options.batch ?? Number.POSITIVE_INFINITY
  }

  get size(): number {
    return this.#due.size
  }

  /** Whether a timer is armed (tests, /debug). */
  get armed(): boolean {
    return this.#handle !== undefined
  }

  has(key: K): boolean {
    return this.#due.has(key)
  }

  dueAt(key: K): number | undefined {
    return this.#due.get(key)
  }

  /** Sets (or moves) the key's due time. */
  set(key: K, at: number): void {
    if (this.#closed) return
    this.#due.set(key, at)
    if (this.#armedFor === undefined || at < this.#armedFor) this.#arm()
  }

  delete(key: K): void {
    if (!this.#due.delete(key)) return
    if (this.#due.size === 0) this.#disarm()
  }

  close(): void {
    this.#closed = true
    this.#due.clear()
    this.#disarm()
  }

  #disarm(): void {
    if (this.#handle !== undefined) this.#timers.clearTimeout(this.#handle)
    this.#handle = undefined
    this.#armedFor = undefined
  }

  #arm(): void {
    this.#disarm()
    if (this.#closed || this.#due.size === 0) return
    let earliest = Number.POSITIVE_INFINITY
    for (const at of this.#due.values()) if (at < earliest) earliest = at
    this.#armedFor = earliest
    this.#handle = this.#timers.setTimeout(() => this.#fire(), Math.max(0, earliest - this.#timers.now()))
  }

  #fire(): void {
    this.#handle = undefined
    this.#armedFor = undefined
    const now = this.#timers.now()
    const due: [K, number][] = []
    for (const entry of this.#due) if (entry[1] <= now) due.push(entry)
    due.sort((a, b) => a[1] - b[1])
    const keys = due.slice(0, this.#batch).map(([key]) => key)
    for (const key of keys) this.#due.delete(key)
    this.#arm()
    if (keys.length > 0) this.#onDue(keys)
  }
}
