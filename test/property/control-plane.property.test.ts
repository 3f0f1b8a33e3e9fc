import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AnyMachineSnapshot, AnyEventObject, AnyStateNode } from 'xstate'
import { getStateNodes } from 'xstate/graph'
import { admitIncoming, emptyLedger } from '../../src/machines/control-ledger.js'
import { controlPlaneMachine, type ControlPlaneEvent } from '../../src/machines/control-plane.machine.js'
import { AgentVersionTooOldError, ServerError, ServerRequestError, ServerUnauthorizedError } from '../../src/errors.js'
import { controlPlaneSettingsFrom } from '../../src/system/control-plane-bindings.js'
import { controlPlaneHarness, registered, syncResponse } from '../unit/control-plane-fakes.js'
import { reachableEdges, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// Graph view: the pure machine with every event, XState's internal ones included, so every
// transition is taken and the cycle rules are checked on every edge. Timed view: the real actor
// with fake server actors through random event sequences over simulated time.

const settings = controlPlaneSettingsFrom()

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error })

const graphEvents: AnyEventObject[] = [
  done('register', registered),
  failed('register', new ServerError(503, 'busy')),
  failed('register', new ServerUnauthorizedError('http://server')),
  failed('register', new AgentVersionTooOldError('0.14.0', '0.20.0')),
  { type: 'xstate.after.registerBackoff.controlPlane.registering.backoff' },
  { type: 'xstate.after.unauthorizedRetry.controlPlane.registering.unauthorized' },
  { type: 'xstate.after.versionTooOldRetry.controlPlane.registering.tooOld' },
  done('sync', { response: syncResponse(), sessionsLive: false }),
  done('sync', { response: syncResponse({ watching: true }), sessionsLive: false }),
  done('sync', { response: syncResponse({ controls: [{ id: 'g1', kind: 'set_downlink', mode: 'sse' }] }), sessionsLive: true }),
  failed('sync', new ServerError(500, 'boom')),
  failed('sync', new ServerUnauthorizedError('http://server')),
  failed('sync', new AgentVersionTooOldError('0.14.0', '0.20.0')),
  failed('sync', new ServerRequestError(404, 'unknown_agent', 'who?')),
  { type: 'xstate.after.syncInterval.controlPlane.running.sync.idle' },
  { type: 'xstate.after.syncBackoff.controlPlane.running.sync.backoff' },
  { type: 'xstate.after.unauthorizedRetry.controlPlane.running.sync.unauthorized' },
  { type: 'xstate.after.versionTooOldRetry.controlPlane.running.sync.tooOld' },
  { type: 'controlPlane.changed', reason: 'test' },
  { type: 'downlink.syncRequested', source: 'wake', reason: 'test' },
  { type: 'downlink.command', control: { id: 'g2', kind: 'scan_library' } },
  { type: 'controlPlane.control', control: { id: 'g3', kind: 'pause_task', taskId: 't' } },
  { type: 'controlPlane.setDownlinkMode', mode: 'poll' },
  { type: 'controlPlane.reregister', reason: 'hwAccel changed' },
  failed('downlink', new Error('downlink crashed')),
  { type: 'xstate.after.downlinkRestart.controlPlane.running.downlink.restarting' },
]

const serialize = (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({
    value: snapshot.value,
    followUp: snapshot.context.followUp,
    fast: snapshot.context.watching || snapshot.context.sessionsLive,
    seen: snapshot.context.ledger.seen,
    acks: snapshot.context.ledger.pendingAcks.length > 0,
    mode: snapshot.context.downlinkMode,
    reregister: snapshot.context.reregister !== undefined,
  })

const graphOptions = {
  input: { agentId: 'agent-1', downlinkMode: 'auto' as const, settings },
  // Completion and error events only come from children that exist.
  events: (snapshot: AnyMachineSnapshot) => graphEvents.filter((event) => {
    const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    return !actorEvent || snapshot.children[actorEvent[2]!] !== undefined
  }) as ControlPlaneEvent[],
  serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
}

const activeNodes = (snapshot: AnyMachineSnapshot) => new Set((snapshot as unknown as { _nodes: AnyStateNode[] })._nodes)
const isTransient = (node: AnyStateNode) => (node.always?.length ?? 0) > 0

describe('control plane statechart paths', () => {
  const edges = reachableEdges(controlPlaneMachine, { ...graphOptions, limit: 100_000 })

  it('takes every transition of the machine from some reachable state', () => {
    expect(transitionsNotTakenBy(controlPlaneMachine, edges)).toEqual([])
  })

  it('reaches every resting state', () => {
    const reached = new Set(edges.flatMap(({ next }) => [...activeNodes(next)].map((node) => node.id)))
    const all = getStateNodes(controlPlaneMachine.root).filter((node) => !isTransient(node)).map((node) => node.id)
    expect(all.filter((id) => !reached.has(id))).toEqual([])
  })

  it('never restarts a sync in flight: only its own completion leaves or repeats a cycle', () => {
    for (const { prev, event, next } of edges) {
      if (!prev.matches({ running: { sync: 'syncing' } })) continue
      if (event.type.startsWith('xstate.done.actor.sync') || event.type.startsWith('xstate.error.actor.sync')) continue
      expect(next.matches({ running: { sync: 'syncing' } })).toBe(true)
      expect(next.children.sync, event.type).toBe(prev.children.sync)
    }
  })

  it('registers again (controlPlane.reregister) at once from an idle loop, and otherwise at the first settled cycle, never in between', () => {
    let deferred = 0
    for (const { prev, event, next } of edges) {
      if (event.type === 'controlPlane.reregister') {
        if (prev.matches({ running: { sync: 'idle' } })) {
          expect(next.matches({ registering: 'attempt' })).toBe(true)
          expect(next.context.reregister).toBeUndefined()
        } else {
          // Remembered: a sync in flight, a backoff or a register attempt goes on untouched.
          expect(next.value).toEqual(prev.value)
          expect(next.context.reregister).toBe('hwAccel changed')
          deferred++
        }
      }
      // A remembered one is never dropped: only a register attempt (which collects the body afresh) clears it.
      if (prev.context.reregister !== undefined && next.context.reregister === undefined) {
        expect(next.matches({ registering: 'attempt' })).toBe(true)
      }
      // No register attempt starts with a stale body still to send: entering one clears the mark.
      if (next.matches({ registering: 'attempt' }) && !prev.matches({ registering: 'attempt' })) {
        expect(next.context.reregister).toBeUndefined()
      }
    }
    expect(deferred).toBeGreaterThan(0)
  })

  it('runs exactly one follow-up cycle after a cycle that saw requests, and none after one that did not', () => {
    for (const { prev, event, next } of edges) {
      if (!prev.matches({ running: { sync: 'syncing' } }) || event.type !== 'xstate.done.actor.sync') continue
      const newControls = admitIncoming(prev.context.ledger, { controls: (event as unknown as { output: { response: { controls: unknown[] } } }).output.response.controls }, { memory: 1000, unknownKindMemory: 100 }).admitted > 0
      if (prev.context.reregister !== undefined) {
        expect(next.matches({ registering: 'attempt' })).toBe(true)
      } else if (prev.context.followUp || newControls) {
        expect(next.matches({ running: { sync: 'syncing' } })).toBe(true)
        expect(next.context.followUp).toBe(false)
        expect(next.children.sync).not.toBe(prev.children.sync)
      } else {
        expect(next.matches({ running: { sync: 'idle' } })).toBe(true)
      }
    }
  })
})

type Step =
  | { kind: 'advance'; ms: number }
  | { kind: 'changed' }
  | { kind: 'wake' }
  | { kind: 'sseSync' }
  | { kind: 'answer'; watching: boolean; live: boolean; controls: string[] }
  | { kind: 'fail' }
  | { kind: 'command'; id: string }

const controlId = fc.constantFrom('a', 'b', 'c', 'd', 'e')
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(3_000, 60_000)) }) },
  fc.constant({ kind: 'changed' as const }),
  fc.constant({ kind: 'wake' as const }),
  fc.constant({ kind: 'sseSync' as const }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), watching: fc.boolean(), live: fc.boolean(), controls: fc.array(controlId, { maxLength: 3 }) }) },
  fc.constant({ kind: 'fail' as const }),
  fc.record({ kind: fc.constant('command' as const), id: controlId }),
)

describe('control plane over simulated time', () => {
  it('keeps at most one sync in flight, coalesces requests into one follow-up and applies each control id once', async () => {
    let followUps = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (sequence) => {
        const h = controlPlaneHarness({ mode: 'poll', random: () => 0.5 })
        await h.register()
        let requestedDuringCycle = false
        let known = new Set<string>()
        for (const item of sequence) {
          const inFlight = h.inFlight() > 0
          const wakeOpen = h.wake.isOpen
          const before = h.syncs.length
          switch (item.kind) {
            case 'advance':
              h.advance(item.ms)
              break
            case 'changed':
              h.actor.send({ type: 'controlPlane.changed' })
              break
            case 'wake':
              if (h.wake.isOpen) h.wake.send({ type: 'downlink.wake.woke', reason: 'x' })
              break
            case 'sseSync':
              h.actor.send({ type: 'downlink.syncRequested', source: 'sse', reason: 'x' })
              break
            case 'command':
              h.actor.send({ type: 'downlink.command', control: { id: item.id, kind: 'scan_library' } })
              break
            case 'answer': {
              if (!inFlight) break
              const fresh = item.controls.some((id) => !known.has(id))
              item.controls.forEach((id) => known.add(id))
              await h.answerSync({ watching: item.watching, controls: item.controls.map((id) => ({ id, kind: 'scan_library' })) }, item.live)
              // Coalescing: requests during the cycle (or new controls) give exactly one
              // follow-up at once; otherwise the loop waits for its interval.
              expect(h.syncs.length - before).toBe(requestedDuringCycle || fresh ? 1 : 0)
              if (requestedDuringCycle) followUps++
              requestedDuringCycle = false
              break
            }
            case 'fail':
              if (!inFlight) break
              await h.failSync(new ServerError(503, 'busy'))
              expect(h.syncs.length).toBe(before)
              requestedDuringCycle = false
              break
          }
          if (item.kind === 'command') {
            if (!known.has(item.id) && inFlight) requestedDuringCycle = true
            known = new Set([...known, item.id])
          }
          if ((item.kind === 'changed' || item.kind === 'sseSync' || (item.kind === 'wake' && wakeOpen)) && inFlight) requestedDuringCycle = true
          expect(h.inFlight()).toBeLessThanOrEqual(1)
        }
        expect(h.maxInFlight()).toBeLessThanOrEqual(1)
        const ids = h.applied.map((entry) => entry.control.id)
        expect(new Set(ids).size).toBe(ids.length)
      }),
      { numRuns: 200 },
    )
    expect(followUps).toBeGreaterThan(20)
  })

  it('applies a control id once however often it arrives, and acknowledges each once', () => {
    fc.assert(
      fc.property(fc.array(fc.array(controlId, { maxLength: 5 }), { maxLength: 20 }), (batches) => {
        let ledger = emptyLedger()
        const applied: string[] = []
        for (const batch of batches) {
          const result = admitIncoming(ledger, { controls: batch.map((id) => ({ id, kind: 'scan_library' })) }, { memory: 1000, unknownKindMemory: 100 })
          ledger = result.ledger
          for (const effect of result.effects) if (effect.type === 'control') applied.push(effect.control.id)
        }
        const distinct = [...new Set(batches.flat())]
        expect(applied.sort()).toEqual(distinct.sort())
        expect([...ledger.pendingAcks].sort()).toEqual(distinct.sort())
      }),
    )
  })

  it('remembers only the last 1,000 ids', () => {
    let ledger = emptyLedger()
    for (let i = 0; i < 1_500; i++) ledger = admitIncoming(ledger, { controls: [{ id: `id${i}`, kind: 'scan_library' }] }, { memory: 1000, unknownKindMemory: 100 }).ledger
    expect(ledger.seen).toHaveLength(1_000)
    expect(admitIncoming(ledger, { controls: [{ id: 'id1499', kind: 'scan_library' }] }, { memory: 1000, unknownKindMemory: 100 }).admitted).toBe(0)
    expect(admitIncoming(ledger, { controls: [{ id: 'id0', kind: 'scan_library' }] }, { memory: 1000, unknownKindMemory: 100 }).admitted).toBe(1)
  })
})
