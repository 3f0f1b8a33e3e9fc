import { createActor, fromCallback, fromPromise, type ActorRefFrom } from 'xstate'
import * as defaults from '../config/defaults.js'
import { TorrentDuplicateError, toAgentError } from '../errors.js'
import type { Logger } from '../log.js'
import {
  taskMachine,
  taskRecordOf,
  taskReportOf,
  taskStateOf,
  type RecheckInput,
  type RemoveTaskInput,
  type ResolveSourceInput,
  type ResolveSourceOutput,
  type TaskEvent,
  type TaskInput,
  type TaskRecord,
  type TorrentActorInput,
} from '../machines/task.machine.js'
import { taskShardActorId, type TaskShardEvent } from '../machines/task-shard.machine.js'
import type { IncomingControl, SyncAction, TaskReport, TaskState } from '../protocol/wire.js'
import type { TorrentEngine, TorrentEngineEvent } from '../services/torrent/engine.js'
import type { TasksStore } from '../services/torrent/tasks-store.js'
import { createProgressPoll, type PollTimers, type ProgressPoll } from './task-progress-poll.js'

// Binds the pure task machine to the torrent engine and the tasks store (design.md house rule 1),
// and offers a TaskManager facade that applies the server's task actions and controls
// (protocol.md 1) to one actor per task, `task:<taskId>`.

export interface TaskBindingsOptions {
  engine: TorrentEngine
  store: TasksStore
  logger: Logger
  progressIntervalMs?: number
  /** The progress poll's timers (tests inject a clock; task-progress-poll.ts). */
  timers?: PollTimers
  /** A task changed state in a way the server must see (sync now). */
  onChange?: (change: { taskId: string; state: TaskState }) => void
  /** A task's torrent went dormant: its webtorrent object was let go (the memory settler compacts after a wave). */
  onDormant?: () => void
}

export interface TaskBindings {
  /** The task machine with its real actors and actions; spawn it as `task:<taskId>`. */
  machine: typeof taskMachine
  /** Which task holds an info hash: one download per info hash. */
  claims: Map<string, string>
  /** Resolves when metadata saves and engine stops started by the actors have finished. */
  settle(): Promise<void>
  /** Registers the info hashes of tasks read from tasks.json before their actors start. */
  restore(records: readonly TaskRecord[]): void
  /**
   * The task's shard parks it (task-shard.machine.ts): its actor stops next, and its `torrent`
   * actor hands the dormant torrent over to a listener that asks the shard to start the task
   * again at the wake, instead of pausing the torrent.
   */
  handOver(taskId: string): void
}

/** A task's `taskShard:<xx>` as its bindings reach it: through the actor system, absent for tasks spawned without shards. */
type ShardRef = { send(event: TaskShardEvent): void; getSnapshot(): { status: string } }

/** The input of a `task:<taskId>` actor for a new add_task, or for a task read from tasks.json. */
export function taskInputFor(from: { taskId: string; source: string } | TaskRecord, seedRatio: number, now: () => number = Date.now): TaskInput {
  if ('taskId' in from) return { taskId: from.taskId, source: from.source, seedRatio, addedAt: now() }
  return { taskId: from.id, source: from.source, seedRatio, addedAt: from.addedAt, restored: from }
}

export function createTaskBindings(options: TaskBindingsOptions): TaskBindings {
  const { engine, store, logger } = options
  const log = logger
  const progressIntervalMs = options.progressIntervalMs ?? defaults.torrentProgressIntervalMs
  const claims = new Map<string, string>()
  /** Task ids whose actor the shard is stopping to park it (handOver, then the stop at once). */
  const handingOver = new Set<string>()
  const pending = new Set<Promise<unknown>>()
  const track = (promise: Promise<unknown>) => {
    const tracked = promise.finally(() => pending.delete(tracked))
    pending.add(tracked)
  }

  const claim = (infoHash: string, taskId: string) => {
    const holder = claims.get(infoHash)
    if (holder !== undefined && holder !== taskId) {
      throw new TorrentDuplicateError(`info hash ${infoHash} is already task ${holder}; this task is a duplicate and downloads nothing`, { infoHash, existingTaskId: holder })
    }
    claims.set(infoHash, taskId)
  }

  /** Parked tasks' listeners, dropped when the task's actor starts again (a command unparks it too). */
  const parkedListeners = new Map<string, () => void>()
  const stopListeningParked = (taskId: string) => {
    parkedListeners.get(taskId)?.()
    parkedListeners.delete(taskId)
  }

  /**
   * A parked task's one listener on its dormant torrent: the wake (or a peer, or an error) asks
   * the shard to start the task's actor again, whose `torrent` actor then subscribes as at any
   * start and samples the torrent at once. The facts a dormant torrent repeats (a restore's
   * metadata, ready, done) change nothing the parked context holds.
   */
  const listenWhileParked = (taskId: string, infoHash: string, system: { get(systemId: string): unknown }) => {
    // Built here, not handed over by the `torrent` actor: a closure of that actor's scope would
    // keep its whole context alive (its `sendBack`, hence both stopped actors) for as long as the
    // task is parked, which is the memory parking is for.
    const unpark = (then?: TaskEvent) => {
      const shard = system.get(taskShardActorId(taskId)) as ShardRef | undefined
      if (shard?.getSnapshot().status === 'active') shard.send({ type: 'shard.unpark', taskId, ...(then ? { then } : {}) })
    }
    const unlisten = engine.listen?.(infoHash, (event) => {
      if (event.type === 'metadata' || event.type === 'ready' || event.type === 'done' || (event.type === 'dormant' && event.dormant)) return
      stopListeningParked(taskId)
      if (event.type === 'error') {
        log.warn({ err: event.error, taskId, infoHash }, 'task failed')
        unpark({ type: 'engine.error', message: event.error.message, code: event.error.code })
      } else unpark()
    })
    // The engine no longer holds the torrent (it cannot be woken): the task starts again now.
    if (!unlisten) queueMicrotask(() => unpark())
    else parkedListeners.set(taskId, unlisten)
  }

  const machine = taskMachine.provide({
    actors: {
      resolveSource: fromPromise<ResolveSourceOutput, ResolveSourceInput>(async ({ input, signal }) => {
        const resolved = await engine.resolveSource(input.source, { signal })
        if (signal.aborted) throw new Error('task left the queue while its source was being resolved')
        claim(resolved.infoHash, input.taskId)
        if (resolved.torrentFile) await store.saveMetadata(resolved.infoHash, resolved.torrentFile)
        return { infoHash: resolved.infoHash, name: resolved.name }
      }),
      torrent: fromCallback<TaskEvent, TorrentActorInput>(({ input, sendBack, system }) => {
        const { infoHash, taskId } = input
        const shardOf = () => system.get(taskShardActorId(taskId)) as ShardRef | undefined
        // While its torrent is dormant the task may be parked by its shard (a seedbox's torrents
        // are nearly all dormant): asked at the dormancy and at each fact that follows it (a
        // restored torrent says `dormant` before its metadata), declined unless it is seeding.
        const askToPark = () => {
          if (engine.listen) shardOf()?.send({ type: 'shard.park', taskId })
        }
        let stopped = false
        let unsubscribe = () => {}
        // Polls the engine only while the torrent can change (peers, or speeds not yet at 0). A
        // dormant torrent changes nothing until it wakes: its poll (closures and last sample,
        // ~1.3 KiB a task on a seedbox of thousands) is dropped, and made again at the wake.
        let poll: ProgressPoll | undefined
        // A torrent restored straight to dormant (a restart) says `dormant` first, then metadata,
        // ready and done: those must not make the poll again (~1 KiB and a timer per task).
        let dormant = false
        const tick = () => {
          if (dormant) return
          poll ??= createProgressPoll({
            intervalMs: progressIntervalMs,
            read: () => engine.stats(infoHash),
            send: (progress) => sendBack({ type: 'engine.progress', progress }),
            timers: options.timers,
          })
          poll.wake()
        }
        const onEvent = (event: TorrentEngineEvent) => {
          if (stopped) return
          switch (event.type) {
            case 'peer':
              tick()
              break
            case 'metadata':
              // A start from the saved .torrent (a restart, a wake) has nothing new to write (each write fsyncs).
              if (!event.saved) track(store.saveMetadata(infoHash, event.torrentFile).catch((err: unknown) => log.warn({ err, taskId }, 'cannot save torrent metadata')))
              sendBack({ type: 'engine.metadata', name: event.name, size: event.size, files: event.files.map((f) => ({ path: f.path, size: f.size, progress: 0 })) })
              tick()
              break
            case 'ready':
              tick()
              break
            case 'done':
              tick()
              sendBack({ type: 'engine.done' })
              break
            case 'dormant':
              dormant = event.dormant
              sendBack({ type: 'engine.dormancy', dormant: event.dormant })
              if (event.dormant) {
                // A last sample (the engine's figures of a dormant torrent: its uploads, no peers,
                // speeds 0): the grace can end within a poll interval of a peer's last block, and
                // nothing samples a dormant torrent again.
                poll?.wake()
                poll?.stop()
                poll = undefined
                options.onDormant?.()
              }
              break
            case 'error':
              log.warn({ err: event.error, taskId, infoHash }, 'task failed')
              sendBack({ type: 'engine.error', message: event.error.message, code: event.error.code })
              break
          }
          if (dormant) askToPark()
        }
        // A task started again from its shard's parking: its torrent is held by the engine, and
        // is subscribed to before anything else can happen to it (no metadata to read, no start).
        stopListeningParked(taskId)
        const held = input.unparked ? engine.listen?.(infoHash, onEvent) : undefined
        if (held) {
          unsubscribe = held
          dormant = input.unparked === 'dormant'
          tick()
        } else void (async () => {
          try {
            claim(infoHash, taskId)
            const torrentFile = await store.readMetadata(infoHash)
            if (stopped) return
            const magnetURI = /^magnet:/i.test(input.source) ? input.source : `magnet:?xt=urn:btih:${infoHash}`
            unsubscribe = engine.start({ infoHash, torrentFile, magnetURI }, onEvent)
            tick()
          } catch (err) {
            const error = toAgentError(err)
            if (!stopped) sendBack({ type: 'engine.error', message: error.message, code: error.code })
          }
        })()
        return () => {
          stopped = true
          poll?.stop()
          unsubscribe()
          if (handingOver.delete(taskId)) {
            listenWhileParked(taskId, infoHash, system)
            return
          }
          // Leaving the active states (pause, error, completed, delete, shutdown) stops all traffic.
          track(engine.pause(infoHash).catch((err: unknown) => log.warn({ err, taskId }, 'cannot stop torrent')))
        }
      }),
      removeTask: fromPromise<void, RemoveTaskInput>(async ({ input }) => {
        const { taskId, infoHash, deleteFiles } = input
        store.remove(taskId)
        if (infoHash === '' || claims.get(infoHash) !== taskId) return
        claims.delete(infoHash)
        const torrentFile = await store.readMetadata(infoHash).catch(() => undefined)
        try {
          await engine.remove(infoHash, { deleteFiles, torrentFile })
        } finally {
          await store.deleteMetadata(infoHash)
        }
      }),
      recheck: fromPromise<void, RecheckInput>(({ input }) => engine.recheck(input.infoHash)),
    },
    actions: {
      forgetPieces: (_, { infoHash }) => track(engine.recheck(infoHash).catch((err: unknown) => log.warn({ err, infoHash }, 'cannot forget the verified-piece map'))),
      persist: ({ context }, params) => store.put(taskRecordOf(context), params),
      reportChange: ({ context }, params) => options.onChange?.({ taskId: context.id, state: params.state }),
    },
  })

  return {
    machine,
    claims,
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending])
    },
    restore(records) {
      // Tasks that do not start the engine (completed, paused, error) still own their info hash.
      for (const record of records) if (record.infoHash !== '' && !claims.has(record.infoHash)) claims.set(record.infoHash, record.id)
    },
    handOver(taskId) {
      handingOver.add(taskId)
    },
  }
}


export type TaskActor = ActorRefFrom<typeof taskMachine>

export interface TaskManager {
  /** Applies an add_task / delete_task action or a pause_task / resume_task control; returns whether it was a task item. */
  apply(item: SyncAction | IncomingControl): boolean
  /** SyncRequest.tasks (protocol.md 1). */
  reports(): TaskReport[]
  /** Tasks moving data or about to: queued, fetching_metadata, downloading, seeding. */
  activeCount(): number
  has(taskId: string): boolean
  /** Resolves once the task's actor has finished deleting (immediately for an unknown task). */
  whenDeleted(taskId: string): Promise<void>
  /** Stops every task actor and its torrent (their state in tasks.json stays as it was), then flushes tasks.json. */
  close(): Promise<void>
}

export interface TaskManagerOptions extends TaskBindingsOptions {
  seedRatio?: number
  now?: () => number
}

/** Loads tasks.json, restarts every task in it, and applies what the server sends from then on. */
export async function createTaskManager(options: TaskManagerOptions): Promise<TaskManager> {
  const log = options.logger
  const now = options.now ?? Date.now
  const seedRatio = options.seedRatio ?? defaults.seedRatio
  const bindings = createTaskBindings(options)
  const actors = new Map<string, TaskActor>()
  const deleted = new Map<string, Promise<void>>()

  let restored: TaskRecord[] = []
  try {
    restored = await options.store.load()
  } catch (err) {
    // A corrupt file has been moved aside: start empty rather than refuse to run.
    log.error({ err }, 'tasks.json could not be loaded; starting without tasks')
  }

  const spawn = (taskId: string, input: TaskInput) => {
    const actor = createActor(bindings.machine, { id: `task:${taskId}`, input })
    actors.set(taskId, actor)
    deleted.set(taskId, new Promise<void>((resolve) => {
      actor.subscribe({
        complete: () => {
          actors.delete(taskId)
          resolve()
        },
        error: (err) => {
          log.error({ err, taskId }, 'task actor failed')
          actors.delete(taskId)
          resolve()
        },
      })
    }))
    actor.start()
  }

  bindings.restore(restored)
  for (const record of restored) spawn(record.id, taskInputFor(record, seedRatio))

  const send = (taskId: string, event: TaskEvent, what: string) => {
    const actor = actors.get(taskId)
    if (!actor) {
      log.info({ taskId }, `${what} for an unknown task: acknowledged, nothing to do`)
      return
    }
    actor.send(event)
  }

  return {
    apply(input) {
      const item = input as SyncAction | Extract<IncomingControl, { kind: 'pause_task' | 'resume_task' }>
      if ('type' in item && item.type === 'add_task') {
        if (actors.has(item.taskId)) {
          log.debug({ taskId: item.taskId }, 'add_task for an existing task: nothing to do')
          return true
        }
        spawn(item.taskId, taskInputFor(item, seedRatio, now))
        return true
      }
      if ('type' in item && item.type === 'delete_task') {
        send(item.taskId, { type: 'task.delete', deleteFiles: item.deleteFiles ?? false }, 'delete_task')
        return true
      }
      if ('kind' in item && (item.kind === 'pause_task' || item.kind === 'resume_task')) {
        send(String(item.taskId ?? ''), { type: item.kind === 'pause_task' ? 'task.pause' : 'task.resume' }, item.kind)
        return true
      }
      return false
    },
    reports() {
      const list: TaskReport[] = []
      for (const actor of actors.values()) {
        const report = taskReportOf(actor.getSnapshot())
        if (report) list.push(report)
      }
      return list
    },
    activeCount() {
      let count = 0
      for (const actor of actors.values()) {
        const state = taskStateOf(actor.getSnapshot())
        if (state === 'queued' || state === 'fetching_metadata' || state === 'downloading' || state === 'seeding') count++
      }
      return count
    },
    has(taskId) {
      return actors.has(taskId)
    },
    whenDeleted(taskId) {
      if (!actors.has(taskId)) return Promise.resolve()
      return deleted.get(taskId) ?? Promise.resolve()
    },
    async close() {
      for (const actor of actors.values()) actor.stop()
      actors.clear()
      await bindings.settle()
      await options.store.flush()
    },
  }
}
