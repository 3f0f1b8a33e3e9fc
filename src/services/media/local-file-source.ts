// A direct-play session's local file (contract 1.3 "direct play of a local file"). The
// validators, the size and every part of one answer come from one open descriptor, so they agree
// even if the file is replaced meanwhile. Like nginx's open_file_cache, a descriptor and its
// fstat are reused for `streamOpenFileCacheMs`: a player's seeks come in bursts, and two thread-
// pool hops per request (open, fstat) were the larger part of a 1 MiB range's first-byte time.
import { read } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'
import {
  streamFirstReadBytes,
  streamOpenFileCacheMs,
  streamReadChunkBytes,
  streamReadPoolSlabBytes,
  streamReadPoolSlabs,
  streamReadPoolSlabsPerResponse,
  streamReadsInFlight,
  streamWholeReadBytes,
} from '../../config/defaults.js'
import { SourceMissingError } from '../../errors.js'
import { contentTypeForName, fileEtag, type ByteRange, type ByteSource, type OpenByteSource, type RecyclableBody } from './byte-source.js'

export interface LocalFileSourceOptions {
  /** Overrides the type derived from the extension. */
  contentType?: string
  readChunkBytes?: number
  /** How long one open descriptor (and its size and mtime) serves new requests; 0: one per request. */
  openCacheMs?: number
}

interface OpenFile {
  handle: FileHandle
  size: number
  mtimeSeconds: number
  inflight: Inflight
  users: number
  /** No longer handed to new requests; closed when its last user is done. */
  retired: boolean
  closing?: Promise<void>
}

async function openFile(path: string): Promise<OpenFile> {
  let handle: FileHandle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    throw new SourceMissingError(`cannot open ${path}`, { cause: err, details: { path } })
  }
  const stat = await handle.stat().catch(async (err: unknown) => {
    await handle.close().catch(() => undefined)
    throw new SourceMissingError(`cannot stat ${path}`, { cause: err, details: { path } })
  })
  if (!stat.isFile()) {
    await handle.close().catch(() => undefined)
    throw new SourceMissingError(`${path} is not a regular file`, { details: { path } })
  }
  return { handle, size: stat.size, mtimeSeconds: Math.floor(stat.mtimeMs / 1000), inflight: new Inflight(), users: 0, retired: false }
}

function release(file: OpenFile): Promise<void> {
  if (!file.retired || file.users > 0) return Promise.resolve()
  file.closing ??= file.inflight.settled().then(() => file.handle.close()).catch(() => undefined)
  return file.closing
}

export function createLocalFileSource(path: string, options: LocalFileSourceOptions = {}): ByteSource {
  const contentType = options.contentType ?? contentTypeForName(path)
  const chunkBytes = options.readChunkBytes ?? streamReadChunkBytes
  const cacheMs = options.openCacheMs ?? streamOpenFileCacheMs
  let current: Promise<OpenFile> | undefined
  /** What `current` resolved to: handed out without a trip through the microtask queue. */
  let ready: OpenFile | undefined

  const retire = (pending: Promise<OpenFile>): void => {
    if (current === pending) {
      current = undefined
      ready = undefined
    }
    void pending.then((file) => {
      file.retired = true
      return release(file)
    }, () => undefined)
  }

  const acquire = async (): Promise<OpenFile> => {
    if (cacheMs <= 0) {
      const file = await openFile(path)
      file.retired = true
      return file
    }
    if (current === undefined) {
      const pending = openFile(path)
      current = pending
      pending.then((file) => {
        if (current === pending) ready = file
        setTimeout(() => retire(pending), cacheMs).unref()
      }, () => {
        if (current === pending) current = undefined
      })
    }
    return current
  }

  return {
    label: `file:${basename(path)}`,
    open(): Promise<OpenByteSource> {
      return ready !== undefined ? Promise.resolve(use(ready)) : acquire().then(use)
    },
  }

  function use(file: OpenFile): OpenByteSource {
    file.users++
    let closed = false
    return {
      size: file.size,
      contentType,
      etag: fileEtag(file.mtimeSeconds, file.size),
      lastModified: new Date(file.mtimeSeconds * 1000),
      read(range: ByteRange): Promise<Readable> {
        return Promise.resolve(new FileRangeStream(file.handle.fd, file.inflight, range, chunkBytes))
      },
      async close() {
        if (closed) return
        closed = true
        file.users--
        await release(file)
      },
    }
  }
}

/** Reads in flight on one descriptor; close() waits for them so the number is never reused under a read. */
class Inflight {
  private count = 0
  private idle: (() => void) | undefined

  begin(): void {
    this.count++
  }

  end(): void {
    this.count--
    if (this.count === 0) this.idle?.()
  }

  settled(): Promise<void> {
    if (this.count === 0) return Promise.resolve()
    return new Promise((resolve) => {
      this.idle = resolve
    })
  }
}

/** Idle read buffers (streamReadPoolSlabBytes each), shared by every local file. */
const slabPool: Buffer[] = []

interface Slot {
  buffer: Buffer
  position: number
  filled: number
}

/**
 * Positional reads of one range from a shared descriptor. fs ReadStreams close their descriptor
 * when destroyed (whatever autoClose says), which would end a multi-range answer after its first
 * part; callback fs.read is also cheaper per chunk than FileHandle.read.
 *
 * Each read is one hop to libuv's thread pool, and on a busy host a hop costs far more than the
 * copy. So two reads are in flight at once (pushed in order): the small first read and the next
 * one start together, and the rest of a range up to `streamWholeReadBytes` is one read.
 */
class FileRangeStream extends Readable implements RecyclableBody {
  private position: number
  /** Pooled slabs this stream's buffers are views of; back to the pool on recycle(). */
  private readonly leased: Buffer[] = []
  private readonly end: number
  private first = true
  /** Reads issued and not yet pushed, in file order. */
  private readonly slots: Slot[] = []
  private wanted = false

  constructor(private readonly fd: number, private readonly inflight: Inflight, range: ByteRange, private readonly chunkBytes: number) {
    super({ highWaterMark: chunkBytes })
    this.position = range.start
    this.end = range.end
  }

  override _read(): void {
    this.wanted = true
    this.flush()
  }

  private fill(): void {
    while (this.slots.length < streamReadsInFlight && this.position <= this.end) {
      const remaining = this.end - this.position + 1
      // A small first read gets the first bytes out sooner; later reads are large for throughput,
      // and what is left of a short range (a player's seek) is read at once.
      const length = this.first
        ? Math.min(remaining, streamFirstReadBytes)
        : remaining <= streamWholeReadBytes ? remaining : Math.min(remaining, this.chunkBytes)
      this.first = false
      const slot: Slot = { buffer: this.borrow(length), position: this.position, filled: 0 }
      this.position += length
      this.slots.push(slot)
      this.issue(slot)
    }
  }

  /**
   * A fresh 1 MiB buffer per read costs page faults and garbage collection (a quarter of the
   * server's time on 1 MiB ranges), so a short range's reads borrow slabs from a small pool.
   */
  private borrow(length: number): Buffer {
    if (length > streamReadPoolSlabBytes || this.leased.length >= streamReadPoolSlabsPerResponse) return Buffer.allocUnsafe(length)
    const slab = slabPool.pop() ?? Buffer.allocUnsafeSlow(streamReadPoolSlabBytes)
    this.leased.push(slab)
    return slab.subarray(0, length)
  }

  /** Only once every pushed byte was consumed; the caller knows they have reached the kernel. */
  recycle(): void {
    if (!this.readableEnded || this.slots.length > 0) return
    for (const slab of this.leased.splice(0)) if (slabPool.length < streamReadPoolSlabs) slabPool.push(slab)
  }

  private issue(slot: Slot): void {
    this.inflight.begin()
    read(this.fd, slot.buffer, slot.filled, slot.buffer.length - slot.filled, slot.position + slot.filled, (err, bytesRead) => {
      this.inflight.end()
      if (this.destroyed) return
      if (err !== null) {
        this.destroy(err)
        return
      }
      if (bytesRead === 0) {
        this.destroy(new SourceMissingError('the file shrank while it was being served'))
        return
      }
      slot.filled += bytesRead
      // A short read (possible on network file systems) reads on for the rest of its slot.
      if (slot.filled < slot.buffer.length) this.issue(slot)
      else this.flush()
    })
  }

  /** Pushes the finished reads at the head, in order; issues more while the consumer wants more. */
  private flush(): void {
    while (this.wanted && this.slots.length > 0 && this.slots[0]!.filled === this.slots[0]!.buffer.length) {
      const slot = this.slots.shift()!
      this.wanted = this.push(slot.buffer)
    }
    if (this.destroyed) return
    if (this.slots.length === 0 && this.position > this.end) {
      this.push(null)
      return
    }
    if (this.wanted) this.fill()
  }
}
