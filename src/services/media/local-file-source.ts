// A direct-play session's local file (contract 1.3 "direct play of a local file"). The
// validators, the size and every part of one answer come from one open descriptor, so they agree
// even if the file is replaced meanwhile. Like nginx's open_file_cache, a descriptor and its
// fstat serve a file's requests while it is in use, revalidated every `streamOpenFileCacheMs`:
// a player's seeks come in bursts, and two thread-pool hops per request (open, fstat) were the
// larger part of a 1 MiB range's first-byte time.
import { read, readSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'
import {
  streamFirstReadBytes,
  streamOpenFileCacheMs,
  streamReadChunkBytes,
  streamBlockInputSampleMs,
  streamInlineReadBytes,
  streamInlineReadCooldownMs,
  streamInlineReadSlowMs,
  streamReadPoolSlabBytes,
  streamReadPoolSlabsPerResponse,
  streamReadsInFlight,
  streamWholeReadBytes,
} from '../../config/defaults.js'
import { SourceMissingError } from '../../errors.js'
import { contentTypeForName, fileEtag, type ByteRange, type ByteSource, type OpenByteSource, type ReadAtCallback, type RecyclableBody } from './byte-source.js'
import { onLocalDisk } from './local-disk.js'
import { borrowSlab, returnSlab } from './read-buffer-pool.js'

export interface LocalFileSourceOptions {
  /** Overrides the type derived from the extension. */
  contentType?: string
  readChunkBytes?: number
  /** How long one open descriptor (and its size and mtime) serves new requests; 0: one per request. */
  openCacheMs?: number
  /** Largest read done on the event loop while the file reads fast (page cache); 0: never. */
  inlineReadBytes?: number
  /** An inline read slower than this sends the file's reads to the thread pool for a while. */
  inlineReadSlowMs?: number
}

interface OpenFile {
  handle: FileHandle
  /** The fstat the answers are built from, and what a later stat of the path is compared with. */
  dev: number
  ino: number
  size: number
  mtimeMs: number
  /** Built once per descriptor, not per request; the Date is shared, so never mutated. */
  etag: string
  lastModified: Date
  usedSinceCheck: boolean
  inflight: Inflight
  /** performance.now() before which reads go to the thread pool: an inline read went to the disk (forever off a local disk). */
  threadPoolUntil: number
  /**
   * A thread-pool read of this descriptor came back fast: the disk is awake. A new descriptor
   * reads in the pool until then, so a disk spun down while no descriptor was open (idle ones
   * close after `streamOpenFileCacheMs`) wakes up without stalling the event loop.
   */
  warm: boolean
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
  // Both hops at once: the file system's type only decides where reads run.
  const [stat, local] = await Promise.all([handle.stat().catch(async (err: unknown) => {
    await handle.close().catch(() => undefined)
    throw new SourceMissingError(`cannot stat ${path}`, { cause: err, details: { path } })
  }), onLocalDisk(path)])
  if (!stat.isFile()) {
    await handle.close().catch(() => undefined)
    throw new SourceMissingError(`${path} is not a regular file`, { details: { path } })
  }
  const mtimeSeconds = Math.floor(stat.mtimeMs / 1000)
  return {
    handle,
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    etag: fileEtag(mtimeSeconds, stat.size),
    lastModified: new Date(mtimeSeconds * 1000),
    usedSinceCheck: false,
    inflight: new Inflight(),
    threadPoolUntil: local ? 0 : Number.POSITIVE_INFINITY,
    warm: false,
    users: 0,
    retired: false,
  }
}

/** Whether the path still names the file the descriptor has open, unchanged. */
function unchanged(file: OpenFile, now: Stats): boolean {
  return now.isFile() && now.dev === file.dev && now.ino === file.ino && now.size === file.size && now.mtimeMs === file.mtimeMs
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
  const inlineBytes = options.inlineReadBytes ?? streamInlineReadBytes
  const slowMs = options.inlineReadSlowMs ?? streamInlineReadSlowMs
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
        revalidateLater(pending, file)
      }, () => {
        if (current === pending) current = undefined
      })
    }
    return current
  }

  /**
   * Every `cacheMs`: an idle descriptor is closed; a used one is checked against the path with one
   * stat in the background (nginx's open_file_cache_valid), and kept while the path still names
   * the same unchanged file. Requests never wait for the check: reopening on a timer put two
   * thread-pool hops (open, fstat) into a request every few seconds, the tail of the first-byte
   * times on a busy host.
   */
  const revalidateLater = (pending: Promise<OpenFile>, file: OpenFile): void => {
    file.usedSinceCheck = false
    setTimeout(() => {
      if (current !== pending) return
      if (!file.usedSinceCheck) return retire(pending)
      stat(path).then((now) => unchanged(file, now), () => false).then((same) => {
        if (current !== pending) return
        if (same) revalidateLater(pending, file)
        else retire(pending)
      }, () => undefined)
    }, cacheMs).unref()
  }

  return {
    label: `file:${basename(path)}`,
    open(): Promise<OpenByteSource> {
      return ready !== undefined ? Promise.resolve(use(ready)) : acquire().then(use)
    },
  }

  function use(file: OpenFile): OpenByteSource {
    file.users++
    file.usedSinceCheck = true
    let closed = false
    return {
      size: file.size,
      contentType,
      etag: file.etag,
      lastModified: file.lastModified,
      read(range: ByteRange): Promise<Readable> {
        return Promise.resolve(new FileRangeStream(file.handle.fd, file.inflight, range, chunkBytes))
      },
      readAt(buffer: Buffer, offset: number, length: number, position: number, callback: ReadAtCallback): void {
        if (file.warm && length <= inlineBytes && performance.now() >= file.threadPoolUntil) readInline(file, buffer, offset, length, position, slowMs, callback)
        else readInPool(file, buffer, offset, length, position, slowMs, callback)
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

/**
 * nginx reads on its event loop too: a page-cache hit is a memcpy, far cheaper than a hop to
 * libuv's thread pool and back, which wakes two threads and on a busy two-core host waits for a
 * core each time (three of a seek's four context switches, measured). A read that went to the
 * disk blocked the loop meanwhile: it was slow (`streamInlineReadSlowMs`) and counted block input
 * (getrusage's ru_inblock, which a page-cache hit leaves alone; slowness alone is no sign, a busy
 * host preempts a memcpy for tens of milliseconds). The file's reads then use the thread pool for
 * `streamInlineReadCooldownMs`, so a cold file costs the loop one disk read per cool-down, not one
 * per request. The counter is the process's: another thread's disk read meanwhile only errs
 * towards the thread pool. Files on network file systems never get here (local-disk.ts).
 */
/**
 * The process's block-input count, sampled at most every `streamBlockInputSampleMs` before an inline
 * read: getrusage builds a 16-field object (~15 µs), called around every read it was a tenth of
 * the server's CPU in a ranges run. Comparing a slow read's count with a sample up to a second
 * old can only blame the read for an older disk read, which errs towards the thread pool.
 */
let blockInputSample = { blocks: 0, at: Number.NEGATIVE_INFINITY }

function readInline(file: OpenFile, buffer: Buffer, offset: number, length: number, position: number, slowMs: number, callback: ReadAtCallback): void {
  const started = performance.now()
  if (started - blockInputSample.at >= streamBlockInputSampleMs) blockInputSample = { blocks: process.resourceUsage().fsRead, at: started }
  const blocksBefore = blockInputSample.blocks
  let bytesRead: number
  try {
    bytesRead = readSync(file.handle.fd, buffer, offset, length, position)
  } catch (err) {
    callback(err as Error, 0)
    return
  }
  const finished = performance.now()
  if (finished - started > slowMs && process.resourceUsage().fsRead > blocksBefore) file.threadPoolUntil = finished + streamInlineReadCooldownMs
  callback(null, bytesRead)
}

function readInPool(file: OpenFile, buffer: Buffer, offset: number, length: number, position: number, slowMs: number, callback: ReadAtCallback): void {
  file.inflight.begin()
  const started = performance.now()
  read(file.handle.fd, buffer, offset, length, position, (err, bytesRead) => {
    file.inflight.end()
    if (!err && performance.now() - started <= slowMs) file.warm = true
    callback(err, bytesRead)
  })
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
    const slab = borrowSlab()
    this.leased.push(slab)
    return slab.subarray(0, length)
  }

  /** Only once every pushed byte was consumed; the caller knows they have reached the kernel. */
  recycle(): void {
    if (!this.readableEnded || this.slots.length > 0) return
    for (const slab of this.leased.splice(0)) returnSlab(slab)
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
