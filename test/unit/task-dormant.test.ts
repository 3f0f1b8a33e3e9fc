import { createActor, fromCallback, fromPromise } from 'xstate'
import { describe, expect, it } from 'vitest'
import { taskMachine, taskReportOf } from '../../src/machines/task.machine.js'
import { describeActorTree } from '../../src/system/actor-tree.js'

// A dormant torrent (docs/torrents.md, Dormant torrents) is visible where the actor tree is
// shown, and invisible in what the server is told: the task still reports `seeding`.

const machine = taskMachine.provide({
  actors: {
    torrent: fromCallback(() => () => {}),
    resolveSource: fromPromise(async () => ({ infoHash: '', name: '' })),
    removeTask: fromPromise(async () => {}),
    recheck: fromPromise(async () => {}),
  },
})

function seedingTask() {
  const actor = createActor(machine, {
    id: 'task:t',
    input: {
      taskId: 't', source: 's', seedRatio: 1, addedAt: 0,
      restored: { id: 't', source: 's', infoHash: 'a'.repeat(40), name: 'n', state: 'seeding', size: 10, downloaded: 10, uploaded: 0, progress: 1, files: [{ path: '/d/n', size: 10, progress: 1 }], addedAt: 0 },
    },
  })
  actor.start()
  return actor
}

describe('a dormant task', () => {
  it('shows dormant in /debug/actors while its report to the server stays seeding, and live again once woken', () => {
    const actor = seedingTask()
    const before = taskReportOf(actor.getSnapshot())
    actor.send({ type: 'engine.dormancy', dormant: true })
    expect((describeActorTree(actor).context as { dormant?: boolean }).dormant).toBe(true)
    expect(taskReportOf(actor.getSnapshot())).toEqual(before)
    actor.send({ type: 'engine.dormancy', dormant: false })
    expect((describeActorTree(actor).context as { dormant?: boolean }).dormant).toBe(false)
  })

  it('is no longer dormant once paused', () => {
    const actor = seedingTask()
    actor.send({ type: 'engine.dormancy', dormant: true })
    actor.send({ type: 'task.pause' })
    expect(actor.getSnapshot().context.dormant).toBe(false)
    expect(taskReportOf(actor.getSnapshot())?.state).toBe('paused')
  })
})
