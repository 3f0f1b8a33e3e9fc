import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createActor, createMachine, fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { tasksMachine, taskActorId } from '../../src/machines/tasks.machine.js'
import { isTaskShardActorId, taskShardActorId, taskShardCount, taskShardWith } from '../../src/machines/task-shard.machine.js'
import type { TaskInput } from '../../src/machines/task.machine.js'

// A fake task actor: records what it is told, finishes on delete, throws when its source says so.
// The real shard machine sits between `tasks` and the fakes, as in the daemon.
function harness(restored: TaskInput[] = [], options: { loadFails?: boolean } = {}) {
  const received: { taskId: string; type: string }[] = []
  const logs: string[] = []
  const task = createMachine({
    types: {} as { input: TaskInput; context: TaskInput },
    context: ({ input }) => input,
    initial: 'running',
    states: {
      running: {
        entry: ({ context }) => { if (context.source === 'crash') throw new Error('engine exploded') },
        on: {
          '*': { actions: ({ context, event }) => received.push({ taskId: context.taskId, type: event.type }) },
          'task.delete': { target: 'deleted', actions: ({ context, event }) => received.push({ taskId: context.taskId, type: event.type }) },
        },
      },
      deleted: { type: 'final' },
    },
  })
  const machine = tasksMachine.provide({
    actors: {
      shard: taskShardWith(task),
      loadTasks: fromPromise(async () => {
        if (options.loadFails) throw new Error('disk on fire')
        return restored
      }),
    },
    actions: {
      logUnknownTask: (_, params) => logs.push(`unknown ${params.what} ${params.taskId}`),
      logTaskCrash: (_, params) => logs.push(`crash ${params.taskId}: ${params.error}`),
    },
  })
  const actor = createActor(machine, { input: { seedRatio: 1 } }).start()
  const childrenOf = (ref: AnyActorRef) => Object.values((ref.getSnapshot().children ?? {}) as Record<string, AnyActorRef | undefined>).filter((child) => child !== undefined)
  const shards = () => childrenOf(actor).filter((child) => isTaskShardActorId(child.id))
  /** The task actors, under whichever shard holds them. */
  const children = () => shards().flatMap((shard) => childrenOf(shard).map((child) => child.id)).sort()
  return { actor, received, logs, children, shards, childrenOf }
}

const restoredTask = (taskId: string, source = `magnet:?xt=urn:btih:${taskId}`): TaskInput => ({ taskId, source, seedRatio: 1, addedAt: 1 })

describe('the tasks actor', () => {
  it('resumes every task recorded in tasks.json, once each, before taking new ones', async () => {
    const { actor, children } = harness([restoredTask('a'), restoredTask('b'), restoredTask('a')])
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    expect(children()).toEqual([taskActorId('a'), taskActorId('b')])
    expect(actor.getSnapshot().context.taskIds).toEqual(['a', 'b'])
  })

  it('keeps running without the old tasks when tasks.json cannot be loaded', async () => {
    const { actor, children } = harness([], { loadFails: true })
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    actor.send({ type: 'tasks.add', taskId: 'new', source: 'magnet:?xt=urn:btih:new', addedAt: 2 })
    expect(children()).toEqual([taskActorId('new')])
  })

  it('treats the same add_task twice as one task', async () => {
    const { actor, children } = harness()
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    actor.send({ type: 'tasks.add', taskId: 'x', source: 'magnet:?xt=urn:btih:x', addedAt: 2 })
    actor.send({ type: 'tasks.add', taskId: 'x', source: 'magnet:?xt=urn:btih:x', addedAt: 3 })
    expect(children()).toEqual([taskActorId('x')])
  })

  it('forwards delete, pause and resume to the task, and acknowledges them for an unknown task', async () => {
    const { actor, received, logs } = harness([restoredTask('a')])
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    actor.send({ type: 'tasks.command', taskId: 'a', what: 'pause_task', command: { type: 'task.pause' } })
    actor.send({ type: 'tasks.command', taskId: 'a', what: 'resume_task', command: { type: 'task.resume' } })
    actor.send({ type: 'tasks.command', taskId: 'ghost', what: 'delete_task', command: { type: 'task.delete', deleteFiles: true } })
    expect(received).toEqual([{ taskId: 'a', type: 'task.pause' }, { taskId: 'a', type: 'task.resume' }])
    expect(logs).toEqual(['unknown delete_task ghost'])
  })

  it('isolates a task actor that crashes: the others go on and it is no longer listed', async () => {
    const { actor, children, logs } = harness([restoredTask('good'), restoredTask('bad', 'crash')])
    await waitFor(actor, (snapshot) => snapshot.matches('running') && !snapshot.context.taskIds.includes('bad'))
    expect(actor.getSnapshot().status).toBe('active')
    expect(children()).toEqual([taskActorId('good')])
    expect(logs).toEqual(['crash bad: engine exploded'])
  })

  it('drops a deleted task, so the same id can be added again', async () => {
    const { actor, children, received } = harness([restoredTask('a')])
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    actor.send({ type: 'tasks.command', taskId: 'a', what: 'delete_task', command: { type: 'task.delete', deleteFiles: false } })
    await waitFor(actor, (snapshot) => !snapshot.context.taskIds.includes('a'))
    expect(children()).toEqual([])
    actor.send({ type: 'tasks.add', taskId: 'a', source: 'magnet:?xt=urn:btih:a', addedAt: 5 })
    actor.send({ type: 'tasks.command', taskId: 'a', what: 'pause_task', command: { type: 'task.pause' } })
    expect(children()).toEqual([taskActorId('a')])
    expect(received).toEqual([{ taskId: 'a', type: 'task.delete' }, { taskId: 'a', type: 'task.pause' }])
  })

  // A seedbox's library: the tasks sit in at most taskShardCount shards, each under its own id's
  // shard, and every command still reaches its task; stopping them all is not quadratic.
  it('keeps a large library in shards and routes every command to its task', async () => {
    const ids = Array.from({ length: 4_096 }, (_, i) => `task-${i}`)
    const { actor, children, shards, childrenOf, received } = harness(ids.map((id) => restoredTask(id)))
    await waitFor(actor, (snapshot) => snapshot.matches('running'))
    expect(children()).toEqual(ids.map(taskActorId).sort())
    expect(shards().length).toBe(taskShardCount)
    for (const shard of shards()) {
      for (const task of childrenOf(shard)) expect(taskShardActorId(task.id.slice('task:'.length))).toBe(shard.id)
      // FNV-1a spreads sequential ids: no shard holds more than twice its share.
      expect(childrenOf(shard).length).toBeLessThanOrEqual((2 * ids.length) / taskShardCount)
    }
    for (const id of ids) actor.send({ type: 'tasks.command', taskId: id, what: 'pause_task', command: { type: 'task.pause' } })
    expect(received.map((event) => event.taskId).sort()).toEqual([...ids].sort())
    actor.stop()
    expect(shards().every((shard) => shard.getSnapshot().status === 'stopped')).toBe(true)
  })

  it('gives a task id the same shard every time, whatever its characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (id) => {
      const shard = taskShardActorId(id)
      expect(shard).toMatch(/^taskShard:[0-9a-f]{2}$/)
      expect(Number.parseInt(shard.slice('taskShard:'.length), 16)).toBeLessThan(taskShardCount)
      expect(taskShardActorId(id)).toBe(shard)
    }))
  })
})
