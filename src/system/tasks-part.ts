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
import { taskReportOf } from '../machines/task.machine.js'
import type { InProgressFileSourceOptions } from '../services/media/in-progress-file-source.js'
import type { Closer } from './create-system.js'

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
    // Verified-piece maps beside torrents/<infohash>.torrent: a restart seeds without re-hashing.
    stateDir: options.config.daemon.stateDir,
    ...options.engine,
  }))
  const store = new FileTasksStore({ stateDir: options.config.daemon.stateDir, logger: options.logger.child({ component: 'tasks-store' }) })
  const bindings = createTaskBindings({ engine, store, logger: log, onChange: ({ taskId, state }) => options.changed(`task ${taskId} ${state}`) })

  const logic = tasksMachine.provide({
    actors: {
      task: bindings.machine,
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
  const taskActors = (): AnyActorRef[] => {
    const children = (tasksActor()?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> } | undefined)?.children ?? {}
    return Object.values(children).filter((child): child is AnyActorRef => child !== undefined && child.id.startsWith('task:'))
  }
  const reports = (): TaskReport[] => taskActors().map((actor) => taskReportOf(actor.getSnapshot() as never)).filter((report): report is TaskReport => report !== null)
  const command = (taskId: string, what: string, taskCommand: TaskCommand) => tasksActor()?.send({ type: 'tasks.command', taskId, what, command: taskCommand })

  const closers: Closer[] = [
    // Task actors are stopped by then (the root stops its children first); their last state is
    // in tasks.json once pending writes settle.
    { name: 'tasks.json', close: async () => { await bindings.settle(); await store.flush() } },
    { name: 'torrent engine', close: () => engine.close() },
  ]

  return {
    logic,
    input: { seedRatio: options.config.downloads.seedRatio },
    closers,
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
