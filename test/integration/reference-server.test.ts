import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import { verifyStreamToken } from '../../src/services/auth/stream-token.js'
import { accessToken, agentHeaders, call, registerBody, syncBody } from './reference-server-helpers.js'

const paths = {
  register: '/api/internal/agent/register',
  sync: '/api/internal/agent/sync',
  sessionReady: '/api/internal/agent/session-ready',
  upgradeResult: '/api/internal/agent/upgrade-result',
  vpnConfig: '/api/internal/agent/vpn-config',
  library: '/api/internal/agent/library',
}

let server: ReferenceServer

beforeEach(async () => {
  server = await createReferenceServer({ accessToken })
})

afterEach(async () => {
  await server.close()
})

function sync(agentId: string, extra: Record<string, unknown> = {}): Promise<any> {
  return call(`${server.url}${paths.sync}`, { headers: agentHeaders(), body: syncBody(agentId, extra) }).then((res) => {
    expect(res.status).toBe(200)
    return res.json
  })
}

describe('reference server: authentication', () => {
  it('listens on loopback on an ephemeral port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.port).toBeGreaterThan(0)
  })

  it('an agent call without a Bearer token or with a wrong one gets 401 with the error shape', async () => {
    const missing = await call(`${server.url}${paths.sync}`, { headers: { 'x-agent-version': '0.14.0' }, body: syncBody('a1') })
    expect(missing.status).toBe(401)
    expect(missing.json).toMatchObject({ error: 'unauthorized', message: expect.any(String) })
    const wrong = await call(`${server.url}${paths.sync}`, { headers: agentHeaders({ authorization: 'Bearer nope' }), body: syncBody('a1') })
    expect(wrong.status).toBe(401)
  })

  it('an agent below the minimum version gets 426 naming the minimum', async () => {
    const res = await call(`${server.url}${paths.register}`, { headers: agentHeaders({ 'x-agent-version': '0.9.3' }), body: registerBody('a1') })
    expect(res.status).toBe(426)
    expect(res.json).toMatchObject({ error: 'upgrade_required', minAgentVersion: '0.9.4' })
  })

  it('the minimum version is an option and pre-releases sort below their release', async () => {
    await server.close()
    server = await createReferenceServer({ accessToken, minAgentVersion: '0.14.0' })
    const dev = await call(`${server.url}${paths.sync}`, { headers: agentHeaders({ 'x-agent-version': '0.14.0-dev' }), body: syncBody('a1') })
    expect(dev.status).toBe(426)
    expect(dev.json.minAgentVersion).toBe('0.14.0')
    const ok = await call(`${server.url}${paths.sync}`, { headers: agentHeaders({ 'x-agent-version': '0.14.1' }), body: syncBody('a1') })
    expect(ok.status).toBe(200)
  })

  it('an unknown agent route answers 404 and a wrong method 405', async () => {
    expect((await call(`${server.url}/api/internal/agent/nope`, { headers: agentHeaders() })).status).toBe(404)
    expect((await call(`${server.url}${paths.sync}`, { headers: agentHeaders() })).status).toBe(405)
  })
})

describe('reference server: register and sync', () => {
  it('register answers the agent id, a stable base64url signing secret and the minimum version, and is remembered', async () => {
    const registered = server.waitFor('register')
    const first = await call(`${server.url}${paths.register}`, { headers: agentHeaders(), body: registerBody('a1', { FunnelURL: 'https://x.trycloudflare.com' }) })
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ agentId: 'a1', signingSecret: server.signingSecret, minAgentVersion: '0.9.4' })
    expect(first.json.signingSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const second = await call(`${server.url}${paths.register}`, { headers: agentHeaders(), body: registerBody('a1') })
    expect(second.json.signingSecret).toBe(first.json.signingSecret)
    expect((await registered).request.FunnelURL).toBe('https://x.trycloudflare.com')
    expect(server.lastRegistration('a1')!.request.hwAccel!.chosenEncoder).toBe('libx264')
    expect(server.lastRegistration('a1')!.agentVersion).toBe('0.14.0')
    expect(server.registrations()).toHaveLength(2)
  })

  it('a signing secret given as an option is the one handed out', async () => {
    await server.close()
    server = await createReferenceServer({ accessToken, signingSecret: 'fixed-secret' })
    const res = await call(`${server.url}${paths.register}`, { headers: agentHeaders(), body: registerBody('a1') })
    expect(res.json.signingSecret).toBe('fixed-secret')
  })

  it('a sync or register that omits VPNActive is refused with 400', async () => {
    const body = syncBody('a1')
    delete body.VPNActive
    const res = await call(`${server.url}${paths.sync}`, { headers: agentHeaders(), body })
    expect(res.status).toBe(400)
    expect(res.json.message).toMatch(/VPNActive/)
    const reg = registerBody('a1')
    delete reg.VPNActive
    expect((await call(`${server.url}${paths.register}`, { headers: agentHeaders(), body: reg })).status).toBe(400)
    expect((await call(`${server.url}${paths.sync}`, { headers: agentHeaders(), body: '{not json' })).status).toBe(400)
  })

  it('an idle sync gets the full response shape with nothing owed', async () => {
    expect(await sync('a1')).toEqual({ watching: false, streamSessions: [], actions: [], controls: [], upgradeRequested: false })
  })

  it('every sync is kept in the history with its time, request and response', async () => {
    await sync('a1', { FunnelURL: 'https://a.example' })
    await sync('a2')
    await sync('a1', { VPNActive: true, VPNMode: 'wireguard', VPNExitServer: 'ref-exit-1' })
    expect(server.syncHistory('a1').map((record) => record.request.FunnelURL)).toEqual(['https://a.example', ''])
    expect(server.lastSync('a1')!.request.VPNExitServer).toBe('ref-exit-1')
    expect(server.lastSync()!.agentId).toBe('a1')
    expect(server.syncHistory()).toHaveLength(3)
    expect(typeof server.lastSync()!.at).toBe('number')
  })

  it('waitFor resolves on the next matching sync without polling', async () => {
    const next = server.waitFor('sync', (record) => record.request.tasks.length === 1)
    await sync('a1')
    await sync('a1', { tasks: [{ id: 't9', infoHash: 'ab', name: 'x', state: 'downloading', progress: 0.5, size: 1, downloaded: 0, uploaded: 0, downloadSpeed: 0, uploadSpeed: 0, peers: 0, etaSeconds: null, files: [] }] })
    expect((await next).request.tasks[0]!.id).toBe('t9')
  })

  it('waitFor rejects with a typed error when nothing matches in time', async () => {
    await expect(server.waitFor('sync', () => true, 20)).rejects.toMatchObject({ code: 'MA_ERR_REFERENCE_SERVER' })
  })

  it('a queued task is delivered as add_task until a sync lists it', async () => {
    const taskId = server.queueTask('magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567')
    const expected = { type: 'add_task', taskId, source: 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567' }
    expect((await sync('a1')).actions).toEqual([expected])
    expect((await sync('a1')).actions).toEqual([expected])
    const task = { id: taskId, infoHash: '01', name: 'x', state: 'queued', progress: 0, size: 0, downloaded: 0, uploaded: 0, downloadSpeed: 0, uploadSpeed: 0, peers: 0, etaSeconds: null, files: [] }
    expect((await sync('a1', { tasks: [task] })).actions).toEqual([])
    server.deleteTask(taskId, { deleteFiles: true })
    expect((await sync('a1', { tasks: [task] })).actions).toEqual([{ type: 'delete_task', taskId, deleteFiles: true }])
    expect((await sync('a1', { tasks: [task] })).actions).toHaveLength(1)
    expect((await sync('a1')).actions).toEqual([])
  })

  it('a queued control is delivered until its id comes back in appliedControls', async () => {
    const control = server.queueControl({ kind: 'pause_task', taskId: 't1' })
    expect(control.id).toEqual(expect.any(String))
    expect((await sync('a1')).controls).toEqual([control])
    expect((await sync('a1')).controls).toEqual([control])
    expect((await sync('a1', { appliedControls: [control.id] })).controls).toEqual([])
    expect(server.controls()[0]!.appliedAt).toEqual(expect.any(Number))
  })

  it('controls of unknown kinds are delivered as given', async () => {
    server.queueControl({ kind: 'future_thing', id: 'c-x', payload: 1 })
    expect((await sync('a1')).controls).toEqual([{ kind: 'future_thing', id: 'c-x', payload: 1 }])
  })

  it('a created stream session is listed until it is removed', async () => {
    const created = server.createStreamSession({ filePath: '/media/movie.mkv', quality: '720p', audioIndex: 1 })
    expect(created.session).toEqual({ sessionId: created.sessionId, PlayMethod: 'hls', quality: '720p', filePath: '/media/movie.mkv', audioIndex: 1 })
    expect((await sync('a1')).streamSessions).toEqual([created.session])
    expect(server.removeStreamSession(created.sessionId)).toBe(true)
    expect(server.removeStreamSession(created.sessionId)).toBe(false)
    expect((await sync('a1')).streamSessions).toEqual([])
    expect(server.session(created.sessionId)!.removedAt).toEqual(expect.any(String))
  })

  it('a session for one agent is not listed to another', async () => {
    server.createStreamSession({ agentId: 'a1', DirectURL: 'https://debrid.example/x.mp4', PlayMethod: 'direct', cacheId: 'ab'.repeat(20) })
    expect((await sync('a2')).streamSessions).toEqual([])
    expect((await sync('a1')).streamSessions).toHaveLength(1)
  })

  it('a session comes with stream and hls tokens that verify, and player URLs on the agent address', async () => {
    await call(`${server.url}${paths.register}`, { headers: agentHeaders(), body: registerBody('a1') })
    const created = server.createStreamSession({ agentId: 'a1', filePath: '/media/My Movie.mkv' })
    const nowSeconds = Date.now() / 1000
    const { tokens } = created
    expect(verifyStreamToken({ secret: server.signingSecret, token: tokens.streamToken, scope: `stream:${created.sessionId}`, nowSeconds })).toBe(true)
    expect(verifyStreamToken({ secret: server.signingSecret, token: tokens.hlsToken, scope: `hls:${created.sessionId}`, nowSeconds })).toBe(true)
    expect(created.urls.hls).toBe(`http://127.0.0.1:7890/hls/${created.sessionId}/${tokens.hlsToken}/master.m3u8`)
    expect(created.urls.stream).toBe(`http://127.0.0.1:7890/stream/${created.sessionId}/My%20Movie.mkv?token=${tokens.streamToken}`)
    expect(created.urls.playerEvents).toBe(`${server.url}/api/stream-sessions/${created.sessionId}/events?token=${tokens.playerToken}`)
  })

  it('player URLs prefer the public tunnel URL the agent reported', async () => {
    await sync('a1', { FunnelURL: 'https://abc.trycloudflare.com/' })
    const created = server.createStreamSession({ agentId: 'a1', filePath: '/m.mp4', PlayMethod: 'direct' })
    expect(created.urls.stream!.startsWith('https://abc.trycloudflare.com/stream/')).toBe(true)
  })

  it('a thumbnail URL carries a token scoped to the sha256 of the requested path', async () => {
    const { path } = server.thumbnailUrl('/media/a.mkv', 12, { width: 320 })
    const url = new URL(`http://x${path}`)
    expect(url.pathname).toBe('/thumbnail')
    expect(url.searchParams.get('path')).toBe('/media/a.mkv')
    const scope = 'thumb:' + (await import('node:crypto')).createHash('sha256').update('/media/a.mkv').digest('hex')
    expect(verifyStreamToken({ secret: server.signingSecret, token: url.searchParams.get('token')!, scope, nowSeconds: Date.now() / 1000 })).toBe(true)
  })

  it('watching is reported in the sync response', async () => {
    server.setWatching(true)
    expect((await sync('a1')).watching).toBe(true)
  })

  it('an upgrade stays requested, with its offer, until an upgrade result of any outcome is posted', async () => {
    const offer = { targetVersion: '0.15.0', artifactUrl: 'https://example.invalid/a.tgz', sha256: 'ab'.repeat(32) }
    server.requestUpgrade(offer)
    expect(await sync('a1')).toMatchObject({ upgradeRequested: true, upgrade: offer })
    expect(await sync('a1')).toMatchObject({ upgradeRequested: true })
    const reported = server.waitFor('upgradeResult')
    const res = await call(`${server.url}${paths.upgradeResult}`, { headers: agentHeaders(), body: { outcome: 'noop', fromVersion: '0.15.0', toVersion: '0.15.0' } })
    expect(res.status).toBe(204)
    expect((await reported).result.outcome).toBe('noop')
    const after = await sync('a1')
    expect(after.upgradeRequested).toBe(false)
    expect(after.upgrade).toBeUndefined()
    expect(server.upgradeResults().map((r) => r.result.outcome)).toEqual(['noop'])
  })

  it('an upgrade result with an unknown outcome is refused', async () => {
    const res = await call(`${server.url}${paths.upgradeResult}`, { headers: agentHeaders(), body: { outcome: 'maybe', fromVersion: '1', toVersion: '2' } })
    expect(res.status).toBe(400)
  })
})

describe('reference server: session-ready', () => {
  it('sets ready_at once; a repeated call keeps the first time', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z')
    await server.close()
    server = await createReferenceServer({ accessToken, now: () => now })
    const { sessionId } = server.createStreamSession({ filePath: '/m.mkv' })
    const first = await call(`${server.url}${paths.sessionReady}`, { headers: agentHeaders(), body: { sessionId } })
    expect(first.status).toBe(204)
    now += 5_000
    const again = await call(`${server.url}${paths.sessionReady}`, { headers: agentHeaders(), body: { sessionId } })
    expect(again.status).toBe(204)
    expect(server.session(sessionId)!.readyAt).toBe('2026-01-01T00:00:00.000Z')
  })

  it('an unknown session answers 404 and a body without sessionId 400', async () => {
    expect((await call(`${server.url}${paths.sessionReady}`, { headers: agentHeaders(), body: { sessionId: 'nope' } })).status).toBe(404)
    expect((await call(`${server.url}${paths.sessionReady}`, { headers: agentHeaders(), body: {} })).status).toBe(400)
  })
})

describe('reference server: the WireGuard slot over vpn-config', () => {
  const vpnUrl = (query: string): string => `${server.url}${paths.vpnConfig}${query}`

  it('answers 403 disabled, then 412 not_provisioned, as typed JSON errors', async () => {
    const disabled = await call(vpnUrl('?agent_id=a1'), { headers: agentHeaders() })
    expect(disabled.status).toBe(403)
    expect(disabled.json).toMatchObject({ error: 'disabled' })
    server.setVpn({ enabled: true })
    const unprovisioned = await call(vpnUrl('?agent_id=a1'), { headers: agentHeaders() })
    expect(unprovisioned.status).toBe(412)
    expect(unprovisioned.json).toMatchObject({ error: 'not_provisioned' })
  })

  it('needs the agent_id parameter', async () => {
    server.setVpn({ enabled: true, provisioned: true })
    expect((await call(vpnUrl(''), { headers: agentHeaders() })).status).toBe(400)
  })

  it('the first agent claims the slot and gets the wg-quick text with the exit server header', async () => {
    server.setVpn({ enabled: true, provisioned: true, exitServer: 'se-sto-wg-001', fields: { mtu: 1280 } })
    const res = await call(vpnUrl('?agent_id=a1'), { headers: agentHeaders() })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.headers['x-vpn-exit-server']).toBe('se-sto-wg-001')
    expect(res.text).toMatch(/^\[Interface\]\nPrivateKey = /)
    expect(res.text).toContain('MTU = 1280')
    expect(server.vpnState().holder).toBe('a1')
  })

  it('a second agent gets 409 slot_on_device until the holder syncs with VPNActive false', async () => {
    server.setVpn({ enabled: true, provisioned: true, config: '[Interface]\nPrivateKey = k\n' })
    expect((await call(vpnUrl('?agent_id=a1'), { headers: agentHeaders() })).status).toBe(200)
    const taken = await call(vpnUrl('?agent_id=a2'), { headers: agentHeaders() })
    expect(taken.status).toBe(409)
    expect(taken.json).toMatchObject({ error: 'slot_on_device' })
    await sync('a2', { VPNActive: false })
    expect((await call(vpnUrl('?agent_id=a2'), { headers: agentHeaders() })).status).toBe(409)
    await sync('a1', { VPNActive: true, VPNMode: 'wireguard' })
    expect((await call(vpnUrl('?agent_id=a2'), { headers: agentHeaders() })).status).toBe(409)
    await sync('a1', { VPNActive: false })
    const freed = await call(vpnUrl('?agent_id=a2'), { headers: agentHeaders() })
    expect(freed.status).toBe(200)
    expect(freed.text).toBe('[Interface]\nPrivateKey = k\n')
    expect(server.vpnState().holder).toBe('a2')
  })

  it('probe=1 validates without claiming, even while another agent holds the slot', async () => {
    server.setVpn({ enabled: true, provisioned: true })
    expect((await call(vpnUrl('?agent_id=a1&probe=1'), { headers: agentHeaders() })).status).toBe(200)
    expect(server.vpnState().holder).toBeUndefined()
    await call(vpnUrl('?agent_id=a1'), { headers: agentHeaders() })
    const probe = server.waitFor('vpnConfig')
    expect((await call(vpnUrl('?agent_id=a2&probe=1'), { headers: agentHeaders() })).status).toBe(200)
    expect(await probe).toMatchObject({ agentId: 'a2', probe: true, status: 200 })
    expect(server.vpnState().holder).toBe('a1')
    server.setVpn({ provisioned: false })
    expect((await call(vpnUrl('?agent_id=a2&probe=1'), { headers: agentHeaders() })).status).toBe(412)
  })

  it('needs the Bearer credential like every agent call', async () => {
    expect((await call(vpnUrl('?agent_id=a1'))).status).toBe(401)
  })
})

describe('reference server: library upload', () => {
  const upload = { agentId: 'a1', scanId: 's1', libraries: [{ root: '/media', items: [{ path: '/media/a.mkv', size: 1, mtime: 2, audio: [], subtitles: [] }] }] }

  it('a gzip LibrarySync is stored per agent and answered 204', async () => {
    const stored = server.waitFor('library')
    const res = await call(`${server.url}${paths.library}`, { headers: agentHeaders(), body: upload, gzip: true })
    expect(res.status).toBe(204)
    expect((await stored).upload).toEqual(upload)
    expect(server.libraryUploads('a1')[0]!.compressedBytes).toBeGreaterThan(0)
  })

  it('a body that is not gzip, not valid gzip, or not a LibrarySync is refused with 400', async () => {
    expect((await call(`${server.url}${paths.library}`, { headers: agentHeaders(), body: upload })).status).toBe(400)
    expect((await call(`${server.url}${paths.library}`, { headers: agentHeaders({ 'content-encoding': 'gzip' }), body: 'plain' })).status).toBe(400)
    expect((await call(`${server.url}${paths.library}`, { headers: agentHeaders(), body: { agentId: 'a1' }, gzip: true })).status).toBe(400)
    expect((await call(`${server.url}${paths.library}`, { headers: agentHeaders(), body: '[1,2', gzip: true })).status).toBe(400)
    expect(server.libraryUploads()).toEqual([])
  })
})

describe('reference server: control routes over HTTP', () => {
  const admin = { authorization: `Bearer ${accessToken}` }

  it('need the access token', async () => {
    expect((await call(`${server.url}/api/reference/state`)).status).toBe(401)
  })

  it('queue a task, a session, a control and an upgrade that the next sync delivers', async () => {
    const task = await call(`${server.url}/api/reference/tasks`, { headers: admin, body: { source: 'abcdef0123456789abcdef0123456789abcdef01' } })
    expect(task.status).toBe(201)
    const session = await call(`${server.url}/api/reference/sessions`, { headers: admin, body: { filePath: '/m.mkv', quality: '1080p' } })
    expect(session.status).toBe(201)
    expect(session.json.urls.playerEvents).toContain('/api/stream-sessions/')
    const control = await call(`${server.url}/api/reference/controls`, { headers: admin, body: { kind: 'set_downlink', mode: 'poll' } })
    expect(control.status).toBe(201)
    expect((await call(`${server.url}/api/reference/upgrade`, { headers: admin, body: { targetVersion: '0.15.0', artifactUrl: 'https://x.invalid/a', sha256: '00' } })).status).toBe(204)
    expect((await call(`${server.url}/api/reference/watching`, { method: 'PUT', headers: admin, body: { watching: true } })).status).toBe(204)
    const response = await sync('a1')
    expect(response.actions).toEqual([{ type: 'add_task', taskId: task.json.taskId, source: 'abcdef0123456789abcdef0123456789abcdef01' }])
    expect(response.streamSessions).toEqual([session.json.session])
    expect(response.controls).toEqual([control.json])
    expect(response).toMatchObject({ watching: true, upgradeRequested: true })
    const state = await call(`${server.url}/api/reference/state`, { headers: admin })
    expect(state.json.agents).toEqual(['a1'])
    expect(state.json.lastSync.request.agentId).toBe('a1')
    expect((await call(`${server.url}/api/reference/syncs?agentId=a1`, { headers: admin })).json).toHaveLength(1)
  })

  it('remove a session, delete a task, set the VPN and free its slot', async () => {
    const created = server.createStreamSession({ filePath: '/m.mkv' })
    expect((await call(`${server.url}/api/reference/sessions/${created.sessionId}`, { method: 'DELETE', headers: admin })).status).toBe(204)
    expect((await call(`${server.url}/api/reference/sessions/${created.sessionId}`, { method: 'DELETE', headers: admin })).status).toBe(404)
    const taskId = server.queueTask('hash')
    await sync('a1')
    expect((await call(`${server.url}/api/reference/tasks/${taskId}?deleteFiles=1`, { method: 'DELETE', headers: admin })).status).toBe(204)
    expect((await sync('a1')).actions).toEqual([{ type: 'delete_task', taskId, deleteFiles: true }])
    expect((await call(`${server.url}/api/reference/vpn`, { method: 'PUT', headers: admin, body: { enabled: true, provisioned: true } })).status).toBe(204)
    await call(`${server.url}${paths.vpnConfig}?agent_id=a1`, { headers: agentHeaders() })
    expect(server.vpnState().holder).toBe('a1')
    expect((await call(`${server.url}/api/reference/vpn/slot`, { method: 'DELETE', headers: admin })).status).toBe(204)
    expect(server.vpnState().holder).toBeUndefined()
  })

  it('mint a token for any scope and refuse bad input with 400', async () => {
    const minted = await call(`${server.url}/api/reference/tokens`, { headers: admin, body: { scope: 'hls:x', ttlSeconds: 30 } })
    expect(verifyStreamToken({ secret: server.signingSecret, token: minted.json.token, scope: 'hls:x', nowSeconds: Date.now() / 1000 })).toBe(true)
    expect((await call(`${server.url}/api/reference/sessions`, { headers: admin, body: { quality: '720p' } })).status).toBe(400)
    expect((await call(`${server.url}/api/reference/tasks`, { headers: admin, body: {} })).status).toBe(400)
    expect((await call(`${server.url}/api/reference/nothing`, { headers: admin })).status).toBe(404)
  })
})
