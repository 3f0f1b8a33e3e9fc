import { fromPromise, type AnyActorRef } from 'xstate'
import { basename } from 'node:path'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { Control, SyncAction, TaskReport, TaskState } from '../protocol/wire.js'
import type { TorrentEngineOptions } from '../services/torrent/engine.js'
import { lazyEngine } from '../services/torrent/lazy-engine.js'
import { FileTasksStore } from '../services/torrent/tasks-store.js'
import { createTaskBindings, taskInputFor } from './task-bindings.js'
import { tasksMachine, type TaskCommand } from '../machines/tasks.machine.js'
import { isTaskShardActorId, taskShardWith, type TaskShardContext } from '../machines/task-shard.machine.js'
import { taskReportOf, taskReportOfContext, withParking, type TaskContext, type TaskSnapshot } from '../machines/task.machine.js'
import type { InProgressFileSourceOptions } from '../services/media/in-progress-file-source.js'
import type { Closer } from './create-system.js'
import type { AdminRoute } from '../server/admin-server.js'
import { MemorySettler } from '../services/runtime/memory-settle.js'

// Download tasks as a part of the agent (issue 4, docs/torrents.md): the webtorrent engine, the
// crash-safe tasks.json store, and the `tasks` child of the root with one `task:<id>` actor per
// task. Everything the rest of the agent needs from tasks goes through the functions returned.

export interface TasksPartOptions {
  config: Pick<AgentConfig, 'daemon' | 'downloads'>
  logger: Logger
  /** A task changed in a way the server must see: sync now. */
  changed(reason: string): void
  /** Engine options not in the config (tests turn off DHT/LSD and point at a loopback tracker). */
  engine?: Partial<Omit<TorrentEngineOptions, 'downloadDir' | 'logger'>>
}

const activeStates = new Set<TaskState>(['queued', 'fetching_metadata', 'downloading', 'seeding'])

export function createTasksPart(options: TasksPartOptions) {
  const log = options.logger.child({ component: 'tasks' })
  const peers = options.config.downloads.torrent
  // Torrents go dormant in waves (a batch's grace running out, a restart restoring all): once a
  // wave is over, one compacting GC gives the heap pages their webtorrent objects held back, and
  // glibc the memory they freed outside the heap; once the wave's first announces are all over,
  // another (their garbage); after later announces, a trim alone (runtime/memory-settle.ts).
  const memory = new MemorySettler({ onSettled: (result) => log.debug(result, 'memory settled after torrents went dormant') })
  // The engine's module is imported with the first task (lazy-engine.ts): an idle agent never loads webtorrent.
  const engine = lazyEngine(async () => new (await import('../services/torrent/engine.js')).WebTorrentEngine({
    downloadDir: options.config.downloads.dir,
    logger: options.logger.child({ component: 'torrent' }),
    dht: peers.dht,
    lsd: peers.lsd,
    pex: peers.pex,
    utp: peers.utp,
    natUpnp: peers.natTraversal,
    natPmp: peers.natTraversal,
    torrentPort: peers.port,
    idleGraceMs: peers.idleGraceMs,
    onAnnouncesIdle: ({ firstAnnouncesDone }) => (firstAnnouncesDone ? memory.wavesAnnounced() : memory.nativeReleased()),
    // Verified-piece maps beside torrents/<infohash>.torrent: a restart seeds without re-hashing.
    stateDir: options.config.daemon.stateDir,
    ...options.engine,
  }))
  const store = new FileTasksStore({ stateDir: options.config.daemon.stateDir, logger: options.logger.child({ component: 'tasks-store' }) })
  const bindings = createTaskBindings({
    engine, store, logger: log,
    onChange: ({ taskId, state }) => options.changed(`task ${taskId} ${state}`),
    onDormant: () => memory.released(),
  })

  const logic = tasksMachine.provide({
    actors: {
      // A dormant seeding task is kept by its shard as its context, its actors made again at the wake.
      shard: taskShardWith(withParking(bindings.machine), (taskId) => bindings.handOver(taskId)),
      loadTasks: fromPromise(async ({ input }: { input: { seedRatio: number } }) => {
        let records: Awaited<ReturnType<typeof store.load>> = []
        try {
          records = await store.load()
        } catch (err) {
          // A corrupt file has been moved aside by the store: start empty rather than refuse to run.
          log.error({ err }, 'tasks.json could not be loaded; starting without the tasks in it')
        }
        bindings.restore(records)
        return records.map((record) => taskInputFor(record, input.seedRatio))
      }),
    },
    actions: {
      logUnknownTask: (_, params) => log.info(params, `${params.what} for an unknown task: acknowledged, nothing to do`),
      logTaskCrash: (_, params) => log.error(params, 'task actor failed; it resumes from tasks.json at the next start'),
    },
  })

  let tasksActor: () => AnyActorRef | undefined = () => undefined
  const childrenOf = (actor: AnyActorRef | undefined): AnyActorRef[] =>
    Object.values((actor?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> } | undefined)?.children ?? {}).filter((child): child is AnyActorRef => child !== undefined)
  const shards = (): AnyActorRef[] => childrenOf(tasksActor()).filter((shard) => isTaskShardActorId(shard.id))
  // Every `task:<id>`, through the `taskShard:<xx>` children (task-shard.machine.ts).
  const taskActors = (): AnyActorRef[] => shards().flatMap((shard) => childrenOf(shard).filter((child) => child.id.startsWith('task:')))
  // The tasks parked by their shards: seeding, their torrents dormant, kept as contexts.
  const parkedTasks = (): TaskContext[] => shards().flatMap((shard) => Object.values((shard.getSnapshot() as { context?: TaskShardContext }).context?.parked ?? {}))
  const reports = (): TaskReport[] => [
    ...taskActors().map((actor) => taskReportOf(actor.getSnapshot() as never)).filter((report): report is TaskReport => report !== null),
    ...parkedTasks().map((context) => taskReportOfContext(context, 'seeding')),
  ]
  const command = (taskId: string, what: string, taskCommand: TaskCommand) => tasksActor()?.send({ type: 'tasks.command', taskId, what, command: taskCommand })

  /** `media-agent torrent recheck <taskId|infohash>` (docs/torrents.md, Recheck). */
  const recheck = (id: string): RecheckReply => {
    const all = reports()
    const report = all.find((r) => r.id === id) ?? all.find((r) => r.infoHash !== '' && r.infoHash === id.toLowerCase())
    if (!report) return { outcome: 'not_found', message: `no task with the id or info hash "${id}"` }
    // A parked task is seeding (with its metadata): its shard starts it again and it checks at once.
    if (parkedTasks().some((context) => context.id === report.id && context.hasMetadata)) {
      command(report.id, 'recheck', { type: 'task.recheck' })
      return { outcome: 'checking', taskId: report.id, infoHash: report.infoHash, state: report.state }
    }
    // The task's own machine decides: whether it has metadata, and whether a recheck is taken now.
    const snapshot = taskActors().find((actor) => actor.id === `task:${report.id}`)?.getSnapshot() as TaskSnapshot | undefined
    if (!snapshot?.context.hasMetadata || !snapshot.can({ type: 'task.recheck' })) {
      return { outcome: 'no_metadata', taskId: report.id, state: report.state, message: 'the task has no metadata yet: there is nothing to check' }
    }
    command(report.id, 'recheck', { type: 'task.recheck' })
    const later = snapshot.matches('paused') || snapshot.matches('error')
    return { outcome: later ? 'next_start' : 'checking', taskId: report.id, infoHash: report.infoHash, state: report.state }
  }
  /** `media-agent torrent status`: which torrents the engine holds live and which dormant (docs/torrents.md). */
  const status = (): TorrentsStatus => {
    const tasks = taskActors().map((actor) => {
      const snapshot = actor.getSnapshot() as TaskSnapshot
      const report = taskReportOf(snapshot)
      return report ? { id: report.id, infoHash: report.infoHash, state: report.state, dormant: snapshot.context.dormant } : null
    }).filter((task): task is TorrentsStatus['tasks'][number] => task !== null)
    for (const context of parkedTasks()) tasks.push({ id: context.id, infoHash: context.infoHash, state: 'seeding', dormant: true })
    return { engine: engine.started ? 'started' : 'not_started', ...(engine.dormancy?.() ?? { live: 0, dormant: 0, announces: 0 }), memorySettling: memory.pending > 0, tasks }
  }
  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/torrents/status', handle: () => ({ status: 200, json: status() }) },
    {
      method: 'POST',
      path: '/api/torrents/recheck',
      handle: ({ body }) => {
        const id = typeof body === 'object' && body !== null ? (body as { task?: unknown }).task : undefined
        if (typeof id !== 'string' || id === '') return { status: 400, json: { error: 'bad_request', message: 'body must be {"task": "<taskId or info hash>"}' } }
        return { status: 200, json: recheck(id) }
      },
    },
  ]

  const closers: Closer[] = [
    // Task actors are stopped by then (the root stops its children first); their last state is
    // in tasks.json once pending writes settle.
    { name: 'tasks.json', close: async () => { await bindings.settle(); await store.flush() } },
    { name: 'torrent engine', close: () => engine.close() },
    { name: 'memory settler', close: async () => memory.close() },
  ]

  return {
    logic,
    input: { seedRatio: options.config.downloads.seedRatio },
    closers,
    adminRoutes,
    engine,
    /** Called once the root exists: how to reach the `tasks` actor. */
    attach(get: () => AnyActorRef | undefined) {
      tasksActor = get
    },
    reports,
    activeCount: () => reports().filter((report) => activeStates.has(report.state)).length,
    /** Applies a task action or control; false when the item is not about tasks. */
    apply(item: SyncAction | Control): boolean {
      if ('type' in item) {
        if (item.type === 'add_task') tasksActor()?.send({ type: 'tasks.add', taskId: item.taskId, source: item.source, addedAt: Date.now() })
        else command(item.taskId, 'delete_task', { type: 'task.delete', deleteFiles: item.deleteFiles ?? false })
        return true
      }
      if (item.kind === 'pause_task') command(item.taskId, 'pause_task', { type: 'task.pause' })
      else if (item.kind === 'resume_task') command(item.taskId, 'resume_task', { type: 'task.resume' })
      else return false
      return true
    },
    /**
     * A file of a task still downloading, for direct play and HLS: reads wait for their pieces
     * and move them to the front of the queue. Undefined when no task holds the path or the file
     * is complete (it is then served from disk like any local file).
     */
    inProgressFile(filePath: string): InProgressFileSourceOptions | undefined {
      for (const report of reports()) {
        if (!report.infoHash) continue
        const stats = engine.stats(report.infoHash)
        const fileIndex = stats?.files.findIndex((file) => file.path === filePath) ?? -1
        const file = fileIndex >= 0 ? stats?.files[fileIndex] : undefined
        if (!file || file.progress >= 1) continue
        const infoHash = report.infoHash
        return {
          provider: engine,
          infoHash,
          fileIndex,
          size: file.size,
          name: basename(file.path),
          isAvailable: () => engine.stats(infoHash) !== undefined,
        }
      }
      return undefined
    },
  }
}

export type TasksPart = ReturnType<typeof createTasksPart>

/** The answer of `POST /api/torrents/recheck`: `checking` now, at the `next_start` (paused, error), or why not. */
export interface RecheckReply {
  outcome: 'checking' | 'next_start' | 'not_found' | 'no_metadata'
  taskId?: string
  infoHash?: string
  state?: TaskState
  message?: string
}

/** The answer of `GET /api/torrents/status`: the engine's live and dormant torrents, and each task's. */
export interface TorrentsStatus {
  engine: 'started' | 'not_started'
  live: number
  dormant: number
  /** Announces the dormant-torrent scheduler has sent. */
  announces: number
  /** Torrents went dormant (or their first announces ended) and the memory settler's GC or trim for them is still to come. */
  memorySettling: boolean
  tasks: { id: string; infoHash: string; state: TaskState; dormant: boolean }[]
}
