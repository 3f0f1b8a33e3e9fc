// Congestion control behind an interface, NewReno as the implementation: slow start and
// congestion avoidance (RFC 5681 3.1), fast retransmit / fast recovery with partial ACKs
// (RFC 6582), and the loss window after a timeout. The connection counts duplicate ACKs and does
// the retransmitting; the controller owns cwnd, ssthresh and the recovery point.
import { seqGe, seqGt } from './seq.js'

export interface AckEvent {
  /** Bytes newly acknowledged by this ACK. */
  acked: number
  ack: number
  /** Bytes in flight before this ACK (SND.MAX - SND.UNA). */
  flightBefore: number
  sndMax: number
}

export interface DupAckEvent {
  dupAcks: number
  ack: number
  flight: number
  sndMax: number
}

export type CongestionAction = 'none' | 'retransmit'

export interface CongestionControl {
  readonly name: string
  readonly cwnd: number
  readonly ssthresh: number
  readonly inRecovery: boolean
  onAck(event: AckEvent): CongestionAction
  onDupAck(event: DupAckEvent): CongestionAction
  onTimeout(event: { flight: number; sndMax: number }): void
  /**
   * Loss found by the connection's own detection (RACK, RFC 8985) rather than by duplicate-ACK
   * counting: reduce ssthresh and enter recovery until `sndMax` is acknowledged. While in
   * recovery the connection paces sending by PRR (RFC 6937), not by cwnd.
   */
  onCongestion(event: { flight: number; sndMax: number }): void
  /**
   * The last fast retransmit was spurious (the original arrived, reordered): restore the window
   * from before it and leave recovery (RFC 3522/4015 response). Optional.
   */
  undo?(prior: { cwnd: number; ssthresh: number; ack: number }): void
}

export type CongestionControlFactory = (init: { mss: number; iss: number }) => CongestionControl

/** RFC 5681 3.1 initial window. */
export function initialWindow(mss: number): number {
  if (mss > 2190) return 2 * mss
  if (mss > 1095) return 3 * mss
  return 4 * mss
}

export class NewReno implements CongestionControl {
  readonly name = 'newreno'
  cwnd: number
  ssthresh = 0x7fffffff
  inRecovery = false
  #recover: number
  #mss: number
  #avoidanceBytes = 0

  constructor(init: { mss: number; iss: number }) {
    this.#mss = init.mss
    this.cwnd = initialWindow(init.mss)
    this.#recover = init.iss
  }

  onAck(event: AckEvent): CongestionAction {
    const mss = this.#mss
    if (this.inRecovery) {
      if (seqGe(event.ack, this.#recover)) {
        // Full ACK (RFC 6582 3.2 step 3): deflate to ssthresh, bounded by what is in flight.
        const flightAfter = event.flightBefore - event.acked
        this.cwnd = Math.min(this.ssthresh, Math.max(flightAfter, mss) + mss)
        this.inRecovery = false
        return 'none'
      }
      // Partial ACK: retransmit the next hole, deflate by the amount acked, add back one MSS.
      this.cwnd = Math.max(mss, this.cwnd - event.acked + (event.acked >= mss ? mss : 0))
      return 'retransmit'
    }
    if (this.cwnd < this.ssthresh) {
      this.cwnd += Math.min(event.acked, mss)
    } else {
      this.#avoidanceBytes += event.acked
      if (this.#avoidanceBytes >= this.cwnd) {
        this.#avoidanceBytes -= this.cwnd
        this.cwnd += mss
      }
    }
    return 'none'
  }

  onDupAck(event: DupAckEvent): CongestionAction {
    const mss = this.#mss
    if (this.inRecovery) {
      this.cwnd += mss
      return 'none'
    }
    // RFC 6582 3.2 step 2: a third duplicate whose ACK does not cover `recover` starts no new
    // recovery (it is left over from the previous one).
    if (event.dupAcks === 3 && seqGt(event.ack, this.#recover)) {
      this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * mss)
      this.#recover = event.sndMax
      this.cwnd = this.ssthresh + 3 * mss
      this.inRecovery = true
      return 'retransmit'
    }
    return 'none'
  }

  onCongestion(event: { flight: number; sndMax: number }): void {
    this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * this.#mss)
    this.cwnd = this.ssthresh
    this.#recover = event.sndMax
    this.#avoidanceBytes = 0
    this.inRecovery = true
  }

  undo(prior: { cwnd: number; ssthresh: number; ack: number }): void {
    this.cwnd = Math.max(this.cwnd, prior.cwnd)
    this.ssthresh = Math.max(this.ssthresh, prior.ssthresh)
    this.inRecovery = false
    this.#recover = (prior.ack - 1) >>> 0 // a new loss after this may start a recovery at once
  }

  onTimeout(event: { flight: number; sndMax: number }): void {
    this.ssthresh = Math.max(Math.floor(event.flight / 2), 2 * this.#mss)
    this.cwnd = this.#mss
    this.inRecovery = false
    this.#avoidanceBytes = 0
    this.#recover = event.sndMax
  }
}

export const newReno: CongestionControlFactory = (init) => new NewReno(init)
