import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { assign, createActor, fromCallback, fromPromise, setup, waitFor, type AnyActorRef } from 'xstate'
import { tasksMachine, taskActorId } from '../../src/machines/tasks.machine.js'
import { isTaskShardActorId, taskShardActorId, taskShardWith, type TaskShardContext } from '../../src/machines/task-shard.machine.js'
import { withParking, type TaskContext, type TaskInput } from '../../src/machines/task.machine.js'

// The real `tasks` and `taskShard` machines under random sequences of what the server and the
// engine do (add_task, the same add twice, pause/resume/delete for known and unknown ids, a task
// actor that crashes, a torrent going dormant and waking), against a model: the set of tasks and
// which of them are parked. After every step the task actors alive under the shards are exactly
// the model's unparked tasks, each under its own id's shard, the shards' parked contexts exactly
// its parked ones, `tasks` lists every id, and each command reached exactly the task it named
// (a parked task started again first).

type Step =
  | { kind: 'add'; id: string }
  | { kind: 'addCrashing'; id: string }
  | { kind: 'pause'; id: string }
  | { kind: 'delete'; id: string }
  /** The task's torrent goes dormant and the bindings ask its shard to park it. */
  | { kind: 'sleep'; id: string }
  /** The engine wakes a parked task's torrent. */
  | { kind: 'wake'; id: string }

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ümlaut', 'x'.repeat(40), '1', '2')
const step: fc.Arbitrary<Step> = fc.oneof(
  ids.map((id) => ({ kind: 'add', id }) as Step),
  ids.map((id) => ({ kind: 'addCrashing', id }) as Step),
  ids.map((id) => ({ kind: 'pause', id }) as Step),
  ids.map((id) => ({ kind: 'delete', id }) as Step),
  ids.map((id) => ({ kind: 'sleep', id }) as Step),
  ids.map((id) => ({ kind: 'wake', id }) as Step),
)

function system(restored: string[]) {
  const received: string[] = []
  // A task machine shaped where parking looks (active.seeding, `dormant`, a `torrent` child).
  const task = setup({
    types: {} as { input: TaskInput; context: Pick<TaskContext, 'id' | 'source' | 'infoHash' | 'seedRatio' | 'addedAt' | 'dormant'> },
    actors: { torrent: fromCallback(() => () => {}) },
  }).createMachine({
    context: ({ input }) => ({ id: input.taskId, source: input.source, infoHash: '', seedRatio: input.seedRatio, addedAt: input.addedAt, dormant: false }),
    initial: 'active',
    on: { 'task.delete': { target: '.deleted', actions: ({ context }) => received.push(`delete ${context.id}`) } },
    states: {
      active: {
        entry: ({ context }) => { if (context.source === 'crash') throw new Error('boom') },
        invoke: { id: 'torrent', src: 'torrent' },
        initial: 'seeding',
        states: { seeding: {} },
        on: {
          'task.pause': { actions: ({ context }) => received.push(`pause ${context.id}`) },
          'engine.dormancy': { actions: assign({ dormant: true }) },
        },
      },
      deleted: { type: 'final' },
    },
  })
  const machine = tasksMachine.provide({
    actors: {
      shard: taskShardWith(withParking(task)),
      loadTasks: fromPromise(async () => restored.map((taskId): TaskInput => ({ taskId, source: 'magnet:', seedRatio: 1, addedAt: 1 }))),
    },
  })
  const actor = createActor(machine, { input: { seedRatio: 1 } }).start()
  const childrenOf = (ref: AnyActorRef) => Object.values((ref.getSnapshot().children ?? {}) as Record<string, AnyActorRef | undefined>).filter((child) => child !== undefined)
  const placement = () => childrenOf(actor).filter((child) => isTaskShardActorId(child.id)).flatMap((shard) => childrenOf(shard).map((task) => ({ shard: shard.id, task: task.id })))
  const parked = () => childrenOf(actor).filter((child) => isTaskShardActorId(child.id)).flatMap((shard) => Object.keys((shard.getSnapshot().context as TaskShardContext).parked))
  const shardOf = (id: string) => actor.system.get(taskShardActorId(id)) as AnyActorRef | undefined
  return { actor, received, placement, parked, shardOf }
}

describe('tasks in shards (model-based)', () => {
  it('keeps the live task actors, their shards and the task list equal to the model', async () => {
    await fc.assert(fc.asyncProperty(fc.uniqueArray(ids, { maxLength: 5 }), fc.array(step, { maxLength: 30 }), async (restored, steps) => {
      const { actor, received, placement, parked, shardOf } = system(restored)
      await waitFor(actor, (snapshot) => snapshot.matches('running'))
      const model = new Set(restored)
      const asleep = new Set<string>()
      const expected: string[] = []
      for (const s of steps) {
        if (s.kind === 'add' || s.kind === 'addCrashing') {
          actor.send({ type: 'tasks.add', taskId: s.id, source: s.kind === 'addCrashing' && !model.has(s.id) ? 'crash' : 'magnet:', addedAt: 2 })
          // A crashing task is isolated and dropped; a duplicate add changes nothing.
          if (s.kind === 'add') model.add(s.id)
        } else if (s.kind === 'pause') {
          actor.send({ type: 'tasks.command', taskId: s.id, what: 'pause_task', command: { type: 'task.pause' } })
          if (model.has(s.id)) expected.push(`pause ${s.id}`)
          asleep.delete(s.id)
        } else if (s.kind === 'delete') {
          actor.send({ type: 'tasks.command', taskId: s.id, what: 'delete_task', command: { type: 'task.delete', deleteFiles: false } })
          if (model.has(s.id)) expected.push(`delete ${s.id}`)
          model.delete(s.id)
          asleep.delete(s.id)
        } else if (s.kind === 'sleep') {
          // As the bindings do: the dormancy reaches the task, then its shard is asked.
          actor.system.get(taskActorId(s.id))?.send({ type: 'engine.dormancy', dormant: true })
          shardOf(s.id)?.send({ type: 'shard.park', taskId: s.id })
          if (model.has(s.id)) asleep.add(s.id)
        } else {
          shardOf(s.id)?.send({ type: 'shard.unpark', taskId: s.id })
          asleep.delete(s.id)
        }
        // Every event above is handled synchronously, the done/error hops included.
        const placed = placement()
        expect(placed.map((p) => p.task).sort()).toEqual([...model].filter((id) => !asleep.has(id)).map(taskActorId).sort())
        expect(parked().sort()).toEqual([...asleep].sort())
        for (const p of placed) expect(p.shard).toBe(taskShardActorId(p.task.slice('task:'.length)))
        expect([...actor.getSnapshot().context.taskIds].sort()).toEqual([...model].sort())
        expect(received).toEqual(expected)
        expect(actor.getSnapshot().status).toBe('active')
      }
      actor.stop()
    }), { numRuns: 200 })
  })
})
