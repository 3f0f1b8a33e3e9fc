// A direct-play session's local file (contract 1.3 "direct play of a local file"). The
// validators, the size and every part of one answer come from one open descriptor, so they agree
// even if the file is replaced meanwhile. Like nginx's open_file_cache, a descriptor and its
// fstat are reused for `streamOpenFileCacheMs`: a player's seeks come in bursts, and two thread-
// pool hops per request (open, fstat) were the larger part of a 1 MiB range's first-byte time.
import { read } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'
import { streamFirstReadBytes, streamOpenFileCacheMs, streamReadChunkBytes } from '../../config/defaults.js'
import { SourceMissingError } from '../../errors.js'
import { contentTypeForName, fileEtag, type ByteRange, type ByteSource, type OpenByteSource } from './byte-source.js'

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

  const retire = (pending: Promise<OpenFile>): void => {
    if (current === pending) current = undefined
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
      pending.then(() => {
        setTimeout(() => retire(pending), cacheMs).unref()
      }, () => {
        if (current === pending) current = undefined
      })
    }
    return current
  }

  return {
    label: `file:${basename(path)}`,
    async open(): Promise<OpenByteSource> {
      const file = await acquire()
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
    },
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

/**
 * Positional reads of one range from a shared descriptor. fs ReadStreams close their descriptor
 * when destroyed (whatever autoClose says), which would end a multi-range answer after its first
 * part; callback fs.read is also cheaper per chunk than FileHandle.read.
 */
class FileRangeStream extends Readable {
  private position: number
  private readonly end: number
  private first = true

  constructor(private readonly fd: number, private readonly inflight: Inflight, range: ByteRange, private readonly chunkBytes: number) {
    super({ highWaterMark: chunkBytes })
    this.position = range.start
    this.end = range.end
  }

  override _read(): void {
    const remaining = this.end - this.position + 1
    if (remaining <= 0) {
      this.push(null)
      return
    }
    // A small first read gets the first bytes out sooner; later reads are large for throughput.
    const length = Math.min(remaining, this.first ? streamFirstReadBytes : this.chunkBytes)
    this.first = false
    const buffer = Buffer.allocUnsafe(length)
    this.inflight.begin()
    read(this.fd, buffer, 0, length, this.position, (err, bytesRead) => {
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
      this.position += bytesRead
      this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead))
    })
  }
}
