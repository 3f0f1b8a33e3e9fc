import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TorrentDiskFullError, TorrentSourceError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import type { ResolvedSource, StartTorrentInput, TorrentEngine, TorrentEngineListener, TorrentStats } from '../../src/services/torrent/engine.js'
import { toTorrentError } from '../../src/services/torrent/engine.js'
import { FileTasksStore } from '../../src/services/torrent/tasks-store.js'
import { createTaskManager, type TaskManager } from '../../src/system/task-bindings.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

/** An engine that does what the test tells it, and records what it was asked. */
class FakeEngine implements TorrentEngine {
  started: StartTorrentInput[] = []
  paused: string[] = []
  removed: { infoHash: string; deleteFiles: boolean; hasTorrentFile: boolean }[] = []
  listeners = new Map<string, TorrentEngineListener>()
  live = new Map<string, Partial<TorrentStats>>()

  async resolveSource(source: string): Promise<ResolvedSource> {
    if (source === 'bad') throw new TorrentSourceError('invalid magnet URI "bad"')
    const infoHash = source.replace(/^magnet:\?xt=urn:btih:/, '').slice(0, 40)
    return { kind: 'magnet', infoHash, name: `name-${infoHash.slice(0, 4)}`, magnetURI: `magnet:?xt=urn:btih:${infoHash}` }
  }
  start(input: StartTorrentInput, listener: TorrentEngineListener) {
    this.started.push(input)
    this.listeners.set(input.infoHash, listener)
    this.live.set(input.infoHash, {})
    return () => this.listeners.delete(input.infoHash)
  }
  async pause(infoHash: string) {
    this.paused.push(infoHash)
    this.live.delete(infoHash)
  }
  async resume() {}
  rechecked: string[] = []
  async recheck(infoHash: string) {
    this.rechecked.push(infoHash)
  }
  async remove(infoHash: string, options: { deleteFiles: boolean; torrentFile?: Uint8Array }) {
    this.removed.push({ infoHash, deleteFiles: options.deleteFiles, hasTorrentFile: Boolean(options.torrentFile) })
  }
  stats(infoHash: string): TorrentStats | undefined {
    const s = this.live.get(infoHash)
    if (!s) return undefined
    return { infoHash, name: 'n', hasMetadata: false, ready: false, done: false, progress: 0.25, size: 100, downloaded: 25, uploaded: 0, downloadSpeed: 7, uploadSpeed: 0, peers: 1, etaSeconds: 10, files: [], ...s }
  }
  createReadStream(): Readable {
    return Readable.from([])
  }
  async listening() {
    return { port: 1 }
  }
  async close() {}
  emit(infoHash: string, event: Parameters<TorrentEngineListener>[0]) {
    if (event.type === 'metadata') this.live.set(infoHash, { hasMetadata: true, ready: true })
    this.listeners.get(infoHash)?.(event)
  }
}

let dir: string
let manager: TaskManager | undefined
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-task-manager-'))
})
afterEach(async () => {
  await manager?.close()
  manager = undefined
  await rm(dir, { recursive: true, force: true })
})

async function make(engine = new FakeEngine(), seedRatio = 1) {
  const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 10 })
  const changes: string[] = []
  manager = await createTaskManager({ engine, store, logger: silentLogger(), seedRatio, progressIntervalMs: 5, onChange: (c) => changes.push(`${c.taskId}:${c.state}`) })
  return { engine, store, manager, changes }
}

const byId = (m: TaskManager, id: string) => m.reports().find((t) => t.id === id)

describe('task manager', () => {
  it('adds a task once however often the same add_task arrives', async () => {
    const { engine, manager } = await make()
    expect(manager.apply({ type: 'add_task', taskId: 't1', source: `magnet:?xt=urn:btih:${A}` })).toBe(true)
    manager.apply({ type: 'add_task', taskId: 't1', source: `magnet:?xt=urn:btih:${A}` })
    await vi.waitFor(() => expect(byId(manager, 't1')?.state).toBe('fetching_metadata'))
    expect(manager.reports()).toHaveLength(1)
    expect(engine.started).toHaveLength(1)
    await vi.waitFor(() => expect(byId(manager, 't1')).toMatchObject({ downloadSpeed: 7, peers: 1, etaSeconds: 10 }))
  })

  it('refuses a second task for the same info hash, leaving the first alone', async () => {
    const { engine, manager } = await make()
    manager.apply({ type: 'add_task', taskId: 't1', source: A })
    await vi.waitFor(() => expect(byId(manager, 't1')?.state).toBe('fetching_metadata'))
    manager.apply({ type: 'add_task', taskId: 't2', source: `magnet:?xt=urn:btih:${A}` })
    await vi.waitFor(() => expect(byId(manager, 't2')?.state).toBe('error'))
    expect(byId(manager, 't2')?.error).toContain(`info hash ${A} is already task t1`)
    expect(engine.started).toHaveLength(1)
    manager.apply({ type: 'delete_task', taskId: 't2', deleteFiles: true })
    await manager.whenDeleted('t2')
    // Deleting the duplicate never touches the first task's torrent or files.
    expect(engine.removed).toEqual([])
    expect(byId(manager, 't1')?.state).toBe('fetching_metadata')
  })

  it('acknowledges a delete, pause or resume of an unknown task without doing anything', async () => {
    const { engine, manager } = await make()
    expect(manager.apply({ type: 'delete_task', taskId: 'ghost', deleteFiles: true })).toBe(true)
    expect(manager.apply({ id: 'c1', kind: 'pause_task', taskId: 'ghost' })).toBe(true)
    expect(manager.apply({ id: 'c2', kind: 'resume_task', taskId: 'ghost' })).toBe(true)
    expect(manager.apply({ id: 'c3', kind: 'stop_session', sessionId: 's' })).toBe(false)
    await manager.whenDeleted('ghost')
    expect(manager.reports()).toEqual([])
    expect(engine.removed).toEqual([])
  })

  it('puts only the bad task into error and keeps the others going', async () => {
    const { manager } = await make()
    manager.apply({ type: 'add_task', taskId: 'good', source: A })
    manager.apply({ type: 'add_task', taskId: 'bad', source: 'bad' })
    await vi.waitFor(() => expect(byId(manager, 'bad')?.state).toBe('error'))
    expect(byId(manager, 'bad')?.error).toBe('invalid magnet URI "bad"')
    expect(byId(manager, 'good')?.state).toBe('fetching_metadata')
    expect(manager.activeCount()).toBe(1)
  })

  it('pauses and resumes on controls and deletes with files', async () => {
    const { engine, manager, changes } = await make()
    manager.apply({ type: 'add_task', taskId: 't1', source: A })
    await vi.waitFor(() => expect(byId(manager, 't1')?.state).toBe('fetching_metadata'))
    engine.emit(A, { type: 'metadata', infoHash: A, name: 'n', size: 100, files: [{ path: '/d/n', size: 100 }], torrentFile: new Uint8Array([100, 101]) })
    expect(byId(manager, 't1')?.state).toBe('downloading')
    await vi.waitFor(async () => expect(await readdir(join(dir, 'torrents'))).toEqual([`${A}.torrent`]))
    manager.apply({ id: 'c1', kind: 'pause_task', taskId: 't1' })
    expect(byId(manager, 't1')?.state).toBe('paused')
    expect(engine.paused).toEqual([A])
    manager.apply({ id: 'c2', kind: 'resume_task', taskId: 't1' })
    await vi.waitFor(() => expect(engine.started).toHaveLength(2))
    // The resumed torrent starts from the saved metadata.
    expect(engine.started[1]?.torrentFile).toEqual(new Uint8Array([100, 101]))
    engine.emit(A, { type: 'error', infoHash: A, error: new TorrentDiskFullError('no space left on device while writing "n" to /d') })
    expect(byId(manager, 't1')).toMatchObject({ state: 'error', error: 'no space left on device while writing "n" to /d' })
    manager.apply({ type: 'delete_task', taskId: 't1', deleteFiles: true })
    await manager.whenDeleted('t1')
    expect(engine.removed).toEqual([{ infoHash: A, deleteFiles: true, hasTorrentFile: true }])
    expect(manager.reports()).toEqual([])
    expect(changes).toEqual(['t1:queued', 't1:fetching_metadata', 't1:downloading', 't1:paused', 't1:fetching_metadata', 't1:downloading', 't1:error'])
    expect(await readdir(join(dir, 'torrents'))).toEqual([])
  })

  it('brings every task back after a restart, from tasks.json and saved metadata', async () => {
    const first = await make()
    first.manager.apply({ type: 'add_task', taskId: 't1', source: A })
    first.manager.apply({ type: 'add_task', taskId: 't2', source: B })
    await vi.waitFor(() => expect(first.engine.started).toHaveLength(2))
    first.engine.emit(A, { type: 'metadata', infoHash: A, name: 'n', size: 100, files: [{ path: '/d/n', size: 100 }], torrentFile: new Uint8Array([1]) })
    first.manager.apply({ id: 'c1', kind: 'pause_task', taskId: 't2' })
    await first.manager.close()
    manager = undefined

    const engine = new FakeEngine()
    const second = await make(engine)
    expect(second.manager.reports().map((t) => [t.id, t.state]).sort()).toEqual([['t1', 'downloading'], ['t2', 'paused']])
    await vi.waitFor(() => expect(engine.started).toHaveLength(1))
    expect(engine.started[0]).toMatchObject({ infoHash: A, torrentFile: new Uint8Array([1]) })
  })

  it('starts empty, with the corrupt tasks.json moved aside, rather than refusing to run', async () => {
    await writeFile(join(dir, 'tasks.json'), '{"version":1,"tasks":[{"id":')
    const { manager } = await make()
    expect(manager.reports()).toEqual([])
    const names = await readdir(dir)
    expect(names.some((n) => n.startsWith('tasks.json.corrupt-'))).toBe(true)
    manager.apply({ type: 'add_task', taskId: 't1', source: A })
    await manager.close()
    expect(JSON.parse(await readFile(join(dir, 'tasks.json'), 'utf8')).tasks).toHaveLength(1)
  })
})

describe('engine error mapping', () => {
  it('turns ENOSPC into a disk-full error that says no space left', () => {
    const error = toTorrentError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), 'movie', '/downloads')
    expect(error).toBeInstanceOf(TorrentDiskFullError)
    expect(error.message).toBe('no space left on device while writing "movie" to /downloads')
    expect(toTorrentError(new Error('EIO'), 'movie', '/d').code).toBe('MA_ERR_TORRENT_ENGINE')
  })
})

describe('task manager: dormant torrents', () => {
  /** One task (t1, info hash A) running on a fake engine, its poll on a manual clock sampling every second. */
  const oneTaskOnAClock = async () => {
    const engine = new FakeEngine()
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 10 })
    const clock = new ManualClock()
    const tasks = await createTaskManager({ engine, store, logger: silentLogger(), seedRatio: 1, progressIntervalMs: 1000, timers: clock })
    manager = tasks
    tasks.apply({ type: 'add_task', taskId: 't1', source: `magnet:?xt=urn:btih:${A}` })
    await vi.waitFor(() => expect(engine.listeners.size).toBe(1))
    return { engine, clock, tasks }
  }

  it('tells the memory settler each time a task\'s torrent goes dormant, not when it wakes', async () => {
    const engine = new FakeEngine()
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 10 })
    let dormant = 0
    manager = await createTaskManager({ engine, store, logger: silentLogger(), seedRatio: 1, progressIntervalMs: 5, onDormant: () => dormant++ })
    manager.apply({ type: 'add_task', taskId: 't1', source: `magnet:?xt=urn:btih:${A}` })
    manager.apply({ type: 'add_task', taskId: 't2', source: `magnet:?xt=urn:btih:${B}` })
    await vi.waitFor(() => expect(engine.listeners.size).toBe(2))
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: true })
    engine.emit(B, { type: 'dormant', infoHash: B, dormant: true })
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: false })
    expect(dormant).toBe(2)
  })

  it('keeps no progress poll for a dormant torrent, and samples again once it wakes and a peer comes', async () => {
    const { engine, clock, tasks } = await oneTaskOnAClock()
    // A peer: the poll samples every second.
    engine.live.set(A, { uploadSpeed: 3, peers: 1 })
    engine.emit(A, { type: 'peer', infoHash: A })
    expect(clock.pending).toBe(1)
    expect(byId(tasks, 't1')).toMatchObject({ peers: 1, uploadSpeed: 3 })
    // It goes dormant: no timer left, however long it sleeps.
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: true })
    expect(clock.pending).toBe(0)
    clock.advance(60_000)
    expect(clock.pending).toBe(0)
    // Woken by a peer: sampled at once, polled again.
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: false })
    engine.live.set(A, { uploadSpeed: 9, peers: 2 })
    engine.emit(A, { type: 'peer', infoHash: A })
    expect(byId(tasks, 't1')).toMatchObject({ peers: 2, uploadSpeed: 9 })
    expect(clock.pending).toBe(1)
    engine.live.set(A, { uploadSpeed: 12, peers: 2 })
    clock.advance(1000)
    expect(byId(tasks, 't1')).toMatchObject({ uploadSpeed: 12 })
  })

  it('makes no progress poll for a torrent restored straight to dormant, which says dormant before metadata, ready and done', async () => {
    const { engine, clock, tasks } = await oneTaskOnAClock()
    // The order of a restart's restore (dormant-lifecycle.ts `restore`).
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: true })
    engine.emit(A, { type: 'metadata', infoHash: A, name: 'movie', size: 10, files: [{ path: '/d/movie.mkv', size: 10 }], torrentFile: new Uint8Array(1), saved: true })
    engine.emit(A, { type: 'ready', infoHash: A })
    engine.emit(A, { type: 'done', infoHash: A })
    expect(clock.pending).toBe(0)
    expect(byId(tasks, 't1')).toMatchObject({ state: 'seeding', progress: 1, downloaded: 10, files: [{ path: '/d/movie.mkv', size: 10, progress: 1 }] })
    // Woken by a peer: polled again.
    engine.emit(A, { type: 'dormant', infoHash: A, dormant: false })
    engine.live.set(A, { uploadSpeed: 9, peers: 2 })
    engine.emit(A, { type: 'peer', infoHash: A })
    expect(byId(tasks, 't1')).toMatchObject({ peers: 2, uploadSpeed: 9 })
    expect(clock.pending).toBe(1)
  })
})
