// RACK-TLP loss recovery inside a connection (RFC 8985, RFC 6937, RFC 2883), for a peer that
// SACKs: exact segments in at exact instants on the manual clock, exact segments out. The
// handshake leaves SRTT 100 ms, RTTVAR 50 ms, RTO 300 ms (see established()).
import { describe, expect, it } from 'vitest'
import { bytes, established, view, type Harness } from './netstack-tcp-harness.js'

const SEG = 536
const ISS = 1001
/** Start of our i-th data segment. */
const at = (i: number) => ISS + i * SEG
/** The sequence numbers of data segments sent since the last take(), with their instants. */
function resent(h: Harness, from: number): Array<[number, number]> {
  return h.sent.slice(from).filter((s) => s.seg.payload.length > 0).map((s) => [s.at, (s.seg.seq - ISS) / SEG])
}

function sackPeer(): Harness {
  const h = established({ peerOptions: { mss: SEG, sackPermitted: true } })
  h.take()
  return h
}

const ack = (h: Harness, cumulative: number, blocks: Array<[number, number]> = []) =>
  h.feed({ seq: 5001, ack: at(cumulative), flags: 'A', options: blocks.length > 0 ? { sack: blocks.map(([a, b]) => [at(a), at(b)] as [number, number]) } : {} })

describe('RACK-TLP loss recovery with a SACK peer', () => {
  it('resends a hole after the reordering window, long before the RTO', () => {
    const h = sackPeer()
    h.conn.write(bytes(6 * SEG))
    expect(resent(h, 0)).toEqual([[0, 0], [0, 1], [0, 2], [0, 3]]) // IW: 4 segments of 536
    h.at(8)
    ack(h, 1) // min_RTT 8 ms; slow start sends segments 4 and 5
    const mark = h.sent.length
    h.at(10)
    ack(h, 1, [[2, 3]]) // segment 1 missing, 2 arrived
    expect(resent(h, mark)).toEqual([])
    // reo_wnd = min_RTT / 4 = 2 ms after segment 1's RACK deadline (0 + 10 ms): the reorder timer.
    h.at(11)
    expect(resent(h, mark)).toEqual([])
    h.at(12)
    expect(resent(h, mark)).toEqual([[12, 1]])
    expect(h.conn.cc!.inRecovery).toBe(true)
  })

  it('finds a lost retransmission by time, without an RTO', () => {
    const h = sackPeer()
    h.conn.write(bytes(12 * SEG))
    h.at(8)
    ack(h, 1) // segments 4 and 5 go out at 8 ms
    h.at(9)
    ack(h, 1, [[2, 3]]) // pipe shrinks: segment 6 goes out
    ack(h, 1, [[2, 4]]) // segment 7
    expect(resent(h, 0).filter(([t]) => t > 0)).toEqual([[8, 4], [8, 5], [9, 6], [9, 7]])
    h.at(9.5)
    ack(h, 1, [[2, 5]]) // three SACKed: reo_wnd 0, segment 1 is lost at once
    expect(resent(h, 0).filter(([t]) => t > 9)).toEqual([[9.5, 1]])
    // The resend is lost too. Segments 5-7 arrive; PRR sends 8 and 9.
    h.at(17)
    ack(h, 1, [[2, 8]])
    expect(resent(h, 0).filter(([t]) => t > 9.5)).toEqual([[17, 8], [17, 9]])
    // They arrive 8 ms later: data sent after the resend was delivered, and the resend is older
    // than RACK.rtt (8 ms): it is lost, and sent a third time. The RTO would fire at 308 ms.
    h.at(25)
    ack(h, 1, [[2, 10]])
    expect(resent(h, 0).filter(([t]) => t > 17)[0]).toEqual([25, 1])
  })

  it('probes a lost tail after 2 x SRTT and recovers from the probe\'s SACK, not the RTO', () => {
    const h = sackPeer()
    h.conn.write(bytes(4 * SEG)) // everything the application has
    h.at(10)
    ack(h, 2) // segments 2 and 3 (the tail) are lost
    const srtt = h.conn.rtt.srttMs!
    const pto = 10 + 2 * srtt
    h.at(pto - 1)
    expect(resent(h, 0).filter(([t]) => t > 0)).toEqual([])
    h.at(pto)
    expect(resent(h, 0).filter(([t]) => t > 0)).toEqual([[pto, 3]]) // the last segment is the probe
    h.at(pto + 10)
    ack(h, 2, [[3, 4]])
    expect(resent(h, 0).filter(([t]) => t > pto)).toEqual([[pto + 10, 2]])
    h.at(pto + 20)
    ack(h, 4)
    expect(h.conn.sndUna).toBe(at(4))
    expect(h.conn.cc!.inRecovery).toBe(false)
  })

  it('after a timeout resends only what the peer did not SACK, one segment first', () => {
    const h = sackPeer()
    h.conn.write(bytes(4 * SEG))
    h.at(5)
    ack(h, 0, [[1, 4]]) // segment 0 lost at once (3 SACKed, reo_wnd 0)
    expect(resent(h, 0).filter(([t]) => t > 0)).toEqual([[5, 0]])
    // The resend and the probe after 2 x SRTT are lost; the RTO (300 ms after the probe) fires.
    h.at(600)
    expect(resent(h, 0).filter(([t]) => t > 5)).toEqual([[205, 0], [505, 0]])
    expect(h.conn.cc!.cwnd).toBe(SEG)
    h.at(515)
    ack(h, 4)
    expect(h.conn.sndUna).toBe(at(4))
    expect(resent(h, 0).some(([t, i]) => t > 0 && i >= 1)).toBe(false) // segments 1-3 never went out again
  })

  it('a second timeout in a row resends SACKed data too (the peer may have reneged)', () => {
    const h = sackPeer()
    h.conn.write(bytes(4 * SEG))
    h.at(5)
    ack(h, 0, [[1, 4]])
    h.at(505) // the resend at 5 and the probe at 205 went unanswered: first timeout, segment 0 only
    expect(resent(h, 0).filter(([t]) => t > 5)).toEqual([[205, 0], [505, 0]])
    h.at(1104)
    expect(resent(h, 0).filter(([t]) => t > 505)).toEqual([])
    h.at(1105) // backed off to 600 ms: second timeout, SACKs forgotten
    expect(resent(h, 0).filter(([t]) => t > 505)).toEqual([[1105, 0]])
    h.at(1115)
    ack(h, 1) // slow start: the window grows to two segments, both resent
    expect(resent(h, 0).filter(([t]) => t > 1105)).toEqual([[1115, 1], [1115, 2]])
  })

  it('paces a recovery by PRR: about one segment per two delivered down to ssthresh', () => {
    const h = sackPeer()
    h.conn.write(bytes(60 * SEG))
    // Grow the window to 16 segments with clean ACKs.
    let now = 10
    for (let i = 1; i <= 12; i++) {
      h.at(now++)
      ack(h, i)
    }
    const una = 12
    const flight = (h.conn.sndMax - h.conn.sndUna) / SEG
    expect(flight).toBeGreaterThanOrEqual(12)
    // Segment 12 is lost; the next ones are SACKed one by one (1 ms apart, RACK needs two).
    let k = 1
    for (; !h.conn.cc!.inRecovery; k++) {
      h.at(now++)
      ack(h, una, [[una + 1, una + 1 + k]])
    }
    expect(k - 1).toBeLessThanOrEqual(3)
    const mark = h.sent.length - 1
    expect(resent(h, mark)).toEqual([[now - 1, una]]) // the fast retransmit
    const recoverFs = (h.conn.sndMax - h.conn.sndUna) / SEG
    const ssthresh = h.conn.cc!.ssthresh / SEG
    let delivered = 1
    for (; k < recoverFs - 2; k++, delivered++) {
      h.at(now++)
      ack(h, una, [[una + 1, una + 1 + k]])
    }
    // While pipe > ssthresh, PRR sends ssthresh / RecoverFS of what is delivered (about half).
    const sent = resent(h, mark).length
    expect(Math.abs(sent - (delivered * ssthresh) / recoverFs)).toBeLessThanOrEqual(1)
    expect(sent).toBeLessThan(delivered)
  })

  it('undoes the window reduction when the peer reports the only resend as a duplicate (D-SACK)', () => {
    const h = sackPeer()
    h.conn.write(bytes(8 * SEG))
    h.at(5)
    ack(h, 1)
    const before = { cwnd: h.conn.cc!.cwnd, ssthresh: h.conn.cc!.ssthresh }
    h.at(6)
    ack(h, 1, [[2, 5]]) // segment 1 presumed lost (reo_wnd 0 with three SACKed)
    expect(h.conn.cc!.inRecovery).toBe(true)
    expect(h.conn.cc!.ssthresh).toBeLessThan(before.ssthresh)
    // A round trip later: everything is acknowledged, and the resend came as a duplicate.
    h.at(20)
    h.feed({ seq: 5001, ack: at(6), flags: 'A', options: { sack: [[at(1), at(2)]] } })
    expect(h.conn.cc!.inRecovery).toBe(false)
    expect(h.conn.cc!.ssthresh).toBe(before.ssthresh)
    expect(h.conn.cc!.cwnd).toBeGreaterThanOrEqual(before.cwnd)
  })
})

describe('D-SACK from the receiver (RFC 2883)', () => {
  it('reports a segment received twice in the first SACK block of an immediate ACK', () => {
    const h = sackPeer()
    h.feed({ seq: 5001, ack: ISS, flags: 'A', payload: 100 })
    h.feed({ seq: 5101, ack: ISS, flags: 'A', payload: 100 })
    h.take()
    h.feed({ seq: 5001, ack: ISS, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: ISS, ack: 5201, len: 0, window: 65335, sack: [[5001, 5101]] }])
  })

  it('reports a duplicate of data held out of order before the ordinary blocks', () => {
    const h = sackPeer()
    h.feed({ seq: 5201, ack: ISS, flags: 'A', payload: 100 })
    h.take()
    h.feed({ seq: 5201, ack: ISS, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: ISS, ack: 5001, len: 0, window: 65535, sack: [[5201, 5301], [5201, 5301]] }])
    h.feed({ seq: 5401, ack: ISS, flags: 'A', payload: 100 })
    expect(h.take().map((s) => s.options.sack)).toEqual([[[5401, 5501], [5201, 5301]]]) // reported once only
  })
})
