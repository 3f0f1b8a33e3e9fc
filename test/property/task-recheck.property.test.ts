import { describe, expect, it } from 'vitest'
import { initialTransition, transition, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { taskMachine, taskReportOf, type TaskContext, type TaskInput, type TaskRecord } from '../../src/machines/task.machine.js'
import type { TaskState } from '../../src/protocol/wire.js'
import { describePath, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'

// docs/torrents.md, Recheck: paths generated from the task statechart take every transition
// (the recheck ones among them), replayed with xstate's pure `transition`. Along each: the
// report stays within protocol.md's task states (`checking` is reported as `downloading`),
// nothing seeds or completes during a check, a recheck of a running or completed task with
// metadata hashes its data now, one of a paused or failed task only forgets the map (and stays).

const protocolStates: TaskState[] = ['queued', 'fetching_metadata', 'downloading', 'paused', 'seeding', 'completed', 'error']
const infoHash = 'e'.repeat(40)
const files = [{ path: '/d/m', size: 1000, progress: 0 }]
const progress = (done: boolean, uploaded = 0) => ({
  type: 'engine.progress',
  progress: { name: 'm', hasMetadata: true, ready: true, done, progress: done ? 1 : 0.5, size: 1000, downloaded: done ? 1000 : 500, uploaded, downloadSpeed: 1, uploadSpeed: 1, peers: 1, etaSeconds: 1, files },
})
const events: AnyEventObject[] = [
  { type: 'task.pause' },
  { type: 'task.resume' },
  { type: 'task.recheck' },
  { type: 'task.delete', deleteFiles: false },
  { type: 'engine.metadata', name: 'm', size: 1000, files },
  { type: 'engine.done' },
  { type: 'engine.dormancy', dormant: true },
  { type: 'engine.error', message: 'no space left on device', code: 'MA_ERR_TORRENT_DISK_FULL' },
  progress(true),
  progress(false),
  progress(true, 5000),
  { type: 'xstate.error.actor.torrent', error: new Error('engine gone') },
  { type: 'xstate.done.actor.resolveSource', output: { infoHash, name: 'm' } },
  { type: 'xstate.error.actor.resolveSource', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.recheck' },
  { type: 'xstate.error.actor.recheck', error: new Error('torrent stopped before its data could be read') },
  { type: 'xstate.done.actor.removeTask' },
  { type: 'xstate.error.actor.removeTask', error: new Error('gone') },
]

const record = (state: TaskState, metadata: boolean): TaskRecord => ({
  id: 't', source: infoHash, infoHash, name: 'm', state, size: metadata ? 1000 : 0, downloaded: 0, uploaded: 0, progress: 0, files: metadata ? files : [], addedAt: 0,
})
const inputs: TaskInput[] = [
  { taskId: 't', source: infoHash, seedRatio: 1, addedAt: 0 },
  { taskId: 't', source: infoHash, seedRatio: 0, addedAt: 0 },
  { taskId: 't', source: infoHash, seedRatio: 1, addedAt: 0, restored: record('completed', true) },
  { taskId: 't', source: infoHash, seedRatio: 1, addedAt: 0, restored: record('paused', true) },
  { taskId: 't', source: infoHash, seedRatio: 1, addedAt: 0, restored: record('error', false) },
]

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as TaskContext
/** Invoke results only while that invoke runs, as a real actor would. */
const eventsIn = (snapshot: AnyMachineSnapshot) => events.filter((event) => {
  const invoke = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
  return !invoke || snapshot.children[invoke[2]!] !== undefined
})
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = contextOf(snapshot)
  return JSON.stringify([snapshot.value, snapshot.status, c.state, c.done, c.hasMetadata, c.infoHash !== '', c.error !== undefined, c.dormant])
}
const pathSets = inputs.map((input) => ({ input, paths: shortestPaths(taskMachine, { input, events: eventsIn, serializeState: serializeState as never, limit: 200_000 }) }))

describe('task statechart: recheck', () => {
  it('paths generated from the statechart take every transition of the task machine', () => {
    // `boot` is left by an eventless transition of the initial snapshot, before any step: each
    // of its branches is the start of the paths of one input above.
    const uncovered = uncoveredTransitions(taskMachine, pathSets.flatMap((set) => set.paths))
    expect(uncovered.filter((label) => !label.startsWith('task.boot '))).toEqual([])
  })

  it('along every path the report stays a protocol state, a check seeds nothing, and a recheck checks now or at the next start', () => {
    let rechecks = 0
    for (const { input, paths } of pathSets) {
      for (const path of paths) {
        let [snapshot] = initialTransition(taskMachine, input)
        for (const step of path.steps.slice(1)) {
          const before = snapshot
          const [next, actions] = transition(taskMachine, before, step.event as never)
          snapshot = next
          const report = taskReportOf(snapshot)
          const where = describePath(path)
          if (report) expect(protocolStates, where).toContain(report.state)
          if (snapshot.matches({ active: 'checking' })) {
            expect(report?.state, where).toBe('downloading')
          }
          if (report && (report.state === 'seeding' || report.state === 'completed')) expect(contextOf(snapshot).done, where).toBe(true)
          // Only a running torrent can be dormant: a stopped task never says so.
          if (snapshot.matches('paused') || snapshot.matches('completed') || snapshot.matches('error')) expect(contextOf(snapshot).dormant, where).toBe(false)
          if (step.event.type !== 'task.recheck') continue
          rechecks++
          const c = contextOf(before)
          const wasRunning = before.matches({ active: 'downloading' }) || before.matches({ active: 'seeding' }) || before.matches({ active: 'checking' })
          if ((wasRunning || before.matches('completed')) && c.hasMetadata) {
            expect(snapshot.matches({ active: 'checking' }), where).toBe(true)
            expect(snapshot.children.recheck, where).toBeDefined()
          } else if ((before.matches('paused') || before.matches('error')) && c.infoHash !== '') {
            expect(snapshot.value, where).toEqual(before.value)
            expect(actions.map((action) => action.type), where).toContain('forgetPieces')
          } else {
            expect(actions.map((action) => action.type), where).not.toContain('forgetPieces')
          }
        }
      }
    }
    expect(rechecks).toBeGreaterThan(5)
  })
})
