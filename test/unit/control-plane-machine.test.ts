import { describe, expect, it } from 'vitest'
import {
  AgentVersionTooOldError,
  ServerError,
  ServerRequestError,
  ServerUnauthorizedError,
  ServerUnreachableError,
} from '../../src/errors.js'
import { backoffDelayMs } from '../../src/machines/control-plane.machine.js'
import { controlPlaneHarness, flush, registered } from './control-plane-fakes.js'

const unreachable = () => new ServerUnreachableError('http://server', 'connect ECONNREFUSED')

async function running(options: Parameters<typeof controlPlaneHarness>[0] = {}) {
  const h = controlPlaneHarness(options)
  await h.register()
  return h
}

describe('control plane registration', () => {
  it('retries a failed register with growing, jittered backoff capped at 60 s', async () => {
    const h = controlPlaneHarness({ random: () => 0.999999 })
    const failedAt: number[] = []
    for (let i = 0; i < 9; i++) {
      failedAt.push(h.clock.now())
      await h.failRegister(unreachable())
      h.advance(60_000)
    }
    const gaps = h.registers.slice(1).map((attempt, i) => attempt.at - failedAt[i]!)
    expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
  })

  it('keeps half of each backoff step and draws the rest from the jitter source', () => {
    expect(backoffDelayMs(1, 1_000, 60_000, 0.5, 0)).toBe(500)
    expect(backoffDelayMs(3, 1_000, 60_000, 0.5, 0.5)).toBe(3_000)
    expect(backoffDelayMs(40, 1_000, 60_000, 0.5, 1)).toBe(60_000)
  })

  it('logs what to fix on a 401 and retries only after a minute', async () => {
    const h = controlPlaneHarness()
    await h.failRegister(new ServerUnauthorizedError('http://server'))
    const line = h.logs.find((log) => log.level === 'error')
    expect(line?.msg).toContain('[server] access_token')
    h.advance(59_999)
    expect(h.registers).toHaveLength(1)
    h.advance(1)
    expect(h.registers).toHaveLength(2)
  })

  it('names the required version on a 426 and retries slowly', async () => {
    const h = controlPlaneHarness()
    await h.failRegister(new AgentVersionTooOldError('0.14.0', '0.15.2'))
    expect(h.logs.find((log) => log.level === 'error')?.msg).toContain('0.15.2')
    h.advance(h.settings.versionTooOldRetryMs - 1)
    expect(h.registers).toHaveLength(1)
    h.advance(1)
    expect(h.registers).toHaveLength(2)
  })

  it('reports the signing secret and starts the first sync at once', async () => {
    const h = controlPlaneHarness()
    expect(h.registers[0]!.input).toEqual({ agentId: 'agent-1' })
    await h.register({ agentId: 'agent-1', signingSecret: 's3cret', minAgentVersion: '0.9.4' })
    expect(h.registeredWith).toEqual([{ agentId: 'agent-1', signingSecret: 's3cret', minAgentVersion: '0.9.4' }])
    expect(h.syncs).toHaveLength(1)
    expect(h.syncs[0]!.input).toEqual({ agentId: 'agent-1', appliedControls: [] })
    expect(JSON.stringify(h.context())).not.toContain('s3cret')
  })
})

describe('control plane sync loop', () => {
  it('syncs every 60 s while nothing is watched', async () => {
    const h = await running()
    await h.answerSync()
    h.advance(59_999)
    expect(h.syncs).toHaveLength(1)
    h.advance(1)
    expect(h.syncs).toHaveLength(2)
  })

  it('syncs every 3 s while the server says watching or a stream session is live', async () => {
    const h = await running()
    await h.answerSync({ watching: true })
    h.advance(3_000)
    expect(h.syncs).toHaveLength(2)
    await h.answerSync({}, true)
    h.advance(3_000)
    expect(h.syncs).toHaveLength(3)
    await h.answerSync({ streamSessions: [{ sessionId: 's1', PlayMethod: 'hls', quality: '720p' }] })
    h.advance(3_000)
    expect(h.syncs).toHaveLength(4)
    await h.answerSync()
    h.advance(3_000)
    expect(h.syncs).toHaveLength(4)
  })

  it('starts a cycle at once on a wake, an SSE sync event or a local change', async () => {
    const h = await running()
    await h.answerSync()
    h.wake.send({ type: 'downlink.wake.woke', reason: 'stream' })
    expect(h.syncs).toHaveLength(2)
    await h.answerSync()
    h.actor.send({ type: 'downlink.syncRequested', source: 'sse', reason: 'scan' })
    expect(h.syncs).toHaveLength(3)
    await h.answerSync()
    h.actor.send({ type: 'controlPlane.changed', reason: 'task done' })
    expect(h.syncs).toHaveLength(4)
  })

  it('coalesces any number of requests during a cycle into exactly one follow-up cycle', async () => {
    const h = await running()
    h.actor.send({ type: 'controlPlane.changed' })
    h.wake.send({ type: 'downlink.wake.woke', reason: 'a' })
    h.actor.send({ type: 'downlink.syncRequested', source: 'sse', reason: 'b' })
    h.actor.send({ type: 'controlPlane.changed' })
    expect(h.syncs).toHaveLength(1)
    await h.answerSync()
    expect(h.syncs).toHaveLength(2)
    await h.answerSync()
    expect(h.syncs).toHaveLength(2)
    expect(h.state().matches({ running: { sync: 'idle' } })).toBe(true)
    expect(h.maxInFlight()).toBe(1)
  })

  it('backs off after a failed sync and lets a wake cut the backoff short', async () => {
    const h = await running()
    await h.failSync(new ServerError(503, 'unavailable'))
    expect(h.state().matches({ running: { sync: 'backoff' } })).toBe(true)
    h.advance(749)
    expect(h.syncs).toHaveLength(1)
    h.advance(1)
    expect(h.syncs).toHaveLength(2)
    await h.failSync(unreachable())
    h.actor.send({ type: 'controlPlane.changed' })
    expect(h.syncs).toHaveLength(2)
    h.actor.send({ type: 'downlink.syncRequested', source: 'sse', reason: 'x' })
    expect(h.syncs).toHaveLength(3)
  })

  it('retries a sync refused with 401 only after a minute', async () => {
    const h = await running()
    await h.failSync(new ServerUnauthorizedError('http://server'))
    h.advance(59_999)
    expect(h.syncs).toHaveLength(1)
    h.advance(1)
    expect(h.syncs).toHaveLength(2)
  })

  it('registers again when the server no longer knows the agent', async () => {
    const h = await running()
    await h.failSync(new ServerRequestError(404, 'unknown_agent', 'unknown agent'))
    expect(h.state().matches('registering')).toBe(true)
    expect(h.registers).toHaveLength(2)
    await h.register()
    expect(h.syncs).toHaveLength(2)
  })

  it('hands stream sessions and the upgrade flag to the sink on every sync', async () => {
    const h = await running()
    await h.answerSync({ streamSessions: [{ sessionId: 's1', PlayMethod: 'direct', quality: 'original' }], upgradeRequested: true, upgrade: { targetVersion: '0.15.0', artifactUrl: 'https://x', sha256: 'ab' } })
    expect(h.sessions).toEqual([[{ sessionId: 's1', PlayMethod: 'direct', quality: 'original' }]])
    expect(h.upgrades).toEqual([{ requested: true }])
  })
})

describe('control plane controls', () => {
  it('applies a control once whether it comes in a sync response or an SSE command', async () => {
    const h = await running({ mode: 'sse' })
    await h.answerSync({ controls: [{ id: 'c1', kind: 'pause_task', taskId: 't1' }, { id: 'c1', kind: 'pause_task', taskId: 't1' }] })
    h.sse.send({ type: 'downlink.sse.frame', frame: { event: 'command', data: '{"id":"c1","kind":"pause_task","taskId":"t1"}' } })
    expect(h.applied).toEqual([{ control: { id: 'c1', kind: 'pause_task', taskId: 't1' }, origin: 'sync' }])
  })

  it('acknowledges applied ids in the next sync and forgets them once that sync succeeded', async () => {
    const h = await running()
    await h.answerSync({ controls: [{ id: 'c1', kind: 'resume_task', taskId: 't1' }, { id: 'c2', kind: 'teleport' }] })
    // New controls ask for a prompt follow-up that carries their acknowledgement.
    expect(h.syncs).toHaveLength(2)
    expect(h.syncs[1]!.input.appliedControls).toEqual(['c1', 'c2'])
    await h.answerSync()
    h.actor.send({ type: 'controlPlane.changed' })
    expect(h.syncs[2]!.input.appliedControls).toEqual([])
  })

  it('keeps acknowledgements of a failed sync for the retry', async () => {
    const h = await running()
    await h.answerSync({ controls: [{ id: 'c1', kind: 'scan_library' }] })
    await h.failSync(unreachable())
    h.advance(60_000)
    expect(h.syncs.at(-1)!.input.appliedControls).toEqual(['c1'])
  })

  it('logs an unknown kind once and still acknowledges it', async () => {
    const h = await running()
    await h.answerSync({ controls: [{ id: 'u1', kind: 'teleport' }, { id: 'u2', kind: 'teleport' }] })
    expect(h.applied).toEqual([])
    expect(h.logs.filter((log) => log.msg.includes('unknown control kind'))).toHaveLength(1)
    expect(h.syncs[1]!.input.appliedControls).toEqual(['u1', 'u2'])
  })

  it('applies an SSE command at once and starts a cycle that acknowledges it', async () => {
    const h = await running({ mode: 'sse' })
    await h.answerSync()
    h.sse.send({ type: 'downlink.sse.frame', frame: { event: 'command', data: '{"id":"c9","kind":"stop_session","sessionId":"s1"}' } })
    expect(h.applied.map((item) => item.origin)).toEqual(['sse'])
    expect(h.syncs).toHaveLength(2)
    expect(h.syncs[1]!.input.appliedControls).toEqual(['c9'])
  })

  it('passes sync actions to the sink once per task', async () => {
    const h = await running()
    await h.answerSync({ actions: [{ type: 'add_task', taskId: 't1', source: 'magnet:?xt=1' }] })
    await h.answerSync({ actions: [{ type: 'add_task', taskId: 't1', source: 'magnet:?xt=1' }, { type: 'delete_task', taskId: 't1', deleteFiles: true }] })
    expect(h.actions.map((action) => action.type)).toEqual(['add_task', 'delete_task'])
  })

  it('switches the downlink mode when a set_downlink control arrives', async () => {
    const h = await running({ mode: 'poll' })
    expect(h.wake.isOpen).toBe(true)
    await h.answerSync({ controls: [{ id: 'm1', kind: 'set_downlink', mode: 'sse' }] })
    await flush()
    expect(h.sse.isOpen).toBe(true)
    expect(h.wake.isOpen).toBe(false)
    expect(h.context().downlinkMode).toBe('sse')
  })
})

describe('registering again when the register body changed', () => {
  it('registers again at once from an idle loop, then syncs as after any register', async () => {
    const h = await running()
    await h.answerSync()
    expect(h.state().matches({ running: { sync: 'idle' } })).toBe(true)
    h.actor.send({ type: 'controlPlane.reregister', reason: 'hwAccel: chosen encoder h264_nvenc -> libx264' })
    expect(h.registers).toHaveLength(2)
    expect(h.logs.at(-1)).toMatchObject({ msg: 'registering again: the register body changed', data: { reason: 'hwAccel: chosen encoder h264_nvenc -> libx264' } })
    await h.register({ ...registered, signingSecret: 'secret-2' })
    expect(h.registeredWith.at(-1)?.signingSecret).toBe('secret-2')
    expect(h.syncs).toHaveLength(2)
  })

  it('lets a sync in flight finish and registers right after it, once however often asked', async () => {
    const h = await running()
    h.actor.send({ type: 'controlPlane.reregister', reason: 'a' })
    h.actor.send({ type: 'controlPlane.reregister', reason: 'b' })
    expect(h.registers).toHaveLength(1)
    await h.answerSync({ controls: [{ id: 'c1', kind: 'scan_library' }] })
    expect(h.applied.map((entry) => entry.control.id)).toEqual(['c1'])
    expect(h.registers).toHaveLength(2)
    await h.register()
    // The acknowledgement of c1 was not sent yet: the first sync after the register carries it.
    expect(h.syncs.at(-1)!.input.appliedControls).toEqual(['c1'])
    await h.answerSync()
    expect(h.registers).toHaveLength(2)
  })

  it('registers once more when asked during a register attempt, whose body may predate the change', async () => {
    const h = controlPlaneHarness()
    h.actor.send({ type: 'controlPlane.reregister', reason: 'late probe' })
    await h.register()
    expect(h.registers).toHaveLength(1)
    await h.answerSync()
    expect(h.registers).toHaveLength(2)
    await h.register()
    await h.answerSync()
    expect(h.registers).toHaveLength(2)
  })

  it('waits out a sync backoff, then registers after the retry succeeds', async () => {
    const h = await running()
    await h.failSync(unreachable())
    h.actor.send({ type: 'controlPlane.reregister', reason: 'x' })
    expect(h.registers).toHaveLength(1)
    h.advance(60_000)
    expect(h.syncs).toHaveLength(2)
    await h.answerSync()
    expect(h.registers).toHaveLength(2)
  })
})
