// Anti-replay window for transport counters: the RFC 6479 ring bitmap as wireguard-go uses it.
// `blocks` 32-bit words make a ring; the usable window is (blocks - 1) * 32 counters behind the
// highest counter seen, every counter inside it tracked exactly.
import { wgRejectAfterMessages, wgReplayWindowPackets } from '../../config/defaults.js'

const BITS = 32

export class ReplayWindow {
  private readonly ring: Uint32Array
  private readonly blockMask: number
  private last = 0
  /** Counters at most this far behind the highest one seen are still accepted once. */
  readonly windowSize: number

  constructor(packets: number = wgReplayWindowPackets, private readonly limit: number = wgRejectAfterMessages) {
    let blocks = 2
    while (blocks * BITS < packets) blocks *= 2
    this.ring = new Uint32Array(blocks)
    this.blockMask = blocks - 1
    this.windowSize = (blocks - 1) * BITS
  }

  reset(): void {
    this.ring.fill(0)
    this.last = 0
  }

  /** Whether `counter` would be accepted, without recording it. */
  check(counter: number): boolean {
    if (!Number.isSafeInteger(counter) || counter < 0 || counter >= this.limit) return false
    if (counter > this.last) return true
    if (this.last - counter > this.windowSize) return false
    const block = Math.floor(counter / BITS) & this.blockMask
    return (this.ring[block]! & (1 << (counter % BITS))) === 0
  }

  /** Accepts `counter` once: false when too old, replayed or beyond the limit. Call after authentication. */
  accept(counter: number): boolean {
    if (!Number.isSafeInteger(counter) || counter < 0 || counter >= this.limit) return false
    const indexBlock = Math.floor(counter / BITS)
    if (counter > this.last) {
      const current = Math.floor(this.last / BITS)
      const diff = Math.min(indexBlock - current, this.ring.length)
      for (let i = current + 1; i <= current + diff; i++) this.ring[i & this.blockMask] = 0
      this.last = counter
    } else if (this.last - counter > this.windowSize) {
      return false
    }
    const block = indexBlock & this.blockMask
    const bit = 1 << (counter % BITS)
    const old = this.ring[block]!
    if ((old & bit) !== 0) return false
    this.ring[block] = old | bit
    return true
  }
}
