import { describe, expect, it } from 'vitest'
import { ControlQueue } from '../../src/reference-server/controls.js'
import { createFaults, takeInjectedFailure, takeInjectedUnauthorized } from '../../src/reference-server/faults.js'
import { compareVersions } from '../../src/reference-server/semver.js'
import { SessionStore } from '../../src/reference-server/sessions.js'
import { TaskQueue } from '../../src/reference-server/tasks.js'
import { mintSessionTokens } from '../../src/reference-server/tokens.js'
import { VpnSlot } from '../../src/reference-server/vpn-slot.js'
import { ReferenceState } from '../../src/reference-server/state.js'

function ids(): () => string {
  let n = 0
  return () => `id-${++n}`
}

describe('task delivery rules', () => {
  it('an add_task is repeated until the agent lists the task, then never again', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    const id = tasks.queue('magnet:?xt=urn:btih:abc').taskId
    expect(tasks.actionsFor('a1')).toEqual([{ type: 'add_task', taskId: id, source: 'magnet:?xt=urn:btih:abc' }])
    tasks.acknowledge('a1', new Set())
    expect(tasks.actionsFor('a1')).toHaveLength(1)
    tasks.acknowledge('a1', new Set([id]))
    expect(tasks.actionsFor('a1')).toEqual([])
  })

  it('a task queued for one agent is never offered to another', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    tasks.queue('hash', 'a1')
    expect(tasks.actionsFor('a2')).toEqual([])
    expect(tasks.actionsFor('a1')).toHaveLength(1)
  })

  it('an unbound task goes to the first agent that syncs and stays with it', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    tasks.queue('hash')
    expect(tasks.actionsFor('a2')).toHaveLength(1)
    expect(tasks.actionsFor('a1')).toEqual([])
    expect(tasks.list()[0]!.agentId).toBe('a2')
  })

  it('a delete_task is repeated until a sync after its delivery no longer lists the task', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    const id = tasks.queue('hash', 'a1').taskId
    tasks.actionsFor('a1')
    tasks.acknowledge('a1', new Set([id]))
    expect(tasks.delete(id, { deleteFiles: true })).toBe(true)
    // A sync that was already in flight (task absent for another reason) cannot acknowledge it.
    tasks.acknowledge('a1', new Set())
    expect(tasks.actionsFor('a1')).toEqual([{ type: 'delete_task', taskId: id, deleteFiles: true }])
    tasks.acknowledge('a1', new Set([id]))
    expect(tasks.actionsFor('a1')).toHaveLength(1)
    tasks.acknowledge('a1', new Set())
    expect(tasks.actionsFor('a1')).toEqual([])
  })

  it('deleting a task whose add was never delivered withdraws it without a delete_task', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    const id = tasks.queue('hash').taskId
    expect(tasks.delete(id)).toBe(false)
    expect(tasks.actionsFor('a1')).toEqual([])
  })

  it('deleting a task whose add was delivered but not yet listed sends a delete instead of the add', () => {
    const tasks = new TaskQueue(ids(), () => 0)
    const id = tasks.queue('hash').taskId
    tasks.actionsFor('a1')
    expect(tasks.delete(id)).toBe(true)
    expect(tasks.actionsFor('a1')).toEqual([{ type: 'delete_task', taskId: id, deleteFiles: false }])
  })
})

describe('control delivery rules', () => {
  it('a control is repeated until its id comes back in appliedControls', () => {
    const controls = new ControlQueue(ids(), () => 5)
    const record = controls.queue({ kind: 'pause_task', taskId: 't1' })
    expect(record.control).toEqual({ kind: 'pause_task', taskId: 't1', id: 'id-1' })
    expect(controls.controlsFor('a1')).toEqual([record.control])
    expect(controls.controlsFor('a1')).toHaveLength(1)
    controls.acknowledge('a1', ['id-1'])
    expect(controls.controlsFor('a1')).toEqual([])
    expect(record.appliedAt).toBe(5)
  })

  it('a control applied from the SSE stream before any sync delivered it is acknowledged too', () => {
    const controls = new ControlQueue(ids(), () => 0)
    controls.queue({ kind: 'scan_library', id: 'c1' })
    controls.acknowledge('a1', ['c1'])
    expect(controls.controlsFor('a1')).toEqual([])
  })

  it('another agent cannot acknowledge a control bound to the first', () => {
    const controls = new ControlQueue(ids(), () => 0)
    controls.queue({ kind: 'scan_library', id: 'c1' }, 'a1')
    controls.acknowledge('a2', ['c1'])
    expect(controls.controlsFor('a1')).toHaveLength(1)
  })
})

describe('stream sessions', () => {
  const tokens = mintSessionTokens('secret', 's1', 60, 1000)

  it('ready_at is set by the first session-ready and kept by later ones', () => {
    const store = new SessionStore()
    store.add({ sessionId: 's1', PlayMethod: 'hls', quality: '720p', filePath: '/m.mkv' }, undefined, tokens, 't0')
    expect(store.markReady('s1', 't1')).toMatchObject({ first: true })
    expect(store.markReady('s1', 't2')).toMatchObject({ first: false })
    expect(store.get('s1')!.readyAt).toBe('t1')
  })

  it('a removed session is no longer listed and cannot become ready', () => {
    const store = new SessionStore()
    store.add({ sessionId: 's1', PlayMethod: 'hls', quality: '720p', filePath: '/m.mkv' }, 'a1', tokens, 't0')
    expect(store.listFor('a1')).toHaveLength(1)
    store.remove('s1', 't1')
    expect(store.listFor('a1')).toEqual([])
    expect(store.markReady('s1', 't2')).toBeUndefined()
  })
})

describe('the WireGuard slot', () => {
  const ready = { enabled: true, provisioned: true }

  it('answers disabled before not_provisioned, and not_provisioned before looking at the slot', () => {
    const slot = new VpnSlot({ enabled: false, provisioned: false })
    expect(slot.fetch('a1', false)).toEqual({ ok: false, code: 'disabled' })
    slot.update({ enabled: true })
    expect(slot.fetch('a1', false)).toEqual({ ok: false, code: 'not_provisioned' })
  })

  it('the first agent claims the slot, may fetch again, and a second agent gets slot_on_device', () => {
    const slot = new VpnSlot(ready)
    expect(slot.fetch('a1', false)).toMatchObject({ ok: true, claimed: true })
    expect(slot.fetch('a1', false)).toMatchObject({ ok: true, claimed: false })
    expect(slot.fetch('a2', false)).toEqual({ ok: false, code: 'slot_on_device', holder: 'a1' })
  })

  it('a probe validates without claiming, even while another agent holds the slot', () => {
    const slot = new VpnSlot(ready)
    expect(slot.fetch('a1', true)).toMatchObject({ ok: true, claimed: false })
    expect(slot.holder).toBeUndefined()
    slot.fetch('a1', false)
    expect(slot.fetch('a2', true)).toMatchObject({ ok: true })
    expect(slot.holder).toBe('a1')
  })

  it('only the holder reporting VPNActive false frees the slot', () => {
    const slot = new VpnSlot(ready)
    slot.fetch('a1', false)
    expect(slot.reportActive('a2', false)).toBe(false)
    expect(slot.reportActive('a1', true)).toBe(false)
    expect(slot.holder).toBe('a1')
    expect(slot.reportActive('a1', false)).toBe(true)
    expect(slot.fetch('a2', false)).toMatchObject({ ok: true, claimed: true })
  })

  it('a configured config text is served verbatim, otherwise a wg-quick text is rendered', () => {
    const slot = new VpnSlot(ready)
    const rendered = slot.fetch('a1', true)
    expect(rendered.ok && rendered.config).toMatch(/^\[Interface\]\nPrivateKey = .+\nAddress = .+\nDNS = .+\nMTU = 1420\n\n\[Peer\]\nPublicKey = .+\nEndpoint = .+\nAllowedIPs = .+\nPersistentKeepalive = 25\n$/)
    slot.update({ config: '[Interface]\nPrivateKey = x\n' })
    const verbatim = slot.fetch('a1', true)
    expect(verbatim.ok && verbatim.config).toBe('[Interface]\nPrivateKey = x\n')
  })
})

describe('agent version floor', () => {
  it('orders versions the semver way, pre-releases below their release', () => {
    expect(compareVersions('0.9.4', '0.9.4')).toBe(0)
    expect(compareVersions('0.9.10', '0.9.4')).toBe(1)
    expect(compareVersions('0.9.3', '0.9.4')).toBe(-1)
    expect(compareVersions('0.14.0-dev', '0.14.0')).toBe(-1)
    expect(compareVersions('0.14.0-dev.2', '0.14.0-dev.10')).toBe(-1)
    expect(compareVersions('1.0.0+build', '1.0.0')).toBe(0)
    expect(compareVersions('banana', '0.9.4')).toBeUndefined()
  })
})

describe('fault counters', () => {
  it('injected failures count down per path and then stop', () => {
    const faults = createFaults({ failNext: { '/x': 2 }, failStatus: 502 })
    expect(takeInjectedFailure(faults, '/y')).toBeUndefined()
    expect(takeInjectedFailure(faults, '/x')).toBe(502)
    expect(takeInjectedFailure(faults, '/x')).toBe(502)
    expect(takeInjectedFailure(faults, '/x')).toBeUndefined()
  })

  it('injected 401s last for a count or until a time', () => {
    const faults = createFaults({ unauthorizedCount: 1, unauthorizedUntilMs: 100 })
    expect(takeInjectedUnauthorized(faults, 200)).toBe(true)
    expect(takeInjectedUnauthorized(faults, 200)).toBe(false)
    expect(takeInjectedUnauthorized(faults, 99)).toBe(true)
  })
})

describe('the reference server keeps bounded histories', () => {
  const streamServer = (url: string) => ({ port: 1, publicUrl: url, addresses: [] })
  const syncOf = (agentId: string, url: string) => ({
    agentId, version: '1.0.0', tasks: [], sessions: [], appliedControls: [], FunnelURL: '', VPNActive: false, VPNMode: 'off' as const, VPNExitServer: '', streamServer: streamServer(url),
  })
  const meta = { remoteAddress: '127.0.0.1' } as unknown as Parameters<ReferenceState['sync']>[1]

  it('drops the oldest syncs past the limit (a server run for days stays small) yet keeps each agent\'s latest', () => {
    let now = 0
    const state = new ReferenceState({ now: () => ++now, historyRecords: 3 })
    state.sync(syncOf('quiet', 'http://quiet.example:1'), meta)
    for (let n = 0; n < 10; n++) state.sync(syncOf('busy', `http://busy.example:${n}`), meta)
    expect(state.syncs).toHaveLength(3)
    expect(state.syncs.map((record) => record.request.streamServer.publicUrl)).toEqual(['http://busy.example:7', 'http://busy.example:8', 'http://busy.example:9'])
    // The quiet agent's only sync left the history; what players and the page need of it stays.
    expect(state.lastSyncOf.get('quiet')?.request.streamServer.publicUrl).toBe('http://quiet.example:1')
    expect(state.agentBaseUrl('quiet')).toBe('http://quiet.example:1')
    expect(state.agentIds().sort()).toEqual(['busy', 'quiet'])
    // GET syncs?agentId=quiet still answers with it, not an empty list.
    expect(state.syncsOf('quiet').map((record) => record.request.streamServer.publicUrl)).toEqual(['http://quiet.example:1'])
    expect(state.syncsOf('busy')).toHaveLength(3)
    expect(state.syncsOf(undefined)).toEqual(state.syncs)
    expect(state.latestAgentId()).toBe('busy')
  })

  it('answers for the agent heard from last, register or sync', () => {
    let now = 0
    const state = new ReferenceState({ now: () => ++now, historyRecords: 2 })
    state.sync(syncOf('a1', 'http://a1.example:1'), meta)
    state.register({ ...syncOf('a2', 'http://a2.example:1'), hostname: 'h', platform: { os: 'linux', arch: 'x64', node: 'v24', container: false } }, meta)
    expect(state.latestAgentId()).toBe('a2')
    expect(state.agentBaseUrl(undefined)).toBe('http://a2.example:1')
    state.sync(syncOf('a1', 'http://a1.example:2'), meta)
    expect(state.latestAgentId()).toBe('a1')
  })
})
