import { read, rm, write } from 'node:fs'
import { rm as rmAsync, rmdir, stat as statAsync } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { FilePool } from './file-pool.js'
import { RELEASES_PUT_BUFFER } from './piece-pool.js'
import { parseTorrentFile, torrentFilePath } from './source.js'

// The chunk store behind webtorrent's `store` option (abstract-chunk-store: put/get/close/destroy
// and `chunkLength`), replacing fs-chunk-store + random-access-file (docs/torrents.md, What the
// engine changes behind webtorrent). Why:
// - One bounded pool of file descriptors for the whole engine (file-pool.ts: least recently used
//   closed first), instead of one open file per torrent file held by each torrent.
// - Positional I/O straight into and out of one buffer per request: a piece spanning files is read
//   into slices of one allocation, never read into parts and concatenated.
// - Durability the verified-piece map can rely on (piece-map.ts), kept by the pool (file-pool.ts):
//   a file without an open dirty descriptor is on disk.
// No piece cache: the engine sets webtorrent's `storeCacheSlots` to 0 (its per-torrent cache of 20
// pieces is filled by verification and never emptied); the kernel's page cache is the one cache,
// bounded and emptied under memory pressure by the kernel.

type Callback = (err?: Error | null) => void
type ReadCallback = (err: Error | null, buf?: Buffer) => void

export { FilePool }

function readAt(fd: number, buf: Buffer, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = 0
    const step = () => read(fd, buf, done, buf.length - done, position + done, (err, n) => {
      if (err) return reject(err)
      if (n === 0) return reject(new Error(`could not read ${buf.length} bytes at ${position}: the file is shorter`))
      done += n
      if (done < buf.length) step()
      else resolve()
    })
    if (buf.length === 0) resolve()
    else step()
  })
}

/** Writes `buf` at `position` in pwrites of at most `slice` bytes, one after another. */
function writeAt(fd: number, buf: Uint8Array, position: number, slice: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = 0
    const step = () => write(fd, buf, done, Math.min(slice, buf.length - done), position + done, (err, n) => {
      if (err) return reject(err)
      done += n
      if (done < buf.length) step()
      else resolve()
    })
    if (buf.length === 0) resolve()
    else step()
  })
}

interface StoreFile {
  path: string
  offset: number
  length: number
}

/** One slice of a chunk: bytes [from, to) of the chunk are bytes [at, at + to - from) of the file. */
interface Target {
  file: StoreFile
  from: number
  to: number
  at: number
}

export interface FileStoreOptions {
  /** The torrent's download directory (webtorrent's `torrent.path`). */
  path?: string
  /** webtorrent's File objects: `path` relative to `path`, `offset` in the torrent, `length`. */
  files?: { path: string; offset: number; length: number }[]
  length?: number
}

export type ChunkStoreConstructor = new (chunkLength: number, options: FileStoreOptions) => FileChunkStore

/** The absolute paths of a torrent's files, as the file store writes them (also for the piece map). */
export function storeFilePaths(root: string, files: readonly { path: string }[]): string[] {
  return files.map((file) => torrentFilePath(root, file.path))
}

export interface FileChunkStore {
  readonly chunkLength: number
  put(index: number, buf: Uint8Array, cb?: Callback): void
  get(index: number, opts: { offset?: number; length?: number } | null | ReadCallback, cb?: ReadCallback): void
  close(cb?: Callback): void
  destroy(cb?: Callback): void
}

/** A chunk-store constructor for webtorrent's `store` option whose files share `pool`. */
export function fileStoreFor(pool: FilePool): ChunkStoreConstructor {
  return class PooledFileStore implements FileChunkStore {
    readonly chunkLength: number
    /** put() holds its buffer only until its writes call back (piece-pool.ts may then reuse it). */
    readonly [RELEASES_PUT_BUFFER] = true
    readonly #files: StoreFile[]
    readonly #length: number
    /** A file path that leaves the download directory: every request fails with it. */
    readonly #invalid: Error | null = null
    #closed = false

    constructor(chunkLength: number, options: FileStoreOptions) {
      this.chunkLength = Number(chunkLength)
      if (!(this.chunkLength > 0)) throw new Error('a chunk store needs a chunk length')
      const root = options.path ?? '.'
      const files: StoreFile[] = []
      try {
        for (const file of options.files ?? []) files.push({ path: torrentFilePath(root, file.path), offset: file.offset, length: file.length })
      } catch (err) {
        this.#invalid = err as Error
      }
      // Empty files hold no bytes of any chunk (webtorrent creates them itself).
      this.#files = files.filter((file) => file.length > 0)
      this.#length = options.length ?? files.reduce((sum, file) => sum + file.length, 0)
    }

    /** The files holding bytes [start, end) of the torrent, as slices of the chunk starting at `start`. */
    #targets(start: number, end: number): Target[] {
      const files = this.#files
      let lo = 0
      let hi = files.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (files[mid]!.offset + files[mid]!.length <= start) lo = mid + 1
        else hi = mid
      }
      const targets: Target[] = []
      for (let i = lo; i < files.length && files[i]!.offset < end; i++) {
        const file = files[i]!
        const a = Math.max(start, file.offset)
        const b = Math.min(end, file.offset + file.length)
        targets.push({ file, from: a - start, to: b - start, at: a - file.offset })
      }
      return targets
    }

    #chunkSize(index: number): number {
      return Math.max(0, Math.min(this.chunkLength, this.#length - index * this.chunkLength))
    }

    put(index: number, buf: Uint8Array, cb: Callback = () => {}): void {
      if (this.#closed) return queueMicrotask(() => cb(new Error('the store is closed')))
      if (this.#invalid) return queueMicrotask(() => cb(this.#invalid))
      const size = this.#chunkSize(index)
      if (buf.length !== size) return queueMicrotask(() => cb(new Error(`chunk ${index} must be ${size} bytes, not ${buf.length}`)))
      const start = index * this.chunkLength
      const writes = this.#targets(start, start + size).map((t) =>
        pool.with(t.file.path, (fd) => writeAt(fd, buf.subarray(t.from, t.to), t.at, pool.writeSliceBytes), true),
      )
      Promise.all(writes).then(() => cb(null), (err: Error) => cb(err))
    }

    get(index: number, optsOrCb: { offset?: number; length?: number } | null | ReadCallback, maybeCb?: ReadCallback): void {
      const cb = (typeof optsOrCb === 'function' ? optsOrCb : maybeCb) ?? (() => {})
      const opts = typeof optsOrCb === 'function' ? null : optsOrCb
      if (this.#closed) return queueMicrotask(() => cb(new Error('the store is closed')))
      if (this.#invalid) return queueMicrotask(() => cb(this.#invalid))
      const size = this.#chunkSize(index)
      const offset = opts?.offset ?? 0
      const length = opts?.length ?? size - offset
      if (offset < 0 || length < 0 || offset + length > size) return queueMicrotask(() => cb(new Error(`bytes ${offset}+${length} are outside chunk ${index} (${size} bytes)`)))
      const start = index * this.chunkLength + offset
      pool.reading(length, async () => {
        const buf = Buffer.allocUnsafe(length)
        await Promise.all(this.#targets(start, start + length).map((t) =>
          pool.with(t.file.path, (fd) => readAt(fd, buf.subarray(t.from, t.to), t.at)),
        ))
        return buf
      }).then((buf) => cb(null, buf), (err: Error) => cb(err))
    }

    close(cb: Callback = () => {}): void {
      if (this.#closed) return queueMicrotask(() => cb(null))
      this.#closed = true
      pool.release(this.#files.map((file) => file.path)).then(() => cb(null), (err: Error) => cb(err))
    }

    destroy(cb: Callback = () => {}): void {
      this.close(() => {
        Promise.all(this.#files.map((file) => new Promise<void>((resolve) => rm(file.path, { force: true }, () => resolve()))))
          .then(() => cb(null), (err: Error) => cb(err))
      })
    }
  }
}

/** True when none of `paths` holds a byte (each is missing or empty): a torrent there has nothing to verify. */
export async function noDataOnDisk(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) {
    const size = await statAsync(path).then((info) => info.size, (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 0 : -1))
    if (size !== 0) return false
  }
  return true
}

/** Removes a torrent's files (delete_task with deleteFiles), then the directories they leave empty. */
export async function deleteTorrentFiles(downloadDir: string, torrentFile: Uint8Array): Promise<void> {
  const parsed = await parseTorrentFile(torrentFile, 'saved metadata')
  const root = resolve(downloadDir)
  const dirs = new Set<string>()
  for (const file of parsed.files ?? []) {
    const path = torrentFilePath(root, file.path)
    await rmAsync(path, { force: true })
    for (let dir = dirname(path); dir.startsWith(root + '/'); dir = dirname(dir)) dirs.add(dir)
  }
  // Deepest first; a directory that still holds anything else stays.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => {})
}
