// A slice of the download tasks (issue 20; docs/torrents.md "Wiring"): the `tasks` actor keeps its
// `task:<taskId>` actors in up to 256 `taskShard:<xx>` children, by a hash of the task id. Why:
// XState copies a parent's `children` object on every spawn and stop, so one parent of N tasks
// spends quadratic time starting and stopping them (measured with 1,000 tasks: 1.1 s of the
// daemon's stop in `resolveStop`, for 4,000 spawning 2.1 s and stopping 3.0 s, against a 5 s
// shutdown deadline); a shard holds N / 256 (10,000 tasks: restored in 0.3 s and stopped in
// 0.4 s, against 16.8 s and 20.2 s under one parent). Same reason and shape as cache-shard.machine.ts.
// The shard decides nothing: which tasks exist, duplicates and unknown ids stay with `tasks`.
import { enqueueActions, setup, stopChild, fromPromise, type AnyActorLogic, type AnyActorRef } from 'xstate'
import type { TaskInput } from './task.machine.js'
import type { TaskCommand } from './tasks.machine.js'

export type TaskShardEvent =
  /** Start these tasks (restored from tasks.json, or one new add_task). */
  | { type: 'shard.spawn'; tasks: TaskInput[] }
  /** A command for one of this shard's tasks. */
  | { type: 'shard.forward'; taskId: string; command: TaskCommand }
  | { type: `xstate.done.actor.${string}` }
  | { type: `xstate.error.actor.${string}`; error: unknown }

/** What a shard tells `tasks` when a task actor ended (deleted, or crashed: `error`). */
export interface TaskGone { type: 'tasks.taskGone'; taskId: string; error?: string }

const taskPrefix = 'task:'
export const taskActorId = (taskId: string) => `${taskPrefix}${taskId}`

/** Shards at most, as the cache's: 10,000 tasks are ~40 a shard; a small library starts only the shards it uses. */
export const taskShardCount = 256
const shardPrefix = 'taskShard:'
/** `taskShard:<xx>`: the task id's FNV-1a hash modulo taskShardCount, in two hex digits. Pure and stable across restarts. */
export function taskShardActorId(taskId: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < taskId.length; i++) {
    hash ^= taskId.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${shardPrefix}${(hash % taskShardCount).toString(16).padStart(2, '0')}`
}
export const isTaskShardActorId = (id: string) => id.startsWith(shardPrefix)

type Children = Record<string, AnyActorRef | undefined>
const childOf = (self: AnyActorRef, id: string) => (self.getSnapshot() as { children: Children }).children[id]

export const taskShardMachine = setup({
  types: { events: {} as TaskShardEvent },
  actors: {
    task: fromPromise<never, TaskInput>(async () => {
      throw new Error('actor "task" is not bound: provide it in src/system/tasks-part.ts')
    }) as AnyActorLogic,
  },
}).createMachine({
  id: 'taskShard',
  description: 'A slice of the download tasks (by a hash of the task id): spawns, forwards to and stops task:<taskId> actors',
  initial: 'running',
  states: {
    running: {
      on: {
        'shard.spawn': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            for (const input of event.tasks) {
              const id = taskActorId(input.taskId)
              if (!childOf(self, id)) enqueue.spawnChild('task', { id, systemId: id, input })
            }
          }),
        },
        'shard.forward': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = taskActorId(event.taskId)
            if (childOf(self, id)) enqueue.sendTo(id, event.command)
          }),
        },
        // A deleted task's actor reaches its final state: drop it, and tell `tasks`.
        'xstate.done.actor.*': {
          actions: enqueueActions(({ event, enqueue }) => {
            const id = event.type.slice('xstate.done.actor.'.length)
            if (!id.startsWith(taskPrefix)) return
            enqueue(stopChild(id))
            enqueue.sendParent({ type: 'tasks.taskGone', taskId: id.slice(taskPrefix.length) } satisfies TaskGone)
          }),
        },
        // A task actor that throws is a bug; it must not take the other tasks down. Its record in
        // tasks.json stays, so the next start resumes it.
        'xstate.error.actor.*': {
          actions: enqueueActions(({ event, enqueue }) => {
            const id = event.type.slice('xstate.error.actor.'.length)
            if (!id.startsWith(taskPrefix)) return
            const error = (event as { error?: unknown }).error
            enqueue(stopChild(id))
            enqueue.sendParent({ type: 'tasks.taskGone', taskId: id.slice(taskPrefix.length), error: error instanceof Error ? error.message : String(error) } satisfies TaskGone)
          }),
        },
      },
    },
  },
})

/** The shard logic with the daemon's task machine bound (src/system/tasks-part.ts, tests). */
export const taskShardWith = (task: AnyActorLogic) => taskShardMachine.provide({ actors: { task } })
