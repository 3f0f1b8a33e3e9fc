// The sender's record of every segment in flight and RACK loss detection (RFC 8985 6): a segment
// is lost once a segment sent after it was delivered (ACKed or SACKed) and more than RACK.rtt +
// reo_wnd has passed since it was sent. Time, not duplicate-ACK counting, decides, so it also
// finds lost retransmissions and losses that too few duplicate ACKs report (Linux compresses
// SACK ACKs), which before cost a whole RTO each. Free of I/O and timers: the connection feeds
// transmissions and ACKs with the clock's time and arms the reorder timer this returns.
//
// Two orders are kept: by sequence (to apply cumulative ACKs and SACK blocks) and by last
// transmission time (RACK walks only the segments sent before the newest delivered one, so an
// ACK costs O(segments that could be lost), not O(flight)).
import { SackScoreboard } from './tcp-sack-scoreboard.js'
import { seqDiff, seqGe, seqGt, seqLe, seqLt } from './seq.js'

export interface SentSegment {
  start: number
  /** Exclusive; includes the FIN's sequence number when `fin`. */
  end: number
  fin: boolean
  /** Time of the latest (re)transmission. */
  xmitAt: number
  /** Transmission counter: orders transmissions made at the same instant (RACK_sent_after). */
  xmitOrder: number
  retransmitted: boolean
  sacked: boolean
  lost: boolean
  // time-ordered list of segments in flight (neither SACKed nor marked lost)
  prev: SentSegment | undefined
  next: SentSegment | undefined
  listed: boolean
}

export interface AckResult {
  /** Bytes newly ACKed or SACKed (RFC 6937 DeliveredData). */
  delivered: number
  /** The D-SACK block (RFC 2883) the ACK carried: what arrived twice. */
  dsack: [number, number] | undefined
  /** Starts of resent segments delivered sooner than min_RTT after the resend: the original arrived (RFC 8985 6.2 step 2). */
  spuriousResends: number[]
}

/** RFC 8985 6.2: reordering window multiplier bounds (reo_wnd = mult x min_RTT / 4). */
const REO_WND_MULT_MAX = 64
/** RFC 8985 7.2: after this many recoveries without D-SACK the multiplier resets. */
const REO_WND_PERSIST = 16
const DUPTHRESH = 3

export class RackSender {
  #segs: SentSegment[] = []
  #head = 0
  #tsHead: SentSegment | undefined
  #tsTail: SentSegment | undefined
  #inFlight = 0
  #sackedCount = 0
  #lost: SentSegment[] = []
  readonly #board = new SackScoreboard()

  #xmitCount = 0

  // RACK state (RFC 8985 6.1); the transmission counter stands in for RACK.end_seq as the
  // tie-break: a resend and new data can leave at the same instant in either order.
  rackXmitAt = Number.NEGATIVE_INFINITY
  #rackOrder = -1
  rackRttMs = 0
  /** Highest end sequence delivered so far (RACK.fack). */
  #fack: number | undefined
  minRttMs = Number.POSITIVE_INFINITY
  reorderingSeen = false
  reoWndMult = 1
  #reoWndPersist = REO_WND_PERSIST

  /** Bytes sent and neither ACKed, SACKed nor marked lost (RFC 6675 pipe with RACK's marks). */
  get inFlight(): number {
    return this.#inFlight
  }

  get sackedBytes(): number {
    return this.#board.sackedBytes
  }

  /** Segments marked lost and not yet resent. */
  get lostPending(): number {
    this.#dropStaleLost()
    return this.#lost.length
  }

  get outstanding(): number {
    return this.#segs.length - this.#head
  }

  /** Records a transmission. New data must extend the record; a retransmission must start where a recorded segment starts. */
  onTransmit(start: number, end: number, fin: boolean, now: number): void {
    const last = this.#segs[this.#segs.length - 1]
    if (this.outstanding === 0 || (last !== undefined && seqGe(start, last.end))) {
      const seg: SentSegment = { start, end, fin, xmitAt: now, xmitOrder: this.#xmitCount++, retransmitted: false, sacked: false, lost: false, prev: undefined, next: undefined, listed: false }
      this.#segs.push(seg)
      this.#inFlight += seqDiff(end, start)
      this.#append(seg)
      return
    }
    const seg = this.#find(start)
    if (seg === undefined) return
    if (seqGt(end, seg.end)) this.#extend(seg, end, fin)
    if (seg.sacked) return
    if (seg.listed) this.#unlink(seg)
    else this.#inFlight += seqDiff(seg.end, seg.start) // was marked lost: in flight again
    seg.lost = false
    seg.retransmitted = true
    seg.xmitAt = now
    seg.xmitOrder = this.#xmitCount++
    this.#append(seg)
  }

  /** The oldest segment marked lost and not yet resent. */
  nextLost(): SentSegment | undefined {
    this.#dropStaleLost()
    return this.#lost[0]
  }

  /** The highest-sequence segment not yet SACKed (what a tail loss probe resends). */
  lastUnsacked(): SentSegment | undefined {
    for (let i = this.#segs.length - 1; i >= this.#head; i--) if (!this.#segs[i]!.sacked) return this.#segs[i]
    return undefined
  }

  /**
   * Applies a cumulative ACK and SACK blocks (RFC 8985 6.2 steps 1-3): drops what is ACKed,
   * marks what is SACKed, advances RACK.xmit_ts / end_seq / rtt from the most recently sent
   * delivered segment, and notes reordering (a segment delivered below RACK.fack that was never
   * resent). `sndMax` bounds valid blocks.
   */
  onAck(una: number, blocks: ReadonlyArray<readonly [number, number]>, sndMax: number, now: number): AckResult {
    const result: AckResult = { delivered: 0, dsack: undefined, spuriousResends: [] }
    // D-SACK (RFC 2883 4): the first block lies at or below the ACK, or inside the second block.
    const first = blocks[0]
    if (first !== undefined && seqLt(first[0], first[1])) {
      const second = blocks[1]
      if (seqLe(first[1], una) || (second !== undefined && seqGe(first[0], second[0]) && seqLe(first[1], second[1]))) {
        result.dsack = [first[0], first[1]]
      }
    }
    while (this.#head < this.#segs.length) {
      const seg = this.#segs[this.#head]!
      if (seqLe(seg.end, una)) {
        if (!seg.sacked) {
          result.delivered += seqDiff(seg.end, seg.start)
          this.#delivered(seg, now, result)
        } else this.#sackedCount--
        this.#forget(seg)
        this.#head++
        continue
      }
      if (seqLt(seg.start, una)) {
        // A partial ACK inside a segment (the peer trimmed it): keep the rest.
        const acked = seqDiff(una, seg.start)
        if (!seg.sacked) {
          result.delivered += acked
          if (!seg.lost) this.#inFlight -= acked
        }
        seg.start = una
      }
      break
    }
    if (this.#head > 1024 && this.#head * 2 > this.#segs.length) {
      this.#segs = this.#segs.slice(this.#head)
      this.#head = 0
    }
    this.#board.prune(una)
    for (const [start, end] of blocks) {
      if (!seqLt(start, end) || seqGt(end, sndMax) || !seqGt(end, una)) continue
      for (const [from, to] of this.#board.uncovered(start, end, una)) result.delivered += this.#markSacked(from, to, now, result)
      this.#board.update([[start, end]], una, sndMax)
    }
    return result
  }

  /**
   * RFC 8985 6.2 step 4: the reordering window. Zero while no reordering was seen and either a
   * recovery is on or DupThresh segments are SACKed (then RACK acts like RFC 6675's DupThresh);
   * otherwise reo_wnd_mult x min_RTT / 4, at most SRTT.
   */
  reoWnd(srttMs: number, inRecovery: boolean): number {
    if (!this.reorderingSeen && (inRecovery || this.#sackedCount >= DUPTHRESH)) return 0
    const minRtt = Number.isFinite(this.minRttMs) ? this.minRttMs : srttMs
    return Math.min((this.reoWndMult * minRtt) / 4, srttMs)
  }

  /** RFC 8985 7.2: a D-SACK widens the window (once per round trip, the caller decides). */
  widenReoWnd(): void {
    this.reoWndMult = Math.min(REO_WND_MULT_MAX, this.reoWndMult + 1)
    this.#reoWndPersist = REO_WND_PERSIST
  }

  /** RFC 8985 7.2: called when a recovery ends; after 16 without D-SACK the window resets. */
  recoveryEnded(): void {
    if (--this.#reoWndPersist <= 0) {
      this.reoWndMult = 1
      this.#reoWndPersist = REO_WND_PERSIST
    }
  }

  /**
   * RFC 8985 6.2 step 5: marks lost every segment sent before the RACK segment whose time is up.
   * Returns how many were newly marked and, when some are still within the window, in how many
   * ms to look again (the reorder timer).
   */
  detectLoss(now: number, reoWndMs: number): { lost: number; timeoutMs: number | undefined } {
    let lost = 0
    let timeoutMs: number | undefined
    let seg = this.#tsHead
    while (seg !== undefined) {
      const next = seg.next
      if (sentAfter(seg.xmitAt, seg.xmitOrder, this.rackXmitAt, this.#rackOrder)) break
      const remaining = seg.xmitAt + this.rackRttMs + reoWndMs - now
      if (remaining <= 0) {
        this.#markLost(seg)
        lost++
      } else timeoutMs = timeoutMs === undefined ? remaining : Math.min(timeoutMs, remaining)
      seg = next
    }
    return { lost, timeoutMs }
  }

  /**
   * RFC 8985 6.3 / RFC 6298 5: after an RTO every segment not SACKed is lost. With `forgetSacks`
   * the SACKed ones too (RFC 6675 5.1: the receiver may have reneged, dropping data it SACKed;
   * the connection calls it for a repeated timeout, so a reneging peer cannot stall it).
   */
  markAllLost(forgetSacks = false): void {
    let seg = this.#tsHead
    while (seg !== undefined) {
      const next = seg.next
      this.#markLost(seg)
      seg = next
    }
    if (!forgetSacks) return
    for (let i = this.#head; i < this.#segs.length; i++) {
      const sacked = this.#segs[i]!
      if (!sacked.sacked) continue
      sacked.sacked = false
      this.#sackedCount--
      this.#inFlight += seqDiff(sacked.end, sacked.start) // #markLost takes it out again
      this.#markLost(sacked)
    }
    this.#board.clear()
  }

  clear(): void {
    this.#segs = []
    this.#head = 0
    this.#tsHead = this.#tsTail = undefined
    this.#inFlight = 0
    this.#sackedCount = 0
    this.#lost = []
    this.#board.clear()
  }

  #delivered(seg: SentSegment, now: number, result: AckResult): void {
    if (!seg.lost) this.#inFlight -= seqDiff(seg.end, seg.start)
    const rtt = now - seg.xmitAt
    // RFC 8985 6.2 step 2: an ACK sooner than min_RTT after a resend answers the original.
    if (seg.retransmitted && rtt < this.minRttMs) {
      result.spuriousResends.push(seg.start)
      return
    }
    if (!seg.retransmitted) this.minRttMs = Math.min(this.minRttMs, rtt)
    if (sentAfter(seg.xmitAt, seg.xmitOrder, this.rackXmitAt, this.#rackOrder)) {
      this.rackRttMs = rtt
      this.rackXmitAt = seg.xmitAt
      this.#rackOrder = seg.xmitOrder
    }
    // Step 3: delivered below the highest delivered sequence without having been resent.
    if (this.#fack !== undefined && seqLt(seg.end, this.#fack) && !seg.retransmitted) this.reorderingSeen = true
    if (this.#fack === undefined || seqGt(seg.end, this.#fack)) this.#fack = seg.end
  }

  #markSacked(from: number, to: number, now: number, result: AckResult): number {
    let delivered = 0
    let i = this.#indexAtOrAfter(from)
    for (; i < this.#segs.length; i++) {
      const seg = this.#segs[i]!
      if (!seqLt(seg.start, to)) break
      if (seg.sacked || seqLt(seg.start, from) || seqGt(seg.end, to)) continue // only whole segments
      delivered += seqDiff(seg.end, seg.start)
      this.#delivered(seg, now, result)
      seg.sacked = true
      seg.lost = false
      this.#sackedCount++
      if (seg.listed) this.#unlink(seg)
    }
    return delivered
  }

  #markLost(seg: SentSegment): void {
    if (seg.listed) this.#unlink(seg)
    seg.lost = true
    this.#inFlight -= seqDiff(seg.end, seg.start)
    // Kept in sequence order: resends go lowest first (RFC 6675 NextSeg).
    let i = this.#lost.length
    while (i > 0 && seqGt(this.#lost[i - 1]!.start, seg.start)) i--
    this.#lost.splice(i, 0, seg)
  }

  #forget(seg: SentSegment): void {
    if (seg.listed) this.#unlink(seg)
  }

  #dropStaleLost(): void {
    const una = this.#segs[this.#head]?.start
    while (this.#lost.length > 0) {
      const seg = this.#lost[0]!
      if (seg.lost && !seg.sacked && una !== undefined && seqGe(seg.start, una)) break
      this.#lost.shift()
    }
  }

  #find(start: number): SentSegment | undefined {
    const i = this.#indexAtOrAfter(start)
    const seg = this.#segs[i]
    return seg !== undefined && seg.start === start ? seg : undefined
  }

  /** Index of the first segment whose end is above `seq` (binary search in sequence order). */
  #indexAtOrAfter(seq: number): number {
    let lo = this.#head
    let hi = this.#segs.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (seqLe(this.#segs[mid]!.end, seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** A resend may carry more than the original (e.g. a FIN queued since): the record follows. */
  #extend(seg: SentSegment, end: number, fin: boolean): void {
    if (!seg.lost && !seg.sacked) this.#inFlight += seqDiff(end, seg.end)
    seg.end = end
    seg.fin = fin
  }

  #append(seg: SentSegment): void {
    seg.prev = this.#tsTail
    seg.next = undefined
    if (this.#tsTail) this.#tsTail.next = seg
    else this.#tsHead = seg
    this.#tsTail = seg
    seg.listed = true
  }

  #unlink(seg: SentSegment): void {
    if (seg.prev) seg.prev.next = seg.next
    else this.#tsHead = seg.next
    if (seg.next) seg.next.prev = seg.prev
    else this.#tsTail = seg.prev
    seg.prev = seg.next = undefined
    seg.listed = false
  }
}

/** RFC 8985 6.2 RACK_sent_after, with the transmission order as the tie-break. */
function sentAfter(t1: number, order1: number, t2: number, order2: number): boolean {
  return t1 > t2 || (t1 === t2 && order1 > order2)
}
