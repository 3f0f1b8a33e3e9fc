// RACK's per-segment record (src/services/netstack/tcp-rack.ts) under arbitrary interleavings of
// sends, resends, cumulative ACKs, SACK blocks (also D-SACK-like and stale ones), loss detection
// and timeouts, across the sequence wrap: pipe never goes negative or above what is unACKed and
// unSACKed, every byte is delivered exactly once (PRR's DeliveredData; again only after a timeout
// forgot its SACK), and a timeout leaves exactly the unSACKed segments to resend, lowest first.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RackSender } from '../../src/services/netstack/tcp-rack.js'

type Op =
  | { kind: 'send'; len: number }
  | { kind: 'ack'; upTo: number }
  | { kind: 'sack'; from: number; count: number }
  | { kind: 'detect'; reo: number }
  | { kind: 'resend' }
  | { kind: 'timeout'; forgetSacks: boolean }
  | { kind: 'tick'; ms: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), len: fc.integer({ min: 1, max: 1500 }) }),
  fc.record({ kind: fc.constant('ack' as const), upTo: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('sack' as const), from: fc.integer({ min: -1, max: 6 }), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('sack' as const), from: fc.integer({ min: 1, max: 3 }), count: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('detect' as const), reo: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('resend' as const) }),
  fc.record({ kind: fc.constant('timeout' as const), forgetSacks: fc.boolean() }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 20 }) }),
)

describe('RACK segment record', () => {
  it('keeps pipe consistent and delivers every byte exactly once, whatever arrives in what order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.array(op, { maxLength: 80 }), (base, ops) => {
        const rack = new RackSender()
        const ends: number[] = [] // segment boundaries as offsets from base
        let una = 0
        let sent = 0
        let now = 0
        let delivered = 0
        let redelivered = 0
        const sacked = new Set<number>() // segment indexes the peer reported
        const seq = (offset: number) => (base + offset) >>> 0
        const indexAbove = (offset: number) => ends.findIndex((e) => e > offset)
        for (const o of ops) {
          switch (o.kind) {
            case 'send': {
              rack.onTransmit(seq(sent), seq(sent + o.len), false, now)
              sent += o.len
              ends.push(sent)
              break
            }
            case 'ack': {
              // up to `upTo` segments past the first one not yet ACKed
              const first = indexAbove(una)
              const i = first < 0 ? ends.length - 1 : Math.min(first + o.upTo, ends.length) - 1
              const to = i < 0 ? 0 : ends[i]!
              if (to < una) break // stale ACKs are filtered by the connection
              delivered += rack.onAck(seq(to), [], seq(sent), now).delivered
              una = to
              break
            }
            case 'sack': {
              const first = Math.max(0, indexAbove(una) + o.from)
              const last = Math.min(ends.length - 1, first + o.count - 1)
              if (first > last || indexAbove(una) < 0) break
              const start = first === 0 ? 0 : ends[first - 1]!
              delivered += rack.onAck(seq(una), [[seq(start), seq(ends[last]!)]], seq(sent), now).delivered
              for (let k = first; k <= last; k++) if (ends[k]! > una) sacked.add(k)
              break
            }
            case 'detect':
              rack.detectLoss(now, o.reo)
              break
            case 'resend': {
              const lost = rack.nextLost()
              if (lost) rack.onTransmit(lost.start, lost.end, false, now)
              break
            }
            case 'timeout':
              rack.markAllLost(o.forgetSacks)
              expect(rack.inFlight).toBe(0)
              if (o.forgetSacks) {
                // Forgotten SACKs count as delivered again when they come back (PRR's DeliveredData).
                for (const k of sacked) if (ends[k]! > una) redelivered += ends[k]! - Math.max(k === 0 ? 0 : ends[k - 1]!, una)
                sacked.clear()
              }
              break
            case 'tick':
              now += o.ms
              break
          }
          const unsackedUnacked = ends.reduce((sum, e, k) => {
            const s = k === 0 ? 0 : ends[k - 1]!
            return e > una && !sacked.has(k) ? sum + (e - Math.max(s, una)) : sum
          }, 0)
          expect(rack.inFlight).toBeGreaterThanOrEqual(0)
          expect(rack.inFlight).toBeLessThanOrEqual(unsackedUnacked)
        }
        // A timeout, then every resend: exactly the unSACKed, unACKed segments, lowest first.
        rack.markAllLost()
        const resent: number[] = []
        for (let s = rack.nextLost(); s !== undefined; s = rack.nextLost()) {
          resent.push((s.start - base) >>> 0)
          rack.onTransmit(s.start, s.end, false, now)
        }
        const expected = ends.map((e, k) => [k === 0 ? 0 : ends[k - 1]!, e, k] as const).filter(([, e, k]) => e > una && !sacked.has(k)).map(([s]) => Math.max(s, una))
        expect(resent).toEqual(expected)
        // Everything acknowledged: each byte was delivered exactly once, the pipe is empty.
        delivered += rack.onAck(seq(sent), [], seq(sent), now + 1).delivered
        expect(delivered).toBe(sent + redelivered)
        expect(rack.inFlight).toBe(0)
        expect(rack.outstanding).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})
