import { close, constants, fdatasync, mkdir, open } from 'node:fs'
import { dirname } from 'node:path'
import * as defaults from '../../config/defaults.js'

// The engine's one pool of file descriptors, behind its chunk store (file-store.ts; docs/torrents.md,
// What the engine changes behind webtorrent): least recently used closed first and never one in
// use, reads in flight within one byte budget for all torrents, and the durability the
// verified-piece maps rely on (piece-map.ts): the pool knows which files were written since their
// last fdatasync, `sync(paths)` flushes exactly those, and a descriptor is flushed before it is
// closed (evicted, torrent stopped), so a file without an open dirty descriptor is on disk.

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
