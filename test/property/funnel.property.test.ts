import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { funnelMachine, funnelRestartDelayMs, funnelStateName, type FunnelEvent, type FunnelInput, type HelperInput } from '../../src/machines/funnel.machine.js'
import { internalEvents, reachableEdges, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// Two views of the funnel supervisor (protocol.md 7.4). The graph view walks the pure machine
// with every event, XState's timer and actor events included, and checks the URL rules on every
// edge. The timed view runs the real actor on a simulated clock with fake helpers through random
// exits, rotations, switches and hours of time, and checks the backoff it actually waited.

const input: FunnelInput = {
  enabled: true,
  restartBaseMs: 2_000,
  restartMaxMs: 300_000,
  rateLimitedRestartMs: 60_000,
  healthyResetMs: 3_600_000,
  startTimeoutMs: 60_000,
}

const exited = (rateLimited = false): FunnelEvent => ({ type: 'funnel.helper.exited', code: 1, signal: null, rateLimited, stderrTail: ['boom'] })

describe('funnel statechart paths', () => {
  const events: AnyEventObject[] = [
    ...internalEvents(funnelMachine).filter((event) => !event.type.startsWith('funnel.helper') && event.type !== 'xstate.done.actor.ensureHelper'),
    { type: 'xstate.done.actor.ensureHelper', output: '/state/bin/cloudflared' },
    { type: 'funnel.helper.ready', url: 'https://one.trycloudflare.com' },
    { type: 'funnel.helper.ready', url: 'https://two.trycloudflare.com' },
    exited(false),
    exited(true),
    { type: 'xstate.after.startTimeout.funnel.on.live.starting' },
    { type: 'xstate.after.healthyReset.funnel.on.live.up' },
    { type: 'xstate.after.restart.funnel.on.backoff' },
  ]
  const machine = funnelMachine.provide({ actions: { reportUrl: () => {}, logExit: () => {} } })
  const serialize = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify({ value: snapshot.value, url: snapshot.context.url, failures: Math.min(snapshot.context.failures, 2), rateLimited: snapshot.context.rateLimited, enabled: snapshot.context.enabled })
  const edgesFrom = (enabled: boolean) => reachableEdges(machine, {
    input: { ...input, enabled },
    events: (snapshot) => events.filter((event) => {
      const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      return !actorEvent || snapshot.children[actorEvent[2]!] !== undefined
    }),
    serializeState: serialize,
  })
  const edges = [...edgesFrom(true), ...edgesFrom(false)]

  it('takes every transition of the machine from some reachable state', () => {
    // The two `booting` transitions run inside the initial snapshot, before any edge: the next test.
    expect(transitionsNotTakenBy(funnelMachine, edges).filter((key) => !key.startsWith('funnel.booting'))).toEqual([])
  })

  it('starts on or off as the config says', () => {
    expect(funnelStateName(createActor(machine, { input }).getSnapshot().value)).toBe('preparing')
    expect(funnelStateName(createActor(machine, { input: { ...input, enabled: false } }).getSnapshot().value)).toBe('off')
  })

  it('holds a URL only while the helper is up, and never while off or backing off', () => {
    for (const { next } of edges) {
      const state = funnelStateName(next.value)
      if (state !== 'up') expect(next.context.url, JSON.stringify(next.value)).toBe('')
      else expect(next.context.url).toMatch(/^https:\/\/\w+\.trycloudflare\.com$/)
    }
  })

  it('counts a failure on every way down and runs no helper while off or backing off', () => {
    for (const { prev, event, next } of edges) {
      const to = funnelStateName(next.value)
      if (to === 'backoff' && funnelStateName(prev.value) !== 'backoff') expect(next.context.failures, event.type).toBe(prev.context.failures + 1)
      if (to === 'off' || to === 'backoff') expect(next.children.helper).toBeUndefined()
    }
  })
})

describe('funnel backoff in time', () => {
  function harness(initial: Partial<FunnelInput> = {}) {
    const clock = new SimulatedClock()
    const helpers: { sendBack: (event: FunnelEvent) => void; startedAt: number; stoppedAt?: number }[] = []
    const reports: { url: string; at: number }[] = []
    const machine = funnelMachine.provide({
      actors: {
        ensureHelper: fromPromise<string, void>(async () => '/state/bin/cloudflared'),
        helper: fromCallback<FunnelEvent, HelperInput>(({ sendBack }) => {
          const helper: (typeof helpers)[number] = { sendBack, startedAt: clock.now() }
          helpers.push(helper)
          return () => {
            helper.stoppedAt = clock.now()
          }
        }),
      },
      actions: { reportUrl: (_, params) => void reports.push({ url: params.url, at: clock.now() }), logExit: () => {} },
    })
    const actor = createActor(machine, { clock, input: { ...input, ...initial } })
    actor.start()
    const settle = async () => {
      for (let i = 0; i < 6; i++) await Promise.resolve()
    }
    const live = () => helpers.filter((helper) => helper.stoppedAt === undefined)
    return { clock, helpers, reports, actor, settle, live }
  }

  it('restarts after 2 s, 4 s, 8 s ... and never waits more than 5 min, clearing the URL at each exit', async () => {
    const h = harness()
    await h.settle()
    const waits: number[] = []
    for (let round = 0; round < 11; round++) {
      expect(h.live()).toHaveLength(1)
      h.live()[0]!.sendBack({ type: 'funnel.helper.ready', url: `https://r${round}.trycloudflare.com` })
      await h.settle()
      expect(h.reports.at(-1)?.url).toBe(`https://r${round}.trycloudflare.com`)
      const exitAt = h.clock.now()
      h.live()[0]!.sendBack(exited())
      await h.settle()
      expect(h.reports.at(-1)).toEqual({ url: '', at: exitAt })
      const before = h.helpers.length
      while (h.helpers.length === before) {
        h.clock.increment(500)
        await h.settle()
      }
      waits.push(h.helpers.at(-1)!.startedAt - exitAt)
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map((s) => s * 1000))
  })

  it('starts the backoff at 2 s again after an hour up, and waits at least a minute after a rate limit', async () => {
    const h = harness()
    await h.settle()
    for (let i = 0; i < 4; i++) {
      h.live()[0]!.sendBack(exited())
      await h.settle()
      h.clock.increment(300_000)
      await h.settle()
    }
    expect(h.actor.getSnapshot().context.failures).toBe(4)
    h.live()[0]!.sendBack({ type: 'funnel.helper.ready', url: 'https://steady.trycloudflare.com' })
    await h.settle()
    h.clock.increment(3_600_000)
    await h.settle()
    expect(h.actor.getSnapshot().context.failures).toBe(0)
    const exitAt = h.clock.now()
    h.live()[0]!.sendBack(exited(true))
    await h.settle()
    expect(funnelRestartDelayMs(h.actor.getSnapshot().context)).toBe(60_000)
    h.clock.increment(59_999)
    await h.settle()
    expect(h.live()).toHaveLength(0)
    h.clock.increment(1)
    await h.settle()
    expect(h.live()).toHaveLength(1)
    expect(h.helpers.at(-1)!.startedAt - exitAt).toBe(60_000)
  })

  it('reports a rotated URL at once, and clears it the moment the funnel is turned off', async () => {
    const h = harness()
    await h.settle()
    h.live()[0]!.sendBack({ type: 'funnel.helper.ready', url: 'https://first.trycloudflare.com' })
    await h.settle()
    h.live()[0]!.sendBack({ type: 'funnel.helper.ready', url: 'https://second.trycloudflare.com' })
    await h.settle()
    expect(h.reports.map((r) => r.url)).toEqual(['https://first.trycloudflare.com', 'https://second.trycloudflare.com'])
    h.actor.send({ type: 'funnel.disable' })
    await h.settle()
    expect(h.reports.at(-1)?.url).toBe('')
    expect(h.live()).toHaveLength(0)
    expect(funnelStateName(h.actor.getSnapshot().value)).toBe('off')
  })

  it('under any sequence of exits, rotations, switches and time: one helper at most, a URL only while up, backoff within 2 s..5 min', async () => {
    type Step =
      | { kind: 'ready'; name: string }
      | { kind: 'exit'; rateLimited: boolean }
      | { kind: 'enable' | 'disable' }
      | { kind: 'tick'; ms: number }
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constantFrom('a', 'b', 'c').map((name): Step => ({ kind: 'ready', name })),
      fc.boolean().map((rateLimited): Step => ({ kind: 'exit', rateLimited })),
      fc.constantFrom<Step>({ kind: 'enable' }, { kind: 'disable' }),
      fc.constantFrom(500, 2_000, 60_000, 300_000, 3_600_000).map((ms): Step => ({ kind: 'tick', ms })),
    )
    await fc.assert(fc.asyncProperty(fc.boolean(), fc.array(step, { maxLength: 40 }), async (enabled, steps) => {
      const h = harness({ enabled })
      await h.settle()
      for (const s of steps) {
        const current = h.live()[0]
        if (s.kind === 'ready') current?.sendBack({ type: 'funnel.helper.ready', url: `https://${s.name}.trycloudflare.com` })
        else if (s.kind === 'exit') current?.sendBack(exited(s.rateLimited))
        else if (s.kind === 'tick') h.clock.increment(s.ms)
        else h.actor.send({ type: s.kind === 'enable' ? 'funnel.enable' : 'funnel.disable' })
        await h.settle()
        const snapshot = h.actor.getSnapshot()
        const state = funnelStateName(snapshot.value)
        expect(h.live().length).toBeLessThanOrEqual(1)
        expect(h.live().length === 1).toBe(state === 'starting' || state === 'up')
        expect(snapshot.context.url !== '').toBe(state === 'up')
        expect(h.reports.at(-1)?.url ?? '').toBe(snapshot.context.url)
        const delay = funnelRestartDelayMs(snapshot.context)
        if (state === 'backoff') expect(delay >= 2_000 && delay <= 300_000).toBe(true)
      }
      h.actor.stop()
    }), { numRuns: 200 })
  })
})
