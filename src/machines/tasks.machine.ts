import { setup, enqueueActions, stopChild, fromPromise, type AnyActorLogic } from 'xstate'
import type { TaskInput } from './task.machine.js'

// The `tasks` child of the root: one `task:<taskId>` actor per download task (docs/torrents.md).
// It loads the tasks recorded in tasks.json on every (re)start, so a restart by the root's
// supervisor resumes exactly what is on disk, then applies the server's add_task / delete_task
// actions and pause_task / resume_task controls. Grouping tasks under one child keeps the
// root's job to supervision and lets the debug tree show every task in one place.

export interface TasksInput {
  seedRatio: number
}

export interface TasksContext {
  seedRatio: number
  /** Task ids whose actor is running (the child `task:<id>`). */
  taskIds: string[]
}

export type TasksEvent =
  | { type: 'tasks.add'; taskId: string; source: string; addedAt: number }
  /** delete_task, pause_task or resume_task for one task; `what` names it for the log. */
  | { type: 'tasks.command'; taskId: string; what: string; command: TaskCommand }
  | { type: `xstate.done.actor.${string}` }
  | { type: `xstate.error.actor.${string}`; error: unknown }

export type TaskCommand = { type: 'task.delete'; deleteFiles: boolean } | { type: 'task.pause' } | { type: 'task.resume' } | { type: 'task.recheck' }

const taskPrefix = 'task:'
export const taskActorId = (taskId: string) => `${taskPrefix}${taskId}`

export const tasksMachine = setup({
  types: {
    context: {} as TasksContext,
    input: {} as TasksInput,
    events: {} as TasksEvent,
  },
  actors: {
    task: fromPromise<never, TaskInput>(async () => {
      throw new Error('actor "task" is not bound: provide it in src/system/implementations.ts')
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
  context: ({ input }) => ({ seedRatio: input.seedRatio, taskIds: [] }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadTasks',
        src: 'loadTasks',
        input: ({ context }) => ({ seedRatio: context.seedRatio }),
        onDone: {
          target: 'running',
          actions: enqueueActions(({ event, enqueue }) => {
            const ids: string[] = []
            for (const input of event.output) {
              if (ids.includes(input.taskId)) continue
              enqueue.spawnChild('task', { id: taskActorId(input.taskId), systemId: taskActorId(input.taskId), input })
              ids.push(input.taskId)
            }
            enqueue.assign({ taskIds: ids })
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
            enqueue.spawnChild('task', { id: taskActorId(event.taskId), systemId: taskActorId(event.taskId), input })
            enqueue.assign({ taskIds: [...context.taskIds, event.taskId] })
          }),
        },
        'tasks.command': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            // An unknown task is acknowledged and nothing happens (protocol.md 1).
            if (!context.taskIds.includes(event.taskId)) {
              enqueue({ type: 'logUnknownTask', params: { taskId: event.taskId, what: event.what } })
              return
            }
            enqueue.sendTo(taskActorId(event.taskId), event.command)
          }),
        },
        // A deleted task's actor reaches its final state: drop it.
        'xstate.done.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice('xstate.done.actor.'.length)
            if (!id.startsWith(taskPrefix)) return
            enqueue(stopChild(id))
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskActorId(taskId) !== id) })
          }),
        },
        // A task actor that throws is a bug; it must not take the other tasks down. Its record in
        // tasks.json stays, so the next start resumes it.
        'xstate.error.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice('xstate.error.actor.'.length)
            if (!id.startsWith(taskPrefix)) return
            const error = (event as { error?: unknown }).error
            enqueue({ type: 'logTaskCrash', params: { taskId: id.slice(taskPrefix.length), error: error instanceof Error ? error.message : String(error) } })
            enqueue(stopChild(id))
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskActorId(taskId) !== id) })
          }),
        },
      },
    },
  },
})
