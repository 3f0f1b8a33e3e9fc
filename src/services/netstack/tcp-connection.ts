// One TCP connection: the transmission control block and its state machine (RFC 9293 3.10),
// free of I/O. Segments come in through input(), go out through the `output` callback, and every
// timer runs on the injected clock, so a test can feed exact segments at exact instants and
// assert the exact segments emitted (the smoltcp way).
//
// Mechanisms and where they come from:
// - handshake, state machine, acceptability and trimming: RFC 9293 3.10.7
// - RST and SYN checks with challenge ACKs: RFC 5961 3, 4
// - MSS option: RFC 9293 3.7.1 (ours is link MTU - 40); window scale: RFC 7323 2; SACK blocks
//   sent when negotiated: RFC 2018
// - delayed ACK: RFC 1122 4.2.3.2 / RFC 5681 4.2 (every second segment, or after delayedAckMs;
//   immediately for out-of-order data, for data filling a hole, and for a FIN)
// - receiver and sender silly-window avoidance: RFC 1122 4.2.3.3, 4.2.3.4
// - RTO, backoff, Karn: RFC 6298; congestion control behind CongestionControl (NewReno, RFC 5681
//   and RFC 6582); zero-window probes on a persist timer: RFC 9293 3.8.6.1
// - with a peer that SACKs: RACK-TLP loss detection (RFC 8985, tcp-rack.ts): segments are
//   declared lost by time (RACK.rtt + reordering window) once later-sent data was delivered,
//   which also finds lost retransmissions; a tail loss probe instead of waiting for the RTO;
//   recovery paced by Proportional Rate Reduction (RFC 6937); a timeout marks everything not
//   SACKed lost and keeps the SACK information; D-SACK (RFC 2883) widens the reordering window
//   and undoes a recovery whose every resend was a duplicate (Linux's DSACK undo)
// - without SACK: NewReno fast retransmit on 3 duplicate ACKs; spurious fast retransmits
//   (reordering) detected by ACK timing and undone: RFC 3522 / RFC 4015 in spirit
import type { AgentError } from '../../errors.js'
import { TcpConnectionRefusedError, TcpConnectionResetError, TcpTimeoutError } from '../../errors.js'
import type { NetClock, RandomUint32 } from './clock.js'
import { ByteQueue } from './byte-queue.js'
import type { CongestionControl, CongestionControlFactory } from './tcp-congestion.js'
import { Reassembler } from './tcp-reassembly.js'
import { RttEstimator } from './tcp-rtt.js'
import { RackSender, type AckResult, type SentSegment } from './tcp-rack.js'
import type { TcpOptions, TcpSegment } from './tcp-segment.js'
import { TCP_ACK, TCP_FIN, TCP_PSH, TCP_RST, TCP_SYN, segmentLength } from './tcp-segment.js'
import { seqAdd, seqDiff, seqGe, seqGt, seqInRange, seqLe, seqLt, seqMax } from './seq.js'

export type TcpState =
  | 'CLOSED' | 'LISTEN' | 'SYN_SENT' | 'SYN_RECEIVED' | 'ESTABLISHED' | 'FIN_WAIT_1' | 'FIN_WAIT_2'
  | 'CLOSING' | 'TIME_WAIT' | 'CLOSE_WAIT' | 'LAST_ACK'

export interface TcpSettings {
  receiveBufferBytes: number
  sendBufferBytes: number
  delayedAckMs: number
  initialRtoMs: number
  minRtoMs: number
  maxRtoMs: number
  persistMaxMs: number
  timeWaitMs: number
  maxRetransmits: number
  synRetries: number
  /** Peer MSS assumed when its SYN carries none (RFC 9293 3.7.1). */
  defaultMss: number
  congestionControl: CongestionControlFactory
  /**
   * Defers the every-second-segment ACK to the end of the current receive batch (the tunnel
   * passes a setImmediate-based batcher, so one ACK answers every segment read from the socket in
   * one event-loop turn, as GRO does for Linux). Undefined: that ACK goes out at once. Immediate
   * ACKs (out of order, holes, FIN, window updates) are never deferred.
   */
  deferAck?: (flush: () => void) => void
  /** Floor of the tail loss probe timeout (RFC 8985 7.2 PTO): event-loop jitter is ms-sized. */
  tlpMinMs: number
  /** Worst-case delayed ACK of the peer added to the PTO when one segment is in flight (RFC 8985 WCDelAckT). */
  tlpDelayedAckMs: number
}

export interface TcpEndpoint {
  localPort: number
  remotePort: number
}

export interface TcpConnectionHandler {
  established?(): void
  /** In-order data or the peer's FIN became available to read(). */
  readable?(): void
  /** Send-buffer space was freed. */
  writable?(): void
  /** The connection reached CLOSED; `error` when it was refused, reset or timed out. */
  closed?(error?: AgentError): void
  stateChange?(from: TcpState, to: TcpState): void
}

/** Loss-recovery counters, summed over connections by the stack (NetStackStats). */
export interface TcpCounters {
  tcpSegmentsRetransmitted: number
  /** Recoveries found spurious (reordering: D-SACK or a too-early ACK) and undone. */
  tcpSpuriousRetransmits: number
  tcpFastRetransmits: number
  tcpTimeouts: number
  tcpSackRecoveries: number
  /** Tail loss probes sent (RFC 8985 7). */
  tcpTailLossProbes: number
  /** Segments RACK marked lost (RFC 8985 6), timeouts not included. */
  tcpRackLost: number
}

export interface TcpConnectionInit {
  endpoint: TcpEndpoint
  clock: NetClock
  random: RandomUint32
  /** Our MSS: link MTU minus 40 (IPv4 + TCP headers without options). */
  mss: number
  settings: TcpSettings
  output(segment: TcpSegment): void
  handler?: TcpConnectionHandler
  counters?: TcpCounters
}

const MAX_SACK_BLOCKS = 4 // 4 + 8n <= 40 option bytes without timestamps

export class TcpConnection {
  state: TcpState = 'CLOSED'
  readonly endpoint: TcpEndpoint
  handler: TcpConnectionHandler

  // Send sequence space (RFC 9293 3.3.1); sndMax is the highest sequence sent (BSD snd_max).
  iss = 0
  sndUna = 0
  sndNxt = 0
  sndMax = 0
  sndWnd = 0
  sndWl1 = 0
  sndWl2 = 0
  /** Largest window the peer ever offered (sender SWS avoidance). */
  maxSndWnd = 0
  sndWscale = 0
  rcvWscale = 0
  sackPermitted = false
  /** Effective send MSS after negotiation. */
  sendMss: number
  irs = 0
  cc: CongestionControl | undefined
  readonly rtt: RttEstimator
  dupAcks = 0

  readonly #clock: NetClock
  readonly #random: RandomUint32
  readonly #settings: TcpSettings
  readonly #mss: number
  readonly #output: (segment: TcpSegment) => void
  readonly #counters: TcpCounters
  readonly #sendQueue = new ByteQueue()
  #sendQueueSeq = 0
  #finQueued = false
  #finSent = false
  readonly #recvQueue = new ByteQueue()
  #reassembler: Reassembler | undefined
  #peerFinSeq: number | undefined
  #finReceived = false
  #rcvAdvRight: number | undefined
  #offeredWscale: number
  #rttTiming: { seq: number; at: number } | undefined
  #retransmits = 0
  #probeEnd: number | undefined
  #persistBackoff = 0
  #unansweredProbes = 0
  #pendingAckSegments = 0
  #ackNow = false
  #ackDeferred = false
  /** What the peer SACKed above SND.UNA, and how far this recovery has resent holes (RFC 6675 HighRxt). */
  /** RACK-TLP state, used when the peer SACKs (see #rackOn). */
  readonly #rack = new RackSender()
  /** Proportional Rate Reduction during a RACK recovery (RFC 6937): what may still be sent. */
  #prr: { recoverFs: number; delivered: number; out: number; budget: number } | undefined
  /** After a timeout: segments below this are resent under cwnd (slow start), no fast recovery starts. */
  #rtoRecover: number | undefined
  /** The tail loss probe in flight: the SND.MAX after it, and whether it resent data. */
  #tlp: { endSeq: number; resent: boolean } | undefined
  #tlpDeadline: number | undefined
  #tlpTimer: unknown
  #rackTimer: unknown
  /** The window before the last reduction, restored when D-SACKs show every resend was a duplicate. */
  #undo: { cwnd: number; ssthresh: number; resent: Set<number>; sent: boolean } | undefined
  #lastWidenAt = Number.NEGATIVE_INFINITY
  /** A duplicate segment to report in the next ACK's first SACK block (RFC 2883). */
  #dsack: [number, number] | undefined
  #inInput = false
  #deferred = 0
  #synTimed = false
  #rtoTimer: unknown
  #persistTimer: unknown
  #delackTimer: unknown
  #timeWaitTimer: unknown

  private constructor(init: TcpConnectionInit) {
    this.endpoint = init.endpoint
    this.handler = init.handler ?? {}
    this.#clock = init.clock
    this.#random = init.random
    this.#settings = init.settings
    this.#mss = init.mss
    this.sendMss = Math.min(init.mss, init.settings.defaultMss)
    this.#output = init.output
    this.#counters = init.counters ?? {
      tcpSegmentsRetransmitted: 0, tcpSpuriousRetransmits: 0, tcpFastRetransmits: 0, tcpTimeouts: 0, tcpSackRecoveries: 0, tcpTailLossProbes: 0, tcpRackLost: 0,
    }
    this.rtt = new RttEstimator(init.settings)
    let shift = 0
    while (shift < 14 && init.settings.receiveBufferBytes >> shift > 0xffff) shift++
    this.#offeredWscale = shift
  }

  /** Active open: sends a SYN and enters SYN_SENT. */
  static connect(init: TcpConnectionInit): TcpConnection {
    const conn = new TcpConnection(init)
    conn.#initSend()
    conn.#setState('SYN_SENT')
    conn.#sendSyn()
    return conn
  }

  /** Passive open from a listener's SYN: answers with SYN-ACK and enters SYN_RECEIVED. */
  static accept(init: TcpConnectionInit, syn: TcpSegment): TcpConnection {
    const conn = new TcpConnection(init)
    conn.#initSend()
    conn.#takePeerSyn(syn)
    conn.#setState('SYN_RECEIVED')
    conn.#sendSyn()
    return conn
  }

  // ---- application side ---------------------------------------------------------------------

  /** Bytes that may still be queued before the send buffer is full. */
  get sendBufferFree(): number {
    return Math.max(0, this.#settings.sendBufferBytes - this.#sendQueue.length)
  }

  get sendQueued(): number {
    return this.#sendQueue.length
  }

  /** In-order bytes waiting for read(). */
  get readableBytes(): number {
    return this.#recvQueue.length
  }

  /** The peer's FIN arrived (the stream ends once readableBytes reaches 0). */
  get finReceived(): boolean {
    return this.#finReceived
  }

  get finQueued(): boolean {
    return this.#finQueued
  }

  get rcvNxt(): number {
    return this.#reassembler ? seqAdd(this.#reassembler.nextSeq, this.#finReceived ? 1 : 0) : 0
  }

  /** Right edge of the receive window as last advertised. */
  get rcvWnd(): number {
    if (this.#rcvAdvRight === undefined) return this.#available()
    return Math.max(0, seqDiff(this.#rcvAdvRight, this.rcvNxt))
  }

  write(data: Uint8Array): void {
    if (this.#finQueued || this.state === 'CLOSED' || this.state === 'TIME_WAIT') throw new Error('TCP write after end')
    this.#sendQueue.push(data)
    this.#trySend()
  }

  read(max?: number): Uint8Array | undefined {
    const chunk = this.#recvQueue.shift(max)
    if (chunk) this.#maybeWindowUpdate()
    return chunk
  }

  /** Half-close: queues a FIN after the data already written (RFC 9293 3.10.4). */
  close(): void {
    if (this.#finQueued) return
    switch (this.state) {
      case 'SYN_SENT':
        this.#enterClosed()
        return
      case 'SYN_RECEIVED':
        this.#finQueued = true
        return
      case 'ESTABLISHED':
        this.#finQueued = true
        this.#setState('FIN_WAIT_1')
        break
      case 'CLOSE_WAIT':
        this.#finQueued = true
        this.#setState('LAST_ACK')
        break
      default:
        return
    }
    this.#trySend()
  }

  /** Drops the connection at once, telling the peer with a RST (RFC 9293 3.10.5). */
  abort(): void {
    if (this.state === 'CLOSED') return
    if (this.state !== 'SYN_SENT' && this.state !== 'TIME_WAIT') {
      this.#emit({ seq: this.sndMax, ack: this.rcvNxt, flags: TCP_RST | TCP_ACK, payload: EMPTY })
    }
    this.#enterClosed()
  }

  // ---- segment arrival (RFC 9293 3.10.7) ------------------------------------------------------

  input(seg: TcpSegment): void {
    if (this.state === 'CLOSED' || this.state === 'LISTEN') return
    this.#inInput = true
    try {
      if (this.state === 'SYN_SENT') this.#inputSynSent(seg)
      else this.#inputSynchronized(seg)
    } finally {
      this.#inInput = false
    }
    if ((this.state as TcpState) !== 'CLOSED') {
      this.#trySend()
      if (this.#ackNow) this.#sendAck()
    }
    // Handlers run after the segment is fully processed: they may write, read or abort.
    const events = this.#deferred
    this.#deferred = 0
    if (events & EV_ESTABLISHED) this.handler.established?.()
    if (events & EV_READABLE) this.handler.readable?.()
    if (events & EV_WRITABLE) this.handler.writable?.()
  }

  #notify(event: number): void {
    this.#deferred |= event
  }

  #inputSynSent(seg: TcpSegment): void {
    const hasAck = (seg.flags & TCP_ACK) !== 0
    if (hasAck && (seqLe(seg.ack, this.iss) || seqGt(seg.ack, this.sndMax))) {
      if (!(seg.flags & TCP_RST)) this.#emitRaw({ seq: seg.ack, ack: 0, flags: TCP_RST, payload: EMPTY })
      return
    }
    if (seg.flags & TCP_RST) {
      if (hasAck) this.#enterClosed(new TcpConnectionRefusedError('connection refused by the peer', { details: this.#details() }))
      return
    }
    if (!(seg.flags & TCP_SYN)) return
    this.#takePeerSyn(seg)
    if (hasAck) {
      this.#ackAdvance(seg.ack)
      this.#retransmits = 0
      this.#stopRto()
      this.sndWnd = seg.window
      this.maxSndWnd = Math.max(this.maxSndWnd, this.sndWnd)
      this.sndWl1 = seg.seq
      this.sndWl2 = seg.ack
      this.#setState('ESTABLISHED')
      this.#ackNow = true
      this.#notify(EV_ESTABLISHED)
    } else {
      // Simultaneous open (RFC 9293 3.5 figure 7).
      this.#setState('SYN_RECEIVED')
      this.sndNxt = this.iss
      this.#sendSyn()
    }
  }

  #inputSynchronized(seg: TcpSegment): void {
    const rcvNxt = this.rcvNxt
    const segLen = segmentLength(seg)
    const rst = (seg.flags & TCP_RST) !== 0

    // A retransmitted SYN while we wait for the handshake's ACK: our SYN-ACK was lost.
    if (this.state === 'SYN_RECEIVED' && seg.flags & TCP_SYN && !(seg.flags & TCP_ACK) && seg.seq === this.irs) {
      this.#retransmitAt(this.iss)
      return
    }

    // 1. Acceptability.
    const wnd = this.rcvWnd
    let acceptable: boolean
    if (segLen === 0) acceptable = seg.seq === rcvNxt || (wnd > 0 && seqInRange(seg.seq, rcvNxt, seqAdd(rcvNxt, wnd)))
    else if (wnd === 0) acceptable = false
    else acceptable = seqInRange(seg.seq, rcvNxt, seqAdd(rcvNxt, wnd)) || seqInRange(seqAdd(seg.seq, segLen - 1), rcvNxt, seqAdd(rcvNxt, wnd))
    // A zero-window probe lands exactly on RCV.NXT: its ACK and window still count (RFC 9293 3.10.7.4).
    const zeroWindowProbe = !acceptable && wnd === 0 && seg.seq === rcvNxt
    if (!acceptable && !zeroWindowProbe) {
      // Data wholly below RCV.NXT arrived twice: report it as a D-SACK (RFC 2883 4).
      if (!rst && seg.payload.length > 0 && seqLe(seqAdd(seg.seq, seg.payload.length), rcvNxt)) this.#dsack = [seg.seq, seqAdd(seg.seq, seg.payload.length)]
      if (!rst) {
        if (this.state === 'TIME_WAIT' && seg.flags & TCP_FIN) this.#armTimeWait()
        this.#ackNow = true
      }
      return
    }

    // 2. RST (RFC 5961 3.2): exact match resets, anything else in the window gets a challenge ACK.
    if (rst) {
      if (seg.seq !== rcvNxt) {
        this.#ackNow = true
        return
      }
      const quiet = this.state === 'SYN_RECEIVED' || this.state === 'CLOSING' || this.state === 'LAST_ACK' || this.state === 'TIME_WAIT'
      this.#enterClosed(quiet ? undefined : new TcpConnectionResetError('connection reset by the peer', { details: this.#details() }))
      return
    }

    // 3. SYN in a synchronized state (RFC 5961 4.2): challenge ACK, drop.
    if (seg.flags & TCP_SYN) {
      this.#ackNow = true
      return
    }

    // 4. ACK.
    if (!(seg.flags & TCP_ACK)) return
    if (this.state === 'SYN_RECEIVED') {
      if (!(seqLt(this.sndUna, seg.ack) && seqLe(seg.ack, this.sndMax))) {
        this.#emitRaw({ seq: seg.ack, ack: 0, flags: TCP_RST, payload: EMPTY })
        return
      }
      this.#setState('ESTABLISHED')
      this.sndWnd = seg.window << this.sndWscale
      this.maxSndWnd = Math.max(this.maxSndWnd, this.sndWnd)
      this.sndWl1 = seg.seq
      this.sndWl2 = seg.ack
      this.#notify(EV_ESTABLISHED)
      if (this.#finQueued) this.#setState('FIN_WAIT_1')
    }
    const ackLimit = this.#probeEnd !== undefined && seqGt(this.#probeEnd, this.sndMax) ? this.#probeEnd : this.sndMax
    if (seqGt(seg.ack, ackLimit)) {
      this.#ackNow = true
      return
    }
    this.#unansweredProbes = 0
    const window = seg.window << this.sndWscale
    let rackAck: AckResult | undefined
    if (this.#rackOn) {
      if (seqGt(this.sndMax, this.sndUna) && seqGe(seg.ack, this.sndUna)) rackAck = this.#rack.onAck(seg.ack, seg.options.sack ?? [], this.sndMax, this.#clock.now())
    }
    if (seqGt(seg.ack, this.sndUna)) {
      this.#onNewAck(seg.ack)
    } else if (
      !this.#rackOn && seg.ack === this.sndUna && seg.payload.length === 0 && !(seg.flags & TCP_FIN) &&
      this.sndMax !== this.sndUna && window === this.sndWnd
    ) {
      this.#onDupAck(seg.ack)
    }
    if (rackAck !== undefined) this.#rackOnAck(seg.ack, rackAck)
    if (seqGe(seg.ack, this.sndUna) && (seqLt(this.sndWl1, seg.seq) || (this.sndWl1 === seg.seq && seqLe(this.sndWl2, seg.ack)))) {
      this.sndWnd = window
      this.maxSndWnd = Math.max(this.maxSndWnd, window)
      this.sndWl1 = seg.seq
      this.sndWl2 = seg.ack
      if (window > 0) this.#stopPersist()
    }
    if (this.#finSent && seqGt(this.sndUna, this.#finSeq)) {
      if (this.state === 'FIN_WAIT_1') this.#setState('FIN_WAIT_2')
      else if (this.state === 'CLOSING') this.#enterTimeWait()
      else if (this.state === 'LAST_ACK') {
        this.#enterClosed()
        return
      }
    }

    // 5. Data, trimmed to the window.
    let seq = seg.seq
    let payload = seg.payload
    let fin = (seg.flags & TCP_FIN) !== 0
    const front = seqDiff(rcvNxt, seq)
    if (front > 0) {
      if (payload.length > 0) this.#dsack = [seq, seqAdd(seq, Math.min(front, payload.length))]
      payload = payload.subarray(Math.min(front, payload.length))
      seq = seqAdd(seq, front)
    }
    const room = Math.max(0, seqDiff(seqAdd(rcvNxt, wnd), seq))
    if (payload.length > room) {
      payload = payload.subarray(0, room)
      fin = false
    }
    if (zeroWindowProbe && payload.length < seg.payload.length) this.#ackNow = true
    const receiving = this.state === 'ESTABLISHED' || this.state === 'FIN_WAIT_1' || this.state === 'FIN_WAIT_2'
    if (receiving && payload.length > 0 && this.#reassembler) {
      const inOrder = seq === this.#reassembler.nextSeq
      const heldBefore = this.#reassembler.bufferedBytes
      const delivered = this.#reassembler.receive(seq, payload)
      for (const chunk of delivered) this.#recvQueue.push(chunk)
      if (!inOrder && this.#reassembler.bufferedBytes === heldBefore) this.#dsack = [seq, seqAdd(seq, payload.length)] // held already
      if (!inOrder || heldBefore > 0) {
        // Out of order (a duplicate ACK with SACK) or filling a hole: ACK at once (RFC 5681 4.2).
        this.#ackNow = true
      } else {
        this.#pendingAckSegments++
        if (this.#pendingAckSegments < 2) this.#armDelayedAck()
        else if (this.#settings.deferAck === undefined) this.#ackNow = true
        else if (!this.#ackDeferred) {
          this.#ackDeferred = true
          this.#settings.deferAck(() => {
            this.#ackDeferred = false
            if (this.#pendingAckSegments > 0 && this.state !== 'CLOSED') this.#sendAck()
          })
        }
      }
      if (delivered.length > 0) this.#notify(EV_READABLE)
    }

    // 6. FIN, once everything before it has arrived.
    if (fin && receiving && this.#peerFinSeq === undefined) this.#peerFinSeq = seqAdd(seq, payload.length)
    if (this.#peerFinSeq !== undefined && !this.#finReceived && this.#reassembler && this.#reassembler.nextSeq === this.#peerFinSeq) {
      this.#finReceived = true
      this.#ackNow = true
      if (this.state === 'ESTABLISHED') this.#setState('CLOSE_WAIT')
      else if (this.state === 'FIN_WAIT_1') this.#setState('CLOSING')
      else if (this.state === 'FIN_WAIT_2') this.#enterTimeWait()
      this.#notify(EV_READABLE)
    } else if (this.state === 'TIME_WAIT' && fin) {
      this.#ackNow = true
      this.#armTimeWait()
    }
  }

  #onNewAck(ack: number): void {
    const flightBefore = seqDiff(this.sndMax, this.sndUna)
    // The SYN's sequence number is no data: congestion control counts bytes only.
    const acked = seqDiff(ack, this.sndUna) - (this.sndUna === this.iss ? 1 : 0)
    this.#ackAdvance(ack)
    this.#retransmits = 0
    this.dupAcks = 0
    if (this.cc && acked > 0) {
      const wasInRecovery = this.cc.inRecovery
      const action = this.cc.onAck({ acked, ack, flightBefore: Math.max(flightBefore, acked), sndMax: this.sndMax })
      if (this.#rackOn) {
        // RACK decides what to resend; the controller only sizes the window.
        if (wasInRecovery && !this.cc.inRecovery) this.#rackRecoveryEnded()
      } else if (action === 'retransmit' && this.sndUna !== this.sndMax) {
        this.#retransmitAt(this.sndUna) // NewReno: a partial ACK resends the next hole (RFC 6582)
      }
    }
    if (this.#rtoRecover !== undefined && seqGe(ack, this.#rtoRecover)) this.#rtoRecover = undefined
    if (this.sndUna === this.sndMax) this.#stopRto()
    else this.#restartRto()
    if (this.sendBufferFree > 0) this.#notify(EV_WRITABLE)
  }

  // ---- RACK-TLP (RFC 8985) with PRR (RFC 6937), for peers that SACK ------------------------------

  /** SACK gives RACK what it needs to know which later segments were delivered. */
  get #rackOn(): boolean {
    return this.sackPermitted
  }

  /** After the cumulative ACK was applied: D-SACK bookkeeping, the tail loss probe's outcome,
   * RACK loss detection, recovery entry and the PRR send quota. */
  #rackOnAck(ack: number, result: AckResult): void {
    const cc = this.cc
    if (cc === undefined) return
    const now = this.#clock.now()
    const srtt = this.rtt.srttMs ?? this.rtt.rtoMs
    if (result.dsack) {
      // RFC 8985 7.2: at most one widening per round trip.
      if (now - this.#lastWidenAt >= srtt) {
        this.#rack.widenReoWnd()
        this.#lastWidenAt = now
      }
      const [start, end] = result.dsack
      if (this.#undo !== undefined) for (const seq of this.#undo.resent) if (seqGe(seq, start) && seqLt(seq, end)) this.#undo.resent.delete(seq)
    }
    if (this.#undo !== undefined) for (const seq of result.spuriousResends) this.#undo.resent.delete(seq)
    if (this.#undo !== undefined && this.#undo.resent.size === 0 && this.#undo.sent && this.#prr === undefined && this.#rtoRecover === undefined) this.#undoReduction(ack)
    if (this.#tlp !== undefined) {
      if (result.dsack) this.#tlp = undefined // the probe was a duplicate: nothing was lost
      else if (seqGe(ack, this.#tlp.endSeq)) {
        // RFC 8985 7.4.2: a resent probe that repaired a loss still gets a congestion response.
        if (this.#tlp.resent && !cc.inRecovery) cc.onCongestion({ flight: Math.max(seqDiff(this.sndMax, ack), this.sendMss), sndMax: this.sndMax })
        this.#tlp = undefined
      }
    }
    this.#rackDetect(result.delivered)
  }

  /** RFC 8985 6.2 step 5 and 6.3: marks losses, arms the reorder timer, starts or paces recovery. */
  #rackDetect(delivered: number): void {
    const cc = this.cc!
    const now = this.#clock.now()
    const srtt = this.rtt.srttMs ?? this.rtt.rtoMs
    const { lost, timeoutMs } = this.#rack.detectLoss(now, this.#rack.reoWnd(srtt, this.#prr !== undefined || this.#rtoRecover !== undefined))
    this.#counters.tcpRackLost += lost
    this.#armRackTimer(timeoutMs)
    if (this.#prr === undefined && this.#rtoRecover === undefined && this.#rack.lostPending > 0) {
      if (!cc.inRecovery) {
        const flight = seqDiff(this.sndMax, this.sndUna)
        this.#undo = { cwnd: cc.cwnd, ssthresh: cc.ssthresh, resent: new Set(), sent: false }
        cc.onCongestion({ flight, sndMax: this.sndMax })
        this.#counters.tcpFastRetransmits++
        this.#counters.tcpSackRecoveries++
      }
      this.#prr = { recoverFs: Math.max(seqDiff(this.sndMax, this.sndUna), 1), delivered: 0, out: 0, budget: 0 }
      this.#tlp = undefined
      this.#stopTlp()
    }
    // In a recovery a probe answers a stalled ACK clock: any delivery restarts the clock.
    if (this.#prr !== undefined && delivered > 0) this.#tlp = undefined
    if (this.#prr !== undefined) this.#prrOnAck(delivered)
  }

  /** RFC 6937 3.1, with the slow-start reduction bound (PRR-SSRB). */
  #prrOnAck(delivered: number): void {
    const prr = this.#prr!
    const ssthresh = this.cc!.ssthresh
    prr.delivered += delivered
    const pipe = this.#rack.inFlight
    let sndcnt: number
    if (pipe > ssthresh) sndcnt = Math.ceil((prr.delivered * ssthresh) / prr.recoverFs) - prr.out
    else sndcnt = Math.min(ssthresh - pipe, Math.max(prr.delivered - prr.out, delivered) + this.sendMss)
    // The first resend goes out whatever the arithmetic says (the fast retransmit).
    if (prr.out === 0 && sndcnt < this.sendMss) sndcnt = this.sendMss
    prr.budget = Math.max(0, sndcnt)
  }

  #rackRecoveryEnded(): void {
    this.#prr = undefined
    this.#rack.recoveryEnded()
    if (this.#undo !== undefined && this.#undo.resent.size === 0 && this.#undo.sent) this.#undoReduction(this.sndUna)
  }

  /** Every resend of the last reduction came back as a D-SACK or was ACKed too soon: the loss was reordering. */
  #undoReduction(ack: number): void {
    const undo = this.#undo!
    this.#undo = undefined
    if (undo.resent.size > 0 || !undo.sent || this.cc?.undo === undefined) return
    this.#counters.tcpSpuriousRetransmits++
    this.cc.undo({ cwnd: undo.cwnd, ssthresh: undo.ssthresh, ack })
  }

  /**
   * Sending with RACK: resend what is marked lost first (lowest sequence first), then new data;
   * the quota is PRR's during a recovery and cwnd - pipe otherwise (also after a timeout, so the
   * resends follow slow start).
   */
  #rackSend(): void {
    const cc = this.cc!
    for (;;) {
      const budget = this.#prr !== undefined ? this.#prr.budget : cc.cwnd - this.#rack.inFlight
      if (budget <= 0) break
      const lost = this.#rack.nextLost()
      if (lost !== undefined) {
        const len = seqDiff(lost.end, lost.start)
        if (budget < Math.min(len, this.sendMss)) break
        this.#resend(lost)
        this.#spend(len)
        continue
      }
      const offset = seqDiff(this.sndNxt, this.#sendQueueSeq)
      const unsent = this.#sendQueue.length - offset
      const wantFin = this.#finQueued && seqLe(this.sndNxt, this.#finSeq)
      if (unsent <= 0 && !wantFin) break
      const flight = seqDiff(this.sndNxt, this.sndUna)
      const len = Math.max(0, Math.min(unsent, this.sendMss, this.sndWnd - flight, budget))
      if (unsent > 0 && len === 0) break
      if (len < this.sendMss && len < unsent && (flight > 0 || len < this.maxSndWnd / 2)) break
      const fin = wantFin && len === unsent
      if (len === 0 && !fin) break
      this.#sendData(this.sndNxt, len, fin)
      this.sndNxt = seqAdd(this.sndNxt, len + (fin ? 1 : 0))
      this.sndMax = seqMax(this.sndMax, this.sndNxt)
      this.#spend(len + (fin ? 1 : 0))
      if (fin) break
    }
    this.#armTlp()
  }

  #spend(bytes: number): void {
    if (this.#prr === undefined) return
    this.#prr.out += bytes
    this.#prr.budget -= bytes
  }

  /** Resends one recorded segment as it was (its FIN too). */
  #resend(seg: SentSegment): void {
    const fin = seg.fin
    this.#sendData(seg.start, seqDiff(seg.end, seg.start) - (fin ? 1 : 0), fin)
    if (this.#undo !== undefined) {
      this.#undo.resent.add(seg.start)
      this.#undo.sent = true
    }
  }

  #armRackTimer(timeoutMs: number | undefined): void {
    if (this.#rackTimer !== undefined) {
      this.#clock.clearTimeout(this.#rackTimer)
      this.#rackTimer = undefined
    }
    if (timeoutMs === undefined) return
    this.#rackTimer = this.#clock.setTimeout(() => {
      this.#rackTimer = undefined
      if (this.state === 'CLOSED' || this.state === 'TIME_WAIT' || this.sndUna === this.sndMax) return
      this.#rackDetect(0)
      this.#trySend()
    }, Math.max(1, Math.ceil(timeoutMs)))
  }

  /**
   * RFC 8985 7.2: with data in flight, a probe after PTO = 2 x SRTT (plus the peer's worst-case
   * delayed ACK when one segment is out), never later than the RTO; every ACK moves the deadline.
   * Its ACK carries the SACK that lets RACK find a lost tail without waiting for the timeout.
   * Not after a timeout (slow start resends then); during a recovery too, see #onTlpTimer.
   */
  #armTlp(): void {
    if (!this.#rackOn || this.#rtoRecover !== undefined || this.#tlp !== undefined) return
    if (this.sndUna === this.sndMax || this.rtt.srttMs === undefined || this.state === 'SYN_SENT' || this.state === 'SYN_RECEIVED') return
    const srtt = this.rtt.srttMs
    let pto = 2 * srtt
    if (this.#rack.outstanding <= 1) pto += this.#settings.tlpDelayedAckMs
    pto = Math.max(this.#settings.tlpMinMs, Math.min(pto, this.rtt.rtoMs))
    const deadline = this.#clock.now() + pto
    const armedEarlier = this.#tlpTimer !== undefined && this.#tlpDeadline !== undefined && this.#tlpDeadline <= deadline
    this.#tlpDeadline = deadline
    // A timer that fires early looks at the deadline and re-arms: no timer churn per ACK.
    if (armedEarlier) return
    this.#stopTlpTimer()
    this.#tlpTimer = this.#clock.setTimeout(() => this.#onTlpTimer(), pto)
  }

  #onTlpTimer(): void {
    this.#tlpTimer = undefined
    const deadline = this.#tlpDeadline
    if (deadline === undefined) return
    const now = this.#clock.now()
    if (deadline > now) {
      this.#tlpTimer = this.#clock.setTimeout(() => this.#onTlpTimer(), deadline - now)
      return
    }
    this.#tlpDeadline = undefined
    if (this.state === 'CLOSED' || this.state === 'TIME_WAIT' || this.sndUna === this.sndMax) return
    if (this.#rtoRecover !== undefined || this.#tlp !== undefined) return
    // RFC 8985 7.3: new data if the window allows, else the highest segment not SACKed. During a
    // recovery (a deviation, see docs/netstack.md) only the resend: the ACK clock stopped there
    // because the last ACKs or the segments behind the last resend were lost, and one probe
    // draws the SACK that lets RACK go on, where RFC 8985 would wait for the RTO.
    const offset = seqDiff(this.sndNxt, this.#sendQueueSeq)
    const unsent = this.#sendQueue.length - offset
    const room = this.sndWnd - seqDiff(this.sndNxt, this.sndUna)
    if (unsent > 0 && room > 0 && this.#prr === undefined) {
      const len = Math.min(unsent, this.sendMss, room)
      const fin = this.#finQueued && len === unsent
      this.#sendData(this.sndNxt, len, fin)
      this.sndNxt = seqAdd(this.sndNxt, len + (fin ? 1 : 0))
      this.sndMax = seqMax(this.sndMax, this.sndNxt)
      this.#tlp = { endSeq: this.sndMax, resent: false }
    } else {
      const seg = this.#rack.lastUnsacked()
      if (seg === undefined) return
      this.#resend(seg)
      this.#tlp = { endSeq: this.sndMax, resent: true }
    }
    this.#counters.tcpTailLossProbes++
    this.#restartRto()
  }

  #stopTlpTimer(): void {
    if (this.#tlpTimer !== undefined) this.#clock.clearTimeout(this.#tlpTimer)
    this.#tlpTimer = undefined
  }

  #stopTlp(): void {
    this.#stopTlpTimer()
    this.#tlpDeadline = undefined
  }

  /** Moves SND.UNA to `ack`, dropping acknowledged bytes; samples the RTT (Karn's rule). */
  #ackAdvance(ack: number): void {
    let dataAcked = seqDiff(ack, this.#sendQueueSeq)
    if (this.#finSent && seqGt(ack, this.#finSeq)) dataAcked--
    if (dataAcked > 0) {
      this.#sendQueue.consume(dataAcked)
      this.#sendQueueSeq = seqAdd(this.#sendQueueSeq, dataAcked)
    }
    this.sndUna = ack
    if (seqLt(this.sndNxt, ack)) this.sndNxt = ack
    if (seqLt(this.sndMax, ack)) this.sndMax = ack
    if (this.#probeEnd !== undefined && seqGe(ack, this.#probeEnd)) this.#probeEnd = undefined
    if (this.#rttTiming && seqGe(ack, this.#rttTiming.seq)) {
      this.rtt.sample(this.#clock.now() - this.#rttTiming.at)
      this.#rttTiming = undefined
    }
  }

  /** Without SACK: NewReno counts duplicate ACKs (RFC 5681 3.2, RFC 6582). */
  #onDupAck(ack: number): void {
    this.dupAcks++
    if (!this.cc) return
    const action = this.cc.onDupAck({ dupAcks: this.dupAcks, ack, flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax })
    if (action === 'retransmit') {
      this.#counters.tcpFastRetransmits++
      this.#retransmitAt(this.sndUna)
    }
  }

  // ---- sending --------------------------------------------------------------------------------

  #initSend(): void {
    this.iss = this.#random() >>> 0
    this.sndUna = this.iss
    this.sndNxt = this.iss
    this.sndMax = this.iss
    this.#sendQueueSeq = seqAdd(this.iss, 1)
  }

  #takePeerSyn(syn: TcpSegment): void {
    this.irs = syn.seq
    this.#reassembler = new Reassembler(seqAdd(syn.seq, 1))
    this.sendMss = Math.max(64, Math.min(this.#mss, syn.options.mss ?? this.#settings.defaultMss))
    if (syn.options.windowScale !== undefined) {
      this.sndWscale = Math.min(14, syn.options.windowScale)
      this.rcvWscale = this.#offeredWscale
    } else {
      this.sndWscale = 0
      this.rcvWscale = 0
    }
    this.sackPermitted = syn.options.sackPermitted === true
    this.cc = this.#settings.congestionControl({ mss: this.sendMss, iss: this.iss })
    if (!(syn.flags & TCP_ACK)) {
      this.sndWnd = syn.window
      this.maxSndWnd = syn.window
    }
  }

  #sendSyn(): void {
    const options: TcpOptions = { mss: this.#mss, windowScale: this.#offeredWscale, sackPermitted: true }
    if (this.state === 'SYN_RECEIVED') {
      // Answer only with what the peer offered (RFC 7323 2.2, RFC 2018 2).
      if (this.rcvWscale === 0 && this.sndWscale === 0) delete options.windowScale
      if (!this.sackPermitted) delete options.sackPermitted
    }
    const synAck = this.state === 'SYN_RECEIVED'
    const window = Math.min(0xffff, this.#available())
    this.#emitRaw({ seq: this.iss, ack: synAck ? this.rcvNxt : 0, flags: synAck ? TCP_SYN | TCP_ACK : TCP_SYN, window, options, payload: EMPTY })
    if (synAck) {
      this.#rcvAdvRight = seqMax(this.#rcvAdvRight ?? this.rcvNxt, seqAdd(this.rcvNxt, window))
      this.#afterAckSent()
    }
    if (this.sndNxt === this.iss) {
      this.sndNxt = seqAdd(this.iss, 1)
      this.sndMax = seqMax(this.sndMax, this.sndNxt)
      if (!this.#synTimed) this.#rttTiming = { seq: this.sndNxt, at: this.#clock.now() }
      this.#synTimed = true
    }
    if (this.#rtoTimer === undefined) this.#restartRto()
  }

  #trySend(): void {
    if (this.#inInput) return
    const s = this.state
    if (s !== 'ESTABLISHED' && s !== 'CLOSE_WAIT' && s !== 'FIN_WAIT_1' && s !== 'LAST_ACK' && s !== 'CLOSING') return
    const cc = this.cc!
    if (this.#rackOn) {
      this.#rackSend()
      this.#maybeArmPersist()
      return
    }
    for (;;) {
      const offset = seqDiff(this.sndNxt, this.#sendQueueSeq)
      const unsent = this.#sendQueue.length - offset
      const wantFin = this.#finQueued && seqLe(this.sndNxt, this.#finSeq)
      if (unsent <= 0 && !wantFin) break
      const flight = seqDiff(this.sndNxt, this.sndUna)
      const usable = Math.min(this.sndWnd, cc.cwnd) - flight
      let len = Math.max(0, Math.min(unsent, this.sendMss, usable))
      if (unsent > 0 && len === 0) break
      // Sender SWS avoidance (RFC 1122 4.2.3.4): a short segment only when it carries everything
      // left, or when nothing is in flight and it is at least half the peer's largest window.
      if (len < this.sendMss && len < unsent && (flight > 0 || len < this.maxSndWnd / 2)) break
      len = Math.max(0, len)
      const fin = wantFin && len === unsent
      if (len === 0 && !fin) break
      this.#sendData(this.sndNxt, len, fin)
      const sent = len + (fin ? 1 : 0)
      this.sndNxt = seqAdd(this.sndNxt, sent)
      this.sndMax = seqMax(this.sndMax, this.sndNxt)
      if (fin) break
    }
    this.#maybeArmPersist()
  }

  /** Sends `len` bytes at `seq` (plus FIN) and keeps the RTO and RTT timing in step. */
  #sendData(seq: number, len: number, fin: boolean): void {
    const payload = new Uint8Array(len)
    if (len > 0) this.#sendQueue.copyTo(seqDiff(seq, this.#sendQueueSeq), len, payload, 0)
    const endsQueue = seqDiff(seq, this.#sendQueueSeq) + len === this.#sendQueue.length
    let flags = TCP_ACK
    if (fin) {
      flags |= TCP_FIN
      this.#finSent = true
    }
    if (len > 0 && endsQueue) flags |= TCP_PSH
    this.#emit({ seq, ack: this.rcvNxt, flags, payload })
    if (this.#rackOn && (len > 0 || fin)) this.#rack.onTransmit(seq, seqAdd(seq, len + (fin ? 1 : 0)), fin, this.#clock.now())
    if (seqLt(seq, this.sndMax)) {
      this.#counters.tcpSegmentsRetransmitted++
      // Karn: a retransmission invalidates the sample in progress.
      if (this.#rttTiming && seqLt(seq, this.#rttTiming.seq)) this.#rttTiming = undefined
    } else if (!this.#rttTiming && len > 0) {
      this.#rttTiming = { seq: seqAdd(seq, len), at: this.#clock.now() }
    }
    if (this.#rtoTimer === undefined) this.#restartRto()
  }

  /** One segment at `seq` (fast retransmit, partial ACK, lost SYN-ACK), SND.NXT unchanged. */
  #retransmitAt(seq: number): number {
    if (this.state === 'SYN_RECEIVED' || this.state === 'SYN_SENT') {
      if (this.#rttTiming) this.#rttTiming = undefined
      const saved = this.sndNxt
      this.sndNxt = this.iss
      this.#sendSyn()
      this.sndNxt = saved
      return 0
    }
    const offset = seqDiff(seq, this.#sendQueueSeq)
    const left = this.#sendQueue.length - offset
    const len = Math.max(0, Math.min(left, this.sendMss))
    const fin = this.#finSent && len === left && seqLe(seqAdd(seq, len), this.#finSeq)
    if (len === 0 && !fin) return 0
    this.#sendData(seq, len, fin)
    return len + (fin ? 1 : 0)
  }

  /** A pure ACK carries SND.MAX, not SND.NXT: after a timeout rewinds SND.NXT the peer may hold
   * more than that, and an ACK below its RCV.NXT would be unacceptable there (BSD tcp_output). */
  #sendAck(): void {
    this.#emit({ seq: this.sndMax, ack: this.rcvNxt, flags: TCP_ACK, payload: EMPTY })
  }

  /** Every segment but the first SYN carries an ACK, so each one settles delayed-ACK debt. */
  #emit(partial: { seq: number; ack: number; flags: number; payload: Uint8Array }): void {
    const options: TcpOptions = {}
    if (this.sackPermitted && this.#reassembler && (this.#reassembler.bufferedBytes > 0 || this.#dsack !== undefined) && !(partial.flags & TCP_RST)) {
      // Options count against the MSS (RFC 6691): a full data segment carries fewer or no blocks.
      const fit = Math.min(MAX_SACK_BLOCKS, Math.floor((this.sendMss - partial.payload.length - 4) / 8))
      const dsack = fit > 0 ? this.#dsack : undefined
      const blocks = this.#reassembler.sackBlocks(fit - (dsack ? 1 : 0))
      if (dsack) blocks.unshift(dsack)
      if (blocks.length > 0) options.sack = blocks
    }
    this.#dsack = undefined
    const window = partial.flags & TCP_RST ? 0 : this.#advertise()
    this.#emitRaw({ ...partial, window, options })
    if (partial.flags & TCP_ACK) this.#afterAckSent()
  }

  #emitRaw(partial: { seq: number; ack: number; flags: number; payload: Uint8Array; window?: number; options?: TcpOptions }): void {
    this.#output({
      srcPort: this.endpoint.localPort,
      dstPort: this.endpoint.remotePort,
      seq: partial.seq,
      ack: partial.ack,
      flags: partial.flags,
      window: partial.window ?? 0,
      options: partial.options ?? {},
      payload: partial.payload,
    })
  }

  #afterAckSent(): void {
    this.#ackNow = false
    this.#pendingAckSegments = 0
    if (this.#delackTimer !== undefined) {
      this.#clock.clearTimeout(this.#delackTimer)
      this.#delackTimer = undefined
    }
  }

  get #finSeq(): number {
    return seqAdd(this.#sendQueueSeq, this.#sendQueue.length)
  }

  // ---- receive window -----------------------------------------------------------------------

  #available(): number {
    return Math.max(0, this.#settings.receiveBufferBytes - this.#recvQueue.length)
  }

  /** The window field to send: never shrinks the right edge; grows it only in steps of
   * min(buffer/2, MSS) (receiver SWS avoidance); rounded up to the scale unit. */
  #advertise(): number {
    const rcvNxt = this.rcvNxt
    let right = seqAdd(rcvNxt, this.#available())
    const step = Math.min(Math.floor(this.#settings.receiveBufferBytes / 2), this.#mss)
    if (this.#rcvAdvRight !== undefined && seqDiff(right, this.#rcvAdvRight) < step) right = seqMax(this.#rcvAdvRight, rcvNxt)
    const window = Math.max(0, seqDiff(right, rcvNxt))
    const unit = 2 ** this.rcvWscale
    const field = Math.min(0xffff, Math.ceil(window / unit))
    const edge = seqAdd(rcvNxt, field * unit)
    this.#rcvAdvRight = this.#rcvAdvRight === undefined ? edge : seqMax(this.#rcvAdvRight, edge)
    return field
  }

  /** After the reader consumed data: tell the peer when the window at least doubled. */
  #maybeWindowUpdate(): void {
    if (this.state !== 'ESTABLISHED' && this.state !== 'FIN_WAIT_1' && this.state !== 'FIN_WAIT_2') return
    if (this.#rcvAdvRight === undefined) return
    const rcvNxt = this.rcvNxt
    const oldWindow = Math.max(0, seqDiff(this.#rcvAdvRight, rcvNxt))
    const available = this.#available()
    const growth = seqDiff(seqAdd(rcvNxt, available), this.#rcvAdvRight)
    const step = Math.min(Math.floor(this.#settings.receiveBufferBytes / 2), this.#mss)
    if (growth >= step && available >= 2 * oldWindow) this.#sendAck()
  }

  // ---- timers ---------------------------------------------------------------------------------

  #armDelayedAck(): void {
    if (this.#delackTimer !== undefined) return
    this.#delackTimer = this.#clock.setTimeout(() => {
      this.#delackTimer = undefined
      if (this.state !== 'CLOSED') this.#sendAck()
    }, this.#settings.delayedAckMs)
  }

  #restartRto(): void {
    if (this.#rtoTimer !== undefined) this.#clock.clearTimeout(this.#rtoTimer)
    this.#rtoTimer = this.#clock.setTimeout(() => this.#onRto(), this.rtt.rtoMs)
  }

  #stopRto(): void {
    if (this.#rtoTimer !== undefined) this.#clock.clearTimeout(this.#rtoTimer)
    this.#rtoTimer = undefined
  }

  #onRto(): void {
    this.#rtoTimer = undefined
    if (this.state === 'CLOSED' || this.state === 'TIME_WAIT') return
    if (this.sndUna === this.sndMax) return
    this.#retransmits++
    const handshake = this.state === 'SYN_SENT' || this.state === 'SYN_RECEIVED'
    if (this.#retransmits > (handshake ? this.#settings.synRetries : this.#settings.maxRetransmits)) {
      const error = new TcpTimeoutError(handshake ? 'connection attempt timed out' : 'connection timed out', { details: this.#details() })
      if (handshake && this.state === 'SYN_RECEIVED') this.abort()
      else this.#enterClosed(error)
      return
    }
    this.rtt.backoff()
    this.#rttTiming = undefined
    this.dupAcks = 0
    if (handshake) {
      this.#retransmitAt(this.iss)
      this.#restartRto()
      return
    }
    this.#counters.tcpTimeouts++
    if (this.#rackOn) {
      // RFC 8985 6.3: everything not SACKed is lost; it is resent lowest first under the loss
      // window (slow start), SACKed data is not sent again, SND.NXT stays. A second timeout in a
      // row forgets the SACKs too, in case the peer reneged on them.
      if (this.#prr !== undefined) this.#rack.recoveryEnded()
      this.#prr = undefined
      this.#tlp = undefined
      this.#stopTlp()
      this.#armRackTimer(undefined)
      this.cc?.onTimeout({ flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax })
      this.#rack.markAllLost(this.#retransmits > 1)
      this.#rtoRecover = this.sndMax
      this.#undo = undefined
      this.#restartRto()
      this.#trySend()
      return
    }
    this.cc?.onTimeout({ flight: seqDiff(this.sndMax, this.sndUna), sndMax: this.sndMax })
    // Go back to SND.UNA; the loss window lets exactly one segment out (RFC 5681 3.1).
    this.sndNxt = this.sndUna
    this.#restartRto()
    this.#trySend()
  }

  /** With data waiting and nothing in flight, no ACK will come to clock more out: a zero window
   * needs probing, and a window kept short by SWS avoidance needs the override timeout of
   * RFC 1122 4.2.3.4. One persist timer does both. */
  #maybeArmPersist(): void {
    if (this.#persistTimer !== undefined) return
    if (this.sndUna !== this.sndMax || this.#rtoTimer !== undefined) return
    if (this.#sendQueue.length - seqDiff(this.sndNxt, this.#sendQueueSeq) <= 0) return
    const delay = Math.min(this.#settings.persistMaxMs, Math.max(this.#settings.minRtoMs, this.rtt.rtoMs) * 2 ** this.#persistBackoff)
    this.#persistTimer = this.#clock.setTimeout(() => this.#onPersist(), delay)
  }

  #stopPersist(): void {
    if (this.#persistTimer !== undefined) this.#clock.clearTimeout(this.#persistTimer)
    this.#persistTimer = undefined
    this.#persistBackoff = 0
  }

  #onPersist(): void {
    this.#persistTimer = undefined
    if (this.state === 'CLOSED' || this.state === 'TIME_WAIT') return
    const offset = seqDiff(this.sndNxt, this.#sendQueueSeq)
    const unsent = this.#sendQueue.length - offset
    if (unsent <= 0 || this.sndUna !== this.sndMax) return
    if (this.sndWnd > 0) {
      const len = Math.min(unsent, this.sndWnd, this.sendMss, this.cc?.cwnd ?? this.sendMss)
      this.#sendData(this.sndNxt, len, false)
      this.sndNxt = seqAdd(this.sndNxt, len)
      this.sndMax = seqMax(this.sndMax, this.sndNxt)
      return
    }
    if (++this.#unansweredProbes > this.#settings.maxRetransmits) {
      this.#enterClosed(new TcpTimeoutError('peer stopped answering zero-window probes', { details: this.#details() }))
      return
    }
    // One byte of new data beyond the closed window (RFC 9293 3.8.6.1); SND.NXT stays, so it is
    // not in flight, but an ACK that covers it is accepted.
    const payload = new Uint8Array(1)
    this.#sendQueue.copyTo(offset, 1, payload, 0)
    this.#emit({ seq: this.sndNxt, ack: this.rcvNxt, flags: TCP_ACK, payload })
    this.#probeEnd = seqAdd(this.sndNxt, 1)
    if (this.#persistBackoff < 16) this.#persistBackoff++
    this.#maybeArmPersist()
  }

  #enterTimeWait(): void {
    this.#setState('TIME_WAIT')
    this.#stopRto()
    this.#stopTlp()
    this.#armRackTimer(undefined)
    this.#stopPersist()
    this.#armTimeWait()
  }

  #armTimeWait(): void {
    if (this.#timeWaitTimer !== undefined) this.#clock.clearTimeout(this.#timeWaitTimer)
    this.#timeWaitTimer = this.#clock.setTimeout(() => {
      this.#timeWaitTimer = undefined
      this.#enterClosed()
    }, this.#settings.timeWaitMs)
  }

  #enterClosed(error?: AgentError): void {
    if (this.state === 'CLOSED') return
    this.#setState('CLOSED')
    for (const timer of [this.#rtoTimer, this.#persistTimer, this.#delackTimer, this.#timeWaitTimer, this.#tlpTimer, this.#rackTimer]) {
      if (timer !== undefined) this.#clock.clearTimeout(timer)
    }
    this.#rtoTimer = this.#persistTimer = this.#delackTimer = this.#timeWaitTimer = this.#tlpTimer = this.#rackTimer = undefined
    this.#tlpDeadline = undefined
    this.handler.closed?.(error)
  }

  #setState(next: TcpState): void {
    const previous = this.state
    if (previous === next) return
    this.state = next
    this.handler.stateChange?.(previous, next)
  }

  #details(): Record<string, unknown> {
    return { localPort: this.endpoint.localPort, remotePort: this.endpoint.remotePort, state: this.state }
  }
}

const EMPTY = new Uint8Array(0)
const EV_ESTABLISHED = 1
const EV_READABLE = 2
const EV_WRITABLE = 4
