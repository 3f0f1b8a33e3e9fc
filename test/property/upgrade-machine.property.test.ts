import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { upgradeMachine, type UpgradeContext, type UpgradeInput, type UpgradeSupervisor } from '../../src/machines/upgrade.machine.js'
import type { UpgradeOffer, UpgradeResult } from '../../src/protocol/wire.js'
import { allTransitions, describePath, internalEvents, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'

// protocol.md 7.5 and contract 7 ("reported through upgrade-result, so the agent does not
// loop"): every transition of the upgrade machine is taken by a generated path; along every
// path at most one result is posted per target while the server's flag stays up; and over
// random syncs, registrations and service outcomes (a real actor with faithful fakes), every
// request ends in exactly one posted result or in the exit for the new version.

const current = '1.0.0'
const offerFor = (targetVersion: string): UpgradeOffer => ({ targetVersion, artifactUrl: `http://files/${targetVersion}.tgz`, sha256: 'a'.repeat(64) })
const flagUp = (targetVersion: string, cycle = 1) => ({ type: 'upgrade.sync' as const, requested: true, offer: offerFor(targetVersion), cycle })
const flagDown = (cycle = 1) => ({ type: 'upgrade.sync' as const, requested: false, cycle })

describe('upgrade machine paths', () => {
  const events: AnyEventObject[] = [
    ...internalEvents(upgradeMachine).filter((event) => !event.type.startsWith('upgrade.') && event.type !== 'xstate.done.actor.download'),
    flagUp(current),
    flagUp('1.1.0'),
    flagDown(),
    { type: 'upgrade.sync', requested: true, cycle: 1 },
    { type: 'upgrade.registered' },
    { type: 'upgrade.manual', afterCycle: 0 },
    { type: 'xstate.done.actor.download', output: { artifactPath: '/v/a.tgz' } },
  ]
  const inputs: UpgradeInput[] = [
    ...(['restart', 'container', 'none'] as UpgradeSupervisor[]).map((supervisor) => ({ currentVersion: current, supervisor })),
    { currentVersion: current, supervisor: 'restart', justInstalled: { fromVersion: '0.9.0', toVersion: current } },
    { currentVersion: current, supervisor: 'restart', unposted: [{ outcome: 'failure', fromVersion: current, toVersion: '1.2.0', error: 'rolled back' }], justInstalled: { fromVersion: '0.9.0', toVersion: current } },
    { currentVersion: current, supervisor: 'restart', unposted: [{ outcome: 'noop', fromVersion: current, toVersion: current }, { outcome: 'failure', fromVersion: current, toVersion: '1.2.0', error: 'x' }] },
  ]
  // An invoked actor's done/error only arrives while it runs; the retry delay only in its state.
  const eventsIn = (snapshot: AnyMachineSnapshot) => events.filter((event) => {
    const invoked = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    if (invoked) return snapshot.children[invoked[2]!] !== undefined
    if (event.type.startsWith('xstate.after.')) return snapshot.matches('reportBackoff')
    return true
  })
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as UpgradeContext
    return JSON.stringify([snapshot.value, context.reported, context.queue.map((result) => `${result.outcome} ${result.toVersion}`), context.justInstalled?.toVersion, context.offer?.targetVersion, context.manualAfter !== undefined, context.forgetInFlight])
  }
  const paths = inputs.flatMap((input) => shortestPaths(upgradeMachine, { input, events: eventsIn, serializeState }))

  it('cover every transition of the upgrade machine', () => {
    expect(allTransitions(upgradeMachine).length).toBeGreaterThan(20)
    // The boot dispatch happens while the initial snapshot is made, which path replay does not see.
    const boot = allTransitions(upgradeMachine).filter((transition) => transition.source === 'upgrade.boot').map((transition) => transition.key)
    expect(uncoveredTransitions(upgradeMachine, paths).filter((key) => !boot.includes(key))).toEqual([])
    const initial = inputs.map((input) => createActor(upgradeMachine, { input }).getSnapshot().value)
    expect(initial).toEqual(['idle', 'idle', 'idle', 'confirming', 'reporting', 'reporting'])
  })

  it('decide at most one result per target while the flag stays up, and post each decided result once', () => {
    let reports = 0
    for (const path of paths) {
      // A result belongs to the request during which it was decided (it joined the queue),
      // whenever its post lands.
      const decided = new Map<string, number>()
      for (let i = 1; i < path.steps.length; i++) {
        const event = path.steps[i]!.event
        const before = (path.steps[i - 1]!.state as unknown as { context: UpgradeContext }).context
        const after = (path.steps[i]!.state as unknown as { context: UpgradeContext }).context
        if (event.type === 'upgrade.sync' && !(event as unknown as { requested: boolean }).requested) decided.clear()
        if (event.type === 'upgrade.manual') decided.clear()
        // The queue only grows at its tail and only a finished post takes its head.
        const removed = event.type === 'xstate.done.actor.report' ? 1 : 0
        expect(after.queue.slice(0, before.queue.length - removed), describePath(path)).toEqual(before.queue.slice(removed))
        for (const result of after.queue.slice(before.queue.length - removed)) {
          decided.set(result.toVersion, (decided.get(result.toVersion) ?? 0) + 1)
          expect(decided.get(result.toVersion), describePath(path)).toBe(1)
        }
        reports += removed
      }
      const snapshot = path.state as unknown as AnyMachineSnapshot
      expect(snapshot.status, describePath(path)).not.toBe('error')
    }
    expect(reports).toBeGreaterThan(10)
  })

  it('exit for a restart only after a verified download and an install, and report nothing itself then', () => {
    for (const path of paths) {
      const types = path.steps.map((step) => step.event.type)
      const enteredAt = path.steps.findIndex((step) => (step.state as unknown as AnyMachineSnapshot).matches('restarting'))
      if (enteredAt < 0) continue
      expect(types[enteredAt], describePath(path)).toBe('xstate.done.actor.install')
      expect(types.lastIndexOf('xstate.done.actor.download', enteredAt), describePath(path)).toBeGreaterThan(0)
      // Nothing moves it from there: the old process only exits.
      for (const step of path.steps.slice(enteredAt)) expect((step.state as unknown as AnyMachineSnapshot).matches('restarting'), describePath(path)).toBe(true)
      expect(types.slice(enteredAt), describePath(path)).not.toContain('xstate.done.actor.report')
    }
  })
})

// ---- the real actor, random worlds ----

type Command =
  | { kind: 'sync'; requested: boolean; target: string | undefined }
  | { kind: 'registered' }
  | { kind: 'settle'; ok: boolean }
  | { kind: 'advance'; ms: number }

const targets = [current, '1.1.0', '1.2.0']
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ requested: fc.boolean(), target: fc.option(fc.constantFrom(...targets), { nil: undefined, freq: 8 }) }).map((sync) => ({ kind: 'sync' as const, ...sync })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'registered' as const }) },
  { weight: 4, arbitrary: fc.boolean().map((ok) => ({ kind: 'settle' as const, ok })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((ms) => ({ kind: 'advance' as const, ms })) },
)

interface Pending {
  name: 'download' | 'install' | 'report'
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

function world(input: UpgradeInput) {
  const posted: UpgradeResult[] = []
  const pending: Pending[] = []
  let exits = 0
  const call = (name: Pending['name'], onOk?: () => unknown) => fromPromise<unknown, unknown>(() => new Promise((resolve, reject) => {
    pending.push({ name, resolve: () => resolve(onOk?.()), reject })
  }))
  const clock = new SimulatedClock()
  let reportInput: UpgradeResult | undefined
  const machine = upgradeMachine.provide({
    actors: {
      download: call('download', () => ({ artifactPath: '/v/artifact.tgz' })) as never,
      install: call('install') as never,
      report: fromPromise<void, { result: UpgradeResult }>(({ input: { result } }) => new Promise((resolve, reject) => {
        reportInput = result
        pending.push({ name: 'report', resolve: () => { posted.push(result); resolve() }, reject })
      })),
    },
    actions: { exitForRestart: () => { exits++ } },
    delays: { reportRetry: 5_000 },
  })
  const actor = createActor(machine, { input, clock })
  actor.start()
  return { actor, clock, posted, pending, exits: () => exits, lastReport: () => reportInput }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('upgrade actor over random syncs and service outcomes', () => {
  it('answers every request with exactly one posted result per target, or with the exit for the new version', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<UpgradeSupervisor>('restart', 'container', 'none'), fc.array(commandArb, { maxLength: 40 }), async (supervisor, commands) => {
        const { actor, clock, posted, pending, exits } = world({ currentVersion: current, supervisor })
        /** Targets requested since the flag was last seen down, and what was posted for each since. */
        let requested = new Set<string>()
        let postedSince: UpgradeResult[] = []
        /** Results decided before the flag was last seen down: they answer the earlier request. */
        let stale = new Set<UpgradeResult>()
        let cycle = 0
        const observePosts = (before: number) => { postedSince.push(...posted.slice(before).filter((result) => !stale.has(result))) }
        for (const command of commands) {
          if (exits() > 0) break // the process is gone; its successor takes over
          const before = posted.length
          if (command.kind === 'sync') {
            cycle++
            const event = command.target === undefined
              ? { type: 'upgrade.sync' as const, requested: command.requested, cycle }
              : { type: 'upgrade.sync' as const, requested: command.requested, offer: offerFor(command.target), cycle }
            actor.send(event)
            if (!command.requested) {
              requested = new Set()
              postedSince = []
              stale = new Set(actor.getSnapshot().context.queue)
            }
            if (command.requested && command.target !== undefined) requested.add(command.target)
          } else if (command.kind === 'registered') {
            actor.send({ type: 'upgrade.registered' })
          } else if (command.kind === 'settle') {
            const next = pending.shift()
            if (next) {
              if (command.ok) next.resolve(undefined)
              else next.reject(new Error(`${next.name} failed`))
            }
          } else {
            clock.increment(command.ms)
          }
          await flush()
          observePosts(before)
          // No loop: never two results for one target while the flag stays up.
          const perTarget = new Map<string, number>()
          for (const result of postedSince) perTarget.set(result.toVersion, (perTarget.get(result.toVersion) ?? 0) + 1)
          for (const [target, count] of perTarget) expect(count, `results for ${target}`).toBe(1)
          expect(actor.getSnapshot().status).toBe('active')
        }
        if (exits() > 0) {
          expect(actor.getSnapshot().value).toBe('restarting')
          return
        }
        // Let the world go on: every service answers, the server keeps repeating the flag.
        let echoed = false
        for (let round = 0; round < 30; round++) {
          const before = posted.length
          const next = pending.shift()
          if (next) next.resolve(undefined)
          else if (actor.getSnapshot().matches('idle') && requested.size > 0) {
            const unanswered = [...requested].find((target) => !postedSince.some((result) => result.toVersion === target))
            cycle++
            if (unanswered !== undefined) actor.send(flagUp(unanswered, cycle))
            else if (!echoed) {
              // A sync that left before the result landed still shows the flag up: no new attempt.
              echoed = true
              actor.send(flagUp([...requested][0]!, cycle))
            } else break
          } else clock.increment(5_000)
          await flush()
          observePosts(before)
          if (exits() > 0) break
        }
        if (exits() > 0) {
          expect(supervisor).toBe('restart')
          return
        }
        for (const target of requested) {
          const results = postedSince.filter((result) => result.toVersion === target)
          expect(results, `results for ${target}`).toHaveLength(1)
          if (target === current) expect(results[0]!.outcome).toBe('noop')
          else if (supervisor === 'container') expect(results[0]).toMatchObject({ outcome: 'failure', error: 'managed externally' })
          else expect(results[0]!.outcome).toBe('failure')
        }
        actor.stop()
      }),
      { numRuns: 150 },
    )
  })

  it('the version just installed reports success once registered, after posting a result a rollback left behind', async () => {
    const rollback: UpgradeResult = { outcome: 'failure', fromVersion: '0.9.0', toVersion: '1.2.0', error: 'version 1.2.0 did not come up' }
    const { actor, posted, pending } = world({ currentVersion: current, supervisor: 'restart', unposted: [rollback], justInstalled: { fromVersion: '0.9.0', toVersion: current } })
    pending.shift()!.resolve(undefined)
    await flush()
    expect(actor.getSnapshot().value).toBe('confirming')
    // A sync for its own target while it waits for registration is no no-op: success is coming.
    actor.send(flagUp(current))
    expect(actor.getSnapshot().value).toBe('confirming')
    actor.send({ type: 'upgrade.registered' })
    pending.shift()!.resolve(undefined)
    await flush()
    expect(posted).toEqual([rollback, { outcome: 'success', fromVersion: '0.9.0', toVersion: current }])
    actor.send(flagUp(current))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(pending).toEqual([])
  })
})
