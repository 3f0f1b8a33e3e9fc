import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createActor, fromCallback } from 'xstate'
import { describe, expect, it } from 'vitest'
import { taskContextShape, taskMachine, type TaskInput } from '../../src/machines/task.machine.js'

// A task's context stays a fast object, not a dictionary (~1.3 KiB a task on a seedbox of
// thousands; taskContextShape in src/machines/task.machine.ts explains how).

const root = join(import.meta.dirname, '..', '..')
const infoHash = 'a'.repeat(40)
const input: TaskInput = {
  taskId: 't1', source: `magnet:?xt=urn:btih:${infoHash}`, seedRatio: 0, addedAt: 1,
  restored: { id: 't1', source: `magnet:?xt=urn:btih:${infoHash}`, infoHash, name: 'x', state: 'downloading', size: 4, downloaded: 4, uploaded: 0, progress: 1, files: [{ path: 'x', size: 4, progress: 1 }], addedAt: 1 },
}

describe('task context shape', () => {
  it('names the context\'s keys in the order the machine makes them', () => {
    const actor = createActor(taskMachine.provide({ actors: { torrent: fromCallback(() => () => {}) } }), { input }).start()
    expect(Object.keys(taskContextShape())).toEqual(Object.keys(actor.getSnapshot().context))
    actor.stop()
  })

  it('keeps every context of a task a fast object through its events', () => {
    // V8 tells whether an object is in dictionary mode only to a process started with --allow-natives-syntax.
    const script = `
      const { createActor, fromCallback } = await import('xstate')
      const { taskMachine } = await import(${JSON.stringify(join(root, 'src', 'machines', 'task.machine.ts'))})
      const isFast = new Function('o', 'return %HasFastProperties(o)')
      const input = ${JSON.stringify(input)}
      const seen = []
      for (let i = 0; i < 3; i++) {
        const actor = createActor(taskMachine.provide({ actors: { torrent: fromCallback(() => () => {}) } }), { input: { ...input, taskId: 't' + i } }).start()
        seen.push(isFast(actor.getSnapshot().context))
        actor.send({ type: 'engine.progress', progress: { name: 'x', hasMetadata: true, ready: true, done: true, progress: 1, size: 4, downloaded: 4, uploaded: 3, downloadSpeed: 0, uploadSpeed: 1, peers: 1, etaSeconds: 0, files: [] } })
        seen.push(isFast(actor.getSnapshot().context))
        actor.send({ type: 'engine.dormancy', dormant: true })
        seen.push(isFast(actor.getSnapshot().context))
        actor.send({ type: 'task.pause' })
        seen.push(isFast(actor.getSnapshot().context))
        actor.stop()
      }
      console.log(JSON.stringify(seen))
    `
    const result = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual(Array(12).fill(true))
  })
})
