import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, SimulatedClock, waitFor, type AnyActorLogic } from 'xstate'
import { agentMachine, sessionActorId, type AgentInput } from '../../src/machines/agent.machine.js'
import { sessionMachine, type SessionEvent, type SessionMediaInput } from '../../src/machines/session.machine.js'
import type { SessionReport, StreamSession } from '../../src/protocol/wire.js'

// The root's side of stream sessions (docs/sessions.md): over random sync lists, stop_session
// controls, sources opening or failing and session actors crashing, the root runs exactly one
// `session:<id>` per listed session that has not finished, never respawns a session the server
// still lists after it ended, calls session-ready at most once per session, holds no source for a
// session that is not live, and never fails itself.

const ids = ['a', 'b', 'c', 'd'] as const
type Id = (typeof ids)[number]
const sessionOf = (id: string): StreamSession => ({ sessionId: id, filePath: `/media/${id}.mp4`, PlayMethod: 'direct', quality: 'original' })

type Command =
  | { kind: 'sync'; listed: Id[] }
  | { kind: 'stop'; id: Id }
  | { kind: 'open'; id: Id }
  | { kind: 'fail'; id: Id }
  | { kind: 'crash'; id: Id }
  | { kind: 'shutdown' }

const idArb = fc.constantFrom(...ids)
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.subarray([...ids]).map((listed) => ({ kind: 'sync' as const, listed })) },
  { weight: 2, arbitrary: idArb.map((id) => ({ kind: 'stop' as const, id })) },
  { weight: 3, arbitrary: idArb.map((id) => ({ kind: 'open' as const, id })) },
  { weight: 1, arbitrary: idArb.map((id) => ({ kind: 'fail' as const, id })) },
  { weight: 1, arbitrary: idArb.map((id) => ({ kind: 'crash' as const, id })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'shutdown' as const }) },
)

function startRoot() {
  const sources = new Map<string, { running: number; starts: number; sendBack?: (event: SessionEvent) => void; release?: () => void }>()
  const readyCalls: string[] = []
  const published: SessionReport[] = []
  const crashes: string[] = []
  const crashNext = new Set<string>()
  const session = sessionMachine.provide({
    actors: {
      directSource: fromCallback<SessionEvent, SessionMediaInput>(({ input, sendBack }) => {
        const record = sources.get(input.session.sessionId) ?? { running: 0, starts: 0 }
        sources.set(input.session.sessionId, record)
        record.running++
        record.starts++
        record.sendBack = sendBack
        let done = false
        record.release = () => {
          if (done) return
          done = true
          record.running--
          record.sendBack = undefined
        }
        return record.release
      }),
      sessionReady: fromPromise<void, { sessionId: string }>(async ({ input }) => {
        readyCalls.push(input.sessionId)
      }),
    },
    actions: {
      publish: (_, { report }) => {
        if (crashNext.delete(report.sessionId)) throw new Error('publish crashed')
        published.push(report)
      },
      log: () => {},
    },
  })
  const actors: Record<string, AnyActorLogic> = {
    controlPlane: fromCallback(() => () => {}),
    session,
    shutdownServices: fromPromise(async () => {}),
  }
  const clock = new SimulatedClock()
  const input: AgentInput = { children: ['controlPlane'], childInputs: {}, supervisor: { childRestartBaseMs: 10, childRestartMaxMs: 100 }, sessionInput: { readinessDeadlineMs: 60_000 } }
  const root = createActor(agentMachine.provide({
    actors: actors as never,
    // As implementations.ts does (session-bindings release): XState leaves a crashed actor's children running.
    actions: {
      reportSessionCrash: (_, { sessionId }) => {
        crashes.push(sessionId)
        sources.get(sessionId)?.release?.()
      },
    },
  }), { input, clock })
  const errors: unknown[] = []
  root.subscribe({ error: (error) => errors.push(error) })
  root.start()
  return { root, sources, readyCalls, published, crashes, crashNext, errors }
}

describe('the root and its stream sessions', () => {
  it('runs one actor per listed live session, ends the rest, and never respawns a finished one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { maxLength: 40 }), async (commands) => {
        const h = startRoot()
        const { root } = h
        /** The server's view: ids listed now, and ids it dropped (never listed again, like real ids). */
        let listed = new Set<Id>()
        const retired = new Set<string>()
        /** Ids whose actor finished (stopped, crashed) while still listed: must not come back. */
        const finished = new Set<string>()
        let shutDown = false
        try {
          for (const command of commands) {
            if (shutDown) break
            if (command.kind === 'shutdown') {
              root.send({ type: 'agent.shutdown' })
              await waitFor(root, (snapshot) => snapshot.status !== 'active', { timeout: 2_000 })
              shutDown = true
              break
            }
            if (command.kind === 'sync') {
              const next = new Set(command.listed.filter((id) => !retired.has(id)))
              for (const id of listed) {
                if (!next.has(id)) {
                  retired.add(id)
                  finished.delete(id)
                }
              }
              listed = next
              root.send({ type: 'sessions.update', sessions: [...listed].map(sessionOf) })
            } else if (command.kind === 'stop') {
              if (listed.has(command.id) && root.system.get(sessionActorId(command.id))) finished.add(command.id)
              root.send({ type: 'session.stop', sessionId: command.id })
            } else {
              const source = h.sources.get(command.id)
              if (source?.sendBack === undefined) continue
              if (command.kind === 'open') source.sendBack({ type: 'source.opened' })
              else if (command.kind === 'fail') source.sendBack({ type: 'source.failed', error: new Error('gone') })
              else {
                // The session's own code throws (here: its publish binding): the actor crashes.
                h.crashNext.add(command.id)
                source.sendBack({ type: 'source.failed', error: new Error('gone') })
                if (listed.has(command.id)) finished.add(command.id)
              }
            }
            await Promise.resolve()

            const snapshot = root.getSnapshot()
            expect(h.errors).toEqual([])
            expect(snapshot.status).toBe('active')
            for (const id of ids) {
              const actor = root.system.get(sessionActorId(id))
              const shouldRun = listed.has(id) && !finished.has(id)
              expect(actor !== undefined && actor.getSnapshot().status === 'active', `session:${id}`).toBe(shouldRun)
              const source = h.sources.get(id)
              expect(source?.running ?? 0, `source of ${id}`).toBeLessThanOrEqual(1)
              if (!shouldRun) expect(source?.running ?? 0, `source of ${id}`).toBe(0)
              // One actor per session for its whole life: the source was never started twice.
              expect(source?.starts ?? 0).toBeLessThanOrEqual(1)
              expect(h.readyCalls.filter((call) => call === id).length).toBeLessThanOrEqual(1)
            }
            // The root's children are the control plane and the live sessions, nothing else.
            const live = Object.keys(snapshot.children).filter((id) => id.startsWith('session:')).sort()
            expect(live).toEqual([...listed].filter((id) => !finished.has(id)).map(sessionActorId).sort())
            expect(new Set(h.crashes).size).toBe(h.crashes.length)
          }
          if (!shutDown) {
            root.send({ type: 'agent.shutdown' })
            await waitFor(root, (snapshot) => snapshot.status !== 'active', { timeout: 2_000 })
          }
          expect(root.getSnapshot().value).toBe('stopped')
          for (const id of ids) expect(h.sources.get(id)?.running ?? 0).toBe(0)
        } finally {
          root.stop()
        }
      }),
      { numRuns: 200 },
    )
  })
})
