// The whole agent (startAgent) against the reference server on loopback: what the web server
// sees of the control plane (contract 1.1, 3, 4.1, 6.1, 6.2; protocol.md 1 and 3).
import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import { agentVersion } from '../../src/version.js'
import { agentPaths, downlinkMode, harnessAccessToken, requestCounter, startAgentHarness, syncWhere, type AgentHarness } from '../helpers/agent-harness.js'

let harness: AgentHarness | undefined
let ownServer: ReferenceServer | undefined

afterEach(async () => {
  await harness?.stop()
  await ownServer?.close()
  harness = undefined
  ownServer = undefined
})

/** Waits until the downlink holds an open SSE stream (its context names the URL). */
async function sseConnected(h: AgentHarness): Promise<void> {
  await h.waitForNode('downlink', (node) => downlinkMode(node) === 'sse' && typeof (node.context as { connectedTo?: unknown })?.connectedTo === 'string', 15_000, 'a connected SSE stream')
}

describe('the agent and its web server', () => {
  it('registers with every field the web server relies on and keeps one agent id across syncs', async () => {
    harness = await startAgentHarness()
    const h = harness
    const firstSync = await syncWhere(h.server, (record) => record.agentId === h.agentId)
    const registration = h.server.lastRegistration(h.agentId)
    expect(registration).toBeDefined()
    const body = registration!.request
    expect(body.agentId).toBe(h.agentId)
    expect(body.version).toBe(agentVersion)
    expect(body.hostname).toBe(hostname())
    expect(body.platform).toEqual({ os: process.platform, arch: process.arch, node: process.versions.node, container: expect.any(Boolean) })
    expect(body.streamServer.port).toBeGreaterThan(0)
    expect(typeof body.streamServer.publicUrl).toBe('string')
    expect(Array.isArray(body.streamServer.addresses)).toBe(true)
    // Present even when empty or false: the server must be able to tell "off" from "unknown".
    expect(body).toHaveProperty('FunnelURL', '')
    expect(body).toHaveProperty('VPNActive', false)
    expect(registration!.agentVersion).toBe(agentVersion)
    expect(registration!.userAgent).toBe(`media-agent/${agentVersion}`)

    expect(firstSync.request).toMatchObject({ agentId: h.agentId, version: agentVersion, FunnelURL: '', VPNActive: false, appliedControls: [] })
    // The id is the one persisted in the state dir, and a later sync still carries it.
    expect((await readFile(join(h.stateDir, 'agent-id'), 'utf8')).trim()).toBe(h.agentId)
    const next = h.server.waitFor('sync')
    h.server.raiseWake('again')
    expect((await next).agentId).toBe(h.agentId)
  })

  it('syncs at once when the server raises a wake while the SSE downlink is open', async () => {
    harness = await startAgentHarness({ downlink: 'sse' })
    const h = harness
    await sseConnected(h)
    for (const reason of ['first', 'second', 'third']) {
      const synced = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
      h.server.raiseWake(reason)
      await synced
    }
  })

  it('syncs at once when the server raises a wake and the downlink is the long-poll', async () => {
    harness = await startAgentHarness({ downlink: 'poll' })
    const h = harness
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    for (const reason of ['first', 'second', 'third']) {
      if (h.server.connections().wake === 0) await h.server.waitFor('wakeHold')
      const synced = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
      h.server.raiseWake(reason)
      await synced
    }
    // Never an SSE stream in poll mode.
    expect(h.server.connections().downlink).toBe(0)
    expect(downlinkMode(await h.node('downlink'))).toBe('poll')
  })

  it('syncs every watching interval while someone watches, and only every idle interval otherwise', async () => {
    const watchingMs = 300
    const idleMs = 2_500
    harness = await startAgentHarness({ testing: { sync_interval_watching_ms: watchingMs, sync_interval_idle_ms: idleMs } })
    const h = harness
    const mine = (record: { agentId: string }) => record.agentId === h.agentId
    await syncWhere(h.server, mine)

    const watchingSync = h.server.waitFor('sync', (record) => mine(record) && record.response.watching)
    h.server.setWatching(true)
    let previous = (await watchingSync).at
    for (let i = 0; i < 3; i++) {
      const next = await h.server.waitFor('sync', mine)
      const gap = next.at - previous
      // Counted from the end of the previous cycle, so never shorter; far below the idle interval.
      expect(gap).toBeGreaterThanOrEqual(watchingMs - 5)
      expect(gap).toBeLessThan(idleMs)
      previous = next.at
    }

    const idleSync = h.server.waitFor('sync', (record) => mine(record) && !record.response.watching)
    h.server.setWatching(false)
    const lastWatching = await idleSync
    const next = await h.server.waitFor('sync', mine, idleMs * 4)
    expect(next.at - lastWatching.at).toBeGreaterThanOrEqual(idleMs - 5)
  })

  it('applies a command pushed over SSE once and acknowledges it once, even when a sync delivers it too', async () => {
    harness = await startAgentHarness({ downlink: 'sse' })
    const h = harness
    await sseConnected(h)
    await syncWhere(h.server, (record) => record.agentId === h.agentId)

    // Hold the next sync at the server so that its response is built after the command went out
    // over SSE but before any acknowledgement: the sync response lists the control as well.
    h.server.faults.delayMs = 1_000
    h.server.raiseWake('hold')
    await h.waitForNode('controlPlane', (node) => (node.value as { running?: { sync?: string } })?.running?.sync === 'syncing', 5_000, 'a sync in flight')
    const control = h.server.queueControl({ kind: 'pause_task', taskId: 'task-1' })
    const acknowledged = h.server.waitFor('sync', (record) => record.request.appliedControls.includes(control.id))
    h.server.faults.delayMs = 0
    await acknowledged

    expect(h.server.syncHistory(h.agentId).some((record) => record.response.controls.some((item) => item.id === control.id))).toBe(true)
    expect(h.applied(control.id)).toBe(1)
    expect(h.appliedLog.find((entry) => entry.id === control.id)?.origin).toBe('sse')
    expect(h.server.controls().find((record) => record.control.id === control.id)?.appliedAt).toBeDefined()

    // Later syncs neither acknowledge it again nor get it back.
    const later = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('later')
    const after = await later
    expect(after.request.appliedControls).not.toContain(control.id)
    expect(after.response.controls.map((item) => item.id)).not.toContain(control.id)
    expect(h.server.syncHistory(h.agentId).filter((record) => record.request.appliedControls.includes(control.id))).toHaveLength(1)
    expect(h.applied(control.id)).toBe(1)
  })

  it('acknowledges control kinds it does not know and warns once per kind', async () => {
    harness = await startAgentHarness()
    const h = harness
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    const first = h.server.queueControl({ kind: 'teleport_task', taskId: 'a' })
    const second = h.server.queueControl({ kind: 'teleport_task', taskId: 'b' })
    const acked = (id: string) => syncWhere(h.server, (record) => record.request.appliedControls.includes(id))
    await Promise.all([acked(first.id), acked(second.id)])
    expect(h.server.controls().every((record) => record.appliedAt !== undefined)).toBe(true)
    const warnings = h.logs.filter((line) => /unknown control kind/.test(line.msg) && line.kind === 'teleport_task')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.level).toBe(40)
    // No handler exists for it: nothing was handed on.
    expect(h.applied(first.id) + h.applied(second.id)).toBe(0)
  })

  it('tells the user to check the access token on a 401 and keeps retrying until it is accepted', async () => {
    ownServer = await createReferenceServer({ accessToken: harnessAccessToken, faults: { unauthorizedCount: 3 } })
    const requests = requestCounter(ownServer)
    const registered = ownServer.waitFor('register')
    harness = await startAgentHarness({ server: ownServer })
    const h = harness
    const line = await h.waitForLog((entry) => entry.level === 50 && entry.msg.includes('check [server] access_token'))
    expect(line.code).toBe('MA_ERR_SERVER_UNAUTHORIZED')
    expect(line.msg).toContain(ownServer.url)
    expect((await registered).agentId).toBe(h.agentId)
    expect(requests.count(agentPaths.register, 401)).toBe(3)
    await syncWhere(ownServer, (record) => record.agentId === h.agentId)
    requests.stop()
  })

  it('names the version the server requires on a 426 and keeps retrying without exiting', async () => {
    ownServer = await createReferenceServer({ accessToken: harnessAccessToken, minAgentVersion: '99.0.0' })
    const requests = requestCounter(ownServer)
    harness = await startAgentHarness({ server: ownServer })
    const h = harness
    const line = await h.waitForLog((entry) => entry.level === 50 && entry.msg.includes('99.0.0'))
    expect(line.code).toBe('MA_ERR_AGENT_TOO_OLD')
    expect(line.msg).toContain(agentVersion)
    // Retried at the (shortened) slow rate, and never registered.
    for (let i = 0; i < 3 && requests.count(agentPaths.register, 426) < 3; i++) {
      await ownServer.waitFor('request', (entry) => entry.path === agentPaths.register && entry.status === 426, 5_000)
    }
    expect(requests.count(agentPaths.register, 426)).toBeGreaterThanOrEqual(3)
    expect(ownServer.registrations()).toHaveLength(0)
    expect(Object.keys((await h.node('controlPlane'))?.value as object)).toEqual(['registering'])
    requests.stop()
  })
})
