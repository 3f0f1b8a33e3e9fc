import ImmediateChunkStore from 'immediate-chunk-store'

// Piece buffers reused (docs/torrents.md, CPU): every downloaded piece was assembled in a buffer
// of its own (wire-tuning.ts's Piece#set), written, and dropped: at 1 MiB pieces that is one
// 1 MiB ArrayBuffer per MiB received, and freeing ArrayBuffers is what drives V8's full GCs on
// a fast download. Here a piece's buffer goes back to a small free list once nothing can hold it
// any more, and the next piece of the same length takes it.
//
// When nothing holds it, in webtorrent 3 with the engine's file store: Torrent hashes the
// flushed buffer (SHA-1, synchronous inside uint8-util's `hash`) and then `store.put`s it into
// immediate-chunk-store's ImmediateStore, which keeps it in `mem[index]` until the store beneath
// calls back, and serves any `get` of that piece meanwhile from it - as the buffer itself or a
// view of it, which a read stream or an upload may keep for as long as it likes. So:
// - a buffer is released only from ImmediateStore#put's callback, without error (on an error
//   another file's write of the same piece may still be in flight), and only when the store
//   beneath says its `put` keeps nothing once it calls back (RELEASES_PUT_BUFFER: the engine's
//   file store, whose positional writes hold the buffer until their callbacks; a memory store
//   keeps it forever and is never marked);
// - a buffer that a `get` was served from while its write was pending is forfeited: it is never
//   released, the garbage collector frees it once its last holder lets go;
// - only buffers this pool handed out and that are still out are taken back, each once.
// A piece that fails its hash, or whose torrent is destroyed meanwhile, is simply dropped.

/** Set to true on a chunk store whose `put` holds the buffer only until its callback (file-store.ts). */
export const RELEASES_PUT_BUFFER = Symbol.for('media-agent.torrent.releases-put-buffer')

export interface PieceBufferPoolOptions {
  /** Most free buffers kept per piece length. */
  maxFreePerLength: number
  /** Most bytes kept in free buffers in all. */
  maxFreeBytes: number
  /** The free lists are emptied after this long without a release (an idle engine holds none). */
  idleEmptyMs: number
}

export class PieceBufferPool {
  readonly #options: PieceBufferPoolOptions
  readonly #free = new Map<number, Buffer[]>()
  /** Handed out and not yet released or forfeited. */
  readonly #out = new WeakSet<Uint8Array>()
  #freeBytes = 0
  #idle: NodeJS.Timeout | undefined

  constructor(options: PieceBufferPoolOptions) {
    this.#options = options
  }

  /** A buffer of `length` bytes with unspecified contents (the caller writes every byte before reading any). */
  acquire(length: number): Buffer {
    const buf = this.#free.get(length)?.pop()
    if (buf) this.#freeBytes -= length
    const out = buf ?? Buffer.allocUnsafeSlow(length)
    this.#out.add(out)
    return out
  }

  /** True when `buf` came from acquire() and is still out (neither released nor forfeited). */
  lent(buf: Uint8Array): boolean {
    return this.#out.has(buf)
  }

  /** Its holder may be shared with code that keeps it: it is never taken back. */
  forfeit(buf: Uint8Array): void {
    this.#out.delete(buf)
  }

  /** Takes back a buffer nothing holds any more; ignores one that is not out. Returns whether it was kept. */
  release(buf: Uint8Array): boolean {
    if (!this.#out.delete(buf)) return false
    const { maxFreePerLength, maxFreeBytes, idleEmptyMs } = this.#options
    const list = this.#free.get(buf.length) ?? []
    if (list.length >= maxFreePerLength || this.#freeBytes + buf.length > maxFreeBytes) return false
    list.push(buf as Buffer)
    this.#free.set(buf.length, list)
    this.#freeBytes += buf.length
    if (this.#idle) this.#idle.refresh()
    else {
      this.#idle = setTimeout(() => this.empty(), idleEmptyMs)
      this.#idle.unref()
    }
    return true
  }

  /** Drops every free buffer. */
  empty(): void {
    this.#free.clear()
    this.#freeBytes = 0
    if (this.#idle) clearTimeout(this.#idle)
    this.#idle = undefined
  }

  /** Bytes held in free buffers (for tests and /debug). */
  get freeBytes(): number {
    return this.#freeBytes
  }
}

interface ImmediateStoreInternals {
  mem: (Uint8Array | null | undefined)[]
  store: { [RELEASES_PUT_BUFFER]?: boolean }
  put(index: number, buf: Uint8Array, cb?: (err?: Error | null) => void): void
  get(index: number, opts: unknown, cb?: unknown): void
}

/** Makes immediate-chunk-store's ImmediateStore (`proto`) give `pool`'s buffers back once written, as above. */
export function patchImmediateStore(proto: Record<string, unknown>, pool: PieceBufferPool): string | undefined {
  const put = proto.put as ImmediateStoreInternals['put'] | undefined
  const get = proto.get as ImmediateStoreInternals['get'] | undefined
  if (typeof put !== 'function' || typeof get !== 'function') return 'immediate-chunk-store has no put() / get()'
  proto.put = function pooledPut(this: ImmediateStoreInternals, index: number, buf: Uint8Array, cb: (err?: Error | null) => void = () => {}) {
    if (!pool.lent(buf) || this.store?.[RELEASES_PUT_BUFFER] !== true) return put.call(this, index, buf, cb)
    put.call(this, index, buf, (err) => {
      cb(err)
      if (!err) pool.release(buf)
    })
  }
  proto.get = function forfeitingGet(this: ImmediateStoreInternals, index: number, opts: unknown, cb?: unknown) {
    const held = this.mem?.[index]
    if (held) pool.forfeit(held)
    return get.call(this, index, opts, cb)
  }
  return undefined
}

/** The process's pool (webtorrent's classes are process-wide); its limits are set at install. */
let shared: PieceBufferPool | undefined
let installed: string | true | undefined

/** Piece#set's allocation (wire-tuning.ts): from the pool once installed, else a fresh buffer. */
export function acquirePieceBuffer(length: number): Buffer {
  return shared ? shared.acquire(length) : Buffer.allocUnsafe(length)
}

/** Installs the pool once per process; returns why nothing was changed, else undefined. */
export function installPiecePool(options: PieceBufferPoolOptions): string | undefined {
  if (installed === undefined) {
    const pool = new PieceBufferPool(options)
    const why = patchImmediateStore((ImmediateChunkStore as unknown as { prototype: Record<string, unknown> }).prototype, pool)
    installed = why ?? true
    if (!why) shared = pool
  }
  return typeof installed === 'string' ? installed : undefined
}
