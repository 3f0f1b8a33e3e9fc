// Out-of-order reassembly of the receive stream and the SACK blocks that describe what is held
// beyond RCV.NXT (RFC 2018 4: the first block holds the segment that triggered the ACK, then the
// most recently reported ones). Bytes already held win over later copies of the same range.
import { seqAdd, seqDiff } from './seq.js'

interface Piece {
  seq: number
  data: Uint8Array
}

export class Reassembler {
  #next: number
  /** Sorted by distance from #next, never overlapping. */
  #pieces: Piece[] = []
  #buffered = 0
  /** Sequence numbers of recently received out-of-order segments, newest first. */
  #recent: number[] = []

  constructor(nextSeq: number) {
    this.#next = nextSeq >>> 0
  }

  /** RCV.NXT: the first byte not yet delivered in order. */
  get nextSeq(): number {
    return this.#next
  }

  /** Bytes held out of order. */
  get bufferedBytes(): number {
    return this.#buffered
  }

  /** Takes one segment's data; returns the bytes that became deliverable in order (copies). */
  receive(seq: number, data: Uint8Array): Uint8Array[] {
    let start = seq >>> 0
    let bytes = data
    const offset = seqDiff(start, this.#next)
    if (offset < 0) {
      if (-offset >= bytes.length) return []
      bytes = bytes.subarray(-offset)
      start = this.#next
    }
    if (bytes.length === 0) return []
    if (start === this.#next) {
      const out = [Uint8Array.from(bytes)]
      this.#next = seqAdd(this.#next, bytes.length)
      this.#drain(out)
      return out
    }
    this.#insert(start, bytes)
    this.#recent = [start, ...this.#recent.filter((s) => s !== start)].slice(0, 8)
    return []
  }

  /** Up to `max` SACK blocks as [left, right), most relevant first. */
  sackBlocks(max: number): Array<[number, number]> {
    if (this.#pieces.length === 0 || max <= 0) return []
    const ranges: Array<[number, number]> = []
    for (const piece of this.#pieces) {
      const end = seqAdd(piece.seq, piece.data.length)
      const last = ranges[ranges.length - 1]
      if (last && last[1] === piece.seq) last[1] = end
      else ranges.push([piece.seq, end])
    }
    const out: Array<[number, number]> = []
    const used = new Set<number>()
    const within = (s: number, r: [number, number]) => seqDiff(s, r[0]) >= 0 && seqDiff(s, r[1]) < 0
    for (const s of this.#recent) {
      const index = ranges.findIndex((r) => within(s, r))
      if (index >= 0 && !used.has(index)) {
        used.add(index)
        out.push(ranges[index]!)
      }
    }
    ranges.forEach((range, index) => {
      if (!used.has(index)) out.push(range)
    })
    return out.slice(0, max)
  }

  #insert(start: number, bytes: Uint8Array): void {
    let parts: Piece[] = [{ seq: start, data: bytes }]
    for (const piece of this.#pieces) {
      const pieceStart = seqDiff(piece.seq, this.#next)
      const pieceEnd = pieceStart + piece.data.length
      const next: Piece[] = []
      for (const part of parts) {
        const partStart = seqDiff(part.seq, this.#next)
        const partEnd = partStart + part.data.length
        if (partEnd <= pieceStart || partStart >= pieceEnd) {
          next.push(part)
          continue
        }
        if (partStart < pieceStart) next.push({ seq: part.seq, data: part.data.subarray(0, pieceStart - partStart) })
        if (partEnd > pieceEnd) next.push({ seq: seqAdd(part.seq, pieceEnd - partStart), data: part.data.subarray(pieceEnd - partStart) })
      }
      parts = next
      if (parts.length === 0) return
    }
    for (const part of parts) {
      this.#pieces.push({ seq: part.seq, data: Uint8Array.from(part.data) })
      this.#buffered += part.data.length
    }
    this.#pieces.sort((a, b) => seqDiff(a.seq, this.#next) - seqDiff(b.seq, this.#next))
  }

  #drain(out: Uint8Array[]): void {
    while (this.#pieces.length > 0) {
      const piece = this.#pieces[0]!
      const offset = seqDiff(piece.seq, this.#next)
      if (offset > 0) break
      this.#pieces.shift()
      this.#buffered -= piece.data.length
      if (-offset < piece.data.length) {
        const rest = piece.data.subarray(-offset)
        out.push(rest)
        this.#next = seqAdd(this.#next, rest.length)
      }
    }
    this.#recent = this.#recent.filter((s) => seqDiff(s, this.#next) > 0)
  }
}
