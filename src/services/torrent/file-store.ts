import { close, constants, fdatasync, mkdir, open, read, rm, write } from 'node:fs'
import { rm as rmAsync, rmdir, stat as statAsync } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import * as defaults from '../../config/defaults.js'
import { RELEASES_PUT_BUFFER } from './piece-pool.js'
import { parseTorrentFile, torrentFilePath } from './source.js'

// The chunk store behind webtorrent's `store` option (abstract-chunk-store: put/get/close/destroy
// and `chunkLength`), replacing fs-chunk-store + random-access-file (docs/torrents.md, What the
// engine changes behind webtorrent). Why:
// - One bounded pool of file descriptors for the whole engine (least recently used closed first),
//   instead of one open file per torrent file held by each torrent.
// - Positional I/O straight into and out of one buffer per request: a piece spanning files is read
//   into slices of one allocation, never read into parts and concatenated.
// - Durability the verified-piece map can rely on (piece-map.ts): the pool knows which files were
//   written since their last fdatasync, `sync(paths)` flushes exactly those, and a descriptor that
//   is closed (evicted, torrent stopped) is flushed first, so a file without an open dirty
//   descriptor is on disk.
// No piece cache: the engine sets webtorrent's `storeCacheSlots` to 0 (its per-torrent cache of 20
// pieces is filled by verification and never emptied); the kernel's page cache is the one cache,
// bounded and emptied under memory pressure by the kernel.

type Callback = (err?: Error | null) => void
type ReadCallback = (err: Error | null, buf?: Buffer) => void

interface Opened {
  fd: number
  writable: boolean
}

interface Handle {
  path: string
  /** The open(2) under way or done (or a failure: the file is not there, not readable). */
  opening: Promise<Opened>
  /** Resolves with the descriptor (or rejects when the file cannot be opened). */
  opened: Promise<number>
  fd: number | null
  /** Requests using the descriptor now: it is not closed under them. */
  users: number
  /** Called when the last user lets go (a close waiting for them). */
  idle: (() => void) | undefined
  /** Written since its last fdatasync. */
  dirty: boolean
  writable: boolean
  /** Opened (or being opened) to write: the file and its directories are created if missing. */
  creates: boolean
}

const errnoCode = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code

function openAs(path: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) => open(path, flags, 0o666, (err, fd) => (err ? reject(err) : resolve(fd))))
}

/**
 * Opens a file read-write. For a write (`create`) a missing file is created, and its directories
 * only when the open says they are missing (ENOENT): no mkdir for every descriptor opened. A read
 * creates nothing: a missing file fails it (webtorrent counts the piece as not there).
 */
async function openFile(path: string, create: boolean): Promise<Opened> {
  const flags = create ? constants.O_RDWR | constants.O_CREAT : constants.O_RDWR
  try {
    return { fd: await openAs(path, flags), writable: true }
  } catch (err) {
    const code = errnoCode(err)
    // Data on a read-only mount or owned by someone else can still be seeded.
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') return { fd: await openAs(path, constants.O_RDONLY), writable: false }
    if (code !== 'ENOENT' || !create) throw err
  }
  await new Promise<void>((resolve, reject) => mkdir(dirname(path), { recursive: true }, (err) => (err ? reject(err) : resolve())))
  return { fd: await openAs(path, flags), writable: true }
}

const datasync = (fd: number) => new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())))
const closeFd = (fd: number) => new Promise<void>((resolve) => close(fd, () => resolve()))

/** The engine's open files: at most `maxOpen` descriptors idle at once, least recently used closed first. */
export class FilePool {
  readonly #maxOpen: number
  /** Insertion order is use order: the first idle entry is the least recently used. */
  readonly #handles = new Map<string, Handle>()
  #closing = new Set<Promise<void>>()
  /**
   * Bytes of reads in flight for all torrents together. webtorrent verifies every torrent at once
   * (two pieces each): 1,000 torrents starting would hold 2,000 piece buffers, ~0.5 GiB at 256 KiB,
   * which the C allocator then keeps. A buffer is allocated only once its read may start.
   */
  readonly #readBudget: number
  #reading = 0
  readonly #waiting: { bytes: number; start: () => void }[] = []
  /** Largest single pwrite (defaults.torrentStoreWriteSliceBytes explains why). */
  readonly writeSliceBytes: number

  constructor(options: { maxOpen: number; readBudgetBytes?: number; writeSliceBytes?: number }) {
    this.#maxOpen = Math.max(1, options.maxOpen)
    this.#readBudget = Math.max(1, options.readBudgetBytes ?? defaults.torrentStoreReadBudgetBytes)
    this.writeSliceBytes = Math.max(1, options.writeSliceBytes ?? defaults.torrentStoreWriteSliceBytes)
  }

  /** Runs `read` of `bytes` once the reads in flight leave room for it (one read always may run). */
  async reading<T>(bytes: number, read: () => Promise<T>): Promise<T> {
    if (this.#reading > 0 && (this.#waiting.length > 0 || this.#reading + bytes > this.#readBudget)) {
      await new Promise<void>((start) => this.#waiting.push({ bytes, start }))
    } else {
      this.#reading += bytes
    }
    try {
      return await read()
    } finally {
      this.#reading -= bytes
      // In order: a big read is not overtaken for ever by small ones.
      while (this.#waiting.length > 0 && (this.#reading === 0 || this.#reading + this.#waiting[0]!.bytes <= this.#readBudget)) {
        const next = this.#waiting.shift()!
        this.#reading += next.bytes
        next.start()
      }
    }
  }

  get openCount(): number {
    return this.#handles.size
  }

  /**
   * Runs `use` with the file's descriptor, opening it if needed; `wrote` (a write: the file is
   * created if missing) marks it for the next sync.
   */
  async with<T>(path: string, use: (fd: number, writable: boolean) => Promise<T>, wrote = false): Promise<T> {
    let handle = this.#handles.get(path)
    if (handle) {
      this.#handles.delete(path)
      this.#handles.set(path, handle)
      if (wrote && !handle.creates) this.#mayCreate(handle)
    } else {
      handle = { path, opening: undefined!, opened: undefined!, fd: null, users: 0, idle: undefined, dirty: false, writable: true, creates: wrote }
      this.#settle(handle, openFile(path, wrote))
      this.#handles.set(path, handle)
      this.#evict()
    }
    handle.users++
    try {
      const fd = await handle.opened
      const result = await use(fd, handle.writable)
      if (wrote) handle.dirty = true
      return result
    } finally {
      this.#letGo(handle)
    }
  }

  /** Follows an open: the descriptor once there; a failed open takes the handle out of the pool. */
  #settle(handle: Handle, opening: Promise<Opened>): void {
    const opened: Promise<number> = opening.then((o) => {
      handle.fd = o.fd
      handle.writable = o.writable
      return o.fd
    }, (err: unknown) => {
      // Unless a write took the handle over meanwhile (#mayCreate).
      if (handle.opened === opened && this.#handles.get(handle.path) === handle) this.#handles.delete(handle.path)
      throw err
    })
    // A failure reaches every request awaiting it; none may be left unhandled.
    opened.catch(() => {})
    handle.opening = opening
    handle.opened = opened
  }

  /** A write joins a handle a read is opening: if the read finds no file, the write creates it. */
  #mayCreate(handle: Handle): void {
    handle.creates = true
    if (handle.fd !== null) return
    this.#settle(handle, handle.opening.catch((err: unknown) => (errnoCode(err) === 'ENOENT' ? openFile(handle.path, true) : Promise.reject(err as Error))))
  }

  #letGo(handle: Handle): void {
    handle.users--
    if (handle.users > 0) return
    const idle = handle.idle
    handle.idle = undefined
    idle?.()
    this.#evict()
  }

  /** fdatasync every file of `paths` written since its last sync: data put before this call is then on disk. */
  async sync(paths: Iterable<string>): Promise<void> {
    const waits: Promise<void>[] = [...this.#closing]
    for (const path of paths) {
      const handle = this.#handles.get(path)
      if (!handle || !handle.dirty || handle.fd === null) continue
      handle.dirty = false
      handle.users++
      waits.push(datasync(handle.fd).catch((err: unknown) => {
        handle.dirty = true
        throw err
      }).finally(() => this.#letGo(handle)))
    }
    const results = await Promise.allSettled(waits)
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw (failed as PromiseRejectedResult).reason
  }

  /** Flushes and closes the files of `paths` (a torrent stopping); a file in use closes once its requests end. */
  async release(paths: Iterable<string>): Promise<void> {
    const closing: Promise<void>[] = []
    for (const path of paths) {
      const handle = this.#handles.get(path)
      if (!handle) continue
      this.#handles.delete(path)
      closing.push(this.#track(this.#close(handle)))
    }
    await Promise.all(closing)
  }

  async closeAll(): Promise<void> {
    await this.release([...this.#handles.keys()])
    await Promise.all([...this.#closing])
  }

  #evict(): void {
    if (this.#handles.size <= this.#maxOpen) return
    for (const handle of this.#handles.values()) {
      if (this.#handles.size <= this.#maxOpen) break
      if (handle.users > 0 || handle.fd === null) continue
      this.#handles.delete(handle.path)
      void this.#track(this.#close(handle))
    }
  }

  /** A sync waits for descriptors being closed too: they are flushed on the way. */
  #track(closing: Promise<void>): Promise<void> {
    this.#closing.add(closing)
    void closing.finally(() => this.#closing.delete(closing))
    return closing
  }

  async #close(handle: Handle): Promise<void> {
    const fd = await handle.opened.catch(() => null)
    if (fd === null) return
    // Taken out of the pool already, so no new user comes: wait for the last one to let go.
    if (handle.users > 0) await new Promise<void>((resolve) => { handle.idle = resolve })
    // A descriptor is flushed before it closes: the pool's "not open and dirty" means durable.
    if (handle.dirty) await datasync(fd).catch(() => {})
    await closeFd(fd)
  }
}

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
