import Piece from 'torrent-piece'
import createDebug from 'debug'
import { pieceDigest, type HashedPiece } from './piece-hash.js'

// Torrent#_request for peer wires, as webtorrent 3 does it (lib/torrent.js), with what it kept per
// request taken out (docs/torrents.md, CPU). webtorrent made, for every block it asked for, an
// async callback and a helper function capturing fourteen variables; a request lives for the
// round trip (~500 in flight at 300 MiB/s), long enough to outlive two young-generation
// collections, so that closure was the largest thing promoted to the old generation (35 % of it,
// measured with `BENCH_TORRENT_ALLOC=promoted`) and so a cause of the full collections. Here a
// request keeps one small closure; a block that does not complete its piece runs no async
// function (no promise, no microtask of its own); its log line is formatted only when logging is
// on. What it does is unchanged: the same checks in the same order, the same reservation
// bookkeeping, the piece's SHA-1 checked once it is complete (taken as its blocks arrived,
// piece-hash.ts) and the rest of the work a microtask later, as after webtorrent's
// `await hash(...)`. Web seeds keep webtorrent's own method (their requests span pieces).

/** torrent-piece's block size, the unit peers are asked for (wire-tuning.ts checks the class agrees before installing). */
export const BLOCK_LENGTH = 1 << 14
/** webtorrent's PIPELINE_MAX_DURATION: a peer is asked for about one second of its speed in blocks. */
const PIPELINE_SECONDS = 1
const debug = createDebug('webtorrent:torrent')

interface RequestWire {
  type?: string
  requests: unknown[]
  remoteAddress?: string
  remotePort?: number
  downloadSpeed(): number
  peerExtendedHandshake?: { reqq?: unknown } | null
  request(index: number, offset: number, length: number, cb: (err: Error | null, chunk?: Uint8Array) => void): void
  have(index: number): void
}

interface RequestPiece extends HashedPiece {
  length: number
  reserve(): number
  cancel(reservation: number): void
  chunkOffset(reservation: number): number
  chunkLength(reservation: number): number
  set(reservation: number, chunk: Uint8Array, wire: unknown): boolean
  flush(): Uint8Array | null
}

interface RequestTorrent {
  destroyed: boolean
  ready: boolean
  pieces: (RequestPiece | null)[]
  bitfield: { get(index: number): boolean }
  _reservations: ((RequestWire | null)[] | null)[]
  _hashes: string[]
  wires: RequestWire[]
  store: { put(index: number, buf: Uint8Array, cb: (err?: Error | null) => void): void }
  _hotswap(wire: RequestWire, index: number): boolean
  _update(): void
  _markVerified(index: number): void
  _checkDone(): void
  _destroy(err: Error): void
  _debug(...args: unknown[]): void
  once(event: 'ready', listener: () => void): void
  emit(event: 'warning', error: Error): void
}

/** webtorrent's getBlockPipelineLength: ~1 s of the peer's speed in blocks, at most the peer's `reqq`. */
function blockPipelineLength(wire: RequestWire): number {
  let length = 2 + Math.ceil(PIPELINE_SECONDS * wire.downloadSpeed() / BLOCK_LENGTH)
  const reqq = wire.peerExtendedHandshake?.reqq
  if (typeof reqq === 'number' && reqq > 0) length = Math.min(length, reqq)
  return length
}

/** Torrent#_request for a peer wire (not a web seed): asks `wire` for one block of piece `index`. */
export function requestBlock(this: RequestTorrent, wire: RequestWire, index: number, hotswap: boolean): boolean {
  if (this.bitfield.get(index)) return false
  if (wire.requests.length >= blockPipelineLength(wire)) return false
  const piece = this.pieces[index]!
  let reservation = piece.reserve()
  if (reservation === -1 && hotswap && this._hotswap(wire, index)) reservation = piece.reserve()
  if (reservation === -1) return false

  let holders = this._reservations[index]
  if (!holders) holders = this._reservations[index] = []
  let slot = holders.indexOf(null)
  if (slot === -1) slot = holders.length
  holders[slot] = wire

  wire.request(index, piece.chunkOffset(reservation), piece.chunkLength(reservation), (err, chunk) => {
    blockArrived(this, wire, index, piece, reservation, holders, slot, err, chunk)
  })
  return true
}

function blockArrived(torrent: RequestTorrent, wire: RequestWire, index: number, piece: RequestPiece, reservation: number, holders: (RequestWire | null)[], slot: number, err: Error | null, chunk: Uint8Array | undefined): void {
  if (torrent.destroyed) return
  if (!torrent.ready) {
    torrent.once('ready', () => blockArrived(torrent, wire, index, piece, reservation, holders, slot, err, chunk))
    return
  }
  if (holders[slot] === wire) holders[slot] = null
  // The piece was reset meanwhile (a failed hash, a recheck): this block belongs to nothing.
  if (piece !== torrent.pieces[index]) return torrent._update()
  if (err) {
    torrent._debug('error getting piece %s (offset: %s length: %s) from %s: %s', index, piece.chunkOffset(reservation), piece.chunkLength(reservation), `${wire.remoteAddress}:${wire.remotePort}`, err.message)
    piece.cancel(reservation)
    return torrent._update()
  }
  if (debug.enabled) torrent._debug('got piece %s (offset: %s length: %s) from %s', index, piece.chunkOffset(reservation), piece.chunkLength(reservation), `${wire.remoteAddress}:${wire.remotePort}`)
  if (!piece.set(reservation, chunk!, wire)) return torrent._update()
  const buf = piece.flush()!
  const hex = pieceDigest(piece, buf)
  // webtorrent went on after `await hash(buf)`: a microtask later, with the rest of the socket's data parsed first.
  queueMicrotask(() => pieceHashed(torrent, index, piece, buf, hex))
}

function pieceHashed(torrent: RequestTorrent, index: number, piece: RequestPiece, buf: Uint8Array, hex: string): void {
  if (torrent.destroyed) return
  if (hex !== torrent._hashes[index]) {
    torrent.pieces[index] = new (Piece as unknown as new (length: number) => RequestPiece)(piece.length)
    torrent.emit('warning', new Error(`Piece ${index} failed verification`))
    return torrent._update()
  }
  torrent._debug('piece verified %s', index)
  torrent.store.put(index, buf, (err) => {
    if (err) return torrent._destroy(err)
    torrent.pieces[index] = null
    torrent._markVerified(index)
    for (const peer of torrent.wires) peer.have(index)
    torrent._checkDone()
    torrent._update()
  })
}
