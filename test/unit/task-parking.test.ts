import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise, type AnyActorRef } from 'xstate'
import { TorrentDiskFullError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { taskShardActorId, taskShardWith, type TaskShardContext } from '../../src/machines/task-shard.machine.js'
import { taskReportOf, withParking, type TaskInput, type TaskRecord, type TaskSnapshot } from '../../src/machines/task.machine.js'
import { tasksMachine } from '../../src/machines/tasks.machine.js'
import type { ResolvedSource, StartTorrentInput, TorrentEngine, TorrentEngineEvent, TorrentEngineListener, TorrentStats } from '../../src/services/torrent/engine.js'
import { FileTasksStore } from '../../src/services/torrent/tasks-store.js'
import { createTaskBindings, taskInputFor } from '../../src/system/task-bindings.js'

// A seeding task whose torrent went dormant is parked by its shard (task-shard.machine.ts): kept
// as its context, its two actors stopped, started again in the same state at the wake or at the
// first command. What a user would notice if it went wrong: a dormant task missing from the
// server's list or shown in another state, a wake that writes tasks.json and syncs, a pause or
// error that does not reach a parked task, a parked torrent paused in the engine.

const A = 'a'.repeat(40)
/** An engine event without its info hash (emit adds it). */
type Fact = TorrentEngineEvent extends infer E ? (E extends TorrentEngineEvent ? Omit<E, 'infoHash'> : never) : never

/** Records what it is asked; `emit` plays the engine's facts to every listener of a torrent. */
class FakeEngine implements TorrentEngine {
  started: StartTorrentInput[] = []
  paused: string[] = []
  readonly #listeners = new Map<string, Set<TorrentEngineListener>>()
  held = new Set<string>()
  constructor(private readonly complete = true) {}
  async resolveSource(): Promise<ResolvedSource> {
    throw new Error('not used')
  }
  start(input: StartTorrentInput, listener: TorrentEngineListener) {
    this.started.push(input)
    this.held.add(input.infoHash)
    return this.#add(input.infoHash, listener)
  }
  listen(infoHash: string, listener: TorrentEngineListener) {
    return this.held.has(infoHash) ? this.#add(infoHash, listener) : undefined
  }
  listenerCount(infoHash: string) {
    return this.#listeners.get(infoHash)?.size ?? 0
  }
  #add(infoHash: string, listener: TorrentEngineListener) {
    const set = this.#listeners.get(infoHash) ?? new Set()
    this.#listeners.set(infoHash, set)
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }
  async pause(infoHash: string) {
    this.paused.push(infoHash)
  }
  async resume() {}
  async recheck() {}
  async remove() {}
  stats(infoHash: string): TorrentStats {
    const progress = this.complete ? 1 : 0.4
    return { infoHash, name: 'n', hasMetadata: true, ready: true, done: this.complete, progress, size: 10, downloaded: 10 * progress, uploaded: 0, downloadSpeed: 0, uploadSpeed: 0, peers: 0, etaSeconds: 0, files: [{ path: '/d/n', size: 10, downloaded: 10 * progress, progress }] }
  }
  createReadStream(): Readable {
    return Readable.from([])
  }
  async listening() {
    return { port: 1 }
  }
  async close() {}
  emit(infoHash: string, event: Fact) {
    for (const listener of [...(this.#listeners.get(infoHash) ?? [])]) listener({ ...event, infoHash } as TorrentEngineEvent)
  }
}

const seedingRecord: TaskRecord = { id: 't1', source: `magnet:?xt=urn:btih:${A}`, infoHash: A, name: 'n', state: 'seeding', size: 10, downloaded: 10, uploaded: 3, progress: 1, files: [{ path: '/d/n', size: 10, progress: 1 }], addedAt: 5 }

let dir: string
let root: AnyActorRef | undefined
let store: FileTasksStore | undefined
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-task-parking-'))
})
afterEach(async () => {
  root?.stop()
  root = undefined
  // A write of tasks.json still in flight would put the file back while the dir is removed.
  await store?.close()
  store = undefined
  await rm(dir, { recursive: true, force: true })
})

async function seedbox(records: TaskRecord[] = [seedingRecord], complete = true) {
  const engine = new FakeEngine(complete)
  const tasksStore = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 10 })
  store = tasksStore
  const changes: string[] = []
  const bindings = createTaskBindings({ engine, store: tasksStore, logger: silentLogger(), progressIntervalMs: 5, onChange: (c) => changes.push(`${c.taskId}:${c.state}`) })
  const inputs: TaskInput[] = records.map((record) => taskInputFor(record, 1))
  const logic = tasksMachine.provide({
    actors: {
      shard: taskShardWith(withParking(bindings.machine), (taskId) => bindings.handOver(taskId)),
      loadTasks: fromPromise(async () => inputs),
    },
  })
  root = createActor(logic, { input: { seedRatio: 1 } })
  root.start()
  await vi.waitFor(() => expect(engine.started.length).toBe(records.length))
  const shard = () => root!.system.get(taskShardActorId('t1')) as AnyActorRef
  const task = () => (shard().getSnapshot() as { children: Record<string, AnyActorRef | undefined> }).children['task:t1']
  const parked = () => (shard().getSnapshot() as { context: TaskShardContext }).context.parked
  const put = vi.spyOn(tasksStore, 'put')
  return { engine, store: tasksStore, changes, shard, task, parked, put }
}

describe('a dormant seeding task', () => {
  it('is kept by its shard as its context, its actors stopped and its torrent left dormant, and reports as before', async () => {
    const { engine, task, parked } = await seedbox()
    const before = taskReportOf(task()!.getSnapshot() as TaskSnapshot)
    expect(before).toMatchObject({ id: 't1', state: 'seeding', uploaded: 3 })
    engine.emit(A, { type: 'dormant', dormant: true })
    expect(task()).toBeUndefined()
    expect(parked().t1).toMatchObject({ id: 't1', state: 'seeding', dormant: true, uploaded: 3 })
    expect(engine.paused).toEqual([])
    // The task's live subscription gave way to the one parked listener.
    expect(engine.listenerCount(A)).toBe(1)
    // The facts a restored torrent repeats after its dormancy change nothing.
    engine.emit(A, { type: 'done' })
    expect(task()).toBeUndefined()
  })

  it('starts again in seeding at the wake without writing tasks.json or asking for a sync, and is parked again at the next dormancy', async () => {
    const { engine, changes, put, task, parked } = await seedbox()
    engine.emit(A, { type: 'dormant', dormant: true })
    const changesBefore = changes.length
    const startsBefore = engine.started.length
    engine.emit(A, { type: 'dormant', dormant: false })
    const woken = task()!.getSnapshot() as TaskSnapshot
    expect(woken.matches({ active: 'seeding' })).toBe(true)
    expect(woken.context).toMatchObject({ dormant: false, uploaded: 3, addedAt: 5 })
    expect(parked()).toEqual({})
    // Its torrent actor listens to the torrent the engine holds: no new start, no metadata read.
    expect(engine.started.length).toBe(startsBefore)
    expect(put).not.toHaveBeenCalledWith(expect.anything(), { immediate: true })
    expect(changes.length).toBe(changesBefore)
    expect(engine.listenerCount(A)).toBe(1)
    engine.emit(A, { type: 'dormant', dormant: true })
    expect(task()).toBeUndefined()
    expect(parked().t1).toBeDefined()
    expect(engine.paused).toEqual([])
  })

  it('takes a pause sent while it is parked: started again, then paused in the engine', async () => {
    const { engine, shard, task, parked } = await seedbox()
    engine.emit(A, { type: 'dormant', dormant: true })
    root!.send({ type: 'tasks.command', taskId: 't1', what: 'pause_task', command: { type: 'task.pause' } })
    expect(parked()).toEqual({})
    expect(taskReportOf(task()!.getSnapshot() as TaskSnapshot)?.state).toBe('paused')
    await vi.waitFor(() => expect(engine.paused).toEqual([A]))
    // Nothing listens to the paused torrent any more: not the task, not the parked listener.
    expect(engine.listenerCount(A)).toBe(0)
    expect(shard().getSnapshot().status).toBe('active')
  })

  it('hears an error of its parked torrent and shows it', async () => {
    const { engine, task } = await seedbox()
    engine.emit(A, { type: 'dormant', dormant: true })
    engine.emit(A, { type: 'error', error: new TorrentDiskFullError('no space left on the downloads disk') })
    const snapshot = task()!.getSnapshot() as TaskSnapshot
    expect(taskReportOf(snapshot)).toMatchObject({ state: 'error', error: 'no space left on the downloads disk' })
  })

  it('is not parked while it is not seeding', async () => {
    const downloading: TaskRecord = { ...seedingRecord, state: 'downloading', downloaded: 4, progress: 0.4, files: [{ path: '/d/n', size: 10, progress: 0.4 }] }
    const { engine, task, parked } = await seedbox([downloading], false)
    engine.emit(A, { type: 'dormant', dormant: true })
    expect(task()).toBeDefined()
    expect(parked()).toEqual({})
  })
})
