// A FIFO of bytes kept as the chunks they arrived in: the TCP send buffer (bytes from SND.UNA on)
// and the in-order receive queue. Peers write many small messages (BitTorrent's are 5-17 bytes
// between 16 KiB blocks), so dropping from the front is O(1) amortised and copyTo resumes from
// the chunk the previous copy ended in instead of walking from the front.

export class ByteQueue {
  #chunks: Uint8Array[] = []
  /** Index of the first live chunk in #chunks. */
  #first = 0
  /** Bytes already consumed from #chunks[#first]. */
  #head = 0
  /** Absolute stream offset at which #chunks[#first] starts. */
  #firstStart = 0
  #length = 0
  /** Where the last copy ended: chunk index and that chunk's absolute start offset. */
  #cursorIndex = 0
  #cursorStart = 0

  get length(): number {
    return this.#length
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    this.#chunks.push(chunk)
    this.#length += chunk.length
  }

  /** Drops `n` bytes from the front. */
  consume(n: number): void {
    n = Math.min(n, this.#length)
    this.#length -= n
    while (n > 0) {
      const first = this.#chunks[this.#first]!
      const left = first.length - this.#head
      if (n < left) {
        this.#head += n
        return
      }
      n -= left
      this.#dropFirst()
    }
  }

  /** Copies `length` bytes starting `offset` bytes from the front into `out` at `outOffset`. */
  copyTo(offset: number, length: number, out: Uint8Array, outOffset: number): void {
    const target = this.#firstStart + this.#head + offset
    let i = this.#first
    let start = this.#firstStart
    if (this.#cursorIndex >= this.#first && this.#cursorIndex < this.#chunks.length && this.#cursorStart <= target) {
      i = this.#cursorIndex
      start = this.#cursorStart
    }
    while (i < this.#chunks.length && start + this.#chunks[i]!.length <= target) {
      start += this.#chunks[i]!.length
      i++
    }
    let skip = target - start
    let written = 0
    while (written < length && i < this.#chunks.length) {
      const chunk = this.#chunks[i]!
      const take = Math.min(chunk.length - skip, length - written)
      out.set(chunk.subarray(skip, skip + take), outOffset + written)
      written += take
      if (skip + take < chunk.length) break
      start += chunk.length
      skip = 0
      i++
    }
    this.#cursorIndex = i
    this.#cursorStart = start
  }

  /** Removes and returns up to `max` bytes from the front, without copying. */
  shift(max = Infinity): Uint8Array | undefined {
    if (this.#length === 0) return undefined
    const first = this.#chunks[this.#first]!
    const left = first.length - this.#head
    if (left <= max) {
      const out = this.#head === 0 ? first : first.subarray(this.#head)
      this.#length -= left
      this.#dropFirst()
      return out
    }
    const out = first.subarray(this.#head, this.#head + max)
    this.#head += max
    this.#length -= max
    return out
  }

  #dropFirst(): void {
    this.#firstStart += this.#chunks[this.#first]!.length
    this.#chunks[this.#first] = EMPTY
    this.#first++
    this.#head = 0
    if (this.#first >= 1024 && this.#first * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#first)
      this.#cursorIndex -= this.#first
      this.#first = 0
    }
    if (this.#first === this.#chunks.length) {
      this.#chunks = []
      this.#cursorIndex -= this.#first
      this.#first = 0
    }
  }
}

const EMPTY = new Uint8Array(0)
