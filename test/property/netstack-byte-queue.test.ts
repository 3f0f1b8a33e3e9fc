import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteQueue } from '../../src/services/netstack/byte-queue.js'

describe('the byte queue under the TCP buffers', () => {
  it('behaves like one flat array under any mix of push, consume, copy and shift', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), bytes: fc.uint8Array({ maxLength: 40 }) }),
      fc.record({ kind: fc.constant('consume' as const), n: fc.nat({ max: 60 }) }),
      fc.record({ kind: fc.constant('copy' as const), offset: fc.nat({ max: 200 }), length: fc.nat({ max: 100 }) }),
      fc.record({ kind: fc.constant('shift' as const), max: fc.integer({ min: 1, max: 50 }) }),
    )
    fc.assert(fc.property(fc.array(op, { minLength: 1500, maxLength: 4000 }), (ops) => {
      const queue = new ByteQueue()
      let model: number[] = []
      for (const o of ops) {
        if (o.kind === 'push') {
          queue.push(o.bytes)
          model.push(...o.bytes)
        } else if (o.kind === 'consume') {
          queue.consume(o.n)
          model = model.slice(o.n)
        } else if (o.kind === 'copy') {
          const length = Math.max(0, Math.min(o.length, model.length - o.offset))
          const out = new Uint8Array(length)
          queue.copyTo(o.offset, length, out, 0)
          expect([...out]).toEqual(model.slice(o.offset, o.offset + length))
        } else {
          const got = queue.shift(o.max)
          const want = model.slice(0, Math.min(o.max, model.length))
          if (model.length === 0) expect(got).toBeUndefined()
          else {
            expect([...got!]).toEqual(want.slice(0, got!.length))
            expect(got!.length).toBeGreaterThan(0)
            model = model.slice(got!.length)
          }
        }
        expect(queue.length).toBe(model.length)
      }
    }), { numRuns: 15 })
  })

  it('stays exact across the compaction of thousands of tiny chunks', () => {
    const queue = new ByteQueue()
    const model: number[] = []
    for (let i = 0; i < 6000; i++) {
      queue.push(Uint8Array.of(i & 0xff))
      model.push(i & 0xff)
    }
    let front = 0
    for (let step = 0; step < 5900; step += 7) {
      const out = new Uint8Array(20)
      queue.copyTo(3, 20, out, 0)
      expect([...out]).toEqual(model.slice(front + 3, front + 23))
      queue.consume(7)
      front += 7
      queue.push(Uint8Array.of(1, 2))
      model.push(1, 2)
    }
    expect(queue.length).toBe(model.length - front)
  })
})
