import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot, AnyStateNode } from 'xstate'
import { getShortestPaths, getStateNodes } from 'xstate/graph'
import { downlinkMachine, type DownlinkEvent } from '../../src/machines/downlink.machine.js'
import type { DownlinkMode } from '../../src/protocol/wire.js'
import { downlinkHarness, downlinkSettings, frame } from '../unit/control-plane-fakes.js'
import { reachableEdges, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// Two views of the downlink. The graph view walks the pure machine (no time, no I/O) with every
// event including XState's internal timer and actor events, so every transition is taken and
// the mode invariants are checked on every edge. The timed view drives the real actor with fake
// transport links through random event sequences over simulated minutes.

const settings = downlinkSettings
const threshold = settings.sseFailuresBeforeFallback

const graphEvents: AnyEventObject[] = [
  { type: 'downlink.sse.connected', baseUrl: 'http://server' },
  frame('ping'),
  frame('sync', '{"reason":"x"}'),
  frame('command', '{"id":"c1","kind":"scan_library"}'),
  frame('command', 'not json'),
  { type: 'downlink.sse.ended' },
  { type: 'downlink.sse.failed', error: new Error('reset') },
  { type: 'xstate.error.actor.sseStream', error: new Error('threw') },
  { type: 'downlink.wake.woke', reason: 'x' },
  { type: 'downlink.wake.ended' },
  { type: 'downlink.wake.failed', error: new Error('refused') },
  { type: 'xstate.error.actor.wakeListener', error: new Error('threw') },
  { type: 'downlink.setMode', mode: 'auto' },
  { type: 'downlink.setMode', mode: 'sse' },
  { type: 'downlink.setMode', mode: 'poll' },
  { type: 'xstate.after.liveness.downlink.sse.attempt.liveness.waiting' },
  { type: 'xstate.after.liveness.downlink.sse.attempt.proof.probation' },
  { type: 'xstate.after.sseReconnect.downlink.sse.reopening' },
  { type: 'xstate.after.longPollReprobe.downlink.poll' },
  { type: 'xstate.after.wakeRetry.downlink.poll.retrying' },
]

// The graph machine keeps pure stand-ins for the parent notifications.
const graphMachine = downlinkMachine.provide({ actions: { requestSync: () => {}, deliverCommand: () => {} } })

const serialize = (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({ value: snapshot.value, mode: snapshot.context.mode, failures: Math.min(snapshot.context.failures, threshold) })

const graphOptions = (mode: DownlinkMode) => ({
  input: { mode, settings },
  // Completion and error events only come from children that exist.
  events: (snapshot: AnyMachineSnapshot) => graphEvents.filter((event) => {
    const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    return !actorEvent || snapshot.children[actorEvent[2]!] !== undefined
  }) as DownlinkEvent[],
  serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
})

function activeNodes(snapshot: AnyMachineSnapshot): Set<AnyStateNode> {
  return new Set((snapshot as unknown as { _nodes: AnyStateNode[] })._nodes)
}

/** Transient states (eventless `always` only) are passed through, never rested in. */
const isTransient = (node: AnyStateNode) => (node.always?.length ?? 0) > 0

describe('downlink statechart paths', () => {
  const edges = reachableEdges(graphMachine, { ...graphOptions('auto'), limit: 100_000 })

  it('takes every transition of the machine from some reachable state', () => {
    expect(transitionsNotTakenBy(downlinkMachine, edges)).toEqual([])
  })

  it('never falls back in sse mode and never opens SSE in poll mode, on any edge', () => {
    for (const { next } of edges) {
      if (next.context.mode === 'sse') expect(next.matches('poll')).toBe(false)
      if (next.context.mode === 'poll') expect(next.matches('sse')).toBe(false)
    }
  })

  it('falls back only when the failure count is reached, and leaves the long-poll only to re-probe', () => {
    for (const { prev, event, next } of edges) {
      if (event.type === 'downlink.setMode') continue
      if (prev.matches('sse') && next.matches('poll')) {
        expect(prev.context.mode).toBe('auto')
        expect(next.context.failures).toBeGreaterThanOrEqual(threshold)
      }
      if (prev.matches('poll') && next.matches('sse')) {
        expect(event.type).toBe('xstate.after.longPollReprobe.downlink.poll')
        expect(next.context.failures).toBe(0)
      }
    }
  })

  it('needs exactly the failure count of unhealthy attempts on the shortest way to the long-poll', () => {
    const paths = getShortestPaths(graphMachine, { ...graphOptions('auto'), toState: (snapshot) => snapshot.matches('poll') })
    const withoutModeChange = paths.filter((path) => path.steps.every((step) => step.event.type !== 'downlink.setMode'))
    expect(withoutModeChange.length).toBeGreaterThan(0)
    for (const path of withoutModeChange) {
      const unhealthy = path.steps.filter((step) => step.state.matches({ sse: 'reopening' }) || step.state.matches('poll'))
      expect(unhealthy.length).toBeGreaterThanOrEqual(threshold)
    }
  })

  it('reaches every state of the machine in each starting mode', () => {
    for (const mode of ['auto', 'sse', 'poll'] as const) {
      const reached = new Set(getShortestPaths(graphMachine, graphOptions(mode)).flatMap((path) => [...activeNodes(path.state)].map((node) => node.id)))
      const all = getStateNodes(graphMachine.root).filter((node) => !isTransient(node)).map((node) => node.id)
      expect(all.filter((id) => !reached.has(id))).toEqual([])
    }
  })
})

type Step =
  | { kind: 'advance'; ms: number }
  | { kind: 'frame'; event: 'ping' | 'sync' | 'command' }
  | { kind: 'connected' }
  | { kind: 'ended' }
  | { kind: 'failed' }
  | { kind: 'woke' }
  | { kind: 'wakeEnded' }
  | { kind: 'wakeFailed' }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 45_000 }), fc.constantFrom(15_000, 39_999, 40_000, 300_000)) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('frame' as const), event: fc.constantFrom('ping' as const, 'sync' as const, 'command' as const) }) },
  fc.constant({ kind: 'connected' as const }),
  fc.constant({ kind: 'ended' as const }),
  fc.constant({ kind: 'failed' as const }),
  fc.constant({ kind: 'woke' as const }),
  fc.constant({ kind: 'wakeEnded' as const }),
  fc.constant({ kind: 'wakeFailed' as const }),
)

/** Plays the steps; events for a link that is not open are skipped (the transport would not send them). */
function play(mode: DownlinkMode, steps: Step[], onStep: (h: ReturnType<typeof downlinkHarness>, step: Step) => void = () => {}) {
  const h = downlinkHarness(mode)
  let commandId = 0
  for (const item of steps) {
    switch (item.kind) {
      case 'advance':
        h.advance(item.ms)
        break
      case 'frame':
        if (h.sse.isOpen) h.timeline.push({ at: h.clock.now(), link: 'sse', change: 'frame' })
        if (h.sse.isOpen) h.sse.send(frame(item.event, item.event === 'command' ? JSON.stringify({ id: `c${commandId++}`, kind: 'scan_library' }) : '{}'))
        break
      case 'connected':
        if (h.sse.isOpen) h.sse.send({ type: 'downlink.sse.connected', baseUrl: 'http://server' })
        break
      case 'ended':
        if (h.sse.isOpen) h.sse.send({ type: 'downlink.sse.ended' })
        break
      case 'failed':
        if (h.sse.isOpen) h.sse.send({ type: 'downlink.sse.failed', error: new Error('reset') })
        break
      case 'woke':
        if (h.wake.isOpen) h.wake.send({ type: 'downlink.wake.woke', reason: 'x' })
        break
      case 'wakeEnded':
        if (h.wake.isOpen) h.wake.send({ type: 'downlink.wake.ended' })
        break
      case 'wakeFailed':
        if (h.wake.isOpen) h.wake.send({ type: 'downlink.wake.failed', error: new Error('refused') })
        break
    }
    onStep(h, item)
  }
  return h
}

const steps = fc.array(step, { maxLength: 80 })

const failAndReopen = (kind: 'failed' | 'ended'): Step[] => [{ kind }, { kind: 'advance', ms: 5_000 }]
/**
 * Sequences that reach the long-poll and the re-probe by construction. fast-check runs them in
 * every assert, whatever its seed, so the oracle's fallback and re-probe branches are exercised on
 * every run: random sequences alone reached a re-probe in fewer than 4 of 300 runs for about 1
 * seed in 75, which failed the coverage check below now and then.
 */
const reprobeExamples: Step[][] = [
  // Three failed attempts (reconnect delays 1 s, 2 s, 4 s), then five minutes of polling.
  [...failAndReopen('failed'), ...failAndReopen('failed'), ...failAndReopen('failed'), { kind: 'advance', ms: 300_000 }],
  // Streams the server ends, a wake while polling, a frame on the re-opened stream.
  [...failAndReopen('ended'), ...failAndReopen('ended'), ...failAndReopen('ended'), { kind: 'woke' }, { kind: 'advance', ms: 300_000 }, { kind: 'frame', event: 'sync' }],
  // Silent streams: the liveness window ends each attempt; polling after the third, re-probe five minutes later.
  [{ kind: 'advance', ms: 300_000 }, { kind: 'advance', ms: 300_000 }],
  // A healthy stream first (a frame after a full liveness window resets the count), then three failures.
  [{ kind: 'advance', ms: 40_000 }, { kind: 'frame', event: 'ping' }, ...failAndReopen('failed'), ...failAndReopen('ended'), ...failAndReopen('failed'), { kind: 'wakeFailed' }, { kind: 'advance', ms: 300_000 }],
]

describe('downlink over simulated time', () => {
  it('in sse mode never opens the long-poll and always has SSE open or about to reopen', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        play('sse', sequence, (h) => {
          expect(h.wake.opened).toBe(0)
          expect(h.state().matches('sse')).toBe(true)
        })
      }),
      { numRuns: 200 },
    )
  })

  it('in poll mode never opens SSE', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        const h = play('poll', sequence)
        expect(h.sse.opened).toBe(0)
        expect(h.state().matches('poll')).toBe(true)
      }),
      { numRuns: 200 },
    )
  })

  it('in auto mode falls back only after the failure count and re-probes after exactly five minutes of polling', () => {
    let runsWithFallback = 0
    let runsWithReprobe = 0
    fc.assert(
      fc.property(steps, (sequence) => {
        const h = play('auto', sequence)
        // An independent oracle of the counting rule (docs/control-plane.md): an attempt that
        // ends adds one; a frame a full liveness window after the attempt started resets to 0;
        // a re-probe starts from 0.
        let failures = 0
        let attemptStart = 0
        let proven = false
        let pollSince: number | undefined
        let pollPeriods = 0
        let reprobed = false
        h.timeline.forEach((entry, index) => {
          if (entry.link === 'sse' && entry.change === 'open') {
            if (pollSince !== undefined) {
              reprobed = true
              expect(entry.at - pollSince).toBe(settings.longPollReprobeMs)
              pollSince = undefined
              failures = 0
            }
            attemptStart = entry.at
            proven = false
          } else if (entry.link === 'sse' && entry.change === 'frame') {
            if (!proven && entry.at - attemptStart >= settings.livenessTimeoutMs) {
              proven = true
              failures = 0
            }
          } else if (entry.link === 'sse' && entry.change === 'close') {
            failures++
            const nextOpen = h.timeline.slice(index + 1).find((later) => later.change === 'open')
            if (nextOpen) expect(nextOpen.link).toBe(failures >= threshold ? 'wake' : 'sse')
          } else if (entry.link === 'wake' && entry.change === 'open' && pollSince === undefined) {
            expect(failures).toBe(threshold)
            pollSince = entry.at
            pollPeriods++
          }
        })
        expect(h.context().fallbacks).toBe(pollPeriods)
        if (pollSince !== undefined) expect(h.clock.now() - pollSince).toBeLessThan(settings.longPollReprobeMs)
        if (pollPeriods > 0) runsWithFallback++
        if (reprobed) runsWithReprobe++
      }),
      { numRuns: 300, examples: reprobeExamples.map((sequence) => [sequence] as [Step[]]) },
    )
    // Both situations must really be reached, or the property says nothing: the examples reach
    // them on every run (deterministic), the random sequences add more.
    expect(runsWithFallback).toBeGreaterThanOrEqual(reprobeExamples.length)
    expect(runsWithReprobe).toBeGreaterThanOrEqual(reprobeExamples.length)
  })
})

