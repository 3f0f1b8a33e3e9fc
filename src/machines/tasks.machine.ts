import { setup, enqueueActions, stopChild, fromPromise, type AnyActorLogic } from 'xstate'
import type { TaskInput } from './task.machine.js'
import { isTaskShardActorId, taskShardActorId, type TaskGone } from './task-shard.machine.js'

// The `tasks` child of the root: one `task:<taskId>` actor per download task (docs/torrents.md),
// kept in `taskShard:<xx>` children (task-shard.machine.ts: XState's cost per spawn and stop grows
// with a parent's children, so 1,000 tasks under one parent took a second to stop). It loads the
// tasks recorded in tasks.json on every (re)start, so a restart by the root's supervisor resumes
// exactly what is on disk, then applies the server's add_task / delete_task actions and
// pause_task / resume_task controls. It alone decides which tasks exist; the shards only spawn,
// forward and stop. Grouping tasks under one child keeps the root's job to supervision and lets
// the debug tree show every task in one place.

export { taskActorId } from './task-shard.machine.js'

export interface TasksInput {
  seedRatio: number
}

export interface TasksContext {
  seedRatio: number
  /** Task ids whose actor is running (the grandchild `task:<id>`, under its shard). */
  taskIds: string[]
  /** The `taskShard:<xx>` children started so far (on first use). */
  shards: string[]
}

export type TasksEvent =
  | { type: 'tasks.add'; taskId: string; source: string; addedAt: number }
  /** delete_task, pause_task or resume_task for one task; `what` names it for the log. */
  | { type: 'tasks.command'; taskId: string; what: string; command: TaskCommand }
  | TaskGone
  | { type: `xstate.error.actor.${string}`; error: unknown }

export type TaskCommand = { type: 'task.delete'; deleteFiles: boolean } | { type: 'task.pause' } | { type: 'task.resume' } | { type: 'task.recheck' }

type ShardEvent = { type: 'shard.spawn'; tasks: TaskInput[] } | { type: 'shard.forward'; taskId: string; command: TaskCommand }
interface ShardEnqueue {
  spawnChild(src: 'shard', options: { id: string; systemId: string }): void
  sendTo(id: string, event: ShardEvent): void
}
/** Sends to a task's shard, starting the shard the first time (`started` is updated). */
function toShard(enqueue: ShardEnqueue, started: Set<string>, taskId: string, event: ShardEvent): void {
  const id = taskShardActorId(taskId)
  if (!started.has(id)) {
    enqueue.spawnChild('shard', { id, systemId: id })
    started.add(id)
  }
  enqueue.sendTo(id, event)
}

export const tasksMachine = setup({
  types: {
    context: {} as TasksContext,
    input: {} as TasksInput,
    events: {} as TasksEvent,
  },
  actors: {
    /** taskShardWith(the task logic): src/system/tasks-part.ts binds the task machine. */
    shard: fromPromise<never, void>(async () => {
      throw new Error('actor "shard" is not bound: provide taskShardWith(task) in src/system/tasks-part.ts')
    }) as AnyActorLogic,
    /** The tasks tasks.json holds now, as task inputs. */
    loadTasks: fromPromise<TaskInput[], { seedRatio: number }>(async () => {
      throw new Error('actor "loadTasks" is not bound: provide it in src/system/implementations.ts')
    }),
  },
  actions: {
    logUnknownTask: (_, _params: { taskId: string; what: string }) => {},
    logTaskCrash: (_, _params: { taskId: string; error: string }) => {},
  },
}).createMachine({
  id: 'tasks',
  context: ({ input }) => ({ seedRatio: input.seedRatio, taskIds: [], shards: [] }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadTasks',
        src: 'loadTasks',
        input: ({ context }) => ({ seedRatio: context.seedRatio }),
        onDone: {
          target: 'running',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const ids = new Set<string>()
            const byShard = new Map<string, TaskInput[]>()
            for (const input of event.output) {
              if (ids.has(input.taskId)) continue
              ids.add(input.taskId)
              const shard = taskShardActorId(input.taskId)
              if (!byShard.has(shard)) byShard.set(shard, [])
              byShard.get(shard)!.push(input)
            }
            const started = new Set(context.shards)
            for (const tasks of byShard.values()) toShard(enqueue as never, started, tasks[0]!.taskId, { type: 'shard.spawn', tasks })
            enqueue.assign({ taskIds: [...ids], shards: [...started] })
          }),
        },
        // tasks.json could not be read at all (a corrupt file has already been moved aside):
        // run without the old tasks rather than refuse new ones.
        onError: { target: 'running' },
      },
      // Actions that arrive while loading wait for the tasks on disk: the server resends them.
    },
    running: {
      on: {
        'tasks.add': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            // The same add_task twice is one task (idempotent, protocol.md 1).
            if (context.taskIds.includes(event.taskId)) return
            const input: TaskInput = { taskId: event.taskId, source: event.source, seedRatio: context.seedRatio, addedAt: event.addedAt }
            const started = new Set(context.shards)
            toShard(enqueue as never, started, event.taskId, { type: 'shard.spawn', tasks: [input] })
            enqueue.assign({ taskIds: [...context.taskIds, event.taskId], shards: [...started] })
          }),
        },
        'tasks.command': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            // An unknown task is acknowledged and nothing happens (protocol.md 1).
            if (!context.taskIds.includes(event.taskId)) {
              enqueue({ type: 'logUnknownTask', params: { taskId: event.taskId, what: event.what } })
              return
            }
            toShard(enqueue as never, new Set(context.shards), event.taskId, { type: 'shard.forward', taskId: event.taskId, command: event.command })
          }),
        },
        // A shard's task actor ended: deleted (its final state), or crashed (a bug, isolated by the
        // shard; its record in tasks.json stays, so the next start resumes it).
        'tasks.taskGone': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (event.error !== undefined) enqueue({ type: 'logTaskCrash', params: { taskId: event.taskId, error: event.error } })
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskId !== event.taskId) })
          }),
        },
        // A shard that throws is a bug too: its tasks are gone until the next start, the others go on.
        'xstate.error.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice('xstate.error.actor.'.length)
            if (!isTaskShardActorId(id)) return
            const error = (event as { error?: unknown }).error
            const message = error instanceof Error ? error.message : String(error)
            const lost = context.taskIds.filter((taskId) => taskShardActorId(taskId) === id)
            for (const taskId of lost) enqueue({ type: 'logTaskCrash', params: { taskId, error: `${id} failed: ${message}` } })
            enqueue(stopChild(id))
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskShardActorId(taskId) !== id), shards: context.shards.filter((shard) => shard !== id) })
          }),
        },
      },
    },
  },
})
