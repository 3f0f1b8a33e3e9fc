// Retransmission timeout per RFC 6298: SRTT/RTTVAR smoothing, exponential backoff, and Karn's
// rule (the caller only samples segments that were never retransmitted; a backed-off RTO stays
// until such a sample arrives).

export interface RttOptions {
  initialRtoMs: number
  minRtoMs: number
  maxRtoMs: number
  /** Clock granularity G of RFC 6298 2.3. */
  granularityMs?: number
}

export class RttEstimator {
  srttMs: number | undefined
  rttvarMs = 0
  #rto: number
  #backoff = 0
  readonly #options: RttOptions

  constructor(options: RttOptions) {
    this.#options = options
    this.#rto = options.initialRtoMs
  }

  /** The current RTO including backoff. */
  get rtoMs(): number {
    return Math.min(this.#options.maxRtoMs, this.#rto * 2 ** this.#backoff)
  }

  get backoffCount(): number {
    return this.#backoff
  }

  sample(rttMs: number): void {
    const r = Math.max(0, rttMs)
    if (this.srttMs === undefined) {
      this.srttMs = r
      this.rttvarMs = r / 2
    } else {
      this.rttvarMs = 0.75 * this.rttvarMs + 0.25 * Math.abs(this.srttMs - r)
      this.srttMs = 0.875 * this.srttMs + 0.125 * r
    }
    const g = this.#options.granularityMs ?? 1
    this.#rto = Math.min(this.#options.maxRtoMs, Math.max(this.#options.minRtoMs, this.srttMs + Math.max(g, 4 * this.rttvarMs)))
    this.#backoff = 0
  }

  /** RFC 6298 5.5: double the RTO after a timeout. */
  backoff(): void {
    if (this.#rto * 2 ** this.#backoff < this.#options.maxRtoMs) this.#backoff++
  }
}
