import { describe, expect, it } from 'vitest'
import { MSS, PEER_ISS, activeOpen, bytes, established, passiveOpen, view } from './netstack-tcp-harness.js'

describe('TCP handshake', () => {
  it('an active open sends a SYN with MSS = MTU - 40, window scale and SACK-permitted', () => {
    const h = activeOpen({ settings: { receiveBufferBytes: 1 << 20 } })
    const [syn] = h.take()
    expect(view(syn!)).toEqual({ flags: 'S', seq: 1000, ack: 0, len: 0, window: 65535 })
    expect(syn!.options).toEqual({ mss: MSS, windowScale: 5, sackPermitted: true })
    expect(h.conn.state).toBe('SYN_SENT')
  })

  it('a SYN-ACK completes the open, is acknowledged at once, and the smaller MSS wins', () => {
    const h = activeOpen()
    h.take()
    h.feed({ seq: PEER_ISS, ack: 1001, flags: 'SA', options: { mss: 1460 } })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535 }])
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.conn.sendMss).toBe(MSS)
    expect(h.events).toContain('established')
  })

  it('a peer SYN without MSS option limits segments to 536 bytes', () => {
    const h = activeOpen()
    h.feed({ seq: PEER_ISS, ack: 1001, flags: 'SA' })
    expect(h.conn.sendMss).toBe(536)
  })

  it('a SYN-ACK acknowledging something never sent is answered with a RST', () => {
    const h = activeOpen()
    h.take()
    h.feed({ seq: PEER_ISS, ack: 999, flags: 'SA' })
    expect(h.take().map(view)).toEqual([{ flags: 'R', seq: 999, ack: 0, len: 0, window: 0 }])
    expect(h.conn.state).toBe('SYN_SENT')
  })

  it('a RST answering the SYN refuses the connection', () => {
    const h = activeOpen()
    h.feed({ seq: 0, ack: 1001, flags: 'RA' })
    expect(h.conn.state).toBe('CLOSED')
    expect(h.closedWith).toEqual(['MA_ERR_TCP_REFUSED'])
  })

  it('the SYN is retransmitted with exponential backoff and the connect times out', () => {
    const h = activeOpen({ settings: { synRetries: 2 } })
    h.clock.advanceTo(7000)
    expect(h.sent.map((s) => [s.at, view(s.seg).flags, s.seg.seq])).toEqual([[0, 'S', 1000], [1000, 'S', 1000], [3000, 'S', 1000]])
    expect(h.conn.state).toBe('CLOSED')
    expect(h.closedWith).toEqual(['MA_ERR_TCP_TIMEOUT'])
  })

  it('simultaneous open: a SYN in SYN_SENT moves to SYN_RECEIVED with a SYN-ACK, its ACK establishes', () => {
    const h = activeOpen()
    h.take()
    h.feed({ seq: PEER_ISS, flags: 'S', options: { mss: 1460 } })
    expect(h.conn.state).toBe('SYN_RECEIVED')
    expect(h.take().map(view)).toEqual([{ flags: 'SA', seq: 1000, ack: 5001, len: 0, window: 65535 }])
    h.feed({ seq: PEER_ISS + 1, ack: 1001, flags: 'A' })
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.states).toEqual(['SYN_SENT', 'SYN_RECEIVED', 'ESTABLISHED'])
  })

  it('a passive open answers with SYN-ACK carrying only the options the peer offered', () => {
    const h = passiveOpen({ seq: 7000, flags: 'S', window: 1000, options: { mss: 1200, windowScale: 2, sackPermitted: true } }, { settings: { receiveBufferBytes: 1 << 20 } })
    const [synAck] = h.take()
    expect(view(synAck!)).toEqual({ flags: 'SA', seq: 1000, ack: 7001, len: 0, window: 65535 })
    expect(synAck!.options).toEqual({ mss: MSS, windowScale: 5, sackPermitted: true })
    expect(h.conn.state).toBe('SYN_RECEIVED')
    h.feed({ seq: 7001, ack: 1001, flags: 'A', window: 100 })
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.conn.sndWnd).toBe(400)
    expect(h.conn.sendMss).toBe(1200)

    const plain = passiveOpen({ seq: 7000, flags: 'S', options: { mss: 1200 } })
    expect(plain.take()[0]!.options).toEqual({ mss: MSS })
  })

  it('a repeated SYN in SYN_RECEIVED (our SYN-ACK was lost) gets the SYN-ACK again', () => {
    const h = passiveOpen({ seq: 7000, flags: 'S', options: { mss: 1200 } })
    h.take()
    h.clock.advanceTo(300)
    h.feed({ seq: 7000, flags: 'S', options: { mss: 1200 } })
    expect(h.take().map(view)).toEqual([{ flags: 'SA', seq: 1000, ack: 7001, len: 0, window: 65535 }])
  })

  it('an ACK in SYN_RECEIVED that acknowledges nothing we sent is answered with a RST', () => {
    const h = passiveOpen({ seq: 7000, flags: 'S' })
    h.take()
    h.feed({ seq: 7001, ack: 5555, flags: 'A' })
    expect(h.take().map(view)).toEqual([{ flags: 'R', seq: 5555, ack: 0, len: 0, window: 0 }])
    expect(h.conn.state).toBe('SYN_RECEIVED')
  })
})

describe('TCP sending', () => {
  it('writes go out in MSS-sized segments, the last one pushed', () => {
    const h = established()
    h.conn.write(bytes(3000))
    expect(h.take().map(view)).toEqual([
      { flags: 'A', seq: 1001, ack: 5001, len: 1380, window: 65535 },
      { flags: 'A', seq: 2381, ack: 5001, len: 1380, window: 65535 },
      { flags: 'AP', seq: 3761, ack: 5001, len: 240, window: 65535 },
    ])
  })

  it('the peer window scale multiplies every later window field', () => {
    const h = established({ settings: { receiveBufferBytes: 1 << 20 }, peerOptions: { mss: 1460, windowScale: 7 } })
    h.feed({ seq: 5001, ack: 1001, flags: 'A', window: 100 })
    expect(h.conn.sndWnd).toBe(12800)
    h.conn.write(bytes(10))
    // Our 1 MiB buffer advertised in units of 2^5.
    expect(h.take().map(view)).toEqual([{ flags: 'AP', seq: 1001, ack: 5001, len: 10, window: 32768 }])
  })

  it('without window scaling from the peer neither side scales', () => {
    const h = established({ settings: { receiveBufferBytes: 1 << 20 } })
    expect(h.conn.sndWscale).toBe(0)
    expect(h.conn.rcvWscale).toBe(0)
    h.conn.write(bytes(10))
    expect(h.take()[0]!.window).toBe(65535)
  })

  it('the initial congestion window is 3 segments of 1380 bytes (RFC 5681)', () => {
    const h = established({ peerOptions: { mss: 1460 } })
    h.conn.write(bytes(10_000))
    expect(h.take().map((s) => s.payload.length)).toEqual([1380, 1380, 1380])
  })
})

describe('TCP delayed ACK', () => {
  it('a lone segment is acknowledged after 40 ms, not before', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'AP', payload: 100 })
    h.clock.advanceTo(39)
    expect(h.take()).toEqual([])
    h.clock.advanceTo(40)
    expect(h.sent.at(-1)!.at).toBe(40)
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5101, len: 0, window: 65435 }])
  })

  it('every second segment is acknowledged at once', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take()).toEqual([])
    h.feed({ seq: 5101, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map((s) => view(s).ack)).toEqual([5201])
    h.clock.advanceTo(100)
    expect(h.take()).toEqual([])
  })

  it('data going the other way carries the pending ACK', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    h.conn.write(bytes(10))
    expect(h.take().map(view)).toEqual([{ flags: 'AP', seq: 1001, ack: 5101, len: 10, window: 65435 }])
    h.clock.advanceTo(100)
    expect(h.take()).toEqual([])
  })
})

describe('TCP out-of-order reception and SACK', () => {
  it('out-of-order data is acknowledged at once with SACK blocks, newest first, and a filled hole too', () => {
    const h = established({ peerOptions: { mss: 1460, sackPermitted: true } })
    h.feed({ seq: 5101, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535, sack: [[5101, 5201]] }])
    h.feed({ seq: 5301, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535, sack: [[5301, 5401], [5101, 5201]] }])
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5201, len: 0, window: 65335, sack: [[5301, 5401]] }])
    h.feed({ seq: 5201, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5401, len: 0, window: 65135 }])
    const read = h.conn.read()!
    expect(read.length + h.conn.readableBytes).toBe(400)
  })

  it('no SACK blocks are sent when the peer did not permit them', () => {
    const h = established()
    h.feed({ seq: 5101, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535 }])
  })

  it('a duplicate of already received data is acknowledged at once', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    h.feed({ seq: 5101, ack: 1001, flags: 'A', payload: 100 })
    h.take()
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    expect(h.take().map((s) => view(s).ack)).toEqual([5201])
  })
})

describe('TCP retransmission timeout', () => {
  it('retransmits after the RTO, doubling each time; an ACK of a retransmission gives no RTT sample (Karn)', () => {
    const h = established()
    expect(h.conn.rtt.rtoMs).toBe(300)
    h.conn.write(bytes(100))
    h.clock.advanceTo(4500)
    expect(h.sent.filter((s) => s.seg.payload.length > 0).map((s) => [s.at, s.seg.seq])).toEqual([[0, 1001], [300, 1001], [900, 1001], [2100, 1001], [4500, 1001]])
    h.clock.advanceTo(4550)
    h.feed({ seq: 5001, ack: 1101, flags: 'A' })
    expect(h.conn.rtt.srttMs).toBe(100)
    expect(h.conn.rtt.rtoMs).toBe(4800) // backed off until a clean sample arrives
  })

  it('the first RTO is 1 s while no RTT is known', () => {
    const h = activeOpen()
    h.clock.advanceTo(999)
    expect(h.sent.length).toBe(1)
    h.clock.advanceTo(1000)
    expect(h.sent.length).toBe(2)
  })

  it('a clean sample sets SRTT, RTTVAR and an RTO of SRTT + 4 RTTVAR (RFC 6298)', () => {
    const h = established()
    h.clock.advanceTo(8000)
    h.conn.write(bytes(100))
    h.clock.advanceTo(8200)
    h.feed({ seq: 5001, ack: 1101, flags: 'A' })
    expect(h.conn.rtt.srttMs).toBe(112.5) // 7/8 * 100 + 1/8 * 200
    expect(h.conn.rtt.rttvarMs).toBe(62.5) // 3/4 * 50 + 1/4 * 100
    expect(h.conn.rtt.rtoMs).toBe(362.5)
    h.take()
    h.clock.advanceTo(9000)
    h.conn.write(bytes(100))
    h.clock.advanceTo(9362)
    expect(h.take().length).toBe(1)
    h.clock.advanceTo(9362.5)
    expect(h.take().map(view)).toEqual([{ flags: 'AP', seq: 1101, ack: 5001, len: 100, window: 65535 }])
  })

  it('after a timeout only one segment goes out (loss window), then slow start resumes', () => {
    const h = established()
    h.conn.write(bytes(5000))
    expect(h.take().length).toBe(3)
    h.clock.advanceTo(300)
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[1001, 1380]])
    expect(h.conn.cc!.cwnd).toBe(1380)
    h.feed({ seq: 5001, ack: 2381, flags: 'A' })
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[2381, 1380], [3761, 1380]])
  })

  it('gives up after the retransmission limit with a timeout error', () => {
    const h = established({ settings: { maxRetransmits: 2 } })
    h.conn.write(bytes(100))
    h.clock.advanceTo(7000)
    expect(h.conn.state).toBe('CLOSED')
    expect(h.closedWith).toEqual(['MA_ERR_TCP_TIMEOUT'])
  })
})

describe('TCP fast retransmit and NewReno', () => {
  it('three duplicate ACKs retransmit the first hole; partial ACKs retransmit the next; a full ACK ends recovery', () => {
    const h = established({ peerOptions: { mss: 536 } })
    h.conn.write(bytes(20 * 536))
    expect(h.take().map((s) => s.seq)).toEqual([1001, 1537, 2073, 2609])
    h.feed({ seq: 5001, ack: 1537, flags: 'A' })
    expect(h.take().map((s) => s.seq)).toEqual([3145, 3681])
    h.feed({ seq: 5001, ack: 1537, flags: 'A' })
    h.feed({ seq: 5001, ack: 1537, flags: 'A' })
    expect(h.take()).toEqual([])
    h.feed({ seq: 5001, ack: 1537, flags: 'A' })
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[1537, 536]])
    const cc = h.conn.cc!
    expect(cc.inRecovery).toBe(true)
    expect(cc.ssthresh).toBe(1340)
    expect(cc.cwnd).toBe(1340 + 3 * 536)
    h.feed({ seq: 5001, ack: 1537, flags: 'A' })
    expect(h.take().map((s) => s.seq)).toEqual([4217]) // inflated window lets new data out
    h.feed({ seq: 5001, ack: 2073, flags: 'A' })
    expect(h.take()[0]!.seq).toBe(2073) // partial ACK: next hole at once
    expect(cc.inRecovery).toBe(true)
    h.feed({ seq: 5001, ack: 4217, flags: 'A' })
    expect(cc.inRecovery).toBe(false)
    expect(cc.cwnd).toBeLessThanOrEqual(1340)
  })

  it('duplicate ACKs that change the window are window updates, not loss signals', () => {
    const h = established({ peerOptions: { mss: 536 } })
    h.conn.write(bytes(10 * 536))
    h.take()
    for (let w = 1; w <= 4; w++) h.feed({ seq: 5001, ack: 1001, flags: 'A', window: 60000 + w })
    expect(h.conn.dupAcks).toBe(0)
    expect(h.conn.cc!.inRecovery).toBe(false)
  })
})

describe('TCP zero window', () => {
  it('probes a closed window with one byte on the persist timer, backing off, and sends once it opens', () => {
    const h = established({ peerWindow: 0 })
    h.conn.write(bytes(100))
    expect(h.take()).toEqual([])
    h.clock.advanceTo(299)
    expect(h.take()).toEqual([])
    h.clock.advanceTo(300)
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 1, window: 65535 }])
    h.feed({ seq: 5001, ack: 1001, flags: 'A', window: 0 })
    h.clock.advanceTo(899)
    expect(h.take()).toEqual([])
    h.clock.advanceTo(900)
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[1001, 1]])
    h.clock.advanceTo(1000)
    h.feed({ seq: 5001, ack: 1001, flags: 'A', window: 1000 })
    expect(h.take().map(view)).toEqual([{ flags: 'AP', seq: 1001, ack: 5001, len: 100, window: 65535 }])
    h.clock.advanceTo(60_000)
    expect(h.take().every((s) => s.seq === 1001)).toBe(true)
  })

  it('a window too small for a full segment is used after the override timeout (RFC 1122 SWS)', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'A', window: 500 })
    h.conn.write(bytes(3000))
    expect(h.take()).toEqual([])
    h.clock.advanceTo(300)
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[1001, 500]])
  })

  it('a probe byte the peer accepts counts as sent', () => {
    const h = established({ peerWindow: 0 })
    h.conn.write(bytes(100))
    h.clock.advanceTo(1000)
    h.take()
    h.feed({ seq: 5001, ack: 1002, flags: 'A', window: 0 })
    expect(h.conn.sndUna).toBe(1002)
    expect(h.conn.sendQueued).toBe(99)
  })

  it('a full receive buffer advertises a zero window, drops what does not fit, and reopens when read', () => {
    const h = established({ settings: { receiveBufferBytes: 4000 } })
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 1380 })
    h.feed({ seq: 6381, ack: 1001, flags: 'A', payload: 1380 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 7761, len: 0, window: 1240 }])
    h.feed({ seq: 7761, ack: 1001, flags: 'A', payload: 1240 })
    h.clock.advanceTo(40)
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 9001, len: 0, window: 0 }])
    h.feed({ seq: 9001, ack: 1001, flags: 'A', payload: 1 })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 9001, len: 0, window: 0 }])
    expect(h.conn.read()!.length).toBe(1380)
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 9001, len: 0, window: 1380 }])
  })
})

describe('TCP close', () => {
  it('active close: FIN_WAIT_1, FIN_WAIT_2, TIME_WAIT for 2 MSL, a repeated FIN restarts it', () => {
    const h = established({ settings: { timeWaitMs: 2000 } })
    h.conn.close()
    expect(h.take().map(view)).toEqual([{ flags: 'AF', seq: 1001, ack: 5001, len: 0, window: 65535 }])
    expect(h.conn.state).toBe('FIN_WAIT_1')
    h.feed({ seq: 5001, ack: 1002, flags: 'A' })
    expect(h.conn.state).toBe('FIN_WAIT_2')
    h.feed({ seq: 5001, ack: 1002, flags: 'AF' })
    expect(h.conn.state).toBe('TIME_WAIT')
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1002, ack: 5002, len: 0, window: 65534 }])
    h.clock.advanceTo(1500)
    h.feed({ seq: 5001, ack: 1002, flags: 'AF' })
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1002, ack: 5002, len: 0, window: 65534 }])
    h.clock.advanceTo(3499)
    expect(h.conn.state).toBe('TIME_WAIT')
    h.clock.advanceTo(3500)
    expect(h.conn.state).toBe('CLOSED')
    expect(h.closedWith).toEqual([undefined])
    expect(h.states).toEqual(['SYN_SENT', 'ESTABLISHED', 'FIN_WAIT_1', 'FIN_WAIT_2', 'TIME_WAIT', 'CLOSED'])
  })

  it('simultaneous close goes through CLOSING', () => {
    const h = established({ settings: { timeWaitMs: 2000 } })
    h.conn.close()
    h.take()
    h.feed({ seq: 5001, ack: 1001, flags: 'AF' })
    expect(h.conn.state).toBe('CLOSING')
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1002, ack: 5002, len: 0, window: 65534 }])
    h.feed({ seq: 5002, ack: 1002, flags: 'A' })
    expect(h.conn.state).toBe('TIME_WAIT')
  })

  it('passive close: CLOSE_WAIT until the application closes, then LAST_ACK and CLOSED', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'AF' })
    expect(h.conn.state).toBe('CLOSE_WAIT')
    expect(h.conn.finReceived).toBe(true)
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5002, len: 0, window: 65534 }])
    h.conn.write(bytes(10))
    h.conn.close()
    expect(h.take().map(view)).toEqual([
      { flags: 'AP', seq: 1001, ack: 5002, len: 10, window: 65534 },
      { flags: 'AF', seq: 1011, ack: 5002, len: 0, window: 65534 },
    ])
    expect(h.conn.state).toBe('LAST_ACK')
    h.feed({ seq: 5002, ack: 1012, flags: 'A' })
    expect(h.conn.state).toBe('CLOSED')
  })

  it('a lost FIN is retransmitted on the RTO', () => {
    const h = established()
    h.conn.close()
    h.take()
    h.clock.advanceTo(300)
    expect(h.take().map(view)).toEqual([{ flags: 'AF', seq: 1001, ack: 5001, len: 0, window: 65535 }])
  })

  it('a FIN that arrives before missing data takes effect once the hole is filled', () => {
    const h = established()
    h.feed({ seq: 5101, ack: 1001, flags: 'AF', payload: 100 })
    expect(h.conn.state).toBe('ESTABLISHED')
    h.feed({ seq: 5001, ack: 1001, flags: 'A', payload: 100 })
    expect(h.conn.state).toBe('CLOSE_WAIT')
    expect(h.take().at(-1)!.ack).toBe(5202)
  })

  it('data and FIN in one segment: the data is readable, then the end', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 1001, flags: 'AFP', payload: 50 })
    expect(h.conn.state).toBe('CLOSE_WAIT')
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5052, len: 0, window: 65484 }])
    expect(h.conn.read()).toEqual(bytes(50))
    expect(h.conn.read()).toBeUndefined()
    expect(h.conn.finReceived).toBe(true)
  })

  it('passive side walks SYN_RECEIVED, ESTABLISHED, CLOSE_WAIT, LAST_ACK, CLOSED', () => {
    const h = passiveOpen({ seq: 7000, flags: 'S', options: { mss: 1460 } })
    h.feed({ seq: 7001, ack: 1001, flags: 'A' })
    h.feed({ seq: 7001, ack: 1001, flags: 'AF' })
    h.conn.close()
    h.feed({ seq: 7002, ack: 1002, flags: 'A' })
    expect(h.states).toEqual(['SYN_RECEIVED', 'ESTABLISHED', 'CLOSE_WAIT', 'LAST_ACK', 'CLOSED'])
    expect(h.closedWith).toEqual([undefined])
  })

  it('half-close: after our FIN the peer can still send and we still read', () => {
    const h = established()
    h.conn.close()
    h.feed({ seq: 5001, ack: 1002, flags: 'A' })
    h.feed({ seq: 5001, ack: 1002, flags: 'AP', payload: 100 })
    expect(h.conn.state).toBe('FIN_WAIT_2')
    expect(h.conn.read()).toEqual(bytes(100))
    expect(h.events).toContain('readable')
  })

  it('abort sends a RST', () => {
    const h = established()
    h.conn.abort()
    expect(h.take().map(view)).toEqual([{ flags: 'AR', seq: 1001, ack: 5001, len: 0, window: 0 }])
    expect(h.conn.state).toBe('CLOSED')
  })
})

describe('TCP RST and SYN checks (RFC 5961)', () => {
  it('a RST exactly at RCV.NXT resets the connection', () => {
    const h = established()
    h.feed({ seq: 5001, flags: 'R' })
    expect(h.conn.state).toBe('CLOSED')
    expect(h.closedWith).toEqual(['MA_ERR_TCP_RESET'])
  })

  it('a RST elsewhere in the window gets a challenge ACK and changes nothing', () => {
    const h = established()
    h.feed({ seq: 5100, flags: 'R' })
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535 }])
  })

  it('a RST outside the window is ignored silently', () => {
    const h = established()
    h.feed({ seq: 5001 + 70_000, flags: 'R' })
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.take()).toEqual([])
  })

  it('a SYN on an established connection gets a challenge ACK', () => {
    const h = established()
    h.feed({ seq: 9999, flags: 'S' })
    expect(h.conn.state).toBe('ESTABLISHED')
    expect(h.take().map(view)).toEqual([{ flags: 'A', seq: 1001, ack: 5001, len: 0, window: 65535 }])
  })

  it('an ACK for data never sent is answered with an ACK and ignored', () => {
    const h = established()
    h.feed({ seq: 5001, ack: 9000, flags: 'A' })
    expect(h.conn.sndUna).toBe(1001)
    expect(h.take().map((s) => view(s).flags)).toEqual(['A'])
  })
})

describe('TCP sequence wrap-around', () => {
  it('sends and acknowledges across 2^32', () => {
    const iss = 0xffffff00
    const h = established({ iss })
    h.conn.write(bytes(1000))
    expect(h.take().map((s) => [s.seq, s.payload.length])).toEqual([[0xffffff01, 1000]])
    h.feed({ seq: PEER_ISS + 1, ack: (0xffffff01 + 1000) >>> 0, flags: 'A' })
    expect(h.conn.sendQueued).toBe(0)
    expect(h.conn.sndUna).toBe(745)
  })

  it('receives across 2^32', () => {
    const h = passiveOpen({ seq: 0xfffffff0, flags: 'S', options: { mss: 1460 } })
    h.feed({ seq: 0xfffffff1, ack: 1001, flags: 'A' })
    h.feed({ seq: 0xfffffff1, ack: 1001, flags: 'A', payload: 100 })
    h.feed({ seq: 0x55, ack: 1001, flags: 'A', payload: 100 })
    expect(h.conn.readableBytes).toBe(200)
    expect(h.conn.rcvNxt).toBe(0xb9)
  })
})
