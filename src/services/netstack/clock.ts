// Time and randomness come in from outside (design.md house rule 3). The clock shape matches
// xstate's SimulatedClock (now/setTimeout/clearTimeout), so either that or ManualClock drives the
// stack in tests; systemClock is the real one.
import { randomBytes } from 'node:crypto'

export interface NetClock {
  /** Milliseconds on a monotonic scale. */
  now(): number
  setTimeout(fn: () => void, delayMs: number): unknown
  clearTimeout(id: unknown): void
}

/** A uniformly distributed unsigned 32-bit integer per call. */
export type RandomUint32 = () => number

export const systemClock: NetClock = {
  now: () => performance.now(),
  setTimeout: (fn, delayMs) => {
    const timer = setTimeout(fn, delayMs)
    // Protocol timers (TIME_WAIT, delayed ACK) must never keep the process alive on their own.
    timer.unref()
    return timer
  },
  clearTimeout: (id) => clearTimeout(id as NodeJS.Timeout),
}

let pool = Buffer.alloc(0)
let poolOffset = 0

/** Cryptographically random 32-bit values (ISNs, ephemeral ports, DNS ids), read in batches. */
export const cryptoRandomUint32: RandomUint32 = () => {
  if (poolOffset + 4 > pool.length) {
    pool = randomBytes(4096)
    poolOffset = 0
  }
  const value = pool.readUInt32BE(poolOffset)
  poolOffset += 4
  return value
}

/** Deterministic generator (mulberry32) for tests and seeded link impairments. Not for ISNs. */
export function seededRandom(seed: number): RandomUint32 {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}
