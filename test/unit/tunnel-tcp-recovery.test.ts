// Loss recovery the tunnel relies on (src/services/netstack, changed for issue 7's speed goal):
// the sender's SACK scoreboard against a naive model, SACK-driven hole retransmission, and the
// undo of a fast retransmit that reordering caused. Exact segments at exact instants, like
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
          const highest = model.size === 0 ? undefined : Math.max(...model) + 1
          expect(board.highest === undefined ? undefined : ((board.highest - base) >>> 0)).toBe(highest)
          if (highest !== undefined) {
            const hole = board.nextHole(base, base)
            const firstHole = [...Array(highest).keys()].find((i) => !model.has(i))
            expect(hole === undefined ? undefined : (hole[0] - base) >>> 0).toBe(firstHole)
            const count = [...Array(highest).keys()].filter((i) => !model.has(i)).length
            expect(board.unsackedIn(base, (base + highest) >>> 0)).toBe(count)
          }
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

  it('undoes a fast retransmit whose ACK comes back too soon (the original was reordered) and raises the threshold', () => {
    const h = established({ peerOptions: { mss: SEG, sackPermitted: true } })
    h.conn.write(bytes(40 * SEG))
    h.take()
    h.feed({ seq: 5001, ack: 1001 + SEG, flags: 'A' })
    h.take()
    const cc = h.conn.cc!
    const una = 1001 + SEG
    h.clock.advanceTo(h.clock.now() + 1)
    const before = { cwnd: cc.cwnd, ssthresh: cc.ssthresh }
    for (let i = 1; i <= 3; i++) h.feed({ seq: 5001, ack: una, flags: 'A', options: { sack: [[una + SEG, una + (i + 1) * SEG]] } })
    expect(h.take().some((s) => s.seq === una && s.payload.length > 0)).toBe(true)
    expect(cc.inRecovery).toBe(true)
    // 1 ms later (far below half an RTT) the original fills the hole: everything SACKed is acknowledged.
    h.clock.advanceTo(h.clock.now() + 1)
    h.feed({ seq: 5001, ack: una + 4 * SEG, flags: 'A' })
    expect(cc.inRecovery).toBe(false)
    expect(cc.ssthresh).toBe(before.ssthresh)
    expect(cc.cwnd).toBeGreaterThanOrEqual(before.cwnd)
    h.take()
    // Three duplicate ACKs no longer start a recovery: the threshold grew past the reordering seen.
    const at = una + 4 * SEG
    for (let i = 1; i <= 3; i++) h.feed({ seq: 5001, ack: at, flags: 'A', options: { sack: [[at + SEG, at + (i + 1) * SEG]] } })
    expect(cc.inRecovery).toBe(false)
    expect(h.take().some((s) => s.seq === at && s.payload.length > 0)).toBe(false)
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
