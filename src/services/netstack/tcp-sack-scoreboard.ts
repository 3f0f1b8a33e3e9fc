// The sender's SACK scoreboard (RFC 6675 section 3/4 in spirit): which bytes above SND.UNA the
// peer reported holding (RFC 2018 blocks), kept merged and sorted. RACK (tcp-rack.ts) asks it
// which parts of a block are new, so an ACK repeating big blocks costs only what changed.
import { seqDiff, seqGt, seqLe, seqLt, seqMax, seqMin } from './seq.js'

export class SackScoreboard {
  #blocks: Array<{ start: number; end: number }> = []
  #sackedBytes = 0

  get sackedBytes(): number {
    return this.#sackedBytes
  }

  /** Adds blocks within (una, sndMax]; D-SACK blocks (at or below una) and nonsense are ignored. */
  update(blocks: ReadonlyArray<readonly [number, number]>, una: number, sndMax: number): void {
    for (const [rawStart, rawEnd] of blocks) {
      if (!seqLt(rawStart, rawEnd) || seqGt(rawEnd, sndMax) || !seqGt(rawEnd, una)) continue
      this.#insert(seqMax(rawStart, una), rawEnd)
    }
  }

  /** Drops everything at or below the new SND.UNA. */
  prune(una: number): void {
    let i = 0
    while (i < this.#blocks.length && seqLe(this.#blocks[i]!.end, una)) i++
    if (i > 0) this.#blocks.splice(0, i)
    const first = this.#blocks[0]
    if (first && seqLt(first.start, una)) first.start = una
    this.#recount()
  }

  clear(): void {
    this.#blocks = []
    this.#sackedBytes = 0
  }

  /** The parts of [start, end), clipped to above `una`, not yet in the board (what a new block adds). */
  uncovered(start: number, end: number, una: number): Array<[number, number]> {
    const out: Array<[number, number]> = []
    let cursor = seqMax(start, una)
    for (const block of this.#blocks) {
      if (!seqLt(cursor, end)) break
      if (seqLe(block.end, cursor)) continue
      if (seqLt(cursor, block.start)) out.push([cursor, seqMin(block.start, end)])
      cursor = seqMax(cursor, block.end)
    }
    if (seqLt(cursor, end)) out.push([cursor, end])
    return out
  }

  #insert(start: number, end: number): void {
    const merged = { start, end }
    const out: Array<{ start: number; end: number }> = []
    let placed = false
    for (const block of this.#blocks) {
      if (seqLt(block.end, merged.start)) out.push(block)
      else if (seqLt(merged.end, block.start)) {
        if (!placed) {
          out.push(merged)
          placed = true
        }
        out.push(block)
      } else {
        merged.start = seqMin(merged.start, block.start)
        merged.end = seqMax(merged.end, block.end)
      }
    }
    if (!placed) out.push(merged)
    this.#blocks = out
    this.#recount()
  }

  #recount(): void {
    let total = 0
    for (const block of this.#blocks) total += seqDiff(block.end, block.start)
    this.#sackedBytes = total
  }
}
