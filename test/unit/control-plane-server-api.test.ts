import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { AgentError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import type { RegisterRequest, SyncRequest } from '../../src/protocol/wire.js'
import { createServerApi, type ServerApi } from '../../src/services/http/server-api.js'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: Buffer
}

type Handler = (request: Seen, response: ServerResponse) => void

const servers: Server[] = []
const apis: ServerApi[] = []

afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()))
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })))
})

async function serve(handler: Handler): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) }
      seen.push(entry)
      handler(entry, response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}/prefix`, seen }
}

function api(baseUrl: string, extra: { requestTimeoutMs?: number } = {}): ServerApi {
  const client = createServerApi({ baseUrl, accessToken: 'tok-123', version: '0.14.0', logger: silentLogger(), ...extra })
  apis.push(client)
  return client
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError)
    return error as AgentError
  }
  throw new Error('expected a failure')
}

const registerBody: RegisterRequest = {
  agentId: 'a1', version: '0.14.0', hostname: 'nas', platform: { os: 'linux', arch: 'x64', node: '20', container: false },
  streamServer: { port: 7890, publicUrl: 'http://192.0.2.1:7890', addresses: [{ kind: 'lan', url: 'http://192.0.2.1:7890' }] },
  FunnelURL: '', VPNActive: false, VPNMode: 'off', VPNExitServer: '',
}

const syncBody: SyncRequest = {
  agentId: 'a1', version: '0.14.0', tasks: [], sessions: [], appliedControls: ['c1'], FunnelURL: '', VPNActive: false,
  VPNMode: 'off', VPNExitServer: '', streamServer: registerBody.streamServer,
}

describe('server API', () => {
  it('sends the bearer token, the user agent and the agent version on every call, under the base URL path', async () => {
    const server = await serve((_, response) => json(response, 200, { agentId: 'a1', signingSecret: 's', minAgentVersion: '0.9.4' }))
    const response = await api(server.baseUrl).register(registerBody)
    expect(response).toEqual({ agentId: 'a1', signingSecret: 's', minAgentVersion: '0.9.4' })
    const [seen] = server.seen
    expect(seen!.method).toBe('POST')
    expect(seen!.url).toBe('/prefix/api/internal/agent/register')
    expect(seen!.headers.authorization).toBe('Bearer tok-123')
    expect(seen!.headers['user-agent']).toBe('media-agent/0.14.0')
    expect(seen!.headers['x-agent-version']).toBe('0.14.0')
    expect(JSON.parse(seen!.body.toString('utf8'))).toEqual(registerBody)
  })

  it('posts the sync request and fills in what a terse response leaves out', async () => {
    const server = await serve((_, response) => json(response, 200, { watching: true, controls: [{ id: 'c2', kind: 'scan_library' }] }))
    const response = await api(server.baseUrl).sync(syncBody)
    expect(response).toEqual({ watching: true, streamSessions: [], actions: [], controls: [{ id: 'c2', kind: 'scan_library' }], upgradeRequested: false })
    expect(server.seen[0]!.url).toBe('/prefix/api/internal/agent/sync')
    expect(JSON.parse(server.seen[0]!.body.toString('utf8')).appliedControls).toEqual(['c1'])
  })

  it('turns a 401 into an actionable unauthorized error', async () => {
    const server = await serve((_, response) => json(response, 401, { error: 'unauthorized' }))
    const error = await failure(api(server.baseUrl).sync(syncBody))
    expect(error.code).toBe('MA_ERR_SERVER_UNAUTHORIZED')
    expect(error.message).toContain('[server] access_token')
    expect(error.retryable).toBe(false)
  })

  it('turns a 426 into a version error that names minAgentVersion', async () => {
    const server = await serve((_, response) => json(response, 426, { error: 'upgrade_required', minAgentVersion: '0.15.1' }))
    const error = await failure(api(server.baseUrl).register(registerBody))
    expect(error.code).toBe('MA_ERR_AGENT_TOO_OLD')
    expect(error.message).toContain('0.15.1')
  })

  it('turns a 5xx into a retryable server error and another 4xx into a request error', async () => {
    const server = await serve((request, response) => {
      if (request.url.endsWith('/sync')) json(response, 503, { error: 'busy', message: 'try later' })
      else json(response, 404, { error: 'unknown_agent' })
    })
    const busy = await failure(api(server.baseUrl).sync(syncBody))
    expect(busy.code).toBe('MA_ERR_SERVER')
    expect(busy.retryable).toBe(true)
    const missing = await failure(api(server.baseUrl).sessionReady('s1'))
    expect(missing.code).toBe('MA_ERR_SERVER_REQUEST')
    expect(missing.details).toMatchObject({ status: 404, serverCode: 'unknown_agent' })
  })

  it('names the base URL when the server cannot be reached', async () => {
    const server = await serve(() => {})
    const dead = server.baseUrl
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()))
    const error = await failure(api(dead).sync(syncBody))
    expect(error.code).toBe('MA_ERR_SERVER_UNREACHABLE')
    expect(error.retryable).toBe(true)
    expect(error.message).toContain(dead)
  })

  it('gives up on a server that does not answer within the request timeout', async () => {
    const server = await serve(() => {})
    const error = await failure(api(server.baseUrl, { requestTimeoutMs: 100 }).sync(syncBody))
    expect(error.code).toBe('MA_ERR_SERVER_UNREACHABLE')
    expect(error.message).toContain('timed out after 100 ms')
  })

  it('rejects a sync response that is not an object', async () => {
    const server = await serve((_, response) => json(response, 200, [1, 2]))
    expect((await failure(api(server.baseUrl).sync(syncBody))).code).toBe('MA_ERR_SERVER_RESPONSE')
  })

  it('posts session-ready and upgrade-result bodies', async () => {
    const server = await serve((_, response) => {
      response.writeHead(204)
      response.end()
    })
    const client = api(server.baseUrl)
    await client.sessionReady('s1')
    await client.upgradeResult({ outcome: 'noop', fromVersion: '0.14.0', toVersion: '0.14.0' })
    expect(server.seen.map((seen) => [seen.url, JSON.parse(seen.body.toString('utf8'))])).toEqual([
      ['/prefix/api/internal/agent/session-ready', { sessionId: 's1' }],
      ['/prefix/api/internal/agent/upgrade-result', { outcome: 'noop', fromVersion: '0.14.0', toVersion: '0.14.0' }],
    ])
  })

  it('fetches the VPN config with the agent id and probe flag, and maps the three typed refusals', async () => {
    let answer: [number, unknown] = [200, null]
    const server = await serve((_, response) => {
      if (answer[0] === 200) {
        response.writeHead(200, { 'content-type': 'text/plain', 'x-vpn-exit-server': 'ams-1' })
        response.end('[Interface]\nPrivateKey = x\n')
      } else json(response, answer[0], answer[1])
    })
    const client = api(server.baseUrl)
    expect(await client.vpnConfig('a1', true)).toEqual({ config: '[Interface]\nPrivateKey = x\n', exitServer: 'ams-1' })
    expect(server.seen[0]!.url).toBe('/prefix/api/internal/agent/vpn-config?agent_id=a1&probe=1')
    await client.vpnConfig('a1')
    expect(server.seen[1]!.url).toBe('/prefix/api/internal/agent/vpn-config?agent_id=a1')
    const cases: [number, string, string][] = [
      [403, 'disabled', 'MA_ERR_VPN_DISABLED'],
      [412, 'not_provisioned', 'MA_ERR_VPN_NOT_PROVISIONED'],
      [409, 'slot_on_device', 'MA_ERR_VPN_SLOT_ON_DEVICE'],
    ]
    for (const [status, error, code] of cases) {
      answer = [status, { error }]
      const refusal = await failure(client.vpnConfig('a1'))
      expect(refusal.code).toBe(code)
      expect((refusal as AgentError & { reason: string }).reason).toBe(error)
    }
    answer = [401, { error: 'unauthorized' }]
    expect((await failure(client.vpnConfig('a1'))).code).toBe('MA_ERR_SERVER_UNAUTHORIZED')
  })

  it('uploads the library gzip-compressed', async () => {
    const server = await serve((_, response) => {
      response.writeHead(204)
      response.end()
    })
    const library = { agentId: 'a1', scanId: 'scan-1', libraries: [{ root: '/media', items: [{ path: '/media/a.mkv', size: 1, mtime: 2, audio: [], subtitles: [] }] }] }
    await api(server.baseUrl).uploadLibrary(library)
    const [seen] = server.seen
    expect(seen!.url).toBe('/prefix/api/internal/agent/library')
    expect(seen!.headers['content-encoding']).toBe('gzip')
    expect(seen!.headers.authorization).toBe('Bearer tok-123')
    expect(JSON.parse(gunzipSync(seen!.body).toString('utf8'))).toEqual(library)
  })
})
