// Time for the WireGuard device: every timer goes through this interface so unit tests drive
// exact time with ManualClock (design.md: no sleeps, a simulated clock). The shape is the
// netstack's NetClock (and xstate's SimulatedClock) plus an optional wall clock, so one clock
// object drives the device and the stack above it.

export type TimerHandle = unknown

export interface WgClock {
  /** Milliseconds on a monotonic clock; all protocol timing uses this. */
  now(): number
  setTimeout(callback: () => void, delayMs: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
  /** Milliseconds since the Unix epoch, only for TAI64N handshake timestamps (default Date.now). */
  wallNow?(): number
}

export const systemClock: WgClock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, Math.max(0, delayMs))
    handle.unref() // protocol timers never keep the process alive on their own
    return handle
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>)
  },
}

interface Pending {
  at: number
  seq: number
  handle: object
  callback: () => void
}

function before(a: Pending, b: Pending): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq)
}

/** A clock that only moves when told to; timers fire in time order, ties in creation order. */
export class ManualClock implements WgClock {
  private time: number
  private seq = 0
  private readonly live = new Map<object, Pending>()
  private readonly heap: Pending[] = [] // min-heap by (at, seq); cancelled entries are skipped lazily

  constructor(start = 1_000_000, private readonly wallOffsetMs = 1_700_000_000_000) {
    this.time = start
  }

  now(): number {
    return this.time
  }

  wallNow(): number {
    return this.wallOffsetMs + this.time
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = {}
    const entry: Pending = { at: this.time + Math.max(0, delayMs), seq: this.seq++, handle, callback }
    this.live.set(handle, entry)
    this.push(entry)
    return handle
  }

  clearTimeout(handle: TimerHandle): void {
    if (typeof handle === 'object' && handle !== null) this.live.delete(handle)
  }

  pendingTimers(): number {
    return this.live.size
  }

  /** Moves time forward by `ms`, firing every timer that comes due on the way. */
  advance(ms: number): void {
    const end = this.time + ms
    for (;;) {
      const top = this.heap[0]
      if (top === undefined || top.at > end) break
      this.pop()
      if (this.live.get(top.handle) !== top) continue
      this.live.delete(top.handle)
      this.time = Math.max(this.time, top.at)
      top.callback()
    }
    this.time = end
  }

  private push(entry: Pending): void {
    const h = this.heap
    h.push(entry)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(h[i]!, h[parent]!)) break
      ;[h[i], h[parent]] = [h[parent]!, h[i]!]
      i = parent
    }
  }

  private pop(): void {
    const h = this.heap
    const last = h.pop()!
    if (h.length === 0) return
    h[0] = last
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && before(h[l]!, h[m]!)) m = l
      if (r < h.length && before(h[r]!, h[m]!)) m = r
      if (m === i) break
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}
