import { createHash, type Hash } from 'node:crypto'

// A piece's SHA-1, taken while its blocks arrive (docs/torrents.md, CPU, Piece hashed as it
// arrives). webtorrent hashes a piece once it is complete, reading its whole buffer again: at
// 1 MiB pieces that buffer was filled over the last few milliseconds from socket chunks and has
// left the CPU's caches, and SHA-1 then runs at the speed of memory (~1.0 CPU s per GiB on this
// machine against ~0.55 s on data in cache; it was the largest item of the download's profile,
// 27 % of the main thread). Here the piece's hash is fed each run of blocks that joins the hashed
// start of the piece as soon as the run is HASH_RUN_BYTES long, right after the blocks were
// copied in (wire-tuning.ts's Piece#set), so it reads them from cache. Peers answer requests in
// order and a piece's blocks are asked for in order, so nearly every block is hashed this way;
// a block that arrives out of order waits for the gap before it to fill. The digest is the same
// SHA-1 of the same bytes: a block is never changed once set (Piece#set skips a block it has), and
// a piece that fails its hash is replaced by a new Piece, with no hash.

/** Contiguous bytes fed to the hash in one update: fewer calls, and still in the core's 2 MiB L2 cache. */
const HASH_RUN_BYTES = 64 * 1024

export interface HashedPiece {
  length: number
  _chunks: number
  /** torrent-piece's per-block flags: truthy once block i is set. */
  _buffer: unknown[] | null
  /** The piece's bytes, filled block by block (wire-tuning.ts). */
  _maData?: Buffer | null
  /** The SHA-1 of the blocks hashed so far (this module's). */
  _maHash?: Hash | null
  /** How many blocks from the start the hash has been fed (this module's). */
  _maHashedBlocks?: number
  /** The piece's hex SHA-1, set when it is flushed (this module's). */
  _maDigest?: string | null
}

/**
 * Feeds the hash the blocks set after its end, up to the first missing block, once they make
 * HASH_RUN_BYTES (or reach the end of the piece). Call after blocks were set.
 */
export function hashArrivedBlocks(piece: HashedPiece, blockLength: number): void {
  const blocks = piece._buffer
  const data = piece._maData
  if (!blocks || !data) return
  const from = piece._maHashedBlocks ?? 0
  let to = from
  while (to < piece._chunks && blocks[to]) to++
  const end = Math.min(piece.length, to * blockLength)
  const start = from * blockLength
  if (to === from || (to < piece._chunks && end - start < HASH_RUN_BYTES)) return
  const hash = piece._maHash ?? (piece._maHash = createHash('sha1'))
  hash.update(data.subarray(start, end))
  piece._maHashedBlocks = to
}

/** At flush (every block set): the digest of the whole piece, kept on it for pieceDigest(). */
export function finishPieceHash(piece: HashedPiece, blockLength: number): void {
  hashArrivedBlocks(piece, blockLength)
  const hash = piece._maHash
  piece._maDigest = hash && piece._maHashedBlocks === piece._chunks ? hash.digest('hex') : null
  piece._maHash = null
}

/** The hex SHA-1 of a flushed piece's buffer `buf`: the one taken as it arrived, else hashed now. */
export function pieceDigest(piece: HashedPiece, buf: Uint8Array): string {
  const digest = piece._maDigest
  if (digest) {
    piece._maDigest = null
    return digest
  }
  return createHash('sha1').update(buf).digest('hex')
}
