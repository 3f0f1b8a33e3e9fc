import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock, type AnyEventObject } from 'xstate'
import { addressesMachine, type AddressesInput, type UpnpMapping } from '../../src/machines/addresses.machine.js'
import { reachableEdges, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// The addresses actor (contract 1.11): the graph view takes every transition and checks that a
// UPnP IP is held exactly while mapped; the timed view runs it on a simulated clock against a
// fake router that answers or fails at random, and checks when it asks the router again.

const input: AddressesInput = { upnp: true, refreshMs: 300_000, retryMs: 60_000 }

describe('addresses statechart paths', () => {
  const machine = addressesMachine.provide({ actions: { reportUpnp: () => {}, logMappingFailed: () => {} } })
  const events: AnyEventObject[] = [
    { type: 'xstate.done.actor.mapPort', output: { externalIp: '81.2.69.160' } },
    { type: 'xstate.error.actor.mapPort', error: new Error('no UPnP gateway answered') },
    { type: 'xstate.after.refresh.addresses.mapped' },
    { type: 'xstate.after.retry.addresses.unmapped' },
  ]
  const edges = [true, false].flatMap((upnp) => reachableEdges(machine, {
    input: { ...input, upnp },
    events: (snapshot) => events.filter((event) => !event.type.includes('.actor.mapPort') || snapshot.children.mapPort !== undefined),
  }))

  it('takes every transition but the initial choice, which the next test checks', () => {
    expect(transitionsNotTakenBy(addressesMachine, edges).filter((key) => !key.startsWith('addresses.booting'))).toEqual([])
  })

  it('maps at start when [stream] upnp is on, and never asks the router when it is off', () => {
    expect(createActor(machine, { input }).getSnapshot().value).toBe('mapping')
    expect(createActor(machine, { input: { ...input, upnp: false } }).getSnapshot().value).toBe('off')
  })

  it('holds a UPnP IP exactly while the mapping is in place', () => {
    for (const { next } of edges) {
      if (next.value === 'mapped') expect(next.context.upnpIp).toBe('81.2.69.160')
      if (next.value === 'unmapped' || next.value === 'off') expect(next.context.upnpIp).toBeUndefined()
    }
  })
})

describe('addresses in time', () => {
  it('re-maps every refresh while the router answers and retries after the retry delay when it does not', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), async (answers) => {
      const clock = new SimulatedClock()
      const calls: number[] = []
      const reported: (string | undefined)[] = []
      let i = 0
      const machine = addressesMachine.provide({
        actors: {
          mapPort: fromPromise<UpnpMapping, void>(async () => {
            calls.push(clock.now())
            if (answers[i++ % answers.length]) return { externalIp: '81.2.69.160' }
            throw new Error('no UPnP gateway answered')
          }),
        },
        actions: { reportUpnp: (_, params) => void reported.push(params.ip), logMappingFailed: () => {} },
      })
      const settle = async () => {
        for (let k = 0; k < 6; k++) await Promise.resolve()
      }
      const actor = createActor(machine, { clock, input })
      actor.start()
      await settle()
      for (let round = 0; round < answers.length; round++) {
        const ok = answers[round % answers.length]!
        expect(reported.at(-1)).toBe(ok ? '81.2.69.160' : undefined)
        const wait = ok ? input.refreshMs : input.retryMs
        clock.increment(wait - 1)
        await settle()
        expect(calls).toHaveLength(round + 1)
        clock.increment(1)
        await settle()
        expect(calls).toHaveLength(round + 2)
      }
      actor.stop()
    }), { numRuns: 100 })
  })
})
