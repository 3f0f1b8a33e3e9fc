// The whole agent against a reference server that misbehaves the way real ones do: restarted in
// the middle of a stream, answering 500 for a while, cutting the stream right after its headers.
// The agent must recover on its own (no restart), keep its id, and lose nothing it holds:
// controls applied before the outage are not applied again, controls it applied but could not
// yet acknowledge are acknowledged afterwards, and controls queued during the outage are applied
// exactly once when the server is back.
import { afterEach, describe, expect, it } from 'vitest'
import { agentPaths, downlinkMode, requestCounter, startAgentHarness, syncWhere, type AgentHarness } from '../helpers/agent-harness.js'

let harness: AgentHarness | undefined

afterEach(async () => {
  await harness?.stop()
  harness = undefined
})

const connectedTo = (node: { context?: unknown }) => (node.context as { connectedTo?: unknown } | undefined)?.connectedTo

async function sseConnected(h: AgentHarness, timeoutMs = 15_000): Promise<void> {
  await h.waitForNode('downlink', (node) => downlinkMode(node) === 'sse' && typeof connectedTo(node) === 'string', timeoutMs, 'a connected SSE stream')
}

/** Queues a control and waits for the sync that acknowledges it. */
async function controlAcknowledged(h: AgentHarness, kind = 'pause_task'): Promise<string> {
  const control = h.server.queueControl({ kind, taskId: `task-${Math.random().toString(36).slice(2)}` })
  await syncWhere(h.server, (record) => record.request.appliedControls.includes(control.id))
  return control.id
}

function acknowledgements(h: AgentHarness, id: string): number {
  return h.server.syncHistory(h.agentId).filter((record) => record.request.appliedControls.includes(id)).length
}

/** Every agent route answers `status` until `end()` (the count is far beyond what a test sends). */
function outage(h: AgentHarness, status: number, paths: readonly string[] = Object.values(agentPaths)): { end(): void } {
  h.server.faults.failStatus = status
  for (const path of paths) h.server.faults.failNext[path] = 1_000_000
  return {
    end() {
      for (const path of paths) delete h.server.faults.failNext[path]
    },
  }
}

describe('the agent rides out a misbehaving web server', () => {
  it('reconnects its stream after the server restarts mid-stream and keeps syncing under the same id', async () => {
    harness = await startAgentHarness()
    const h = harness
    await sseConnected(h)
    const before = await controlAcknowledged(h)
    expect(h.server.registrations()).toHaveLength(1)

    const reopened = h.server.waitFor('sseOpen')
    await h.server.restart()
    await reopened
    await sseConnected(h)

    // Wakes and commands flow again over the new stream.
    const woke = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('after restart')
    await woke
    const after = await controlAcknowledged(h)
    expect(h.appliedLog.find((entry) => entry.id === after)?.origin).toBe('sse')

    expect(h.applied(before)).toBe(1)
    expect(h.applied(after)).toBe(1)
    expect(acknowledgements(h, before)).toBe(1)
    // Same agent: no second registration was needed, every sync carries the one id.
    expect(h.server.registrations()).toHaveLength(1)
    expect(new Set(h.server.syncHistory().map((record) => record.agentId))).toEqual(new Set([h.agentId]))
  })

  it('applies controls queued while the server answered 500 exactly once when it is back, and acknowledges what it had applied before', async () => {
    // Idle syncs every 300 ms so that the outage is met by failing syncs, not only by the stream.
    harness = await startAgentHarness({ testing: { sync_interval_idle_ms: 300, long_poll_reprobe_ms: 500 } })
    const h = harness
    await sseConnected(h)
    const before = await controlAcknowledged(h)

    // The stream still works but every sync fails: a control pushed over SSE is applied at once,
    // and its acknowledgement must survive the failing syncs.
    const syncDown = outage(h, 500, [agentPaths.sync])
    const failedSync = h.waitForLog((line) => line.msg === 'sync failed; retrying with backoff' && JSON.stringify(line).includes('500'))
    const appliedDuringOutage = h.server.queueControl({ kind: 'pause_task', taskId: 'during' })
    await failedSync
    await h.waitForNode('controlPlane', (node) => JSON.stringify((node.context as { ledger?: unknown })?.ledger ?? {}).includes(appliedDuringOutage.id), 5_000, 'the pending acknowledgement')
    expect(h.applied(appliedDuringOutage.id)).toBe(1)
    syncDown.end()

    // Now everything answers 500 and the live stream is cut: nothing reaches the agent.
    const allDown = outage(h, 500)
    const streamRefused = h.server.waitFor('request', (entry) => entry.path === agentPaths.events && entry.status === 500)
    await h.server.restart()
    await streamRefused
    const queuedDuringOutage = [
      h.server.queueControl({ kind: 'resume_task', taskId: 'x' }),
      h.server.queueControl({ kind: 'scan_library' }),
    ]
    const mark = h.logs.length
    await h.waitForLog((line) => line.msg === 'sync failed; retrying with backoff' && h.logs.indexOf(line) >= mark)
    for (const control of queuedDuringOutage) expect(h.applied(control.id)).toBe(0)

    allDown.end()
    const wanted = [appliedDuringOutage.id, ...queuedDuringOutage.map((control) => control.id)]
    await Promise.all(wanted.map((id) => syncWhere(h.server, (record) => record.request.appliedControls.includes(id), 20_000)))
    await sseConnected(h)

    for (const id of wanted) expect(h.applied(id), id).toBe(1)
    expect(h.applied(before)).toBe(1)
    expect(acknowledgements(h, before)).toBe(1)
    expect(h.server.controls().every((record) => record.appliedAt !== undefined)).toBe(true)
    expect(h.server.registrations()).toHaveLength(1)
    expect(new Set(h.server.syncHistory().map((record) => record.agentId))).toEqual(new Set([h.agentId]))

    // And the stream delivers commands again.
    const next = await controlAcknowledged(h)
    expect(h.appliedLog.find((entry) => entry.id === next)?.origin).toBe('sse')
  })

  it('catches up on what the server queued while its stream was down as soon as the stream is back', async () => {
    // Mode sse and the default 60 s idle interval: only the downlink can bring the news quickly.
    harness = await startAgentHarness({ downlink: 'sse' })
    const h = harness
    await sseConnected(h)
    await syncWhere(h.server, (record) => record.agentId === h.agentId)

    const streamDown = outage(h, 500, [agentPaths.events])
    const refused = h.server.waitFor('request', (entry) => entry.path === agentPaths.events && entry.status === 500)
    await h.server.restart()
    await refused
    const missed = h.server.queueControl({ kind: 'pause_task', taskId: 'missed' })
    const task = h.server.queueTask('0123456789abcdef0123456789abcdef01234567')
    streamDown.end()

    await syncWhere(h.server, (record) => record.request.appliedControls.includes(missed.id), 10_000)
    expect(h.applied(missed.id)).toBe(1)
    expect(h.server.syncHistory(h.agentId).some((record) => record.response.actions.some((action) => action.taskId === task))).toBe(true)
  })

  it('falls back to the long-poll while the server cuts every stream right after its headers, and returns to SSE once it stops', async () => {
    harness = await startAgentHarness({ testing: { long_poll_reprobe_ms: 1_000 } })
    const h = harness
    await sseConnected(h)
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    const requests = requestCounter(h.server)

    h.server.faults.sseDropAfterMs = 0
    const fellBack = h.waitForLog((line) => line.msg === 'downlink falls back to the wake long-poll')
    await h.server.restart()
    await fellBack
    await h.waitForNode('downlink', (node) => downlinkMode(node) === 'poll', 5_000, 'the long-poll')

    // Wakes still lead to syncs while the stream is useless.
    if (h.server.connections().wake === 0) await h.server.waitFor('wakeHold')
    const woke = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('while polling')
    await woke

    h.server.faults.sseDropAfterMs = null
    const reprobed = h.waitForLog((line) => line.msg === 'downlink re-probes SSE', 10_000)
    await reprobed
    await sseConnected(h)
    const control = await controlAcknowledged(h)
    expect(h.appliedLog.find((entry) => entry.id === control)?.origin).toBe('sse')
    expect(requests.count(agentPaths.events)).toBeGreaterThanOrEqual(3)
    expect(h.server.registrations()).toHaveLength(1)
    requests.stop()
  })
})
