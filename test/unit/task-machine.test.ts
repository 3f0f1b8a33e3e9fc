import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate'
import {
  taskMachine,
  taskRecordOf,
  taskReportOf,
  type RemoveTaskInput,
  type ResolveSourceInput,
  type ResolveSourceOutput,
  type TaskEvent,
  type TaskInput,
  type TaskProgress,
  type TaskRecord,
  type TorrentActorInput,
} from '../../src/machines/task.machine.js'

const hash = 'a'.repeat(40)

function harness(options: { resolve?: (input: ResolveSourceInput) => Promise<ResolveSourceOutput>; input?: Partial<TaskInput> } = {}) {
  const persisted: { state: string; immediate: boolean; record: TaskRecord }[] = []
  const changes: string[] = []
  const torrentStarts: TorrentActorInput[] = []
  const resolves: ResolveSourceInput[] = []
  const removed: RemoveTaskInput[] = []
  let stops = 0
  let engine: ((event: TaskEvent) => void) | null = null
  const machine = taskMachine.provide({
    actors: {
      resolveSource: fromPromise<ResolveSourceOutput, ResolveSourceInput>(async ({ input }) => {
        resolves.push(input)
        return options.resolve ? options.resolve(input) : { infoHash: hash, name: 'movie' }
      }),
      torrent: fromCallback<TaskEvent, TorrentActorInput>(({ input, sendBack }) => {
        torrentStarts.push(input)
        engine = sendBack
        return () => {
          stops++
          engine = null
        }
      }),
      removeTask: fromPromise<void, RemoveTaskInput>(async ({ input }) => {
        removed.push(input)
      }),
    },
    actions: {
      persist: ({ context }, params) => persisted.push({ state: context.state, immediate: params.immediate, record: taskRecordOf(context) }),
      reportChange: (_, params) => changes.push(params.state),
    },
  })
  const actor = createActor(machine, {
    input: { taskId: 't1', source: `magnet:?xt=urn:btih:${hash}`, seedRatio: 1, addedAt: 1000, ...options.input },
  })
  actor.start()
  const fromEngine = (event: TaskEvent) => {
    if (!engine) throw new Error('no torrent actor running')
    engine(event)
  }
  const report = () => taskReportOf(actor.getSnapshot())
  return { actor, persisted, changes, torrentStarts, resolves, removed, fromEngine, report, stops: () => stops }
}

function progress(over: Partial<TaskProgress> = {}): TaskEvent {
  return {
    type: 'engine.progress',
    progress: {
      name: 'movie', hasMetadata: true, ready: true, done: false, progress: 0.5, size: 1000, downloaded: 500, uploaded: 0,
      downloadSpeed: 100, uploadSpeed: 0, peers: 3, etaSeconds: 5, files: [{ path: '/d/movie.mkv', size: 1000, progress: 0.5 }],
      ...over,
    },
  }
}

const metadata: TaskEvent = { type: 'engine.metadata', name: 'movie', size: 1000, files: [{ path: '/d/movie.mkv', size: 1000, progress: 0 }] }

describe('task machine', () => {
  it('goes from queued through fetching metadata and downloading to seeding, then completes at the seed ratio', async () => {
    const h = harness()
    await waitFor(h.actor, (s) => s.matches({ active: 'fetching_metadata' }))
    expect(h.report()?.state).toBe('fetching_metadata')
    expect(h.torrentStarts).toEqual([{ taskId: 't1', infoHash: hash, source: `magnet:?xt=urn:btih:${hash}` }])
    h.fromEngine(metadata)
    expect(h.report()?.state).toBe('downloading')
    h.fromEngine(progress())
    expect(h.report()).toMatchObject({ progress: 0.5, downloaded: 500, peers: 3, downloadSpeed: 100, etaSeconds: 5 })
    h.fromEngine(progress({ done: true, progress: 1, downloaded: 1000 }))
    expect(h.report()?.state).toBe('seeding')
    h.fromEngine(progress({ done: true, progress: 1, downloaded: 1000, uploaded: 999 }))
    expect(h.report()?.state).toBe('seeding')
    h.fromEngine(progress({ done: true, progress: 1, downloaded: 1000, uploaded: 1000 }))
    expect(h.report()).toMatchObject({ state: 'completed', downloadSpeed: 0, uploadSpeed: 0, peers: 0, uploaded: 1000 })
    expect(h.stops()).toBe(1)
    expect(h.changes).toEqual(['queued', 'fetching_metadata', 'downloading', 'seeding', 'completed'])
    expect(h.persisted.filter((p) => p.immediate).map((p) => p.state)).toEqual(['queued', 'fetching_metadata', 'fetching_metadata', 'downloading', 'seeding', 'completed'])
  })

  it('completes at once when seed_ratio is 0', async () => {
    const h = harness({ input: { seedRatio: 0 } })
    await waitFor(h.actor, (s) => s.matches('active'))
    h.fromEngine(metadata)
    h.fromEngine({ type: 'engine.done' })
    expect(h.report()).toMatchObject({ state: 'completed', progress: 1, downloaded: 1000 })
    expect(h.changes).not.toContain('seeding')
  })

  it('pauses and resumes where it was, restarting the engine without resolving the source again', async () => {
    const h = harness()
    await waitFor(h.actor, (s) => s.matches('active'))
    h.fromEngine(metadata)
    h.fromEngine(progress({ uploaded: 100 }))
    h.actor.send({ type: 'task.pause' })
    expect(h.report()).toMatchObject({ state: 'paused', downloadSpeed: 0, peers: 0, etaSeconds: null, progress: 0.5 })
    expect(h.stops()).toBe(1)
    h.actor.send({ type: 'task.resume' })
    expect(h.report()?.state).toBe('downloading')
    expect(h.resolves).toHaveLength(1)
    expect(h.torrentStarts).toHaveLength(2)
    // Uploads of the earlier engine run count towards the seed ratio.
    h.fromEngine(progress({ uploaded: 50 }))
    expect(h.report()?.uploaded).toBe(150)
  })

  it('puts a bad source into error with the resolver message, and a resume retries it', async () => {
    let attempts = 0
    const h = harness({
      resolve: async () => {
        attempts++
        if (attempts === 1) throw Object.assign(new Error('GET http://x/y.torrent failed: HTTP 404'), { code: 'MA_ERR_TORRENT_FETCH' })
        return { infoHash: hash, name: 'y' }
      },
    })
    await waitFor(h.actor, (s) => s.matches('error'))
    expect(h.report()).toMatchObject({ state: 'error', error: 'GET http://x/y.torrent failed: HTTP 404' })
    expect(h.persisted.at(-1)?.record).toMatchObject({ state: 'error', errorCode: 'MA_ERR_TORRENT_FETCH' })
    h.actor.send({ type: 'task.resume' })
    await waitFor(h.actor, (s) => s.matches('active'))
    expect(h.report()?.error).toBeUndefined()
  })

  it('reports a full disk as a task error that says no space left', async () => {
    const h = harness()
    await waitFor(h.actor, (s) => s.matches('active'))
    h.fromEngine(metadata)
    h.fromEngine({ type: 'engine.error', message: 'no space left on device while writing "movie" to /d', code: 'MA_ERR_TORRENT_DISK_FULL' })
    expect(h.report()).toMatchObject({ state: 'error', error: expect.stringContaining('no space left') })
    expect(h.stops()).toBe(1)
  })

  it('deletes from any state, stopping the engine first and passing deleteFiles on', async () => {
    const h = harness()
    await waitFor(h.actor, (s) => s.matches('active'))
    h.actor.send({ type: 'task.delete', deleteFiles: true })
    await waitFor(h.actor, (s) => s.status === 'done')
    expect(h.stops()).toBe(1)
    expect(h.removed).toEqual([{ taskId: 't1', infoHash: hash, deleteFiles: true }])
    expect(h.report()).toBeNull()
  })

  it('restarts a downloading task from tasks.json without resolving its source', async () => {
    const restored: TaskRecord = {
      id: 't1', source: 'https://example.invalid/x.torrent', infoHash: hash, name: 'movie', state: 'downloading', size: 1000,
      downloaded: 400, uploaded: 20, progress: 0.4, files: [{ path: '/d/movie.mkv', size: 1000, progress: 0.4 }], addedAt: 5,
    }
    const h = harness({ input: { restored } })
    expect(h.report()).toMatchObject({ state: 'downloading', progress: 0.4, uploaded: 20 })
    expect(h.resolves).toHaveLength(0)
    expect(h.torrentStarts).toHaveLength(1)
  })

  it('keeps a restored completed or paused task idle', () => {
    for (const state of ['completed', 'paused', 'error'] as const) {
      const restored: TaskRecord = {
        id: 't1', source: hash, infoHash: hash, name: 'movie', state, size: 1000, downloaded: 1000, uploaded: 0, progress: 1, files: [], addedAt: 5,
        ...(state === 'error' ? { error: 'no space left on device' } : {}),
      }
      const h = harness({ input: { restored } })
      expect(h.report()?.state).toBe(state)
      expect(h.torrentStarts).toHaveLength(0)
      expect(h.resolves).toHaveLength(0)
      h.actor.stop()
    }
  })

  it('drops back to downloading when a restored seeding task finds its files incomplete on disk', async () => {
    const restored: TaskRecord = {
      id: 't1', source: hash, infoHash: hash, name: 'movie', state: 'seeding', size: 1000, downloaded: 1000, uploaded: 0, progress: 1, files: [], addedAt: 5,
    }
    const h = harness({ input: { restored } })
    expect(h.report()?.state).toBe('seeding')
    // Before verification finishes the engine's numbers mean nothing.
    h.fromEngine(progress({ ready: false, done: false, progress: 0 }))
    expect(h.report()?.state).toBe('seeding')
    h.fromEngine(progress({ ready: true, done: false, progress: 0.7 }))
    expect(h.report()?.state).toBe('downloading')
  })

  it('carries the error field only in state error', async () => {
    const h = harness()
    await waitFor(h.actor, (s) => s.matches('active'))
    expect('error' in (h.report() ?? {})).toBe(false)
  })
})
