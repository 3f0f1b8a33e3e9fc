import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import ImmediateChunkStore from 'immediate-chunk-store'
import { PieceBufferPool, RELEASES_PUT_BUFFER, patchImmediateStore } from '../../src/services/torrent/piece-pool.js'

// piece-pool.ts hands a piece's buffer to the next piece once its write is done. A buffer handed
// out again while a write still holds it would put another piece's bytes on disk under this
// piece's verified hash; one handed out while a read (a stream, an upload) holds a view of it
// would send the wrong bytes. Here the real immediate-chunk-store sits over a store whose writes
// complete (or fail) when the test says, in any order, while reads come and go, and every new
// piece scribbles over its whole buffer the moment it gets it.

type Callback = (err?: Error | null) => void
type ReadCallback = (err: Error | null, buf?: Uint8Array) => void

/** A chunk store whose puts wait for the test; marked like the engine's file store (it keeps nothing after calling back). */
class DeferredStore {
  readonly [RELEASES_PUT_BUFFER] = true
  readonly chunkLength: number
  readonly pending: { buf: Uint8Array; snapshot: Buffer; cb: Callback }[] = []
  readonly disk = new Map<number, Buffer>()
  constructor(chunkLength: number) {
    this.chunkLength = chunkLength
  }
  put(index: number, buf: Uint8Array, cb: Callback) {
    this.pending.push({ buf, snapshot: Buffer.from(buf), cb })
    // What the write will have put on disk if the buffer stays untouched until it completes.
    this.disk.set(index, Buffer.from(buf))
  }
  get(index: number, _opts: unknown, cb: ReadCallback) {
    queueMicrotask(() => cb(null, Buffer.from(this.disk.get(index) ?? Buffer.alloc(this.chunkLength))))
  }
  close(cb: Callback) {
    cb(null)
  }
  destroy(cb: Callback) {
    cb(null)
  }
}

/** The real ImmediateStore class, patched on a subclass of its own so that other tests see it unchanged. */
function pooledStoreClass(pool: PieceBufferPool) {
  const Base = ImmediateChunkStore as unknown as new (store: unknown) => {
    put(index: number, buf: Uint8Array, cb?: Callback): void
    get(index: number, opts: unknown, cb: ReadCallback): void
  }
  class Pooled extends Base {}
  expect(patchImmediateStore(Pooled.prototype as unknown as Record<string, unknown>, pool)).toBeUndefined()
  return Pooled
}

const flushMicrotasks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

type Op =
  | { kind: 'piece'; index: number; fill: number }
  | { kind: 'read'; index: number; offset: number }
  | { kind: 'complete'; which: number; ok: boolean }
  | { kind: 'dropRead'; which: number }

const CHUNK = 64
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('piece' as const), index: fc.nat(2), fill: fc.nat(255) }),
  fc.record({ kind: fc.constant('read' as const), index: fc.nat(2), offset: fc.nat(CHUNK - 1) }),
  fc.record({ kind: fc.constant('complete' as const), which: fc.nat(20), ok: fc.boolean() }),
  fc.record({ kind: fc.constant('dropRead' as const), which: fc.nat(20) }),
)

describe('the piece buffer pool', () => {
  it('never hands out a buffer that a pending write or a reader still holds, in any interleaving', async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), async (ops, maxFree) => {
      const pool = new PieceBufferPool({ maxFreePerLength: maxFree, maxFreeBytes: maxFree * CHUNK, idleEmptyMs: 60_000 })
      const inner = new DeferredStore(CHUNK)
      const store = new (pooledStoreClass(pool))(inner)
      const readers: { view: Uint8Array; snapshot: Buffer }[] = []
      const heldBuffers = () => new Set<ArrayBufferLike>([...inner.pending.map((p) => p.buf.buffer), ...readers.map((r) => r.view.buffer)])
      for (const step of ops) {
        if (step.kind === 'piece') {
          const held = heldBuffers()
          const buf = pool.acquire(CHUNK)
          expect(held.has(buf.buffer)).toBe(false)
          // A new piece writes every byte of its buffer.
          buf.fill(step.fill)
          store.put(step.index, buf, () => {})
        } else if (step.kind === 'read') {
          store.get(step.index, { offset: step.offset, length: CHUNK - step.offset }, (err, view) => {
            expect(err).toBeNull()
            readers.push({ view: view!, snapshot: Buffer.from(view!) })
          })
        } else if (step.kind === 'complete') {
          const write = inner.pending.splice(step.which % Math.max(1, inner.pending.length), 1)[0]
          if (write) {
            expect(Buffer.from(write.buf)).toEqual(write.snapshot)
            write.cb(step.ok ? null : new Error('disk full'))
          }
        } else {
          readers.splice(step.which % Math.max(1, readers.length), 1)
        }
        await flushMicrotasks()
        for (const reader of readers) expect(Buffer.from(reader.view)).toEqual(reader.snapshot)
      }
      for (const write of inner.pending) expect(Buffer.from(write.buf)).toEqual(write.snapshot)
      expect(pool.freeBytes).toBeLessThanOrEqual(maxFree * CHUNK)
    }), { numRuns: 1000 })
  })

  it('gives a written piece buffer to the next piece of its length', async () => {
    const pool = new PieceBufferPool({ maxFreePerLength: 4, maxFreeBytes: 1024, idleEmptyMs: 60_000 })
    const inner = new DeferredStore(CHUNK)
    const store = new (pooledStoreClass(pool))(inner)
    const first = pool.acquire(CHUNK)
    store.put(0, first, () => {})
    expect(pool.acquire(CHUNK)).not.toBe(first)
    inner.pending.shift()!.cb(null)
    expect(pool.acquire(CHUNK)).toBe(first)
  })

  it('never takes back a buffer whose write failed, that was read from memory, or that it did not hand out', async () => {
    const pool = new PieceBufferPool({ maxFreePerLength: 4, maxFreeBytes: 1024, idleEmptyMs: 60_000 })
    const inner = new DeferredStore(CHUNK)
    const store = new (pooledStoreClass(pool))(inner)
    const failed = pool.acquire(CHUNK)
    store.put(0, failed, () => {})
    inner.pending.shift()!.cb(new Error('disk full'))
    const read = pool.acquire(CHUNK)
    store.put(1, read, () => {})
    store.get(1, null, () => {})
    inner.pending.shift()!.cb(null)
    const foreign = Buffer.alloc(CHUNK)
    store.put(2, foreign, () => {})
    inner.pending.shift()!.cb(null)
    expect(pool.freeBytes).toBe(0)
    expect([failed, read, foreign]).not.toContain(pool.acquire(CHUNK))
  })

  it('keeps nothing for a store that does not say its writes let go of the buffer', async () => {
    const pool = new PieceBufferPool({ maxFreePerLength: 4, maxFreeBytes: 1024, idleEmptyMs: 60_000 })
    const kept: Uint8Array[] = []
    const memoryStore = { chunkLength: CHUNK, put: (_i: number, buf: Uint8Array, cb: Callback) => { kept.push(buf); cb(null) }, get() {}, close() {}, destroy() {} }
    const store = new (pooledStoreClass(pool))(memoryStore)
    const buf = pool.acquire(CHUNK)
    store.put(0, buf, () => {})
    expect(pool.freeBytes).toBe(0)
    expect(pool.acquire(CHUNK)).not.toBe(buf)
  })

  it('empties its free lists once no piece has been written for its idle time', () => {
    vi.useFakeTimers()
    try {
      const pool = new PieceBufferPool({ maxFreePerLength: 4, maxFreeBytes: 1024, idleEmptyMs: 1_000 })
      expect(pool.release(pool.acquire(CHUNK))).toBe(true)
      vi.advanceTimersByTime(999)
      expect(pool.release(pool.acquire(CHUNK))).toBe(true)
      vi.advanceTimersByTime(999)
      expect(pool.freeBytes).toBe(CHUNK)
      vi.advanceTimersByTime(1)
      expect(pool.freeBytes).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
