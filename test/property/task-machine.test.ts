import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import {
  taskMachine,
  taskRecordOf,
  taskReportOf,
  type RemoveTaskInput,
  type ResolveSourceInput,
  type ResolveSourceOutput,
  type TaskEvent,
  type TorrentActorInput,
} from '../../src/machines/task.machine.js'
import type { TaskState } from '../../src/protocol/wire.js'

const states: TaskState[] = ['queued', 'fetching_metadata', 'downloading', 'paused', 'seeding', 'completed', 'error']
const moving: TaskState[] = ['fetching_metadata', 'downloading', 'seeding']

const eventArb: fc.Arbitrary<TaskEvent> = fc.oneof(
  fc.constant<TaskEvent>({ type: 'task.pause' }),
  fc.constant<TaskEvent>({ type: 'task.resume' }),
  fc.constant<TaskEvent>({ type: 'engine.metadata', name: 'm', size: 1000, files: [{ path: '/d/m', size: 1000, progress: 0 }] }),
  fc.constant<TaskEvent>({ type: 'engine.done' }),
  fc.constant<TaskEvent>({ type: 'engine.error', message: 'no space left on device', code: 'MA_ERR_TORRENT_DISK_FULL' }),
  fc.record({ ready: fc.boolean(), done: fc.boolean(), progress: fc.double({ min: 0, max: 1, noNaN: true }), uploaded: fc.nat(3000) }).map(
    (p): TaskEvent => ({
      type: 'engine.progress',
      progress: {
        name: 'm', hasMetadata: true, ready: p.ready, done: p.done, progress: p.done ? 1 : p.progress, size: 1000, downloaded: Math.round((p.done ? 1 : p.progress) * 1000),
        uploaded: p.uploaded, downloadSpeed: 10, uploadSpeed: 10, peers: 2, etaSeconds: 3, files: [],
      },
    }),
  ),
  fc.boolean().map((deleteFiles): TaskEvent => ({ type: 'task.delete', deleteFiles })),
)

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('task machine properties', () => {
  it('whatever the order of engine facts and user controls, the reported task stays consistent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 30 }), fc.constantFrom(0, 0.5, 1), fc.boolean(), async (events, seedRatio, resolveFails) => {
        let running = 0
        const immediate: TaskState[] = []
        const removed: RemoveTaskInput[] = []
        const machine = taskMachine.provide({
          actors: {
            resolveSource: fromPromise<ResolveSourceOutput, ResolveSourceInput>(async () => {
              if (resolveFails) throw Object.assign(new Error('GET x failed: HTTP 500'), { code: 'MA_ERR_TORRENT_FETCH' })
              return { infoHash: 'e'.repeat(40), name: 'm' }
            }),
            torrent: fromCallback<TaskEvent, TorrentActorInput>(() => {
              running++
              return () => { running-- }
            }),
            removeTask: fromPromise<void, RemoveTaskInput>(async ({ input }) => { removed.push(input) }),
          },
          actions: {
            persist: ({ context }, params) => { if (params.immediate) immediate.push(taskRecordOf(context).state) },
          },
        })
        const actor = createActor(machine, { input: { taskId: 't', source: 'e'.repeat(40), seedRatio, addedAt: 0 } }).start()
        await settle()
        for (const event of events) {
          if (actor.getSnapshot().status === 'done') break
          actor.send(event)
          await settle()
          const snapshot = actor.getSnapshot()
          const report = taskReportOf(snapshot)
          if (snapshot.status === 'done' || report === null) {
            expect(running).toBe(0)
            continue
          }
          expect(states).toContain(report.state)
          expect('error' in report).toBe(report.state === 'error')
          expect(report.progress).toBeGreaterThanOrEqual(0)
          expect(report.progress).toBeLessThanOrEqual(1)
          // Only the moving states hold an engine torrent, and never more than one.
          expect(running).toBe(moving.includes(report.state) ? 1 : 0)
          // Nothing seeds or completes before the data is all there.
          if (report.state === 'seeding' || report.state === 'completed') expect(snapshot.context.done).toBe(true)
          // What tasks.json got last is the state the server sees.
          expect(immediate.at(-1)).toBe(report.state)
          if (report.state !== 'downloading' && report.state !== 'seeding' && report.state !== 'fetching_metadata') {
            expect(report.downloadSpeed + report.uploadSpeed + report.peers).toBe(0)
          }
        }
        if (events.some((e) => e.type === 'task.delete')) expect(removed).toHaveLength(1)
        actor.stop()
        expect(running).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})
