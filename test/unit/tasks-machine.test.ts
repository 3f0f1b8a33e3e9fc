import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { tasksMachine, taskActorId } from '../../src/machines/tasks.machine.js'
import type { TaskInput } from '../../src/machines/task.machine.js'

// A fake task actor: records what it is told, finishes on delete, throws when its source says so.
function harness(restored: TaskInput[] = [], options: { loadFails?: boolean } = {}) {
  const received: { taskId: string; type: string }[] = []
  const logs: string[] = []
  const task = fromCallback<{ type: string }, TaskInput>(({ input, receive, sendBack: _ }) => {
    if (input.source === 'crash') throw new Error('engine exploded')
    receive((event) => received.push({ taskId: input.taskId, type: event.type }))
  })
  const machine = tasksMachine.provide({
    actors: {
      task: task as never,
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
  const children = () => Object.keys((actor.getSnapshot().children ?? {}) as Record<string, AnyActorRef>).sort()
  return { actor, received, logs, children }
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
})
