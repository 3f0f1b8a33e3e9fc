import { setup, assign, and, fromPromise, fromCallback, type AnyActorLogic, type AnyActorScope, type SnapshotFrom } from 'xstate'
import type { TaskFileReport, TaskReport, TaskState } from '../protocol/wire.js'

// One download task (protocol.md 1: add_task / delete_task, pause_task / resume_task, task states).
// The engine's facts (metadata, progress, done, error) arrive as events from the invoked
// `torrent` actor; pause/resume/delete arrive as events from whoever applies the server's
// actions and controls. The I/O lives in named actors and actions bound in
// src/system/task-bindings.ts: `resolveSource` (magnet / info hash / .torrent URL -> info hash),
// `torrent` (engine subscription), `removeTask` (engine + tasks.json + metadata), `persist`
// (tasks.json) and `reportChange` (a change the server must see at once).
//
//   queued -> fetching_metadata -> downloading -> seeding (until seed_ratio) -> completed
//   any of those -> paused (resume goes back), -> error (resume retries), -> deleting -> deleted
//   downloading / seeding / completed --recheck--> checking (every piece hashed again) -> downloading
//   (reported as `downloading`: the protocol has no checking state); paused / error --recheck-->
//   the same state, the verified-piece map forgotten so that the next start hashes every piece.

export type TaskRecordState = TaskState

/** What tasks.json keeps per task: enough to report and resume after a restart. */
export interface TaskRecord {
  id: string
  source: string
  /** Lower-case hex; '' until the source is resolved. */
  infoHash: string
  name: string
  state: TaskState
  size: number
  downloaded: number
  /** Total across restarts; the seed ratio is uploaded / size. */
  uploaded: number
  progress: number
  files: TaskFileReport[]
  error?: string
  errorCode?: string
  addedAt: number
}

/** The engine's view of a running torrent, as the `torrent` actor sends it: the wire report's figures plus readiness. */
export interface TaskProgress extends Pick<TaskReport, 'name' | 'progress' | 'size' | 'downloaded' | 'downloadSpeed' | 'uploadSpeed' | 'peers' | 'etaSeconds' | 'files'> {
  hasMetadata: boolean
  ready: boolean
  done: boolean
  /** Uploaded since the torrent was (re)started; the machine adds earlier runs. */
  uploaded: number
}

export interface TaskInput {
  taskId: string
  source: string
  /** Seed a finished task until uploaded / size reaches this; 0 completes at once (config `seed_ratio`). */
  seedRatio: number
  /** Wall-clock ms when the task was added (kept in tasks.json). */
  addedAt: number
  /** The task as tasks.json had it, when the agent restarts. */
  restored?: TaskRecord
  /**
   * The task's context as its shard kept it while the task was parked (a dormant seeding task
   * held as this record instead of two actors; task-shard.machine.ts): the actor starts again in
   * `active.seeding` with its `torrent` actor, no entry actions run (withParking below).
   */
  parked?: TaskContext
}

export interface TaskContext extends TaskRecord {
  seedRatio: number
  /** `uploaded` when the current engine run started. */
  uploadedBase: number
  hasMetadata: boolean
  done: boolean
  downloadSpeed: number
  uploadSpeed: number
  peers: number
  etaSeconds: number | null
  restoredState: TaskState | null
  /**
   * The engine keeps only the torrent's metadata (a complete seeding torrent without peers for
   * the idle grace; docs/torrents.md Dormant torrents). Reported as `seeding` like a live one.
   */
  dormant: boolean
}

export type TaskEvent =
  | { type: 'task.pause' }
  | { type: 'task.resume' }
  | { type: 'task.delete'; deleteFiles: boolean }
  /** `media-agent torrent recheck`: trust no verified-piece map, hash the data again. */
  | { type: 'task.recheck' }
  | { type: 'engine.metadata'; name: string; size: number; files: TaskFileReport[] }
  | { type: 'engine.progress'; progress: TaskProgress }
  | { type: 'engine.done' }
  | { type: 'engine.error'; message: string; code: string }
  /** The engine put the torrent to sleep (metadata only) or woke it. */
  | { type: 'engine.dormancy'; dormant: boolean }

export interface ResolveSourceInput {
  taskId: string
  source: string
}

export interface ResolveSourceOutput {
  infoHash: string
  name: string
}

export interface TorrentActorInput {
  taskId: string
  infoHash: string
  source: string
  /**
   * The task was parked and starts again (withParking): the engine holds its torrent, still
   * dormant or just woken, and the actor subscribes at once - a woken torrent's first peer
   * arrives in the same turn as its wake.
   */
  unparked?: 'dormant' | 'awake'
}

export interface RecheckInput {
  infoHash: string
}

export interface RemoveTaskInput {
  taskId: string
  infoHash: string
  deleteFiles: boolean
}

const unbound = (name: string) => async () => {
  throw new Error(`task actor "${name}" is not bound: provide it in src/system/task-bindings.ts`)
}

function describe(error: unknown): { message: string; code: string } {
  if (error && typeof error === 'object') {
    const { message, code } = error as { message?: unknown; code?: unknown }
    return { message: typeof message === 'string' ? message : String(error), code: typeof code === 'string' ? code : 'MA_ERR_INTERNAL' }
  }
  return { message: String(error), code: 'MA_ERR_INTERNAL' }
}

const idle = { downloadSpeed: 0, uploadSpeed: 0, peers: 0, dormant: false }

/** The `torrent` actor's input, from the task's context: the same for its invoke and for a parked task's restart. */
const torrentInputOf = (context: TaskContext): TorrentActorInput => ({ taskId: context.id, infoHash: context.infoHash, source: context.source })

/**
 * XState's `assign` makes each new context as `Object.assign({}, context, update)`. V8 adds those
 * 23 properties to the empty object one by one as keyed stores, and past 16 of them it turns the
 * object into a dictionary: ~1.6 KiB a task instead of ~0.3, kept by every task of a seedbox
 * (measured in a heap snapshot of 1,000 dormant tasks: 1.5 MiB of dictionaries, one a task
 * context). Stores that find a hidden-class transition already made follow it and the object
 * stays fast. This object, built once with named stores in the order of the context factory's
 * keys (below; test/unit/task-context-shape.test.ts keeps the two in step), makes that chain.
 * Only V8's memory layout depends on it; nothing reads it.
 */
export function taskContextShape(): Record<keyof TaskContext, undefined> {
  const o = {} as Record<keyof TaskContext, undefined>
  o.id = undefined
  o.source = undefined
  o.infoHash = undefined
  o.name = undefined
  o.state = undefined
  o.dormant = undefined
  o.size = undefined
  o.downloaded = undefined
  o.uploaded = undefined
  o.progress = undefined
  o.files = undefined
  o.error = undefined
  o.errorCode = undefined
  o.addedAt = undefined
  o.seedRatio = undefined
  o.uploadedBase = undefined
  o.hasMetadata = undefined
  o.done = undefined
  o.downloadSpeed = undefined
  o.uploadSpeed = undefined
  o.peers = undefined
  o.etaSeconds = undefined
  o.restoredState = undefined
  return o
}
taskContextShape()

export const taskMachine = setup({
  types: {
    context: {} as TaskContext,
    input: {} as TaskInput,
    events: {} as TaskEvent,
  },
  actors: {
    resolveSource: fromPromise<ResolveSourceOutput, ResolveSourceInput>(unbound('resolveSource')),
    torrent: fromCallback<TaskEvent, TorrentActorInput>(() => {
      throw new Error('task actor "torrent" is not bound: provide it in src/system/task-bindings.ts')
    }),
    removeTask: fromPromise<void, RemoveTaskInput>(unbound('removeTask')),
    /** Forgets the verified pieces and restarts the torrent; resolves once its data is hashed again. */
    recheck: fromPromise<void, RecheckInput>(unbound('recheck')),
  },
  actions: {
    /** Bound to the tasks store: immediate on a state change, coalesced for progress. */
    persist: (_, _params: { immediate: boolean }) => {},
    /** Bound to "sync soon": a state change the server must see (protocol.md 1). */
    reportChange: (_, _params: { state: TaskState }) => {},
    /** Bound to the engine: a stopped task's verified-piece map is dropped, its next start hashes every piece. */
    forgetPieces: (_, _params: { infoHash: string }) => {},
    setState: assign((_, params: { state: TaskState }) => ({ state: params.state })),
    clearError: assign({ error: undefined, errorCode: undefined }),
    stopTraffic: assign((_, params: { eta: number | null }) => ({ ...idle, etaSeconds: params.eta })),
    startRun: assign(({ context }) => ({ uploadedBase: context.uploaded })),
    assignMetadata: assign(({ context, event }) => {
      if (event.type !== 'engine.metadata') return {}
      return { name: event.name || context.name, size: event.size, files: event.files, hasMetadata: true }
    }),
    assignProgress: assign(({ context, event }) => {
      if (event.type !== 'engine.progress') return {}
      const p = event.progress
      return {
        name: p.name || context.name,
        hasMetadata: context.hasMetadata || p.hasMetadata,
        // Until the pieces on disk are verified the engine's `done` means nothing.
        done: p.ready ? p.done : context.done,
        progress: p.hasMetadata ? p.progress : context.progress,
        size: p.hasMetadata ? p.size : context.size,
        downloaded: p.hasMetadata ? p.downloaded : context.downloaded,
        uploaded: Math.max(context.uploaded, context.uploadedBase + p.uploaded),
        downloadSpeed: p.downloadSpeed,
        uploadSpeed: p.uploadSpeed,
        peers: p.peers,
        etaSeconds: p.etaSeconds,
        files: p.files.length > 0 ? p.files : context.files,
      }
    }),
    assignDone: assign(({ context }) => ({
      done: true,
      progress: 1,
      downloaded: context.size,
      files: context.files.map((file) => ({ ...file, progress: 1 })),
    })),
    assignError: assign((_, params: { message: string; code: string }) => ({ error: params.message, errorCode: params.code })),
  },
  guards: {
    restoredAs: ({ context }, params: { state: TaskState }) => context.restoredState === params.state,
    hasInfoHash: ({ context }) => context.infoHash !== '',
    hasMetadata: ({ context }) => context.hasMetadata,
    isDone: ({ context }) => context.done,
    isNotDone: ({ context }) => !context.done,
    seedsNotAtAll: ({ context }) => context.seedRatio <= 0,
    ratioReached: ({ context }) => context.seedRatio <= 0 || (context.size > 0 && context.uploaded >= context.seedRatio * context.size),
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => {
    const r = input.restored
    return {
      id: input.taskId,
      source: r?.source ?? input.source,
      infoHash: r?.infoHash ?? '',
      name: r?.name ?? '',
      state: r?.state ?? 'queued',
      // Early among the keys: /debug/actors shows the first 20 of a context (system/summarize.ts).
      dormant: false,
      size: r?.size ?? 0,
      downloaded: r?.downloaded ?? 0,
      uploaded: r?.uploaded ?? 0,
      progress: r?.progress ?? 0,
      files: r?.files ?? [],
      error: r?.error,
      errorCode: r?.errorCode,
      addedAt: r?.addedAt ?? input.addedAt,
      seedRatio: input.seedRatio,
      uploadedBase: r?.uploaded ?? 0,
      hasMetadata: Boolean(r && (r.files.length > 0 || r.size > 0)),
      done: r?.state === 'seeding' || r?.state === 'completed',
      downloadSpeed: 0,
      uploadSpeed: 0,
      peers: 0,
      etaSeconds: null,
      restoredState: r?.state ?? null,
    }
  },
  initial: 'boot',
  on: {
    'task.delete': { target: '.deleting' },
  },
  states: {
    boot: {
      always: [
        { guard: { type: 'restoredAs', params: { state: 'completed' } }, target: 'completed' },
        { guard: { type: 'restoredAs', params: { state: 'paused' } }, target: 'paused' },
        { guard: { type: 'restoredAs', params: { state: 'error' } }, target: 'error' },
        // A known info hash restarts from saved metadata: no tracker, URL or magnet lookup.
        { guard: 'hasInfoHash', target: 'active' },
        { target: 'queued' },
      ],
    },
    queued: {
      entry: [
        { type: 'setState', params: { state: 'queued' } },
        { type: 'persist', params: { immediate: true } },
        { type: 'reportChange', params: { state: 'queued' } },
      ],
      invoke: {
        id: 'resolveSource',
        src: 'resolveSource',
        input: ({ context }) => ({ taskId: context.id, source: context.source }),
        onDone: {
          target: 'active',
          actions: assign(({ context, event }) => ({ infoHash: event.output.infoHash, name: event.output.name || context.name })),
        },
        onError: {
          target: 'error',
          actions: { type: 'assignError', params: ({ event }) => describe(event.error) },
        },
      },
      on: { 'task.pause': { target: 'paused' } },
    },
    active: {
      entry: ['clearError', 'startRun'],
      invoke: {
        id: 'torrent',
        src: 'torrent',
        input: ({ context }) => torrentInputOf(context),
        onError: {
          target: 'error',
          actions: { type: 'assignError', params: ({ event }) => describe(event.error) },
        },
      },
      initial: 'fetching_metadata',
      on: {
        'engine.metadata': { actions: ['assignMetadata', { type: 'persist', params: { immediate: true } }] },
        'engine.progress': { actions: ['assignProgress', { type: 'persist', params: { immediate: false } }] },
        'engine.done': { actions: 'assignDone' },
        'engine.dormancy': { actions: assign(({ event }) => ({ dormant: event.dormant })) },
        'engine.error': {
          target: 'error',
          actions: { type: 'assignError', params: ({ event }) => ({ message: event.message, code: event.code }) },
        },
        'task.pause': { target: 'paused' },
        'task.recheck': { guard: 'hasMetadata', target: '.checking' },
      },
      states: {
        fetching_metadata: {
          entry: [
            { type: 'setState', params: { state: 'fetching_metadata' } },
            { type: 'persist', params: { immediate: true } },
            { type: 'reportChange', params: { state: 'fetching_metadata' } },
          ],
          always: { guard: 'hasMetadata', target: 'downloading' },
        },
        downloading: {
          entry: [
            { type: 'setState', params: { state: 'downloading' } },
            { type: 'persist', params: { immediate: true } },
            { type: 'reportChange', params: { state: 'downloading' } },
          ],
          always: [
            { guard: and(['isDone', 'seedsNotAtAll']), target: '#task.completed' },
            { guard: 'isDone', target: 'seeding' },
          ],
        },
        checking: {
          // The engine restarts the torrent (its upload count from 0) and hashes every piece;
          // until then nothing counts as done.
          entry: [
            'startRun',
            assign({ done: false }),
            { type: 'setState', params: { state: 'downloading' } },
            { type: 'persist', params: { immediate: true } },
            { type: 'reportChange', params: { state: 'downloading' } },
          ],
          invoke: {
            id: 'recheck',
            src: 'recheck',
            input: ({ context }) => ({ infoHash: context.infoHash }),
            onDone: { target: 'downloading' },
            onError: {
              target: '#task.error',
              actions: { type: 'assignError', params: ({ event }) => describe(event.error) },
            },
          },
        },
        seeding: {
          entry: [
            { type: 'setState', params: { state: 'seeding' } },
            { type: 'persist', params: { immediate: true } },
            { type: 'reportChange', params: { state: 'seeding' } },
          ],
          always: [
            // Files went missing on disk since the last run: fetch them again.
            { guard: 'isNotDone', target: 'downloading' },
            { guard: 'ratioReached', target: '#task.completed' },
          ],
        },
      },
    },
    paused: {
      entry: [
        { type: 'stopTraffic', params: { eta: null } },
        { type: 'setState', params: { state: 'paused' } },
        { type: 'persist', params: { immediate: true } },
        { type: 'reportChange', params: { state: 'paused' } },
      ],
      on: {
        'task.resume': [{ guard: 'hasInfoHash', target: 'active' }, { target: 'queued' }],
        'task.recheck': { guard: 'hasInfoHash', actions: { type: 'forgetPieces', params: ({ context }) => ({ infoHash: context.infoHash }) } },
      },
    },
    completed: {
      entry: [
        { type: 'stopTraffic', params: { eta: 0 } },
        { type: 'setState', params: { state: 'completed' } },
        { type: 'persist', params: { immediate: true } },
        { type: 'reportChange', params: { state: 'completed' } },
      ],
      on: {
        // The data is hashed again; what is missing or damaged is fetched, then it completes again.
        'task.recheck': { guard: 'hasMetadata', target: '#task.active.checking' },
      },
    },
    error: {
      entry: [
        { type: 'stopTraffic', params: { eta: null } },
        { type: 'setState', params: { state: 'error' } },
        { type: 'persist', params: { immediate: true } },
        { type: 'reportChange', params: { state: 'error' } },
      ],
      on: {
        // Retrying is the user's way out of a full disk or an unreachable URL.
        'task.resume': [{ guard: 'hasInfoHash', target: 'active' }, { target: 'queued', actions: 'clearError' }],
        'task.recheck': { guard: 'hasInfoHash', actions: { type: 'forgetPieces', params: ({ context }) => ({ infoHash: context.infoHash }) } },
      },
    },
    deleting: {
      on: { 'task.delete': {} },
      invoke: {
        id: 'removeTask',
        src: 'removeTask',
        input: ({ context, event }) => ({
          taskId: context.id,
          infoHash: context.infoHash,
          deleteFiles: event.type === 'task.delete' ? event.deleteFiles : false,
        }),
        onDone: { target: 'deleted' },
        onError: { target: 'deleted' },
      },
    },
    deleted: { type: 'final' },
  },
})

export type TaskSnapshot = SnapshotFrom<typeof taskMachine>

/**
 * A task its shard may park (task-shard.machine.ts): seeding, its torrent dormant. Nothing else
 * of such a task can change until the engine wakes the torrent or a command arrives, and both
 * start its actor again from the context kept.
 */
export function isParkable(snapshot: TaskSnapshot): boolean {
  return snapshot.status === 'active' && snapshot.context.dormant && snapshot.matches({ active: 'seeding' })
}

/**
 * The task machine (with its bound actors) able to start a task again from a parked context:
 * XState's own restore of a persisted snapshot (its `restoreSnapshot`, as for an actor created
 * with `snapshot`), in `active.seeding` with the `torrent` actor that state invokes, so that no
 * entry action runs again (each would write tasks.json and ask for a sync at every wake). The
 * result inherits everything else from `machine`.
 */
export function withParking<T extends AnyActorLogic>(machine: T): T {
  const logic = Object.create(machine) as T
  logic.getInitialSnapshot = (scope: AnyActorScope, input: TaskInput | undefined) => {
    const parked = input?.parked
    if (!parked) return machine.getInitialSnapshot(scope, input)
    const persisted = {
      status: 'active',
      value: { active: 'seeding' },
      historyValue: {},
      context: parked,
      children: { torrent: { src: 'torrent', snapshot: { status: 'active', input: { ...torrentInputOf(parked), unparked: parked.dormant ? 'dormant' : 'awake' } } } },
    }
    return machine.restoreSnapshot!(persisted as never, scope)
  }
  return logic
}

/** The protocol state of a snapshot, or null while it is being deleted. */
export function taskStateOf(snapshot: TaskSnapshot): TaskState | null {
  if (snapshot.matches('deleting') || snapshot.matches('deleted')) return null
  if (snapshot.matches('boot')) return 'queued'
  return snapshot.context.state
}

export function taskRecordOf(context: TaskContext): TaskRecord {
  const record: TaskRecord = {
    id: context.id,
    source: context.source,
    infoHash: context.infoHash,
    name: context.name,
    state: context.state,
    size: context.size,
    downloaded: context.downloaded,
    uploaded: context.uploaded,
    progress: context.progress,
    files: context.files,
    addedAt: context.addedAt,
  }
  if (context.state === 'error' && context.error !== undefined) {
    record.error = context.error
    if (context.errorCode) record.errorCode = context.errorCode
  }
  return record
}

/** SyncRequest.tasks[] item (protocol.md 1); `error` only in state error. */
export function taskReportOf(snapshot: TaskSnapshot): TaskReport | null {
  const state = taskStateOf(snapshot)
  return state === null ? null : taskReportOfContext(snapshot.context, state)
}

/** The report of a task in a known state: a parked task's (seeding) from the context its shard keeps. */
export function taskReportOfContext(c: TaskContext, state: TaskState): TaskReport {
  const report: TaskReport = {
    id: c.id,
    infoHash: c.infoHash,
    name: c.name,
    state,
    progress: c.progress,
    size: c.size,
    downloaded: c.downloaded,
    uploaded: c.uploaded,
    downloadSpeed: c.downloadSpeed,
    uploadSpeed: c.uploadSpeed,
    peers: c.peers,
    etaSeconds: c.etaSeconds,
    files: c.files,
  }
  if (state === 'error') report.error = c.error ?? 'unknown error'
  return report
}
