import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise, type AnyActorRef } from 'xstate'
import { vpnMachine, vpnStateName, type VpnConfigAnswer, type VpnEvent, type VpnFetchFailure, type VpnRoute } from '../../src/machines/vpn.machine.js'
import { vpnSettingsFrom } from '../../src/system/vpn-part.js'
import { summarize } from '../../src/system/summarize.js'

// The vpn actor with its I/O replaced (src/machines/vpn.machine.ts): the fetch answers from a
// script, the tunnel is a callback actor the test drives with samples, time is vitest's fake
// clock. What is checked is what a user would notice: where torrent traffic goes (the route),
// whether it may flow (the gate), what `vpn status` says, when the server is told.

// The real defaults (defaults.ts): 180 s, 30 s, 2 min, 5 s doubling to 5 min, 10 min.
const settings = vpnSettingsFrom({ testing: {} })

function harness(answers: Array<VpnConfigAnswer | VpnFetchFailure>, enabled = true) {
  const routes: VpnRoute[] = []
  const gates: boolean[] = []
  const changes: string[] = []
  const fetches: string[] = []
  const tunnels: string[] = []
  let tunnelSendBack: ((event: VpnEvent) => void) | undefined
  const logic = vpnMachine.provide({
    actors: {
      fetchConfig: fromPromise<VpnConfigAnswer, { agentId: string }>(async ({ input }) => {
        fetches.push(input.agentId)
        const answer = answers.shift() ?? { message: 'no scripted answer' }
        if ('privateConfig' in answer) return answer
        throw answer
      }),
      tunnel: fromCallback<VpnEvent, { privateConfig: string }>(({ input, sendBack }) => {
        tunnels.push(input.privateConfig)
        tunnelSendBack = sendBack
        return () => {
          tunnelSendBack = undefined
        }
      }),
    },
    actions: {
      applyRoute: (_, { route }) => routes.push(route),
      setGate: (_, { open }) => gates.push(open),
      changed: (_, { reason }) => changes.push(reason),
    },
  })
  const actor = createActor(logic, { input: { enabled, agentId: 'agent-1', settings } })
  actor.start()
  const state = () => vpnStateName(actor.getSnapshot().value)
  const sample = (handshakeAgeMs: number | null, retryingForMs = 0) => tunnelSendBack?.({ type: 'vpn.sample', handshakeAgeMs, retryingForMs })
  return { actor: actor as AnyActorRef & typeof actor, routes, gates, changes, fetches, tunnels, state, sample, hasTunnel: () => tunnelSendBack !== undefined }
}

const ok: VpnConfigAnswer = { privateConfig: '[Interface]\n', exitServer: 'exit-1' }

describe('the vpn actor', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts off and in the clear when the VPN is disabled, and fetches nothing', async () => {
    const h = harness([], false)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(h.state()).toBe('off')
    expect(h.routes).toEqual(['clear'])
    expect(h.fetches).toEqual([])
  })

  it('holds torrent traffic from the moment it is enabled until the tunnel is up, then opens the gate and tells the server', async () => {
    const h = harness([ok, ok])
    expect(h.routes).toEqual(['tunnel'])
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('connecting')
    expect(h.tunnels).toEqual([ok.privateConfig])
    expect(h.gates).toEqual([])
    h.sample(null)
    expect(h.state()).toBe('connecting')
    h.sample(50)
    expect(h.state()).toBe('up')
    expect(h.gates).toEqual([true])
    expect(h.changes).toEqual(['vpn up'])
    await vi.advanceTimersByTimeAsync(0)
    // Up claims the slot again (our own connecting syncs may have freed it).
    expect(h.fetches).toEqual(['agent-1', 'agent-1'])
    expect(h.state()).toBe('up')
  })

  it('goes down on a handshake older than 180 s or a retry unanswered for over 30 s, closing the gate but never the route', async () => {
    const h = harness([ok, ok, ok])
    await vi.advanceTimersByTimeAsync(0)
    h.sample(10)
    await vi.advanceTimersByTimeAsync(0)
    h.sample(10, 30_000)
    expect(h.state()).toBe('up')
    h.sample(10, 30_001)
    expect(h.state()).toBe('down')
    expect(h.gates).toEqual([true, false])
    expect(h.routes.at(-1)).toBe('tunnel')
    h.sample(5)
    expect(h.state()).toBe('up')
    h.sample(180_000)
    expect(h.state()).toBe('down')
    expect(h.changes).toEqual(['vpn up', 'vpn no longer up', 'vpn up', 'vpn no longer up'])
  })

  it('fetches the config again after two minutes down, still holding torrent traffic', async () => {
    const h = harness([ok, ok, ok])
    await vi.advanceTimersByTimeAsync(0)
    h.sample(10)
    await vi.advanceTimersByTimeAsync(0)
    h.sample(null, 40_000)
    expect(h.state()).toBe('down')
    for (let t = 0; t < 119; t++) {
      await vi.advanceTimersByTimeAsync(1_000)
      h.sample(null, 40_000 + t * 1_000)
    }
    expect(h.state()).toBe('down')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(h.fetches.length).toBe(3)
    expect(h.routes.every((route) => route === 'tunnel')).toBe(true)
    expect(h.state()).toBe('connecting')
  })

  it('downloads in the clear on a typed refusal and says why, and asks again later', async () => {
    const h = harness([{ refusal: 'slot_on_device', message: 'held' }, ok])
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('failed')
    expect(h.routes).toEqual(['tunnel', 'clear'])
    expect(h.actor.getSnapshot().context.error).toBe('slot_on_device')
    await vi.advanceTimersByTimeAsync(settings.refusalRetryMs - 1)
    expect(h.fetches.length).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    // Asking again keeps the clear until a config is accepted.
    expect(h.routes).toEqual(['tunnel', 'clear', 'tunnel'])
    expect(h.state()).toBe('connecting')
  })

  it('keeps torrent traffic waiting when the fetch fails for another reason, retrying with backoff', async () => {
    const h = harness([{ message: 'ECONNREFUSED' }, { message: 'ECONNREFUSED' }, ok])
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('failed')
    expect(h.routes.every((route) => route === 'tunnel')).toBe(true)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(h.fetches.length).toBe(2)
    await vi.advanceTimersByTimeAsync(9_999)
    expect(h.fetches.length).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(h.fetches.length).toBe(3)
    expect(h.state()).toBe('connecting')
  })

  it('goes to the clear when the slot is taken by the time it is up', async () => {
    const h = harness([ok, { refusal: 'slot_on_device', message: 'held' }])
    await vi.advanceTimersByTimeAsync(0)
    h.sample(10)
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('failed')
    expect(h.routes.at(-1)).toBe('clear')
    expect(h.gates).toEqual([true, false])
    expect(h.hasTunnel()).toBe(false)
  })

  it('keeps the WireGuard private key out of what /debug/actors shows', async () => {
    const secret: VpnConfigAnswer = { privateConfig: '[Interface]\nPrivateKey = c2VjcmV0LWtleS1ieXRlcw==\n', exitServer: 'exit-1' }
    const h = harness([secret])
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('connecting')
    expect(JSON.stringify(summarize(h.actor.getSnapshot().context))).not.toContain('c2VjcmV0LWtleS1ieXRlcw')
  })

  it('closes the tunnel and goes to the clear when disabled, and starts over when enabled', async () => {
    const h = harness([ok, ok, ok])
    await vi.advanceTimersByTimeAsync(0)
    h.sample(10)
    await vi.advanceTimersByTimeAsync(0)
    h.actor.send({ type: 'vpn.disable' })
    expect(h.state()).toBe('off')
    expect(h.hasTunnel()).toBe(false)
    expect(h.routes.at(-1)).toBe('clear')
    expect(h.gates.at(-1)).toBe(false)
    h.actor.send({ type: 'vpn.enable' })
    expect(h.routes.at(-1)).toBe('tunnel')
    await vi.advanceTimersByTimeAsync(0)
    expect(h.state()).toBe('connecting')
  })
})
