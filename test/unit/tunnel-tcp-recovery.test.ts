// Loss recovery the tunnel relies on (src/services/netstack, changed for issue 7's speed goal):
// the SACK scoreboard against a naive model, SACK-driven hole retransmission, and reordering
// that RACK's window absorbs (more in tcp-rack-tlp.test.ts). Exact segments at exact instants, like
// test/unit/tcp-connection.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SackScoreboard } from '../../src/services/netstack/tcp-sack-scoreboard.js'
import { bytes, established } from './netstack-tcp-harness.js'

const SEG = 536

describe('the SACK scoreboard', () => {
  it('agrees with a byte-set model on sacked bytes, holes and un-SACKed counts, across the sequence wrap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.array(fc.tuple(fc.integer({ min: -20, max: 400 }), fc.integer({ min: 0, max: 120 })), { maxLength: 12 }),
        fc.integer({ min: 0, max: 300 }),
        (base, raw, pruneAt) => {
          const sndMax = 300
          const board = new SackScoreboard()
          const model = new Set<number>()
          for (const [start, len] of raw) {
            const s = start
            const e = start + len
            board.update([[(base + s) >>> 0, (base + e) >>> 0]], base, (base + sndMax) >>> 0)
            // the model: valid blocks have start < end <= sndMax and end > una (0); clamp to una
            if (s < e && e <= sndMax && e > 0) for (let i = Math.max(0, s); i < e; i++) model.add(i)
          }
          expect(board.sackedBytes).toBe(model.size)
          // What a new block would add: exactly the bytes the model lacks, above una - over the
          // whole window (every hole, in order) and over a part of it.
          const bytesOf = (ranges: Array<[number, number]>) => ranges.flatMap(([s, e]) => [...Array((e - s) >>> 0).keys()].map((i) => ((s - base) >>> 0) + i))
          const all = board.uncovered(base, (base + sndMax) >>> 0, base)
          expect(bytesOf(all)).toEqual([...Array(sndMax).keys()].filter((i) => !model.has(i)))
          const fresh = board.uncovered((base + 40) >>> 0, (base + 260) >>> 0, base)
          const freshModel = [...Array(220).keys()].map((i) => i + 40).filter((i) => !model.has(i))
          expect(bytesOf(fresh)).toEqual(freshModel)
          board.prune((base + pruneAt) >>> 0)
          expect(board.sackedBytes).toBe([...model].filter((i) => i >= pruneAt).length)
        },
      ),
    )
  })
})

describe('TCP loss recovery with SACK', () => {
  it('resends every reported hole within one round trip instead of one hole per round trip', () => {
    const h = established({ peerOptions: { mss: SEG, sackPermitted: true } })
    h.conn.write(bytes(40 * SEG))
    h.take()
    // Two ACKs grow the window: six segments are in flight above SND.UNA.
    h.feed({ seq: 5001, ack: 1001 + SEG, flags: 'A' })
    h.feed({ seq: 5001, ack: 1001 + 2 * SEG, flags: 'A' })
    h.take()
    const una = 1001 + 2 * SEG
    // Segments at una and una + 2*SEG are lost; the peer SACKs what came after each.
    const sack = (blocks: Array<[number, number]>) => ({ seq: 5001, ack: una, flags: 'A', options: { sack: blocks } })
    h.feed(sack([[una + SEG, una + 2 * SEG]]))
    h.feed(sack([[una + SEG, una + 2 * SEG], [una + 3 * SEG, una + 4 * SEG]]))
    // Three segments SACKed above the second hole mark it lost (DupThresh, RFC 6675 IsLost).
    h.feed(sack([[una + SEG, una + 2 * SEG], [una + 3 * SEG, una + 6 * SEG]]))
    const resent = h.take().filter((s) => s.payload.length > 0 && s.seq < una + 6 * SEG).map((s) => s.seq)
    expect(resent).toContain(una)
    expect(resent).toContain(una + 2 * SEG) // the second hole too, without waiting a round trip
    expect(h.conn.cc!.inRecovery).toBe(true)
  })

  it('does not resend a hole that fills itself within the reordering window (RACK), nor shrink the window', () => {
    const h = established({ peerOptions: { mss: SEG, sackPermitted: true } })
    h.conn.write(bytes(40 * SEG))
    h.take()
    const cc = h.conn.cc!
    h.clock.advanceTo(8)
    h.feed({ seq: 5001, ack: 1001 + SEG, flags: 'A' }) // min_RTT 8 ms: reo_wnd 2 ms
    const before = { cwnd: cc.cwnd, ssthresh: cc.ssthresh }
    const una = 1001 + SEG
    h.clock.advanceTo(9)
    h.feed({ seq: 5001, ack: una, flags: 'A', options: { sack: [[una + SEG, una + 2 * SEG]] } })
    // The segment was only late: it arrives before its RACK deadline (0 + 9 + 2 ms).
    h.clock.advanceTo(10)
    h.feed({ seq: 5001, ack: una + 2 * SEG, flags: 'A' })
    h.clock.advanceTo(50)
    expect(h.sent.filter((s) => s.seg.seq === una && s.seg.payload.length > 0).length).toBe(1)
    expect(cc.inRecovery).toBe(false)
    expect(cc.ssthresh).toBe(before.ssthresh)
    expect(cc.cwnd).toBeGreaterThanOrEqual(before.cwnd)
  })

  it('keeps a fast retransmit whose ACK takes a round trip (a real loss)', () => {
    const h = established({ peerOptions: { mss: SEG, sackPermitted: true } })
    h.conn.write(bytes(40 * SEG))
    h.take()
    h.feed({ seq: 5001, ack: 1001 + SEG, flags: 'A' })
    h.take()
    const cc = h.conn.cc!
    const una = 1001 + SEG
    for (let i = 1; i <= 3; i++) h.feed({ seq: 5001, ack: una, flags: 'A', options: { sack: [[una + SEG, una + (i + 1) * SEG]] } })
    const ssthresh = cc.ssthresh
    expect(ssthresh).toBeLessThan(0x7fffffff)
    h.clock.advanceTo(h.clock.now() + Math.ceil(h.conn.rtt.srttMs ?? 100))
    h.feed({ seq: 5001, ack: una + 4 * SEG, flags: 'A' })
    expect(cc.ssthresh).toBe(ssthresh) // the reduction stays
    expect(h.conn.dupAcks).toBe(0)
  })
})
