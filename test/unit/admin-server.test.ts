import { afterEach, describe, expect, it } from 'vitest'
import { request } from 'undici'
import { createActor, createMachine } from 'xstate'
import { startAdminServer, isLoopbackHost, type AdminServer, type AdminRoute } from '../../src/server/admin-server.js'
import { InspectionHub } from '../../src/system/inspection.js'
import { describeActorTree } from '../../src/system/actor-tree.js'
import { silentLogger } from '../../src/log.js'

const token = 'test-admin-token-0123456789'
let server: AdminServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(hub = new InspectionHub(10), routes: AdminRoute[] = []) {
  const machine = createMachine({ id: 'demo', context: { signingSecret: 'do-not-leak', count: 2 }, initial: 'idle', states: { idle: { on: { go: 'busy' } }, busy: {} } })
  const actor = createActor(machine, { inspect: hub.inspect }).start()
  server = await startAdminServer({ host: '127.0.0.1', port: 0, token, logger: silentLogger(), source: { actorTree: () => describeActorTree(actor), inspection: hub, status: () => ({ activeTaskCount: 0 }), routes } })
  return { actor, url: server.url }
}

describe('admin listener', () => {
  it('answers 401 and nothing else without the admin token, whatever the route', async () => {
    const { url } = await start()
    for (const [path, headers] of [['/debug/actors', {}], ['/debug/actors', { authorization: 'Bearer wrong' }], ['/no/such/route', {}], ['/api/status', { authorization: token }]] as const) {
      const response = await request(`${url}${path}`, { headers })
      expect(response.statusCode).toBe(401)
      expect(await response.body.text()).toBe('{"error":"unauthorized"}')
    }
  })

  it('shows the live actor tree with state values and without secrets', async () => {
    const { actor, url } = await start()
    actor.send({ type: 'go' })
    const response = await request(`${url}/debug/actors`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(200)
    const tree = (await response.body.json()) as { machine: string; value: string; context: Record<string, unknown> }
    expect(tree.machine).toBe('demo')
    expect(tree.value).toBe('busy')
    expect(tree.context).toEqual({ signingSecret: '[redacted]', count: 2 })
  })

  it('streams buffered and live inspection events over SSE', async () => {
    const hub = new InspectionHub(100)
    const { actor, url } = await start(hub)
    const response = await request(`${url}/debug/events`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.headers['content-type']).toBe('text/event-stream')
    actor.send({ type: 'go' })
    let text = ''
    for await (const chunk of response.body) {
      text += chunk.toString()
      if (text.includes('"eventType":"go"') && text.includes('"value":"busy"')) break
    }
    expect(text).toMatch(/^id: \d+\nevent: actor\n/m)
    response.body.destroy()
  })

  it('serves the routes the parts add, JSON and text, behind the same token', async () => {
    const seen: unknown[] = []
    const { url } = await start(undefined, [
      { method: 'POST', path: '/api/echo', handle: ({ body }) => (seen.push(body), { status: 200, json: { got: body } }) },
      { method: 'GET', path: '/metrics', handle: () => ({ status: 200, text: 'media_agent_up 1\n', contentType: 'text/plain; version=0.0.4' }) },
    ])
    const auth = { authorization: `Bearer ${token}` }
    const echoed = await request(`${url}/api/echo`, { method: 'POST', headers: auth, body: '{"enabled":true}' })
    expect(echoed.statusCode).toBe(200)
    expect(await echoed.body.json()).toEqual({ got: { enabled: true } })
    const metrics = await request(`${url}/metrics`, { headers: auth })
    expect(metrics.headers['content-type']).toBe('text/plain; version=0.0.4')
    expect(await metrics.body.text()).toBe('media_agent_up 1\n')
    const unauthorized = await request(`${url}/metrics`)
    expect(unauthorized.statusCode).toBe(401)
    await unauthorized.body.dump()
    const wrongMethod = await request(`${url}/api/echo`, { headers: auth })
    expect(wrongMethod.statusCode).toBe(404)
    await wrongMethod.body.dump()
    const notJson = await request(`${url}/api/echo`, { method: 'POST', headers: auth, body: '{nope' })
    expect(notJson.statusCode).toBe(400)
    await notJson.body.dump()
    const tooLarge = await request(`${url}/api/echo`, { method: 'POST', headers: auth, body: `"${'x'.repeat(70_000)}"` })
    expect(tooLarge.statusCode).toBe(413)
    await tooLarge.body.dump()
    expect(seen).toEqual([{ enabled: true }])
  })

  it('refuses to bind an address other than loopback', async () => {
    await expect(startAdminServer({ host: '0.0.0.0', port: 0, token, logger: silentLogger(), source: { actorTree: () => ({ id: 'x', children: [] }), inspection: new InspectionHub(1), status: () => ({}) } })).rejects.toThrow(/loopback/)
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('::1')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost('localhost')).toBe(true)
    expect(isLoopbackHost('192.168.1.2')).toBe(false)
    expect(isLoopbackHost('::')).toBe(false)
  })
})

describe('inspection ring buffer', () => {
  it('keeps only the most recent records and resumes after a given sequence number', () => {
    const hub = new InspectionHub(3)
    const machine = createMachine({ id: 'm', initial: 'a', states: { a: { on: { next: 'b' } }, b: { on: { next: 'a' } } } })
    const actor = createActor(machine, { inspect: hub.inspect }).start()
    for (let i = 0; i < 10; i++) actor.send({ type: 'next' })
    const recent = hub.recent()
    expect(recent).toHaveLength(3)
    expect(recent.map((record) => record.seq)).toEqual([...recent.map((record) => record.seq)].sort((a, b) => a - b))
    expect(hub.recent(recent[1]!.seq)).toEqual([recent[2]])
  })
})
