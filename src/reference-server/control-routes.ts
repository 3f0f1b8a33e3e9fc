// `/api/reference/*`: the in-process control API over HTTP, for people (curl) and for tests in
// another process. Same Bearer access token as the agent routes; checked by the caller.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { UpgradeOffer } from '../protocol/wire.js'
import { clearFaults, type FaultOptions } from './faults.js'
import { HttpError, isRecord, readJsonBody, sendEmpty, sendJson } from './http.js'
import type { ReferenceServer, VpnPatch } from './server.js'
import type { SessionInput } from './sessions.js'

const controlBodyMaxBytes = 1024 * 1024

async function body(_server: ReferenceServer, req: IncomingMessage): Promise<Record<string, unknown>> {
  const json = await readJsonBody(req, controlBodyMaxBytes)
  if (!isRecord(json)) throw new HttpError(400, 'bad_request', 'a JSON object is expected')
  return json
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new HttpError(400, 'bad_request', `${name} must be a string`)
  return value
}

function agentFilter(url: URL): string | undefined {
  return url.searchParams.get('agentId') ?? undefined
}

function snapshot(server: ReferenceServer): Record<string, unknown> {
  return {
    url: server.url,
    minAgentVersion: server.minAgentVersion,
    watching: server.watching,
    upgradeRequested: server.upgradeRequested,
    upgrade: server.state.upgradeOffer,
    vpn: { enabled: server.vpnState().settings.enabled, provisioned: server.vpnState().settings.provisioned, exitServer: server.vpnState().settings.exitServer, holder: server.vpnState().holder },
    connections: server.connections(),
    pendingWake: server.pendingWake,
    agents: server.agentIds(),
    sessions: server.sessions(),
    tasks: server.tasks(),
    controls: server.controls(),
    lastSync: server.lastSync(),
  }
}

export async function handleControlRoute(server: ReferenceServer, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET'
  const parts = url.pathname.replace(/^\/api\/reference\/?/, '').split('/').filter(Boolean).map((part) => decodeURIComponent(part))
  const [resource, id, sub] = parts
  const key = `${method} ${resource ?? ''}${id === undefined ? '' : '/:id'}${sub === undefined ? '' : `/${sub}`}`

  switch (key) {
    case 'GET state':
      return sendJson(res, 200, snapshot(server))
    case 'GET sessions':
      return sendJson(res, 200, server.sessions())
    case 'GET sessions/:id': {
      const view = server.session(id!)
      if (!view) throw new HttpError(404, 'not_found', `no stream session ${id}`)
      // The agent's latest word on this session (the player page shows it), from its last sync.
      const report = server.lastSync(view.agentId)?.request.sessions.find((entry) => entry.sessionId === view.sessionId)
      return sendJson(res, 200, { ...view, report: report ?? null })
    }
    case 'POST sessions':
      return sendJson(res, 201, server.createStreamSession((await body(server, req)) as SessionInput))
    case 'DELETE sessions/:id':
      if (!server.removeStreamSession(id!)) throw new HttpError(404, 'not_found', `no live stream session ${id}`)
      return sendEmpty(res, 204)
    case 'GET tasks':
      return sendJson(res, 200, server.tasks())
    case 'POST tasks': {
      const input = await body(server, req)
      const source = optionalString(input.source, 'source') ?? ''
      const options: { agentId?: string; taskId?: string } = {}
      const agentId = optionalString(input.agentId, 'agentId')
      const taskId = optionalString(input.taskId, 'taskId')
      if (agentId !== undefined) options.agentId = agentId
      if (taskId !== undefined) options.taskId = taskId
      return sendJson(res, 201, { taskId: server.queueTask(source, options) })
    }
    case 'DELETE tasks/:id': {
      const options: { deleteFiles: boolean; agentId?: string } = { deleteFiles: ['1', 'true'].includes(url.searchParams.get('deleteFiles') ?? '') }
      const agentId = agentFilter(url)
      if (agentId !== undefined) options.agentId = agentId
      server.deleteTask(id!, options)
      return sendEmpty(res, 204)
    }
    case 'GET controls':
      return sendJson(res, 200, server.controls())
    case 'POST controls': {
      const { agentId, ...control } = await body(server, req)
      const target = optionalString(agentId, 'agentId')
      return sendJson(res, 201, server.queueControl(control as { kind: string }, target === undefined ? {} : { agentId: target }))
    }
    case 'POST scan': {
      const input = await body(server, req).catch(() => ({}) as Record<string, unknown>)
      const target = optionalString(input.agentId, 'agentId')
      return sendJson(res, 201, server.requestScan({ ...(target === undefined ? {} : { agentId: target }), ...(input.full === true ? { full: true } : {}) }))
    }
    case 'POST upgrade':
      server.requestUpgrade((await body(server, req)) as unknown as UpgradeOffer)
      return sendEmpty(res, 204)
    case 'GET upgrade-results':
      return sendJson(res, 200, server.upgradeResults())
    case 'GET vpn':
      return sendJson(res, 200, server.vpnState())
    case 'PUT vpn':
      server.setVpn((await body(server, req)) as VpnPatch)
      return sendEmpty(res, 204)
    case 'DELETE vpn/:id':
      if (id !== 'slot') break
      server.releaseVpnSlot()
      return sendEmpty(res, 204)
    case 'PUT watching': {
      const input = await body(server, req)
      if (typeof input.watching !== 'boolean') throw new HttpError(400, 'bad_request', 'watching must be a boolean')
      server.setWatching(input.watching)
      return sendEmpty(res, 204)
    }
    case 'POST wake': {
      const input = await body(server, req).catch(() => ({}) as Record<string, unknown>)
      server.raiseWake(optionalString(input.reason, 'reason') ?? 'manual')
      return sendEmpty(res, 204)
    }
    case 'GET syncs':
      return sendJson(res, 200, server.syncHistory(agentFilter(url)))
    case 'GET registrations':
      return sendJson(res, 200, server.registrations(agentFilter(url)))
    case 'GET library':
      return sendJson(res, 200, server.libraryUploads(agentFilter(url)))
    case 'GET library/:id':
      if (id !== 'held') break
      return sendJson(res, 200, server.library(agentFilter(url)) ?? null)
    case 'DELETE library':
      server.forgetLibrary(agentFilter(url))
      return sendEmpty(res, 204)
    case 'GET faults':
      return sendJson(res, 200, server.faults)
    case 'PUT faults': {
      const input = await body(server, req)
      Object.assign(server.faults, input as Partial<FaultOptions>)
      return sendJson(res, 200, server.faults)
    }
    case 'DELETE faults':
      clearFaults(server.faults)
      return sendEmpty(res, 204)
    case 'POST tokens': {
      const input = await body(server, req)
      const scope = optionalString(input.scope, 'scope')
      if (!scope) throw new HttpError(400, 'bad_request', 'scope is required')
      const ttl = typeof input.ttlSeconds === 'number' ? input.ttlSeconds : undefined
      return sendJson(res, 201, { token: server.mintToken(scope, ttl) })
    }
    default:
      break
  }
  throw new HttpError(404, 'not_found', `no control route ${method} ${url.pathname}`)
}
