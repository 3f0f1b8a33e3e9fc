// A slice of the download tasks (issue 20; docs/torrents.md "Wiring"): the `tasks` actor keeps its
// `task:<taskId>` actors in up to 256 `taskShard:<xx>` children, by a hash of the task id. Why:
// XState copies a parent's `children` object on every spawn and stop, so one parent of N tasks
// spends quadratic time starting and stopping them (measured with 1,000 tasks: 1.1 s of the
// daemon's stop in `resolveStop`, for 4,000 spawning 2.1 s and stopping 3.0 s, against a 5 s
// shutdown deadline); a shard holds N / 256 (10,000 tasks: restored in 0.3 s and stopped in
// 0.4 s, against 16.8 s and 20.2 s under one parent). Same reason and shape as cache-shard.machine.ts.
// The shard decides nothing: which tasks exist, duplicates and unknown ids stay with `tasks`.
//
// Parking (issue 20; docs/torrents.md "Dormant torrents", Parked tasks): a seeding task whose
// torrent went dormant changes nothing until the engine wakes the torrent or a command arrives,
// yet as actors it held ~3 KiB of heap a task (two XState actors, their mailboxes, listener maps,
// snapshots and closures) on a seedbox of thousands. The shard keeps such a task as its context
// alone and stops its actors; the wake or the first command for it starts the actor again from
// that context in the same state (task.machine.ts `withParking`, XState's snapshot restore: no
// entry action runs again). Who may park is the task machine's `isParkable`; the bindings ask
// (`shard.park`) when the torrent goes dormant and say when it wakes (`shard.unpark`).
import { enqueueActions, setup, stopChild, fromPromise, type AnyActorLogic, type AnyActorRef } from 'xstate'
import { isParkable, type TaskContext, type TaskEvent, type TaskInput, type TaskSnapshot } from './task.machine.js'
import type { TaskCommand } from './tasks.machine.js'

export type TaskShardEvent =
  /** Start these tasks (restored from tasks.json, or one new add_task). */
  | { type: 'shard.spawn'; tasks: TaskInput[] }
  /** A command for one of this shard's tasks (a parked one is started again first). */
  | { type: 'shard.forward'; taskId: string; command: TaskCommand }
  /** The task's torrent went dormant: keep the task as its context if it may be parked. */
  | { type: 'shard.park'; taskId: string }
  /** The engine woke a parked task's torrent (or failed it: `then` is the task's engine event). */
  | { type: 'shard.unpark'; taskId: string; then?: TaskEvent }
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

export interface TaskShardContext {
  /** Parked tasks by task id: the context each task's actor had when its torrent went dormant. */
  parked: Record<string, TaskContext>
}

/** The input that starts a parked task's actor again, awake when its torrent woke. */
const unparkInput = (context: TaskContext, awake: boolean): TaskInput => ({
  taskId: context.id,
  source: context.source,
  seedRatio: context.seedRatio,
  addedAt: context.addedAt,
  parked: awake ? { ...context, dormant: false } : context,
})

/** Starts a parked task's actor again from its context and forgets the context. */
function unpark(
  enqueue: { spawnChild(src: 'task', options: { id: string; systemId: string; input: TaskInput }): void; assign(update: Partial<TaskShardContext>): void },
  context: TaskShardContext,
  taskId: string,
  awake: boolean,
): void {
  const id = taskActorId(taskId)
  const { [taskId]: parked, ...rest } = context.parked
  enqueue.spawnChild('task', { id, systemId: id, input: unparkInput(parked!, awake) })
  enqueue.assign({ parked: rest })
}

export const taskShardMachine = setup({
  types: { context: {} as TaskShardContext, events: {} as TaskShardEvent },
  actors: {
    task: fromPromise<never, TaskInput>(async () => {
      throw new Error('actor "task" is not bound: provide it in src/system/tasks-part.ts')
    }) as AnyActorLogic,
  },
  actions: {
    /** Bound to the task bindings: the task's actor is about to stop for parking, so its torrent stays dormant and is listened to (not paused). */
    handOverTask: (_, _params: { taskId: string }) => {},
  },
}).createMachine({
  id: 'taskShard',
  description: 'A slice of the download tasks (by a hash of the task id): spawns, forwards to, parks and stops task:<taskId> actors',
  context: { parked: {} },
  initial: 'running',
  states: {
    running: {
      on: {
        'shard.spawn': {
          actions: enqueueActions(({ context, self, event, enqueue }) => {
            for (const input of event.tasks) {
              const id = taskActorId(input.taskId)
              if (!childOf(self, id) && !(input.taskId in context.parked)) enqueue.spawnChild('task', { id, systemId: id, input })
            }
          }),
        },
        'shard.forward': {
          actions: enqueueActions(({ context, self, event, enqueue }) => {
            const id = taskActorId(event.taskId)
            if (event.taskId in context.parked) unpark(enqueue, context, event.taskId, false)
            else if (!childOf(self, id)) return
            enqueue.sendTo(id, event.command)
          }),
        },
        'shard.park': {
          actions: enqueueActions(({ context, self, event, enqueue }) => {
            const id = taskActorId(event.taskId)
            const snapshot = childOf(self, id)?.getSnapshot() as TaskSnapshot | undefined
            if (!snapshot || !isParkable(snapshot)) return
            enqueue({ type: 'handOverTask', params: { taskId: event.taskId } })
            enqueue(stopChild(id))
            enqueue.assign({ parked: { ...context.parked, [event.taskId]: snapshot.context } })
          }),
        },
        'shard.unpark': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (!(event.taskId in context.parked)) return
            unpark(enqueue, context, event.taskId, event.then === undefined)
            if (event.then) enqueue.sendTo(taskActorId(event.taskId), event.then)
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

/**
 * The shard logic with the daemon's task machine bound (src/system/tasks-part.ts, tests), and
 * what to tell the bindings before a task's actor stops for parking (nothing: no parking asked).
 */
export const taskShardWith = (task: AnyActorLogic, handOverTask: (taskId: string) => void = () => {}) =>
  taskShardMachine.provide({ actors: { task }, actions: { handOverTask: (_, { taskId }) => handOverTask(taskId) } })
