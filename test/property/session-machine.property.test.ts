import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { sessionMachine, sessionReportOf, type SessionEvent, type SessionInput, type SessionSnapshot } from '../../src/machines/session.machine.js'
import { allTransitions, describePath, internalEvents, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'
import { directSession, flush, hlsSession, readinessDeadlineMs, sessionHarness } from '../unit/session-fakes.js'

// docs/sessions.md: every transition of the session machine is taken by a generated path, and
// over random event sequences and simulated time a session calls session-ready at most once,
// never after its readiness deadline, and holds no source or engine once it has ended or failed.

describe('session machine paths', () => {
  const events: AnyEventObject[] = [
    ...internalEvents(sessionMachine),
    { type: 'source.failed', error: new Error('source gone') },
    { type: 'engine.failed', error: new Error('ffmpeg gave up') },
    { type: 'engine.ready', cacheHit: true },
    { type: 'media.fetched' },
    { type: 'session.end', reason: 'removed' },
    { type: 'session.end', reason: 'stopped' },
  ]
  const serializeState = (snapshot: SessionSnapshot) => JSON.stringify([snapshot.value, snapshot.status, snapshot.context.cacheHit, snapshot.context.error !== undefined])
  // An invoked actor's done/error only arrives while it runs: offer them only then.
  const eventsIn = (snapshot: AnyMachineSnapshot) => events.filter((event) => {
    const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    return match === null || snapshot.children[match[2]!] !== undefined
  })
  const inputs: SessionInput[] = [directSession, hlsSession].map((session) => ({ session, readinessDeadlineMs }))
  const paths = inputs.flatMap((input) => shortestPaths(sessionMachine, { input, events: eventsIn, serializeState: serializeState as never }))

  it('cover every transition of the session machine, for both kinds', () => {
    expect(allTransitions(sessionMachine).length).toBeGreaterThan(10)
    // The dispatch by kind is taken while the initial snapshot is made, which the replay of the
    // paths does not see: check it on the initial snapshots instead.
    const initial = inputs.map((input) => Object.keys(createActor(sessionMachine, { input }).getSnapshot().value as object)[0])
    expect(initial).toEqual(['direct', 'hls'])
    const dispatch = ['session.start --always [isHls] #1--> session.hls', 'session.start --always #2--> session.direct']
    expect(uncoveredTransitions(sessionMachine, paths).filter((key) => !dispatch.includes(key))).toEqual([])
  })

  it('never leave a session in its error state, and report what the state says', () => {
    for (const path of paths) {
      const snapshot = path.state as unknown as SessionSnapshot
      expect(snapshot.status, describePath(path)).not.toBe('error')
      const report = sessionReportOf(snapshot)
      if (snapshot.status === 'done') expect(report.state, describePath(path)).toBe('ended')
      if (snapshot.matches('failed')) expect(report.error, describePath(path)).toBeDefined()
    }
  })

  it('play only once ready, report ready while playing, and stay playing until the session fails or ends', () => {
    let playingPaths = 0
    for (const path of paths) {
      let before = false
      for (const step of path.steps) {
        const snapshot = step.state as unknown as SessionSnapshot
        const playing = /"playing"/.test(JSON.stringify(snapshot.value))
        if (playing) expect(sessionReportOf(snapshot).state, describePath(path)).toBe('ready')
        if (before && !playing) expect(snapshot.status === 'done' || snapshot.matches('failed'), describePath(path)).toBe(true)
        before = playing
      }
      if (before) playingPaths++
    }
    expect(playingPaths).toBeGreaterThan(0)
  })

  it('enter ready (and so announce) at most once along any path', () => {
    for (const path of paths) {
      const inReady = path.steps.map((step) => /"ready"/.test(JSON.stringify((step.state as unknown as SessionSnapshot).value)))
      const entries = inReady.filter((ready, i) => ready && !inReady[i - 1]).length
      expect(entries, describePath(path)).toBeLessThanOrEqual(1)
    }
  })
})

type Command =
  | { kind: 'event'; event: SessionEvent }
  | { kind: 'advance'; ms: number }
  | { kind: 'settleCall'; ok: boolean }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<SessionEvent>(
      { type: 'source.opened' },
      { type: 'source.failed', error: new Error('gone') },
      { type: 'engine.ready', cacheHit: false },
      { type: 'engine.ready', cacheHit: true },
      { type: 'engine.readinessTimeout' },
      { type: 'engine.failed', error: new Error('ffmpeg') },
      { type: 'media.fetched' },
      { type: 'session.end', reason: 'removed' },
      { type: 'session.end', reason: 'stopped' },
    ).map((event) => ({ kind: 'event' as const, event })),
  },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40_000 }).map((ms) => ({ kind: 'advance' as const, ms })) },
  { weight: 2, arbitrary: fc.boolean().map((ok) => ({ kind: 'settleCall' as const, ok })) },
)

describe('session machine under random events and time', () => {
  it('calls session-ready at most once, never past the deadline, and runs nothing once ended or failed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(directSession, hlsSession), fc.array(commandArb, { maxLength: 30 }), async (session, commands) => {
        const h = sessionHarness(session, { readyCall: 'pending' })
        try {
          for (const command of commands) {
            if (command.kind === 'advance') h.clock.increment(command.ms)
            else if (command.kind === 'settleCall') {
              const call = h.readyCalls.at(-1)
              if (command.ok) call?.resolve()
              else call?.reject(new Error('network'))
              await flush()
            } else if (h.actor.getSnapshot().status === 'active') {
              // The media actors only send while they run; the root sends session.end any time.
              const media = command.event.type.startsWith('source.') ? h.source : command.event.type.startsWith('engine.') ? h.engine : undefined
              if (media === undefined) h.actor.send(command.event)
              else if (media.running > 0) media.send(command.event)
            }

            const snapshot = h.actor.getSnapshot()
            expect(h.errors).toEqual([])
            expect(snapshot.status).not.toBe('error')
            expect(h.readyCalls.length).toBeLessThanOrEqual(1)
            expect(h.source.running + h.engine.running).toBeLessThanOrEqual(1)
            if (session.PlayMethod === 'hls') expect(h.source.started).toBe(0)
            else expect(h.engine.started).toBe(0)
            const finished = snapshot.status === 'done' || snapshot.matches('failed')
            if (finished) expect(h.source.running + h.engine.running).toBe(0)
            // Once ready was published it stays the last word until failed or ended.
            const states = h.published.map((entry) => entry.report.state)
            expect(states.filter((state) => state === 'ready').length).toBeLessThanOrEqual(1)
            expect(states.filter((state) => state === 'ended').length).toBeLessThanOrEqual(1)
          }
          const call = h.readyCalls[0]
          if (call !== undefined && session.PlayMethod === 'hls') {
            const readyAt = h.published.find((entry) => entry.report.state === 'ready')!.at
            expect(readyAt).toBeLessThan(readinessDeadlineMs)
          }
        } finally {
          h.stop()
        }
      }),
      { numRuns: 300 },
    )
  })
})
