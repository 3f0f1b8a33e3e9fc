// A clock that only moves when told to: tests feed segments at exact instants and assert what the
// stack emitted at exact instants (the smoltcp way), and whole transfers run in simulated time.
// One class for the netstack's NetClock and WireGuard's WgClock (same shape, plus the wall clock
// WireGuard's TAI64N timestamps read), so one object drives a tunnel's two layers.

interface Entry {
  at: number
  order: number
  fn: () => void
  cancelled: boolean
}

export class ManualClock {
  #now: number
  #order = 0
  #heap: Entry[] = []
  #live = 0

  readonly #wallOffsetMs: number

  /** `wallOffsetMs`: the Unix time in milliseconds that `now() = 0` stands for. */
  constructor(startMs = 0, wallOffsetMs = 1_700_000_000_000) {
    this.#now = startMs
    this.#wallOffsetMs = wallOffsetMs
  }

  now(): number {
    return this.#now
  }

  wallNow(): number {
    return this.#wallOffsetMs + this.#now
  }

  setTimeout(fn: () => void, delayMs: number): unknown {
    const entry: Entry = { at: this.#now + Math.max(0, delayMs), order: this.#order++, fn, cancelled: false }
    this.#push(entry)
    this.#live++
    return entry
  }

  clearTimeout(id: unknown): void {
    const entry = id as Entry | undefined
    if (entry && !entry.cancelled) {
      entry.cancelled = true
      this.#live--
    }
  }

  /** Number of timers still armed. */
  get pending(): number {
    return this.#live
  }

  /** When the earliest armed timer fires, if any. */
  nextTimerAt(): number | undefined {
    this.#dropCancelled()
    return this.#heap[0]?.at
  }

  /** Moves time forward by `ms`, firing every timer due on the way in order. */
  advance(ms: number): void {
    this.advanceTo(this.#now + ms)
  }

  advanceTo(target: number): void {
    for (;;) {
      this.#dropCancelled()
      const head = this.#heap[0]
      if (!head || head.at > target) break
      this.#pop()
      head.cancelled = true
      this.#live--
      if (head.at > this.#now) this.#now = head.at
      head.fn()
    }
    if (target > this.#now) this.#now = target
  }

  /** Fires the earliest timer(s) only; returns false when none is armed. */
  step(): boolean {
    const at = this.nextTimerAt()
    if (at === undefined) return false
    this.advanceTo(at)
    return true
  }

  #dropCancelled(): void {
    while (this.#heap.length > 0 && this.#heap[0]!.cancelled) this.#pop()
  }

  #less(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.order < b.order)
  }

  #push(entry: Entry): void {
    const heap = this.#heap
    heap.push(entry)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.#less(heap[i]!, heap[parent]!)) break
      ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
      i = parent
    }
  }

  #pop(): Entry | undefined {
    const heap = this.#heap
    const top = heap[0]
    const last = heap.pop()
    if (heap.length > 0 && last) {
      heap[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < heap.length && this.#less(heap[l]!, heap[m]!)) m = l
        if (r < heap.length && this.#less(heap[r]!, heap[m]!)) m = r
        if (m === i) break
        ;[heap[i], heap[m]] = [heap[m]!, heap[i]!]
        i = m
      }
    }
    return top
  }
}
