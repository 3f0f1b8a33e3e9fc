import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createActor, createMachine, fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { tasksMachine, taskActorId } from '../../src/machines/tasks.machine.js'
import { isTaskShardActorId, taskShardActorId, taskShardWith } from '../../src/machines/task-shard.machine.js'
import type { TaskInput } from '../../src/machines/task.machine.js'

// The real `tasks` and `taskShard` machines under random sequences of what the server and the
// engine do (add_task, the same add twice, pause/resume/delete for known and unknown ids, a task
// actor that crashes), against a model: the set of tasks. After every step the task actors alive
// under the shards are exactly the model's, each under its own id's shard, `tasks` lists the same
// ids, and each command reached exactly the task it named.

type Step =
  | { kind: 'add'; id: string }
  | { kind: 'addCrashing'; id: string }
  | { kind: 'pause'; id: string }
  | { kind: 'delete'; id: string }

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ümlaut', 'x'.repeat(40), '1', '2')
const step: fc.Arbitrary<Step> = fc.oneof(
  ids.map((id) => ({ kind: 'add', id }) as Step),
  ids.map((id) => ({ kind: 'addCrashing', id }) as Step),
  ids.map((id) => ({ kind: 'pause', id }) as Step),
  ids.map((id) => ({ kind: 'delete', id }) as Step),
)

function system(restored: string[]) {
  const received: string[] = []
  const task = createMachine({
    types: {} as { input: TaskInput; context: TaskInput },
    context: ({ input }) => input,
    initial: 'running',
    states: {
      running: {
        entry: ({ context }) => { if (context.source === 'crash') throw new Error('boom') },
        on: {
          'task.pause': { actions: ({ context }) => received.push(`pause ${context.taskId}`) },
          'task.delete': { target: 'deleted', actions: ({ context }) => received.push(`delete ${context.taskId}`) },
        },
      },
      deleted: { type: 'final' },
    },
  })
  const machine = tasksMachine.provide({
    actors: {
      shard: taskShardWith(task),
      loadTasks: fromPromise(async () => restored.map((taskId): TaskInput => ({ taskId, source: 'magnet:', seedRatio: 1, addedAt: 1 }))),
    },
  })
  const actor = createActor(machine, { input: { seedRatio: 1 } }).start()
  const childrenOf = (ref: AnyActorRef) => Object.values((ref.getSnapshot().children ?? {}) as Record<string, AnyActorRef | undefined>).filter((child) => child !== undefined)
  const placement = () => childrenOf(actor).filter((child) => isTaskShardActorId(child.id)).flatMap((shard) => childrenOf(shard).map((task) => ({ shard: shard.id, task: task.id })))
  return { actor, received, placement }
}

describe('tasks in shards (model-based)', () => {
  it('keeps the live task actors, their shards and the task list equal to the model', async () => {
    await fc.assert(fc.asyncProperty(fc.uniqueArray(ids, { maxLength: 5 }), fc.array(step, { maxLength: 30 }), async (restored, steps) => {
      const { actor, received, placement } = system(restored)
      await waitFor(actor, (snapshot) => snapshot.matches('running'))
      const model = new Set(restored)
      const expected: string[] = []
      for (const s of steps) {
        if (s.kind === 'add' || s.kind === 'addCrashing') {
          actor.send({ type: 'tasks.add', taskId: s.id, source: s.kind === 'addCrashing' && !model.has(s.id) ? 'crash' : 'magnet:', addedAt: 2 })
          // A crashing task is isolated and dropped; a duplicate add changes nothing.
          if (s.kind === 'add') model.add(s.id)
        } else if (s.kind === 'pause') {
          actor.send({ type: 'tasks.command', taskId: s.id, what: 'pause_task', command: { type: 'task.pause' } })
          if (model.has(s.id)) expected.push(`pause ${s.id}`)
        } else {
          actor.send({ type: 'tasks.command', taskId: s.id, what: 'delete_task', command: { type: 'task.delete', deleteFiles: false } })
          if (model.has(s.id)) expected.push(`delete ${s.id}`)
          model.delete(s.id)
        }
        // Every event above is handled synchronously, the done/error hops included.
        const placed = placement()
        expect(placed.map((p) => p.task).sort()).toEqual([...model].map(taskActorId).sort())
        for (const p of placed) expect(p.shard).toBe(taskShardActorId(p.task.slice('task:'.length)))
        expect([...actor.getSnapshot().context.taskIds].sort()).toEqual([...model].sort())
        expect(received).toEqual(expected)
        expect(actor.getSnapshot().status).toBe('active')
      }
      actor.stop()
    }), { numRuns: 200 })
  })
})
