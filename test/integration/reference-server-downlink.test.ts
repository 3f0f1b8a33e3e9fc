import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/reference-server/index.js'
import { RawSse, accessToken, agentHeaders, call, holdWake, registerBody, syncBody } from './reference-server-helpers.js'

const eventsPath = '/api/internal/agent/events'
let server: ReferenceServer
const streams: RawSse[] = []

async function start(options: Partial<ReferenceServerOptions> = {}): Promise<void> {
  server = await createReferenceServer({ accessToken, ...options })
}

async function openEvents(headers?: Record<string, string>): Promise<RawSse> {
  const sse = await RawSse.open(`${server.url}${eventsPath}`, headers)
  streams.push(sse)
  return sse
}

beforeEach(async () => {
  await start()
})

afterEach(async () => {
  for (const sse of streams.splice(0)) sse.close()
  await server.close()
})

describe('reference server: downlink SSE framing', () => {
  it('answers text/event-stream with X-Accel-Buffering: no and a ping event as the first frame', async () => {
    const sse = await openEvents()
    expect(sse.status).toBe(200)
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(sse.headers['x-accel-buffering']).toBe('no')
    expect(sse.headers['cache-control']).toContain('no-cache')
    const first = await sse.nextFrame()
    expect(first).toMatchObject({ event: 'ping', data: '{}' })
    expect(first.raw).toBe('event: ping\ndata: {}')
  })

  it('sends a `: ping` comment every heartbeat', async () => {
    await server.close()
    await start({ heartbeatMs: 20 })
    const sse = await openEvents()
    await sse.nextFrame()
    expect(await sse.nextFrame()).toEqual({ comment: 'ping', raw: ': ping' })
    expect(await sse.nextFrame()).toEqual({ comment: 'ping', raw: ': ping' })
  })

  it('a queued control goes out as a command event followed by a sync event', async () => {
    const sse = await openEvents()
    await sse.nextFrame()
    const control = server.queueControl({ kind: 'set_funnel', enabled: false })
    const command = await sse.nextEvent()
    expect(command.event).toBe('command')
    expect(JSON.parse(command.data!)).toEqual(control)
    const syncEvent = await sse.nextEvent()
    expect(syncEvent).toMatchObject({ event: 'sync' })
    expect(JSON.parse(syncEvent.data!)).toEqual({ reason: 'control_queued' })
  })

  it('every change the agent must see raises a sync event with its reason', async () => {
    const sse = await openEvents()
    await sse.nextFrame()
    const taskId = server.queueTask('hash')
    server.deleteTask(taskId)
    const otherTask = server.queueTask('hash2')
    await call(`${server.url}/api/internal/agent/sync`, { headers: agentHeaders(), body: syncBody('a1') })
    server.deleteTask(otherTask)
    const { sessionId } = server.createStreamSession({ filePath: '/m.mkv' })
    server.removeStreamSession(sessionId)
    server.requestUpgrade({ targetVersion: '0.15.0', artifactUrl: 'https://x.invalid/a', sha256: '00' })
    server.requestScan()
    server.setWatching(true)
    server.raiseWake('because')
    const reasons: string[] = []
    for (;;) {
      const frame = await sse.nextEvent()
      if (frame.event !== 'sync') continue
      const { reason } = JSON.parse(frame.data!) as { reason: string }
      reasons.push(reason)
      if (reason === 'because') break
    }
    // The first delete withdrew a never-delivered add: nothing for the agent to see.
    expect(reasons).toEqual(['task_queued', 'task_queued', 'task_deleted', 'session_created', 'session_removed', 'upgrade_requested', 'scan_requested', 'watching_changed', 'because'])
  })

  it('the X-Accel-Buffering header can be left out, by option or by fault', async () => {
    server.faults.omitAccelBufferingHeader = true
    const byFault = await openEvents()
    expect(byFault.headers['x-accel-buffering']).toBeUndefined()
    await server.close()
    await start({ accelBufferingHeader: false })
    const byOption = await openEvents()
    expect(byOption.headers['x-accel-buffering']).toBeUndefined()
    expect(await byOption.nextFrame()).toMatchObject({ event: 'ping' })
  })

  it('needs the Bearer credential', async () => {
    const sse = await openEvents({})
    expect(sse.status).toBe(401)
  })

  it('server close ends open streams cleanly', async () => {
    const sse = await openEvents()
    await sse.nextFrame()
    await server.close()
    expect(await sse.ended).toBe('end')
  })
})

describe('reference server: long-poll wake', () => {
  it('a held wake request is answered 200 with the reason when the server raises a wake', async () => {
    const held = server.waitFor('wakeHold')
    const wake = holdWake(server.url)
    await held
    expect(server.connections().wake).toBe(1)
    server.queueTask('magnet:?xt=urn:btih:abc')
    const res = await wake
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ reason: 'task_queued' })
    expect(server.connections().wake).toBe(0)
  })

  it('every held wake request is answered by one wake', async () => {
    const bothHeld = new Promise<void>((resolve) => {
      let n = 0
      const off = server.on('wakeHold', () => {
        if (++n === 2) {
          off()
          resolve()
        }
      })
    })
    const first = holdWake(server.url)
    const second = holdWake(server.url)
    await bothHeld
    server.raiseWake('x')
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
  })

  it('a wake raised while nobody waits answers the next wake request at once', async () => {
    server.raiseWake('early')
    expect(server.pendingWake).toBe('early')
    const res = await holdWake(server.url)
    expect(res.json).toEqual({ reason: 'early' })
    expect(server.pendingWake).toBeUndefined()
  })

  it('a sync spends a pending wake, because its response already shows the change', async () => {
    server.queueTask('hash')
    await call(`${server.url}/api/internal/agent/sync`, { headers: agentHeaders(), body: syncBody('a1') })
    expect(server.pendingWake).toBeUndefined()
    const held = server.waitFor('wakeHold')
    const wake = holdWake(server.url)
    await held
    server.raiseWake('later')
    expect((await wake).json).toEqual({ reason: 'later' })
  })

  it('server close ends a held wake with 204', async () => {
    const held = server.waitFor('wakeHold')
    const wake = holdWake(server.url)
    await held
    await server.close()
    expect((await wake).status).toBe(204)
  })

  it('a wake request needs the Bearer credential', async () => {
    expect((await holdWake(server.url, {})).status).toBe(401)
  })
})

describe('reference server: player readiness stream', () => {
  it('a subscribed player gets a ready event when the agent calls session-ready', async () => {
    const created = server.createStreamSession({ filePath: '/m.mkv' })
    const opened = server.waitFor('playerOpen')
    const player = await RawSse.open(created.urls.playerEvents, {})
    streams.push(player)
    await opened
    expect(player.status).toBe(200)
    expect(player.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(await player.nextFrame()).toMatchObject({ comment: 'connected' })
    const res = await call(`${server.url}/api/internal/agent/session-ready`, { headers: agentHeaders(), body: { sessionId: created.sessionId } })
    expect(res.status).toBe(204)
    const ready = await player.nextEvent()
    expect(ready.event).toBe('ready')
    expect(JSON.parse(ready.data!)).toEqual({ sessionId: created.sessionId, readyAt: server.session(created.sessionId)!.readyAt })
  })

  it('a player subscribing after readiness gets the ready event at once, and only one per session', async () => {
    const created = server.createStreamSession({ filePath: '/m.mkv' })
    await call(`${server.url}/api/internal/agent/session-ready`, { headers: agentHeaders(), body: { sessionId: created.sessionId } })
    const player = await RawSse.open(created.urls.playerEvents, {})
    streams.push(player)
    const ready = await player.nextEvent()
    expect(JSON.parse(ready.data!).readyAt).toBe(server.session(created.sessionId)!.readyAt)
    const repeated = server.waitFor('sessionReady')
    await call(`${server.url}/api/internal/agent/session-ready`, { headers: agentHeaders(), body: { sessionId: created.sessionId } })
    expect((await repeated).first).toBe(false)
    server.removeStreamSession(created.sessionId)
    expect(await player.ended).toBe('end')
    expect(player.frames.filter((frame) => frame.event === 'ready')).toEqual([])
  })

  it('a wrong player token and an unknown session get the same 404', async () => {
    const created = server.createStreamSession({ filePath: '/m.mkv' })
    const wrong = await call(`${server.url}/api/stream-sessions/${created.sessionId}/events?token=nope`)
    const unknown = await call(`${server.url}/api/stream-sessions/nope/events?token=${created.tokens.playerToken}`)
    expect(wrong.status).toBe(404)
    expect(unknown.status).toBe(404)
    expect(wrong.text).toBe(unknown.text)
  })

  it('the account access token also opens a player stream', async () => {
    const created = server.createStreamSession({ filePath: '/m.mkv' })
    const player = await RawSse.open(`${server.url}/api/stream-sessions/${created.sessionId}/events`, { authorization: `Bearer ${accessToken}` })
    streams.push(player)
    expect(player.status).toBe(200)
  })
})

describe('reference server: fault injection', () => {
  it('drops a new SSE stream right after its headers when sseDropAfterMs is 0', async () => {
    server.faults.sseDropAfterMs = 0
    const sse = await openEvents()
    expect(sse.status).toBe(200)
    expect(await sse.ended).toBe('aborted')
    expect(sse.bytes).toBe('')
  })

  it('drops a new SSE stream after the given time, once its ping was sent', async () => {
    server.faults.sseDropAfterMs = 30
    const sse = await openEvents()
    expect(await sse.nextFrame()).toMatchObject({ event: 'ping' })
    expect(await sse.ended).toBe('aborted')
  })

  it('a stalled SSE stream sends headers and never a frame, not even broadcasts', async () => {
    server.faults.sseStall = true
    const stalledOpen = server.waitFor('sseOpen')
    const stalled = await openEvents()
    expect(stalled.status).toBe(200)
    expect((await stalledOpen).stalled).toBe(true)
    server.faults.sseStall = false
    const healthy = await openEvents()
    await healthy.nextFrame()
    expect(server.connections().downlink).toBe(1)
    server.raiseWake('x')
    expect(await healthy.nextEvent()).toMatchObject({ event: 'sync' })
    expect(stalled.bytes).toBe('')
  })

  it('answers the injected status for the next N requests to a path, then recovers', async () => {
    server.faults.failNext['/api/internal/agent/sync'] = 2
    const url = `${server.url}/api/internal/agent/sync`
    const first = await call(url, { headers: agentHeaders(), body: syncBody('a1') })
    expect(first.status).toBe(503)
    expect(first.json).toMatchObject({ error: 'injected_fault' })
    expect((await call(`${server.url}/api/internal/agent/register`, { headers: agentHeaders(), body: registerBody('a1') })).status).toBe(200)
    expect((await call(url, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(503)
    expect((await call(url, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(200)
    expect(server.syncHistory()).toHaveLength(1)
  })

  it('answers 401 to a good credential while the unauthorized fault lasts', async () => {
    server.faults.unauthorizedCount = 1
    const url = `${server.url}/api/internal/agent/sync`
    expect((await call(url, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(401)
    expect((await call(url, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(200)
    let now = 1_000
    await server.close()
    await start({ now: () => now, faults: { unauthorizedUntilMs: 2_000 } })
    const later = `${server.url}/api/internal/agent/sync`
    expect((await call(later, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(401)
    now = 2_000
    expect((await call(later, { headers: agentHeaders(), body: syncBody('a1') })).status).toBe(200)
  })

  it('delays agent responses by the configured time', async () => {
    server.faults.delayMs = 60
    const started = performance.now()
    const res = await call(`${server.url}/api/internal/agent/sync`, { headers: agentHeaders(), body: syncBody('a1') })
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
  })

  it('faults can be set and cleared over the control routes', async () => {
    const admin = { authorization: `Bearer ${accessToken}` }
    const set = await call(`${server.url}/api/reference/faults`, { method: 'PUT', headers: admin, body: { sseStall: true, failNext: { '/api/internal/agent/wake': 1 } } })
    expect(set.json).toMatchObject({ sseStall: true })
    expect(server.faults.sseStall).toBe(true)
    expect((await holdWake(server.url)).status).toBe(503)
    expect((await call(`${server.url}/api/reference/faults`, { method: 'DELETE', headers: admin })).status).toBe(204)
    expect(server.faults.sseStall).toBe(false)
  })

  it('restart cuts every connection and listens again on the same port with the state kept', async () => {
    await call(`${server.url}/api/internal/agent/register`, { headers: agentHeaders(), body: registerBody('a1') })
    const port = server.port
    const sse = await openEvents()
    await sse.nextFrame()
    const held = server.waitFor('wakeHold')
    const wake = holdWake(server.url).then(() => 'answered', () => 'cut')
    await held
    await server.restart()
    expect(await sse.ended).toBe('aborted')
    expect(await wake).toBe('cut')
    expect(server.port).toBe(port)
    const again = await openEvents()
    expect(await again.nextFrame()).toMatchObject({ event: 'ping' })
    expect(server.lastRegistration('a1')).toBeDefined()
  })
})
