import * as nodeFs from 'node:fs/promises'
import { join } from 'node:path'
import * as defaults from '../../config/defaults.js'
import { StateFileError, TasksFileCorruptError } from '../../errors.js'
import type { Logger } from '../../log.js'
import type { TaskRecord } from '../../machines/task.machine.js'
import type { TaskState } from '../../protocol/wire.js'

// tasks.json is the source of truth across restarts (contract 1.2). Every write goes to a temp
// file in the same directory, is fsynced, renamed over the old file and the directory fsynced,
// so a reader (or a restart after kill -9 or a power cut) sees the old file or the new one,
// never a mix. Progress writes are coalesced to one per `minWriteIntervalMs`; a state change is
// written at once. Torrent metadata sits beside it in `torrents/<infohash>.torrent` so a restart
// needs no tracker, URL or magnet lookup.

export interface TasksStore {
  /** Reads tasks.json. A corrupt file is moved aside and reported with TasksFileCorruptError. */
  load(): Promise<TaskRecord[]>
  /** Records a task; `immediate` for a state change, else coalesced. */
  put(record: TaskRecord, options: { immediate: boolean }): void
  /** Forgets a task (written at once). */
  remove(taskId: string): void
  records(): TaskRecord[]
  /** Resolves when everything recorded so far is on disk (or the last write failed). */
  flush(): Promise<void>
  readMetadata(infoHash: string): Promise<Uint8Array | undefined>
  saveMetadata(infoHash: string, torrentFile: Uint8Array): Promise<void>
  deleteMetadata(infoHash: string): Promise<void>
  close(): Promise<void>
}

/** The fs calls the store makes; tests inject faults (a full disk) through it. */
export type StoreFs = Pick<typeof nodeFs, 'open' | 'rename' | 'unlink' | 'readFile' | 'mkdir' | 'readdir'>

export interface FileTasksStoreOptions {
  stateDir: string
  logger: Logger
  minWriteIntervalMs?: number
  now?: () => number
  fs?: StoreFs
}

interface TasksFile {
  version: 1
  tasks: TaskRecord[]
}

const taskStates: readonly TaskState[] = ['queued', 'fetching_metadata', 'downloading', 'paused', 'seeding', 'completed', 'error']
const tmpPattern = /^\..+\.\d+\.\d+\.tmp$/

export class FileTasksStore implements TasksStore {
  readonly #dir: string
  readonly #file: string
  readonly #metaDir: string
  readonly #log: Logger
  readonly #interval: number
  readonly #now: () => number
  readonly #fs: StoreFs
  readonly #tasks = new Map<string, TaskRecord>()
  #dirty = false
  #writing: Promise<void> | null = null
  #timer: NodeJS.Timeout | null = null
  #lastWriteAt = Number.NEGATIVE_INFINITY
  #wantImmediate = false
  #tmpSeq = 0
  #closed = false

  constructor(options: FileTasksStoreOptions) {
    this.#dir = options.stateDir
    this.#file = join(options.stateDir, defaults.tasksFileName)
    this.#metaDir = join(options.stateDir, defaults.torrentMetadataDirName)
    this.#log = options.logger
    this.#interval = options.minWriteIntervalMs ?? defaults.tasksJsonMinWriteIntervalMs
    this.#now = options.now ?? Date.now
    this.#fs = options.fs ?? nodeFs
  }

  get path(): string {
    return this.#file
  }

  async load(): Promise<TaskRecord[]> {
    await this.#fs.mkdir(this.#dir, { recursive: true })
    await this.#removeStaleTemps(this.#dir)
    let text: string
    try {
      text = await this.#fs.readFile(this.#file, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw new StateFileError(`cannot read ${this.#file}: ${(err as Error).message}`, { cause: err })
    }
    let tasks: TaskRecord[]
    try {
      tasks = parseTasksFile(text)
    } catch (err) {
      const movedTo = `${this.#file}.corrupt-${new Date(this.#now()).toISOString().replace(/[:.]/g, '-')}`
      await this.#fs.rename(this.#file, movedTo)
      throw new TasksFileCorruptError(`${this.#file} is corrupt (${(err as Error).message}); it was moved to ${movedTo} and the agent starts without its tasks`, { cause: err, movedTo })
    }
    this.#tasks.clear()
    for (const task of tasks) this.#tasks.set(task.id, task)
    return tasks.map((task) => ({ ...task }))
  }

  put(record: TaskRecord, options: { immediate: boolean }): void {
    this.#tasks.set(record.id, record)
    this.#schedule(options.immediate)
  }

  remove(taskId: string): void {
    if (!this.#tasks.delete(taskId)) return
    this.#schedule(true)
  }

  records(): TaskRecord[] {
    return [...this.#tasks.values()]
  }

  async flush(): Promise<void> {
    for (let attempts = 0; ;) {
      if (this.#timer) {
        clearTimeout(this.#timer)
        this.#timer = null
      }
      if (this.#writing) {
        await this.#writing
        continue
      }
      if (!this.#dirty) return
      if (attempts++ >= 1) {
        // The last write failed; keep retrying in the background instead of spinning here.
        this.#schedule(false)
        return
      }
      await this.#startWrite()
    }
  }

  async close(): Promise<void> {
    await this.flush()
    this.#closed = true
  }

  async readMetadata(infoHash: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await this.#fs.readFile(this.#metadataPath(infoHash)))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new StateFileError(`cannot read torrent metadata of ${infoHash}: ${(err as Error).message}`, { cause: err })
    }
  }

  async saveMetadata(infoHash: string, torrentFile: Uint8Array): Promise<void> {
    await this.#fs.mkdir(this.#metaDir, { recursive: true })
    await this.#atomicWrite(this.#metadataPath(infoHash), torrentFile)
  }

  async deleteMetadata(infoHash: string): Promise<void> {
    await this.#fs.unlink(this.#metadataPath(infoHash)).catch(() => {})
  }

  #metadataPath(infoHash: string): string {
    if (!/^[0-9a-f]{40}$/.test(infoHash)) throw new StateFileError(`not an info hash: ${infoHash}`)
    return join(this.#metaDir, `${infoHash}.torrent`)
  }

  #schedule(immediate: boolean): void {
    this.#dirty = true
    if (this.#closed) return
    if (this.#writing) {
      this.#wantImmediate ||= immediate
      return
    }
    const wait = immediate ? 0 : Math.max(0, this.#lastWriteAt + this.#interval - this.#now())
    if (wait === 0) {
      if (this.#timer) clearTimeout(this.#timer)
      this.#timer = null
      void this.#startWrite()
      return
    }
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = null
      if (this.#dirty && !this.#writing) void this.#startWrite()
    }, wait)
    this.#timer.unref?.()
  }

  #startWrite(): Promise<void> {
    this.#dirty = false
    this.#wantImmediate = false
    this.#lastWriteAt = this.#now()
    const body: TasksFile = { version: 1, tasks: [...this.#tasks.values()] }
    const write = this.#atomicWrite(this.#file, new TextEncoder().encode(JSON.stringify(body, null, 1) + '\n'))
      .then(
        () => true,
        (err: unknown) => {
          // Nothing is lost: the records stay in memory and the next write carries them.
          this.#dirty = true
          this.#log.warn({ err: new StateFileError(`cannot write ${this.#file}: ${(err as Error).message}`, { cause: err }) }, 'tasks.json write failed; will retry')
          return false
        },
      )
      .then((ok) => {
        this.#writing = null
        // A failed write is retried at the coalescing pace, never in a tight loop.
        if (this.#dirty && !this.#closed) this.#schedule(ok && this.#wantImmediate)
      })
    this.#writing = write
    return write
  }

  async #atomicWrite(path: string, data: Uint8Array): Promise<void> {
    const dir = path.slice(0, path.lastIndexOf('/')) || '/'
    const base = path.slice(path.lastIndexOf('/') + 1)
    const tmp = join(dir, `.${base}.${process.pid}.${++this.#tmpSeq}.tmp`)
    try {
      const handle = await this.#fs.open(tmp, 'w', 0o600)
      try {
        await handle.writeFile(data)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await this.#fs.rename(tmp, path)
    } catch (err) {
      await this.#fs.unlink(tmp).catch(() => {})
      throw err
    }
    // The rename itself is durable only once the directory entry is.
    const dirHandle = await this.#fs.open(dir, 'r')
    try {
      await dirHandle.sync()
    } finally {
      await dirHandle.close()
    }
  }

  async #removeStaleTemps(dir: string): Promise<void> {
    const names = await this.#fs.readdir(dir).catch(() => [] as string[])
    for (const name of names) if (tmpPattern.test(name)) await this.#fs.unlink(join(dir, name)).catch(() => {})
  }
}

/** Strict parse of tasks.json; throws on anything that is not a complete file of this version. */
export function parseTasksFile(text: string): TaskRecord[] {
  const data = JSON.parse(text) as Partial<TasksFile>
  if (!data || typeof data !== 'object' || data.version !== 1 || !Array.isArray(data.tasks)) throw new Error('not a version 1 tasks file')
  const seen = new Set<string>()
  return data.tasks.map((task, index) => {
    const t = task as Partial<TaskRecord>
    if (!t || typeof t.id !== 'string' || t.id === '' || typeof t.source !== 'string' || !taskStates.includes(t.state as TaskState)) {
      throw new Error(`task ${index} is malformed`)
    }
    if (seen.has(t.id)) throw new Error(`task ${t.id} appears twice`)
    seen.add(t.id)
    return {
      id: t.id,
      source: t.source,
      infoHash: typeof t.infoHash === 'string' ? t.infoHash : '',
      name: typeof t.name === 'string' ? t.name : '',
      state: t.state as TaskState,
      size: num(t.size),
      downloaded: num(t.downloaded),
      uploaded: num(t.uploaded),
      progress: num(t.progress),
      files: Array.isArray(t.files) ? t.files.filter((f) => f && typeof f.path === 'string').map((f) => ({ path: f.path, size: num(f.size), progress: num(f.progress) })) : [],
      ...(typeof t.error === 'string' ? { error: t.error } : {}),
      ...(typeof t.errorCode === 'string' ? { errorCode: t.errorCode } : {}),
      addedAt: num(t.addedAt),
    }
  })
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}
