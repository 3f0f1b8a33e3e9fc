import { describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { vpnMachine, vpnStateName } from '../../src/machines/vpn.machine.js'
import { vpnSettingsFrom } from '../../src/system/vpn-part.js'
import { reachableEdges, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// The vpn statechart walked as a graph (no time, no I/O): every event, XState's delayed and actor
// events included, from every reachable state. Checked on every edge are the privacy rules of
// protocol.md 7.3: torrent traffic is in the clear only when the VPN is off or the server
// refused with a typed error; a non-typed failure never opens the clear; the route changes to
// the clear only on such an edge; VPNActive (state up) needs a healthy sample.

// The real defaults (defaults.ts): 180 s, 30 s, 2 min, 5 s doubling to 5 min, 10 min.
const settings = vpnSettingsFrom({ testing: {} })

const refusal = (code: string) => ({ refusal: code, message: code })
const events: AnyEventObject[] = [
  { type: 'vpn.enable' },
  { type: 'vpn.disable' },
  { type: 'vpn.sample', handshakeAgeMs: 10, retryingForMs: 0 },
  { type: 'vpn.sample', handshakeAgeMs: null, retryingForMs: 0 },
  { type: 'vpn.sample', handshakeAgeMs: 10, retryingForMs: 31_000 },
  { type: 'vpn.sample', handshakeAgeMs: 180_000, retryingForMs: 0 },
  { type: 'vpn.tunnelFailed', message: 'bad config' },
  { type: 'xstate.done.actor.fetchConfig', output: { privateConfig: '[Interface]', exitServer: 'exit-1' } },
  { type: 'xstate.error.actor.fetchConfig', error: refusal('disabled') },
  { type: 'xstate.error.actor.fetchConfig', error: refusal('slot_on_device') },
  { type: 'xstate.error.actor.fetchConfig', error: { message: 'ECONNREFUSED' } },
  { type: 'xstate.done.actor.claim', output: { privateConfig: '[Interface]', exitServer: 'exit-2' } },
  { type: 'xstate.error.actor.claim', error: refusal('slot_on_device') },
  { type: 'xstate.error.actor.claim', error: { message: 'timeout' } },
  { type: 'xstate.after.retry.vpn.failed' },
  { type: 'xstate.after.refetch.vpn.tunnel.connecting' },
  { type: 'xstate.after.refetch.vpn.tunnel.down' },
]

const serialize = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as { enabled: boolean; route: string; refused: boolean; refusal?: string; error?: string; failures: number; exitServer: string }
  return JSON.stringify({ value: snapshot.value, enabled: c.enabled, route: c.route, refused: c.refused, refusal: c.refusal, error: c.error, failures: Math.min(c.failures, 2), exitServer: c.exitServer })
}

function options(enabled: boolean) {
  return {
    input: { enabled, agentId: 'agent-1', settings },
    // Completion and error events only come from children that exist.
    events: (snapshot: AnyMachineSnapshot) => events.filter((event) => {
      const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      return !actorEvent || snapshot.children[actorEvent[2]!] !== undefined
    }),
    serializeState: serialize,
    limit: 100_000,
  }
}

describe('vpn statechart paths', () => {
  const edges = [...reachableEdges(vpnMachine, options(true)), ...reachableEdges(vpnMachine, options(false))]

  it('takes every transition of the machine from some reachable state', () => {
    // `start` is left in the initial microstep, which is no edge: the two inputs check it below.
    expect(transitionsNotTakenBy(vpnMachine, edges).filter((key) => !key.startsWith('vpn.start '))).toEqual([])
  })

  it('starts holding torrent traffic for the tunnel when enabled, and in the clear when not', () => {
    const on = reachableEdges(vpnMachine, options(true))[0]!.prev
    const off = reachableEdges(vpnMachine, options(false))[0]!.prev
    expect([vpnStateName(on.value), on.context.route]).toEqual(['fetching', 'tunnel'])
    expect([vpnStateName(off.value), off.context.route]).toEqual(['off', 'clear'])
  })

  it('routes torrent traffic in the clear only when the VPN is off or the server refused with a typed error', () => {
    for (const { next } of edges) {
      const c = next.context as { route: string; refusal?: string }
      if (c.route !== 'clear') continue
      const state = vpnStateName(next.value)
      const refused = ['disabled', 'not_provisioned', 'slot_on_device'].includes(c.refusal ?? '')
      expect(state === 'off' || refused, `${state} ${JSON.stringify(c)}`).toBe(true)
      expect(['off', 'failed', 'fetching']).toContain(state)
    }
  })

  it('never moves from the tunnel to the clear on a non-typed failure, a down tunnel or a timer', () => {
    for (const { prev, event, next } of edges) {
      if ((prev.context as { route: string }).route !== 'tunnel' || (next.context as { route: string }).route !== 'clear') continue
      const typedRefusal = /^xstate\.error\.actor\.(fetchConfig|claim)$/.test(event.type) && typeof (event as { error?: { refusal?: string } }).error?.refusal === 'string'
      expect(event.type === 'vpn.disable' || typedRefusal, `${event.type} took the route to the clear`).toBe(true)
    }
  })

  it('is up (VPNActive) only after a sample with a fresh handshake and no long unanswered retry', () => {
    for (const { prev, event, next } of edges) {
      if (vpnStateName(next.value) !== 'up' || vpnStateName(prev.value) === 'up') continue
      expect(event).toMatchObject({ type: 'vpn.sample', handshakeAgeMs: 10, retryingForMs: 0 })
    }
  })
})
