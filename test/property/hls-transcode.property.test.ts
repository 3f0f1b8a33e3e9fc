import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate'
import { hlsTranscodeMachine, type FfmpegRunInput, type HlsTranscodeEvent, type ReadinessCheckInput } from '../../src/machines/hls-transcode.machine.js'

type Step =
  | { kind: 'exit'; code: number }
  | { kind: 'seek'; segment: number }
  | { kind: 'segment'; segment: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'closeFirstSegment' }
  | { kind: 'stop' }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(0, 1, 1, 137).map((code): Step => ({ kind: 'exit', code })),
  fc.nat(40).map((segment): Step => ({ kind: 'seek', segment })),
  fc.nat(40).map((segment): Step => ({ kind: 'segment', segment })),
  fc.constantFrom(50, 200, 1_000, 30_000, 61_000).map((ms): Step => ({ kind: 'tick', ms })),
  fc.constant<Step>({ kind: 'closeFirstSegment' }),
  fc.constant<Step>({ kind: 'stop' }),
)

const settle = async () => {
  for (let i = 0; i < 8; i++) await Promise.resolve()
}

describe('hls transcode statechart properties', () => {
  it('ready is posted at most once, no ffmpeg runs once the session ended, and early exits are restarted at most 3 times', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 40 }), fc.boolean(), async (steps, probeFails) => {
        const clock = new SimulatedClock()
        const running = new Map<number, (event: HlsTranscodeEvent) => void>()
        let starts = 0
        let ready = 0
        let timeouts = 0
        let failed = 0
        let firstSegmentClosed = false
        const machine = hlsTranscodeMachine.provide({
          actors: {
            probe: fromPromise<unknown, void>(async () => {
              if (probeFails) throw new Error('ffprobe failed')
              return {}
            }),
            ffmpeg: fromCallback<HlsTranscodeEvent, FfmpegRunInput>(({ input, sendBack }) => {
              starts++
              running.set(input.run, sendBack)
              return () => running.delete(input.run)
            }),
            checkReady: fromPromise<boolean, ReadinessCheckInput>(async () => firstSegmentClosed),
          },
          actions: {
            notifyReady: () => void ready++,
            notifyReadinessTimeout: () => void timeouts++,
            notifyFailed: () => void failed++,
          },
        })
        const actor = createActor(machine, { clock, input: { maxRestarts: 3, readinessPollMs: 200, readinessDeadlineMs: 60_000 } })
        actor.start()
        await settle()
        let seekStarts = 0
        for (const step of steps) {
          const context = actor.getSnapshot().context
          const ended = actor.getSnapshot().status === 'done'
          if (ended && (step.kind === 'seek' || step.kind === 'stop' || step.kind === 'segment')) continue
          switch (step.kind) {
            case 'exit':
              for (const [run, sendBack] of running) sendBack({ type: 'FFMPEG_EXITED', run, code: step.code, signal: null, stderrTail: ['boom'] })
              break
            case 'seek':
              if (actor.getSnapshot().status === 'active' && running.size > 0) seekStarts++
              else if (actor.getSnapshot().status === 'active' && JSON.stringify(actor.getSnapshot().value).includes('complete')) seekStarts++
              actor.send({ type: 'SEEK', segment: step.segment })
              break
            case 'segment':
              actor.send({ type: 'SEGMENT_WRITTEN', run: context.run, segment: step.segment })
              break
            case 'tick':
              clock.increment(step.ms)
              break
            case 'closeFirstSegment':
              firstSegmentClosed = true
              break
            case 'stop':
              actor.send({ type: 'STOP' })
              break
          }
          await settle()
          const snapshot = actor.getSnapshot()
          expect(ready).toBeLessThanOrEqual(1)
          expect(ready + timeouts).toBeLessThanOrEqual(1)
          expect(snapshot.context.restarts).toBeLessThanOrEqual(3)
          expect(running.size).toBeLessThanOrEqual(1)
          if (snapshot.status === 'done') expect(running.size).toBe(0)
          if (snapshot.value === 'failed') expect(failed).toBe(1)
        }
        // ffmpeg starts: the first, up to 3 restarts after early exits, and one per seek.
        expect(starts - seekStarts).toBeLessThanOrEqual(probeFails ? 0 : 4)
        if (actor.getSnapshot().status === 'active') actor.send({ type: 'STOP' })
        await settle()
        expect(actor.getSnapshot().status).toBe('done')
        expect(running.size).toBe(0)
        expect(failed).toBeLessThanOrEqual(1)
      }),
      { numRuns: 300 },
    )
  })

  it('readiness is checked every 200 ms and reported once when the first segment is closed', async () => {
    const clock = new SimulatedClock()
    let checks = 0
    let closed = false
    let ready = 0
    const machine = hlsTranscodeMachine.provide({
      actors: {
        probe: fromPromise<unknown, void>(async () => ({})),
        ffmpeg: fromCallback<HlsTranscodeEvent, FfmpegRunInput>(() => undefined),
        checkReady: fromPromise<boolean, ReadinessCheckInput>(async () => {
          checks++
          return closed
        }),
      },
      actions: { notifyReady: () => void ready++ },
    })
    const actor = createActor(machine, { clock, input: { maxRestarts: 3, readinessPollMs: 200, readinessDeadlineMs: 60_000 } })
    actor.start()
    await settle()
    clock.increment(199)
    await settle()
    expect(checks).toBe(0)
    clock.increment(1)
    await settle()
    expect(checks).toBe(1)
    for (let i = 0; i < 5; i++) {
      clock.increment(200)
      await settle()
    }
    expect(checks).toBe(6)
    closed = true
    clock.increment(200)
    await settle()
    clock.increment(200)
    await settle()
    expect(ready).toBe(1)
    expect(checks).toBe(7)
    clock.increment(120_000)
    await settle()
    expect(ready).toBe(1)
  })

  it('at 60 s without readiness it reports the timeout once and stops polling, without posting ready', async () => {
    const clock = new SimulatedClock()
    let checks = 0
    let timeouts = 0
    let ready = 0
    const machine = hlsTranscodeMachine.provide({
      actors: {
        probe: fromPromise<unknown, void>(async () => ({})),
        ffmpeg: fromCallback<HlsTranscodeEvent, FfmpegRunInput>(() => undefined),
        checkReady: fromPromise<boolean, ReadinessCheckInput>(async () => {
          checks++
          return false
        }),
      },
      actions: { notifyReady: () => void ready++, notifyReadinessTimeout: () => void timeouts++ },
    })
    const actor = createActor(machine, { clock, input: { maxRestarts: 3, readinessPollMs: 200, readinessDeadlineMs: 60_000 } })
    actor.start()
    await settle()
    for (let t = 0; t < 60_000; t += 200) {
      clock.increment(200)
      await settle()
    }
    expect(timeouts).toBe(1)
    const checksAtDeadline = checks
    clock.increment(10_000)
    await settle()
    expect(checks).toBe(checksAtDeadline)
    expect(ready).toBe(0)
    expect(actor.getSnapshot().status).toBe('active')
  })
})
