import Wire from 'bittorrent-protocol'
import Piece from 'torrent-piece'
import Torrent from 'webtorrent/lib/torrent.js'
import { acquirePieceBuffer } from './piece-pool.js'
import { BLOCK_LENGTH, requestBlock } from './block-request.js'
import { finishPieceHash, hashArrivedBlocks, type HashedPiece } from './piece-hash.js'
import createDebug from 'debug'
import { torrentWireMaxRequests, torrentWireRefillBlocks, torrentWireSmallMessageBytes } from '../../config/defaults.js'

// Where webtorrent 3 spends its CPU on a fast download, and what is changed behind it
// (docs/torrents.md, CPU). Each change replaces one method on the prototype of a class webtorrent
// uses - bittorrent-protocol's Wire (one per peer connection) and torrent-piece's Piece (one per
// piece being downloaded) - with one that keeps the method's contract and drops copies and
// allocations. Nothing inside node_modules is edited; if a class is not shaped as in the versions
// this was written for, it is left alone and the engine warns once.
//
// - Receive: Wire#_write joined its unparsed rest with every new socket chunk (`concat`), copying
//   each received byte once more and allocating a chunk-sized buffer per read. Here chunks are
//   queued; a message inside one chunk is handed on as a view of it, and only a message that
//   straddles two chunks is copied, into a buffer of its own size. A chunk in a read buffer the
//   next read reuses (lent-reads.ts) is parsed the same way, copying out what could outlive it.
// - Piece assembly: Piece kept each 16 KiB block and joined them into a new buffer at `flush`.
//   Here the first block takes the piece's buffer from piece-pool.ts (uninitialised: every byte is written
//   before `flush` hands it out) and every block is copied into place, so a block's buffer - a
//   view of a socket chunk - is dropped at once and the piece is never joined. Its SHA-1 is taken
//   as the blocks are copied in, while they are in cache (piece-hash.ts).
// - Send: every message was its own push through two stream stages to its own socket write (on
//   loopback a write also runs the receiver's TCP work). Messages of up to SMALL_MESSAGE_BYTES
//   pushed in one tick - the requests a wire sends for a piece, `have`s to every peer - are
//   joined into one push; larger data (a block being uploaded) is pushed as it is, after them.
//   A request is written straight into that batch (no message buffer of its own).
// - Request scheduling: every received block queued its own `Torrent#_update` (a pass over all
//   wires choosing the next requests) as a microtask, so a socket read of four blocks ran four
//   passes back to back. Here calls of one tick share one pass, run as a microtask. The callers
//   webtorrent ran synchronously (a wire's bitfield, have, have-all, have-none, donthave,
//   allowed-fast and unchoke; a selection changing) are deferred with them, to the end of the
//   current task (see coalescedUpdate for why that is safe).
// - Request pipeline: webtorrent keeps `2 + speed x 1 s / 16 KiB` requests outstanding per peer,
//   capped only by the peer's `reqq`. A peer that sends none (aria2c) got 5,000-10,000 at
//   300 MiB/s, and every received block then scanned that list (Wire#_pull) and every request pass
//   walked all the pieces they cover. Here a peer's `reqq` is at most MAX_REQUESTS (libtorrent's own
//   default queue), and a reply is matched against the oldest request first (peers answer in order).
//   A peer near that cap is asked again only once a batch of blocks has come back: one request
//   pass and one write per batch instead of per block.
// - Debug logging: every message built a log line (`[id] got piece ...`) for a disabled logger.
// - Block requests: webtorrent's Torrent#_request made an async callback and a helper closure per
//   block asked for; for peer wires it is replaced by block-request.ts (one small closure).

const SMALL_MESSAGE_BYTES = torrentWireSmallMessageBytes
const MAX_REQUESTS = torrentWireMaxRequests
/** A wire with at least this many requests outstanding waits for more replies before the next pass. */
const REFILL_BELOW = Math.max(1, torrentWireMaxRequests - torrentWireRefillBlocks)

interface WireInternals {
  _buffer: Uint8Array[]
  _bufferSize: number
  _parserSize: number
  _parser: (buffer: Uint8Array) => void
  _cryptoSyncPattern: Uint8Array | null
  _pePending: boolean
  _encryptor: { state?: string; encrypt(data: Uint8Array): Uint8Array; decrypt(data: Uint8Array): Uint8Array } | null
  _finished: boolean
  destroyed: boolean
  push(data: Uint8Array | null): boolean
  _processBuffer(): void
  /** Small messages waiting for the end of the tick, back to back (this module's). */
  _maPending?: Buffer | null
  _maPendingBytes?: number
  requests: { piece: number; offset: number; length: number; callback: BlockCallback }[]
  peerChoking: boolean
  hasFast: boolean
  peerAllowedFastSet: number[]
  _timeout: unknown
  _resetTimeout(setAgain: boolean): void
  _message(id: number, numbers: number[], data: Uint8Array | null): void
  _debug(...args: unknown[]): void
  /** Where a straddling `piece` message is joined (this module's). */
  _maScratch?: Buffer
  /** Bytes of `_buffer[0]` already parsed (this module's): the rest of a chunk is not re-sliced per message. */
  _maHeadAt?: number
  /** The peer's extended handshake, its `reqq` capped (this module's). */
  _maPeerExtendedHandshake?: unknown
}

type BlockCallback = (err: Error | null, block?: Uint8Array | null) => void

interface PendingRequest {
  piece: number
  offset: number
  length: number
}

interface PieceInternals extends HashedPiece {
  length: number
  missing: number
  sources: unknown[] | null
  _chunks: number
  _buffered: number
  _buffer: unknown[] | null
  _cancellations: number[] | null
  _reservations: number
  _flushed: boolean
  init(): boolean
}

let installed: true | string | undefined

/**
 * Installs the three replacements once per process (webtorrent's classes are process-wide).
 * Returns why nothing was changed when the classes are not shaped as expected, else undefined.
 */
export function installWireTuning(): string | undefined {
  if (installed === undefined) installed = install()
  return typeof installed === 'string' ? installed : undefined
}

function install(): true | string {
  const wire = (Wire as unknown as { prototype: Record<string, unknown> }).prototype
  const piece = (Piece as unknown as { prototype: Record<string, unknown>; BLOCK_LENGTH?: number })
  for (const name of ['_write', '_processBuffer', '_push', '_parse', '_pull', '_debug', 'request', '_message', '_resetTimeout']) {
    if (typeof wire[name] !== 'function') return `bittorrent-protocol Wire has no ${name}()`
  }
  for (const name of ['set', 'get', 'flush', 'init', 'reserve']) {
    if (typeof piece.prototype[name] !== 'function') return `torrent-piece Piece has no ${name}()`
  }
  const torrent = (Torrent as { prototype?: Record<string, unknown> }).prototype
  if (!torrent) return 'webtorrent Torrent has no prototype'
  for (const name of ['_update', '_updateWire', '_updateWireWrapper', '_debug', '_request']) {
    if (typeof torrent[name] !== 'function') return `webtorrent Torrent has no ${name}()`
  }
  if (Object.getOwnPropertyDescriptor(wire, 'peerExtendedHandshake')) return 'bittorrent-protocol Wire has its own peerExtendedHandshake accessor'
  if (piece.BLOCK_LENGTH !== BLOCK_LENGTH) return `torrent-piece blocks are ${piece.BLOCK_LENGTH} bytes, not ${BLOCK_LENGTH}`
  const probe = new (Piece as unknown as new (length: number) => PieceInternals)(BLOCK_LENGTH + 1)
  if (probe._chunks !== 2 || probe._buffered !== 0 || probe.missing !== BLOCK_LENGTH + 1 || probe._reservations !== 0 || probe._flushed !== false) return 'torrent-piece Piece keeps other fields'

  onMessage = wire._onMessage
  if (typeof onMessage !== 'function') return 'bittorrent-protocol Wire has no _onMessage()'
  onMessageLength = wire._onMessageLength
  if (typeof onMessageLength !== 'function') return 'bittorrent-protocol Wire has no _onMessageLength()'
  wire._write = receive
  wire._processBuffer = processQueued
  wire._push = pushBatched
  wire._pull = pullRequest
  wire.request = requestBatched
  // The peer's extended handshake: assigned `{}` by the constructor, the peer's dictionary later;
  // webtorrent reads its `reqq` for every request it considers (getBlockPipelineLength).
  Object.defineProperty(wire, 'peerExtendedHandshake', {
    configurable: true,
    get(this: WireInternals) {
      return this._maPeerExtendedHandshake
    },
    set(this: WireInternals, info: unknown) {
      this._maPeerExtendedHandshake = capRequestQueue(info)
    },
  })
  wire._debug = quietUnless(wire._debug as DebugMethod, 'bittorrent-protocol')
  torrent._debug = quietUnless(torrent._debug as DebugMethod, 'webtorrent:torrent')
  const update = torrent._update as (this: object) => void
  // On Node webtorrent's `_update` runs its pass at once (requestIdleCallback exists only in a
  // browser); only the block callback queued it. Here every call is queued, and calls until the
  // microtask runs share it. Safe to defer: `_update` returns nothing and no caller reads what
  // the pass did (the wire handlers go on to `_updateWireInterest`, which looks at the pieces the
  // peer has, not at requests); the pass reads the torrent and its wires as they are when it
  // runs, skipping a torrent or a wire destroyed meanwhile; and it still runs before any I/O
  // callback, so no socket data or timer sees the torrent between the call and the pass.
  torrent._update = function coalescedUpdate(this: { _maUpdateQueued?: boolean }) {
    if (this._maUpdateQueued) return
    this._maUpdateQueued = true
    queueMicrotask(() => {
      this._maUpdateQueued = false
      update.call(this)
    })
  }
  const updateWire = torrent._updateWire as (this: unknown, wire: { type?: string; requests: unknown[] }) => unknown
  torrent._updateWire = function updateWireInBatches(this: unknown, wire: { type?: string; requests: unknown[] }) {
    // Near the cap (only reached at a rate where webtorrent wants ~500 out): wait until a batch
    // of blocks has come back, then ask for a batch in one pass and one write.
    if (wire.requests.length >= REFILL_BELOW && wire.type !== 'webSeed') return undefined
    return updateWire.call(this, wire)
  }
  const request = torrent._request as RequestMethod
  torrent._request = function requestUnlessBusy(this: TorrentInternals, wire: { type?: string }, index: number, hotswap: boolean): boolean {
    if (wire.type === 'webSeed') return request.call(this, wire, index, hotswap)
    if (nothingToRequest(this.pieces[index], hotswap)) return false
    return (requestBlock as unknown as RequestMethod).call(this, wire, index, hotswap)
  }
  piece.prototype.set = setBlock
  piece.prototype.get = getBlock
  piece.prototype.flush = flushPiece
  return true
}

type RequestMethod = (this: TorrentInternals, wire: { type?: string }, index: number, hotswap: boolean) => boolean

interface TorrentInternals {
  pieces: (PieceInternals | null)[]
}

/**
 * Whether Torrent#_request would surely return false for this piece, answered without its work
 * (the peer's speed read twice, a `hrtime` each): the piece is being hashed or written (flushed),
 * or every block of it is asked for already and no request may be taken over (no hotswap).
 * Webtorrent's request pass calls _request for every piece from the first one not yet written
 * to the last one asked for, on every pass; most of them are such pieces.
 */
export function nothingToRequest(piece: PieceInternals | null | undefined, hotswap: boolean): boolean {
  if (!piece) return false
  if (piece._flushed) return true
  return !hotswap && piece._buffer !== null && piece._cancellations !== null && piece._cancellations.length === 0 && piece._reservations >= piece._chunks
}

type DebugMethod = (this: unknown, ...args: unknown[]) => void

/** A `_debug` that formats nothing while its namespace's logger is off (DEBUG can turn it on at any time). */
function quietUnless(original: DebugMethod, namespace: string): DebugMethod {
  const logger = createDebug(namespace)
  return function debugWhenEnabled(this: unknown, ...args: unknown[]) {
    if (logger.enabled) original.apply(this, args)
  }
}

/** The peer's `reqq` (how many requests it queues), at most MAX_REQUESTS, and MAX_REQUESTS when it names none. */
function capRequestQueue(info: unknown): unknown {
  if (info && typeof info === 'object') {
    const handshake = info as { reqq?: unknown }
    const reqq = handshake.reqq
    if (!(typeof reqq === 'number' && reqq > 0 && reqq <= MAX_REQUESTS)) handshake.reqq = MAX_REQUESTS
  }
  return info
}

/**
 * Wire#_pull: removes and returns the request a reply (or a cancel) names. Peers answer in the
 * order asked, so the oldest request is tried first; the order of the rest is kept (the stock
 * version swapped the last request into the hole, so later replies scanned half the list).
 */
function pullRequest(requests: PendingRequest[], piece: number, offset: number, length: number): PendingRequest | null {
  const first = requests[0]
  if (first !== undefined && first.piece === piece && first.offset === offset && first.length === length) return requests.shift()!
  for (let i = 1; i < requests.length; i++) {
    const request = requests[i]!
    if (request.piece === piece && request.offset === offset && request.length === length) {
      requests.splice(i, 1)
      return request
    }
  }
  return null
}

/** Wire#_write: queue the chunk (decrypted when the stream is encrypted) and parse what is complete. */
function receive(this: WireInternals, data: Uint8Array, cb: (err: Error | null) => void): void {
  if (this._encryptor) data = this._encryptor.decrypt(data)
  if (data.length > 0) {
    this._buffer.push(data)
    this._bufferSize += data.length
  }
  this._processBuffer()
  cb(null)
}

/**
 * Wire#_processBuffer over a queue of chunks: the same parser calls in the same order as
 * bittorrent-protocol 5's (which keeps one joined buffer), without joining.
 */
function processQueued(this: WireInternals): void {
  if (this._cryptoSyncPattern) {
    // The encryption handshake searches a pattern across everything received: join (rare, short).
    if (this._maHeadAt) {
      this._buffer[0] = this._buffer[0]!.subarray(this._maHeadAt)
      this._maHeadAt = 0
    }
    if (this._buffer.length > 1) this._buffer = [join(this._buffer, this._bufferSize)]
    const head = this._buffer[0] ?? new Uint8Array()
    const index = indexOfBytes(head, this._cryptoSyncPattern)
    if (index !== -1) {
      const rest = head.subarray(index + this._cryptoSyncPattern.length)
      this._buffer = rest.length ? [rest] : []
      this._bufferSize = rest.length
      this._cryptoSyncPattern = null
    } else if (this._bufferSize > (this as unknown as { _waitMaxBytes: number })._waitMaxBytes + this._cryptoSyncPattern.length) {
      ;(this as unknown as { destroy(): void }).destroy()
      return
    }
    if (this._cryptoSyncPattern) return
  }
  while (this._bufferSize >= this._parserSize) {
    if (this._cryptoSyncPattern || this._pePending) break
    const size = this._parserSize
    if (size === 0) {
      this._parser(new Uint8Array())
      continue
    }
    this._bufferSize -= size
    this._parser(take(this, size, this._parser === onMessage))
  }
}

/** bittorrent-protocol's own message parser (the one `_onMessageLength` hands a whole message to). */
let onMessage: unknown
/** bittorrent-protocol's parser of a message's 4-byte length prefix (reads a number, keeps nothing). */
let onMessageLength: unknown

/**
 * The memory of the chunk `receiveLent` is parsing, which the next socket read overwrites
 * (lent-reads.ts); undefined otherwise. Only the parsers known to keep nothing get views of it.
 */
let lentMemory: ArrayBufferLike | undefined

/**
 * Wire#_write for a chunk that lives in memory the next socket read reuses (lent-reads.ts), called
 * synchronously from the read: it is parsed in place like any chunk, with two differences. A
 * parser that could keep what it is handed (a bitfield, an extended message, the handshakes) gets
 * a copy; only a `piece` message (its block copied into the piece before the parser returns) and
 * a length prefix (read as a number) see the chunk itself. And what is left unparsed when the
 * chunk is done - the start of a message the next read completes - is copied out of it, into the
 * wire's scratch buffer when it begins a `piece` message (which take() then completes in place),
 * else into a buffer of its own.
 */
export function receiveLent(wire: unknown, chunk: Buffer): void {
  const tuned = wire as WireInternals
  if (tuned.destroyed) return
  lentMemory = chunk.buffer
  try {
    receive.call(tuned, chunk, noop)
  } finally {
    lentMemory = undefined
    keepUnparsed(tuned, chunk.buffer)
  }
}

/** Wire#_write, synchronously, for a chunk of its own (one read before the wire existed, copied). */
export function receiveOwned(wire: unknown, chunk: Buffer): void {
  const tuned = wire as WireInternals
  if (!tuned.destroyed) receive.call(tuned, chunk, noop)
}

/** A parser that is handed `view` keeps none of it: a `piece` message, or a length prefix. */
function keepsNothing(wire: WireInternals, view: Uint8Array, parsingMessage: boolean): boolean {
  return parsingMessage ? view[0] === 7 : wire._parser === onMessageLength
}

/** `view`, or a copy of it when it is lent memory and its parser might keep it. */
function handedOn(wire: WireInternals, view: Uint8Array, parsingMessage: boolean): Uint8Array {
  if (lentMemory === undefined || view.buffer !== lentMemory || keepsNothing(wire, view, parsingMessage)) return view
  return Buffer.from(view)
}

/**
 * Copies every unparsed byte that still lies in `memory` into memory of the wire's own (see
 * receiveLent). The start of a block reply (at most one block long) goes to the front of the
 * scratch buffer with whatever of it came before; anything else is copied chunk by chunk (a long
 * message arriving over many reads is copied once, not once per read).
 */
function keepUnparsed(wire: WireInternals, memory: ArrayBufferLike): void {
  const queue = wire._buffer
  let lent = false
  for (const chunk of queue) lent ||= chunk.buffer === memory
  if (!lent) return
  const at = wire._maHeadAt ?? 0
  if (wire._parser === onMessage && queue[0]![at] === 7 && wire._parserSize <= BLOCK_LENGTH + 9) {
    let scratch = wire._maScratch
    const head = queue[0]!
    let filled = 0
    let first = 0
    if (scratch && scratch.length >= BLOCK_LENGTH + 9) {
      if (at === 0 && head.buffer === scratch.buffer && head.byteOffset === scratch.byteOffset) {
        filled = head.length
        first = 1
      }
    } else {
      scratch = wire._maScratch = Buffer.allocUnsafe(BLOCK_LENGTH + 9)
    }
    for (let i = first; i < queue.length; i++) {
      const chunk = i === 0 && at > 0 ? queue[i]!.subarray(at) : queue[i]!
      scratch.set(chunk, filled)
      filled += chunk.length
    }
    wire._buffer = [scratch.subarray(0, filled)]
    wire._maHeadAt = 0
    return
  }
  for (let i = 0; i < queue.length; i++) {
    const chunk = queue[i]!
    if (chunk.buffer !== memory) continue
    queue[i] = Buffer.from(i === 0 && at > 0 ? chunk.subarray(at) : chunk)
    if (i === 0) wire._maHeadAt = 0
  }
}

/**
 * Takes `size` bytes off the front of the queue: a view when one chunk holds them, else a copy of
 * just them. A `piece` message (id 7) that straddles chunks - most of them over uTP, whose chunks
 * are packet-sized - is copied into the wire's one scratch buffer instead of a new one: its block
 * is copied into the piece's buffer before the parser returns (Piece#set above; nothing listens
 * to the wire's 'piece' event), and a block that were kept and overwritten would fail the piece's
 * SHA-1 check, never reach the disk.
 */
function take(wire: WireInternals, size: number, parsingMessage: boolean): Uint8Array {
  const queue = wire._buffer
  const head = queue[0]!
  const at = wire._maHeadAt ?? 0
  const left = head.length - at
  if (left > size) {
    wire._maHeadAt = at + size
    return handedOn(wire, head.subarray(at, at + size), parsingMessage)
  }
  if (left === size) {
    queue.shift()
    wire._maHeadAt = 0
    return handedOn(wire, at === 0 ? head : head.subarray(at), parsingMessage)
  }
  let out: Uint8Array
  let inPlace = false
  if (parsingMessage && head[at] === 7) {
    const scratch = wire._maScratch
    // The start of this message already at the front of the scratch buffer (receiveLent kept it there).
    inPlace = at === 0 && scratch !== undefined && head.buffer === scratch.buffer && head.byteOffset === scratch.byteOffset && scratch.length >= size
    if (!inPlace && (!scratch || scratch.length < size)) wire._maScratch = Buffer.allocUnsafe(Math.max(size, BLOCK_LENGTH + 9))
    out = wire._maScratch!.subarray(0, size)
  } else {
    out = Buffer.allocUnsafe(size)
  }
  if (!inPlace) out.set(at === 0 ? head : head.subarray(at), 0)
  let filled = left
  queue.shift()
  wire._maHeadAt = 0
  while (filled < size) {
    const chunk = queue[0]!
    const want = size - filled
    if (chunk.length > want) {
      out.set(chunk.subarray(0, want), filled)
      wire._maHeadAt = want
      filled = size
    } else {
      out.set(chunk, filled)
      filled += chunk.length
      queue.shift()
    }
  }
  return out
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  const out = Buffer.allocUnsafe(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle)
}

/**
 * Wire#_push: small messages wait for the end of the tick and go out as one buffer; anything
 * larger first sends what waits, then itself. Order is kept.
 */
function pushBatched(this: WireInternals, data: Uint8Array): boolean {
  if (this._finished) return false
  // A wire with message stream encryption (MSE, which webtorrent tries first on every outgoing
  // connection) switches from plain to RC4 in the middle of its handshake: until the handshake is
  // done its bytes are encrypted as they are pushed, one by one, as bittorrent-protocol does. Once
  // it is done the method is final (plain or RC4, a stream cipher), so a batch is encrypted when it
  // is sent, in the order its bytes were pushed.
  if (this._encryptor && this._encryptor.state !== 'done') {
    flushPending(this)
    return this.push(this._encryptor.encrypt(data))
  }
  if (data.length <= SMALL_MESSAGE_BYTES) {
    const at = pendingSpace(this, data.length)
    this._maPending!.set(data, at)
    return true
  }
  flushPending(this)
  return pushNow(this, data)
}

/** First batch buffer of a tick: a refill of 64 requests is 1,088 bytes. */
const PENDING_INITIAL_BYTES = 1024

/** Room for `size` more bytes at the end of this tick's batch (made, and its flush queued, by the first message); returns where they go. */
function pendingSpace(wire: WireInternals, size: number): number {
  let pending = wire._maPending
  const at = pending ? wire._maPendingBytes! : 0
  if (!pending) {
    pending = wire._maPending = Buffer.allocUnsafe(Math.max(PENDING_INITIAL_BYTES, size))
    queueMicrotask(() => flushPending(wire))
  } else if (at + size > pending.length) {
    const grown = Buffer.allocUnsafe(Math.max(2 * pending.length, at + size))
    pending.copy(grown, 0, 0, at)
    pending = wire._maPending = grown
  }
  wire._maPendingBytes = at + size
  return at
}

function flushPending(wire: WireInternals): void {
  const pending = wire._maPending
  if (!pending) return
  wire._maPending = null
  if (wire._finished || wire.destroyed || wire._maPendingBytes === 0) return
  // The batch buffer goes to the socket as it is: the next tick's messages get a new one.
  pushNow(wire, pending.subarray(0, wire._maPendingBytes))
}

/**
 * Wire#request: the same checks and bookkeeping as bittorrent-protocol 5's, with the 17-byte
 * message written straight into this tick's batch rather than built as a Uint8Array of its own
 * from an array of three numbers and then copied into the batch (those two, with the Request,
 * were the largest allocation of a download: ~12 MiB per 512 MiB). While an encryption handshake
 * runs, bittorrent-protocol's own message path (each message encrypted as it is pushed).
 */
function requestBatched(this: WireInternals, index: number, offset: number, length: number, cb?: BlockCallback): void {
  const callback = cb ?? noop
  if (this._finished) return callback(new Error('wire is closed'))
  if (this.peerChoking && !(this.hasFast && this.peerAllowedFastSet.includes(index))) return callback(new Error('peer is choking'))
  this._debug('request index=%d offset=%d length=%d', index, offset, length)
  // bittorrent-protocol's Request has exactly these fields, and nothing checks its class.
  this.requests.push({ piece: index, offset, length, callback })
  if (!this._timeout) this._resetTimeout(true)
  if (this._encryptor && this._encryptor.state !== 'done') return this._message(6, [index, offset, length], null)
  const at = pendingSpace(this, REQUEST_MESSAGE_BYTES)
  const pending = this._maPending!
  pending.writeUInt32BE(REQUEST_MESSAGE_BYTES - 4, at)
  pending[at + 4] = 6
  pending.writeUInt32BE(index, at + 5)
  pending.writeUInt32BE(offset, at + 9)
  pending.writeUInt32BE(length, at + 13)
}

/** <len=0013><id=6><index><begin><length> */
const REQUEST_MESSAGE_BYTES = 17

function noop(): void {}

function pushNow(wire: WireInternals, data: Uint8Array): boolean {
  return wire.push(wire._encryptor ? wire._encryptor.encrypt(data) : data)
}

/** Piece#set: copies the block(s) into the piece's one buffer (allocated by the first block). */
function setBlock(this: PieceInternals, i: number, data: Uint8Array, source: unknown): boolean {
  if (!this.init()) return false
  const buffered = this._buffer!
  const blocks = Math.ceil(data.length / BLOCK_LENGTH)
  let whole = this._maData
  for (let j = 0; j < blocks; j++) {
    if (buffered[i + j]) continue
    const offset = j * BLOCK_LENGTH
    // A peer's block is one block: copied as it is, with no view of it made.
    const block = blocks === 1 ? data : data.subarray(offset, offset + BLOCK_LENGTH)
    const at = (i + j) * BLOCK_LENGTH
    // Cannot happen (a wire matches a block to its request by offset and length); never write past the piece.
    if (at + block.length > this.length) continue
    if (!whole) whole = this._maData = acquirePieceBuffer(this.length)
    whole.set(block, at)
    buffered[i + j] = true
    this._buffered++
    this.missing -= block.length
    if (!this.sources!.includes(source)) this.sources!.push(source)
  }
  hashArrivedBlocks(this, BLOCK_LENGTH)
  return this._buffered === this._chunks
}

/** Piece#get: the block's bytes (a view of the piece's buffer), or undefined while it is missing. */
function getBlock(this: PieceInternals, i: number): Uint8Array | null | undefined {
  if (!this.init()) return null
  if (!this._buffer![i] || !this._maData) return undefined
  return this._maData.subarray(i * BLOCK_LENGTH, Math.min(this.length, (i + 1) * BLOCK_LENGTH))
}

/** Piece#flush: hands out the filled buffer (no join). */
function flushPiece(this: PieceInternals): Uint8Array | null {
  if (!this._buffer || this._chunks !== this._buffered || !this._maData) return null
  finishPieceHash(this, BLOCK_LENGTH)
  const whole = this._maData
  this._maData = null
  this._buffer = null
  this._cancellations = null
  this.sources = null
  this._flushed = true
  return whole
}
