// RACK loss detection on its own (src/services/netstack/tcp-rack.ts, RFC 8985 6): transmissions
// and ACKs with explicit timestamps, no connection, no clock.
import { describe, expect, it } from 'vitest'
import { RackSender } from '../../src/services/netstack/tcp-rack.js'

const SEG = 1000
const una = 1_000

/** Segment i covers [una + i*SEG, una + (i+1)*SEG). */
const start = (i: number) => una + i * SEG
const end = (i: number) => start(i + 1)

function sendAll(rack: RackSender, count: number, at: number): void {
  for (let i = 0; i < count; i++) rack.onTransmit(start(i), end(i), false, at)
}

describe('RACK loss detection (RFC 8985)', () => {
  it('marks a segment lost only once a later-sent segment was delivered and RACK.rtt + reo_wnd has passed', () => {
    const rack = new RackSender()
    sendAll(rack, 4, 0)
    expect(rack.inFlight).toBe(4 * SEG)
    // Segment 0 is ACKed after 8 ms (min_RTT 8); segment 2 is SACKed at 10 ms, segment 1 is missing.
    rack.onAck(end(0), [], end(3), 8)
    const result = rack.onAck(end(0), [[start(2), end(2)]], end(3), 10)
    expect(result.delivered).toBe(SEG)
    expect(rack.rackRttMs).toBe(10)
    // reo_wnd = min_RTT / 4 = 2 ms (no reordering seen, fewer than 3 segments SACKed).
    const reo = rack.reoWnd(20, false)
    expect(reo).toBe(2)
    expect(rack.detectLoss(10, reo)).toEqual({ lost: 0, timeoutMs: 2 })
    expect(rack.detectLoss(11.9, reo).lost).toBe(0)
    expect(rack.detectLoss(12, reo)).toEqual({ lost: 1, timeoutMs: undefined })
    expect(rack.nextLost()?.start).toBe(start(1))
    // Segment 3 was sent at the same instant but above the RACK segment: not judged yet.
    expect(rack.inFlight).toBe(SEG) // segment 3; the lost one left the pipe
  })

  it('finds a lost retransmission once data sent after the resend is delivered', () => {
    const rack = new RackSender()
    sendAll(rack, 3, 0)
    rack.onAck(end(0), [], end(2), 5)
    rack.onAck(end(0), [[start(2), end(2)]], end(2), 6)
    expect(rack.detectLoss(7.25, rack.reoWnd(5, false)).lost).toBe(1)
    rack.onTransmit(start(1), end(1), false, 8) // the resend
    expect(rack.nextLost()).toBeUndefined()
    expect(rack.inFlight).toBe(SEG)
    rack.onTransmit(start(3), end(3), false, 9) // new data after it
    rack.onAck(end(0), [[start(2), end(3)]], end(3), 14)
    // reo_wnd is 0 in recovery; the resend (8 ms) + RACK.rtt (5 ms) is due at 13 ms.
    expect(rack.detectLoss(14, rack.reoWnd(5, true))).toEqual({ lost: 1, timeoutMs: undefined })
    expect(rack.nextLost()?.start).toBe(start(1))
  })

  it('notes reordering when a segment never resent is delivered below the highest delivered one, and widens the window on D-SACK', () => {
    const rack = new RackSender()
    sendAll(rack, 3, 0)
    rack.onAck(una, [[start(1), end(1)]], end(2), 4)
    expect(rack.reorderingSeen).toBe(false)
    rack.onAck(end(1), [], end(2), 5)
    expect(rack.reorderingSeen).toBe(true)
    expect(rack.minRttMs).toBe(4)
    // With reordering seen the window stays open in recovery too: min_RTT / 4, at most SRTT.
    expect(rack.reoWnd(50, true)).toBe(1)
    rack.widenReoWnd()
    rack.widenReoWnd()
    expect(rack.reoWnd(50, true)).toBe(3)
    expect(rack.reoWnd(2, true)).toBe(2)
    for (let i = 0; i < 16; i++) rack.recoveryEnded()
    expect(rack.reoWnd(50, true)).toBe(1)
  })

  it('recognises D-SACK blocks below the ACK or inside the next block, and an ACK too early for the resend', () => {
    const rack = new RackSender()
    sendAll(rack, 4, 0)
    rack.onAck(end(0), [], end(3), 10)
    rack.onAck(end(0), [[start(2), end(3)]], end(3), 11)
    rack.detectLoss(20, 0)
    rack.onTransmit(start(1), end(1), false, 20)
    // 2 ms after the resend (min_RTT 10): the original arrived. RACK is not moved by it.
    const early = rack.onAck(end(3), [[start(1), end(1)]], end(3), 22)
    expect(early).toMatchObject({ dsack: [start(1), end(1)], spuriousResends: [start(1)], delivered: SEG })
    expect(rack.rackXmitAt).toBe(0) // RACK still points at an original transmission
    const inside = new RackSender()
    sendAll(inside, 4, 0)
    expect(inside.onAck(una, [[start(2), end(2)], [start(1), end(3)]], end(3), 5).dsack).toEqual([start(2), end(2)])
    expect(inside.onAck(una, [[start(1), end(2)]], end(3), 6).dsack).toBeUndefined()
  })

  it('after a timeout everything not SACKed is lost and resent lowest first', () => {
    const rack = new RackSender()
    sendAll(rack, 5, 0)
    rack.onAck(una, [[start(2), end(2)]], end(4), 3)
    rack.markAllLost()
    expect(rack.inFlight).toBe(0)
    const order: number[] = []
    for (let s = rack.nextLost(); s !== undefined; s = rack.nextLost()) {
      order.push((s.start - una) / SEG)
      rack.onTransmit(s.start, s.end, false, 10)
    }
    expect(order).toEqual([0, 1, 3, 4])
    expect(rack.inFlight).toBe(4 * SEG)
    expect(rack.lastUnsacked()?.start).toBe(start(4))
  })

  it('a repeated timeout forgets the SACKs too, so data a reneging peer dropped is resent', () => {
    const rack = new RackSender()
    sendAll(rack, 3, 0)
    rack.onAck(una, [[start(1), end(2)]], end(2), 3)
    rack.markAllLost(true)
    expect(rack.sackedBytes).toBe(0)
    const order: number[] = []
    for (let s = rack.nextLost(); s !== undefined; s = rack.nextLost()) {
      order.push((s.start - una) / SEG)
      rack.onTransmit(s.start, s.end, false, 10)
    }
    expect(order).toEqual([0, 1, 2])
    expect(rack.inFlight).toBe(3 * SEG)
    expect(rack.onAck(end(2), [], end(2), 20).delivered).toBe(3 * SEG)
    expect(rack.inFlight).toBe(0)
  })
})
