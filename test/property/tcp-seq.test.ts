import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seqAdd, seqDiff, seqGe, seqGt, seqInRange, seqLe, seqLt } from '../../src/services/netstack/seq.js'

const seq = fc.nat({ max: 0xffffffff })
const step = fc.integer({ min: 1, max: 2 ** 31 - 1 })

describe('sequence-number arithmetic modulo 2^32', () => {
  it('a number is less than anything up to 2^31 - 1 after it, across the wrap', () => {
    fc.assert(fc.property(seq, step, (a, d) => {
      const b = seqAdd(a, d)
      expect(seqLt(a, b)).toBe(true)
      expect(seqGt(b, a)).toBe(true)
      expect(seqLt(b, a)).toBe(false)
      expect(seqLe(a, b) && !seqGe(a, b)).toBe(true)
    }))
  })

  it('exactly one of <, =, > holds (trichotomy) and <= is < or =', () => {
    fc.assert(fc.property(seq, seq, (a, b) => {
      fc.pre(Math.abs(seqDiff(a, b)) !== 2 ** 31 && seqDiff(a, b) !== -(2 ** 31))
      const count = Number(seqLt(a, b)) + Number(a === b) + Number(seqGt(a, b))
      expect(count).toBe(1)
      expect(seqLe(a, b)).toBe(seqLt(a, b) || a === b)
    }))
  })

  it('< is transitive inside any half of the sequence space', () => {
    fc.assert(fc.property(seq, fc.nat({ max: 2 ** 30 }), fc.nat({ max: 2 ** 30 }), (a, d1, d2) => {
      const b = seqAdd(a, d1)
      const c = seqAdd(b, d2)
      if (seqLt(a, b) && seqLt(b, c)) expect(seqLt(a, c)).toBe(true)
      expect(seqLe(a, c)).toBe(true)
    }))
  })

  it('seqDiff undoes seqAdd for every distance below 2^31', () => {
    fc.assert(fc.property(seq, fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), (a, d) => {
      expect(seqDiff(seqAdd(a, d), a)).toBe(d)
      expect(seqAdd(a, d)).toBeGreaterThanOrEqual(0)
      expect(seqAdd(a, d)).toBeLessThanOrEqual(0xffffffff)
    }))
  })

  it('range membership agrees with distances from the left edge', () => {
    fc.assert(fc.property(seq, fc.nat({ max: 2 ** 30 }), fc.nat({ max: 2 ** 30 }), (lo, width, offset) => {
      expect(seqInRange(seqAdd(lo, offset), lo, seqAdd(lo, width))).toBe(offset < width)
    }))
  })
})
