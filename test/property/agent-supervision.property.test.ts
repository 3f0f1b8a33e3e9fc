import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, SimulatedClock, waitFor, type AnyActorLogic, type AnyEventObject } from 'xstate'
import { agentChildNames, agentMachine, restartDelayMs, type AgentChildName, type AgentInput, type SupervisorSettings } from '../../src/machines/agent.machine.js'
import { allTransitions, describePath, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'

// The root supervises its children (design.md "The actor tree"): a failing child is restarted
// after restartDelayMs (doubling, capped), the root itself never fails, and shutdown leaves
// nothing running. Children are fakes bound with .provide(), as in implementations.ts.

// The supervisor is generic over child names; a second, made-up child shows restarts are
// counted per child even while the agent has a single real one.
const spare = 'spareChild' as AgentChildName
const childNames: AgentChildName[] = [...agentChildNames, spare]

type Command =
  | { kind: 'fail'; child: AgentChildName }
  | { kind: 'advance'; ms: number }
  /** Advance to the moment a failed child is due back, or one millisecond before: the boundary. */
  | { kind: 'untilDue'; child: AgentChildName; early: boolean }
  | { kind: 'shutdown' }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...childNames).map((child) => ({ kind: 'fail' as const, child })) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((ms) => ({ kind: 'advance' as const, ms })) },
  { weight: 3, arbitrary: fc.record({ child: fc.constantFrom(...childNames), early: fc.boolean() }).map(({ child, early }) => ({ kind: 'untilDue' as const, child, early })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'shutdown' as const }) },
)

const settingsArb: fc.Arbitrary<SupervisorSettings> = fc
  .record({ childRestartBaseMs: fc.integer({ min: 1, max: 1_000 }), factor: fc.integer({ min: 1, max: 64 }) })
  .map(({ childRestartBaseMs, factor }) => ({ childRestartBaseMs, childRestartMaxMs: childRestartBaseMs * factor }))

interface Harness {
  root: ReturnType<typeof startRoot>['root']
  clock: SimulatedClock
  /** Fake child instances whose callback started and has neither failed nor been cleaned up. */
  alive: Map<AgentChildName, number>
  starts: Map<AgentChildName, number>
}

function startRoot(settings: SupervisorSettings, shutdownFails: boolean) {
  const alive = new Map<AgentChildName, number>()
  const starts = new Map<AgentChildName, number>()
  const fakeChild = (name: AgentChildName) =>
    fromCallback(({ receive }) => {
      alive.set(name, (alive.get(name) ?? 0) + 1)
      starts.set(name, (starts.get(name) ?? 0) + 1)
      let running = true
      const end = () => {
        if (running) alive.set(name, alive.get(name)! - 1)
        running = false
      }
      receive((event: AnyEventObject) => {
        if (event.type !== 'fake.fail') return
        // A real child fails because its process died: nothing is left to clean up.
        end()
        throw new Error(`${name} failed`)
      })
      return end
    })
  const actors: Record<string, AnyActorLogic> = Object.fromEntries(childNames.map((name) => [name, fakeChild(name)]))
  actors.shutdownServices = fromPromise(async () => {
    if (shutdownFails) throw new Error('flush failed')
  })
  const clock = new SimulatedClock()
  const input: AgentInput = { children: childNames, childInputs: {}, supervisor: settings }
  const root = createActor(agentMachine.provide({ actors: actors as never }), { input, clock })
  const errors: unknown[] = []
  root.subscribe({ error: (error) => errors.push(error) })
  root.start()
  return { root, clock, alive, starts, errors }
}

const childIsRunning = (harness: Harness, child: AgentChildName) => harness.root.system.get(child)?.getSnapshot().status === 'active'

describe('agent supervision', () => {
  it('restarts a failed child after its backoff, never fails itself, and shutdown leaves no child alive', async () => {
    await fc.assert(
      fc.asyncProperty(settingsArb, fc.array(commandArb, { maxLength: 40 }), fc.boolean(), async (settings, commands, shutdownFails) => {
        const harness = startRoot(settings, shutdownFails)
        const { root, clock, errors } = harness
        const restarts = new Map<AgentChildName, number>()
        /** When each failed child is due back (absolute simulated time). */
        const dueAt = new Map<AgentChildName, number>()
        let shutDown = false
        const shutdown = async () => {
          root.send({ type: 'agent.shutdown' })
          shutDown = true
          // shutdownServices is a promise: wait for the root to settle, not for a sleep.
          await waitFor(root, (snapshot) => snapshot.status !== 'active', { timeout: 2_000 })
        }
        try {
          for (const child of childNames) expect(childIsRunning(harness, child)).toBe(true)
          for (const command of commands) {
            if (command.kind === 'shutdown') {
              if (!shutDown) await shutdown()
            } else if (command.kind === 'advance') {
              clock.increment(command.ms)
            } else if (command.kind === 'untilDue') {
              const due = dueAt.get(command.child)
              const step = due === undefined ? 0 : due - clock.now() - (command.early ? 1 : 0)
              if (step > 0) clock.increment(step)
            } else if (!shutDown && childIsRunning(harness, command.child)) {
              const count = restarts.get(command.child) ?? 0
              dueAt.set(command.child, clock.now() + restartDelayMs(settings, count))
              restarts.set(command.child, count + 1)
              root.system.get(command.child)!.send({ type: 'fake.fail' })
            }

            const snapshot = root.getSnapshot()
            expect(snapshot.status).not.toBe('error')
            expect(errors).toEqual([])
            expect(snapshot.context.restarts).toEqual(Object.fromEntries(restarts))
            if (shutDown) continue
            for (const child of childNames) {
              const due = dueAt.get(child)
              const expectRunning = due === undefined || clock.now() >= due
              expect(childIsRunning(harness, child), `${child} at ${clock.now()} ms (due back at ${due})`).toBe(expectRunning)
              expect(harness.alive.get(child)).toBe(expectRunning ? 1 : 0)
              if (due !== undefined && expectRunning) dueAt.delete(child)
            }
          }
          if (!shutDown) await shutdown()
          const snapshot = root.getSnapshot()
          expect(snapshot.status).toBe('done')
          expect(snapshot.value).toBe('stopped')
          expect(Object.keys(snapshot.children)).toEqual([])
          for (const child of childNames) {
            expect(harness.alive.get(child) ?? 0, `${child} still alive after shutdown`).toBe(0)
            expect(root.system.get(child)).toBeUndefined()
            // One start, plus one per restart: a failure is never left unanswered.
            const answered = (restarts.get(child) ?? 0) - (dueAt.has(child) ? 1 : 0)
            expect(harness.starts.get(child)).toBe(1 + answered)
          }
          // A respawn still pending at shutdown must not bring a child back.
          clock.increment(settings.childRestartMaxMs + 1)
          for (const child of childNames) expect(harness.alive.get(child) ?? 0).toBe(0)
        } finally {
          root.stop()
        }
      }),
      { numRuns: 150 },
    )
  })

  it('doubles the restart delay per restart of the same child, up to childRestartMaxMs', () => {
    fc.assert(
      fc.property(settingsArb, fc.nat({ max: 40 }), (settings, count) => {
        const delay = restartDelayMs(settings, count)
        const next = restartDelayMs(settings, count + 1)
        expect(restartDelayMs(settings, 0)).toBe(Math.min(settings.childRestartBaseMs, settings.childRestartMaxMs))
        expect(delay).toBeLessThanOrEqual(settings.childRestartMaxMs)
        expect(next).toBeGreaterThanOrEqual(delay)
        if (count < 16) expect(next).toBe(Math.min(settings.childRestartMaxMs, delay * 2))
      }),
    )
  })

  it('a child that fails while being stopped does not fail the root mid-shutdown', async () => {
    // kill() of a process that already exited throws from the cleanup.
    const throwing = fromCallback(() => () => {
      throw new Error('kill ESRCH')
    })
    const actors = { ...Object.fromEntries(agentChildNames.map((name) => [name, throwing])), shutdownServices: fromPromise(async () => {}) }
    const root = createActor(agentMachine.provide({ actors: actors as never }), {
      input: { children: agentChildNames, childInputs: {}, supervisor: { childRestartBaseMs: 10, childRestartMaxMs: 100 } },
      clock: new SimulatedClock(),
    })
    root.start()
    root.send({ type: 'agent.shutdown' })
    const settled = await waitFor(root, (snapshot) => snapshot.status !== 'active', { timeout: 2_000 })
    expect(settled.status).toBe('done')
    expect(settled.value).toBe('stopped')
  })
})

describe('agent machine paths', () => {
  // The root treats every long-lived child alike, so two of them take every transition; each
  // more child doubles the vertices (which have failed) past the traversal limit.
  const pathChildren = agentChildNames.slice(0, 2)
  const input: AgentInput = { children: pathChildren, childInputs: {}, supervisor: { childRestartBaseMs: 10, childRestartMaxMs: 80 } }
  // What the world does to the root, as the events it becomes (docs/statecharts.md): a child
  // failing, the delayed respawn arriving, shutdownServices finishing or failing.
  const events: AnyEventObject[] = [
    { type: 'agent.shutdown' },
    ...pathChildren.flatMap((child) => [
      { type: 'agent.respawn', child },
      { type: `xstate.error.actor.${child}`, error: new Error(`${child} failed`) },
    ]),
    { type: 'xstate.done.actor.shutdownServices' },
    { type: 'xstate.error.actor.shutdownServices', error: new Error('flush failed') },
    // Stream sessions (docs/sessions.md; test/property/session-root.property.test.ts has more).
    { type: 'sessions.update', sessions: [{ sessionId: 'a', PlayMethod: 'direct', quality: 'original', filePath: '/m.mp4' }] },
    { type: 'sessions.update', sessions: [] },
    { type: 'session.stop', sessionId: 'a' },
    { type: 'xstate.done.actor.session:a' },
  ]
  // Restart counts grow without bound: a vertex only tells which children have failed.
  const paths = shortestPaths(agentMachine, {
    input,
    events,
    serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.status, Object.keys(snapshot.context.restarts).sort(), snapshot.context.sessions, snapshot.context.listedSessions]),
  })

  it('cover every transition of the root machine', () => {
    expect(allTransitions(agentMachine).length).toBeGreaterThan(0)
    expect(uncoveredTransitions(agentMachine, paths)).toEqual([])
  })

  it('never leave the root in its error state, and every shutdown path ends stopped', () => {
    for (const path of paths) {
      expect(path.state.status, describePath(path)).not.toBe('error')
      const events = path.steps.map((step) => step.event.type)
      const shutdownAt = events.indexOf('agent.shutdown')
      const servicesSettled = shutdownAt >= 0 && events.slice(shutdownAt).some((type) => type.endsWith('.actor.shutdownServices'))
      if (servicesSettled) expect(path.state.value, describePath(path)).toBe('stopped')
    }
  })
})
