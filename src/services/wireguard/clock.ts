// Time for the WireGuard device: every timer goes through this interface so unit tests drive
// exact time with ManualClock (src/services/clock/manual-clock.ts; design.md: no sleeps, a
// simulated clock). The shape is the
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
