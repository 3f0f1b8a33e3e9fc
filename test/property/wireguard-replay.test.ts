import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ReplayWindow } from '../../src/services/wireguard/replay.js'

/** The obvious model: a set of every counter seen and the highest one. */
class NaiveWindow {
  private readonly seen = new Set<number>()
  private last = 0
  constructor(private readonly windowSize: number, private readonly limit: number) {}
  accept(counter: number): boolean {
    if (counter >= this.limit) return false
    if (counter <= this.last && this.last - counter > this.windowSize) return false
    if (this.seen.has(counter)) return false
    this.seen.add(counter)
    this.last = Math.max(this.last, counter)
    return true
  }
}

describe('replay window (RFC 6479 bitmap)', () => {
  it('covers at least 2,048 packets', () => {
    expect(new ReplayWindow().windowSize).toBeGreaterThanOrEqual(2048)
  })

  it('accepts exactly what a naive set-based window accepts', () => {
    const limit = 1_000_000
    // counters clustered so that duplicates, in-window reordering and far jumps all occur
    const counter = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 20_000 }),
      fc.integer({ min: 0, max: limit + 10 }),
    )
    fc.assert(
      fc.property(fc.array(counter, { maxLength: 400 }), fc.constantFrom(64, 2048, 8192), (counters, packets) => {
        const real = new ReplayWindow(packets, limit)
        const model = new NaiveWindow(real.windowSize, limit)
        for (const c of counters) {
          const expected = model.accept(c)
          expect(real.check(c) || !expected).toBe(true)
          expect(real.accept(c)).toBe(expected)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('accepts a stream with a reordered tail once, and rejects duplicates and counters behind the window', () => {
    const w = new ReplayWindow()
    const n = 100_000
    for (let i = 0; i < n; i++) if (i < n - 1000 || i % 2 === 0) expect(w.accept(i)).toBe(true)
    for (let i = n - 1000; i < n; i++) if (i % 2 === 1) expect(w.accept(i)).toBe(true)
    for (let i = n - 1000; i < n; i++) expect(w.accept(i)).toBe(false)
    expect(w.accept(n - 1 - w.windowSize - 1)).toBe(false)
    expect(w.accept(n + 5000)).toBe(true)
    expect(w.accept(n + 4999)).toBe(true)
    expect(w.accept(Number.POSITIVE_INFINITY)).toBe(false)
  })
})
