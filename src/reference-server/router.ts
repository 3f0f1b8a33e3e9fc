// Request routing: agent routes (faults, auth, version floor, then the handler), the player
// readiness stream, the `/api/reference/*` control routes and the player page.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as delay } from 'node:timers/promises'
import { ReferenceServerError } from '../errors.js'
import type { Logger } from '../log.js'
import { agentRoutes } from './agent-routes.js'
import { checkAgentVersion, requestBearerMatches } from './auth.js'
import type { RouteContext } from './context.js'
import { handleControlRoute } from './control-routes.js'
import type { TypedEmitter } from './emitter.js'
import { takeInjectedFailure, takeInjectedUnauthorized, type FaultOptions } from './faults.js'
import { HttpError, sendError } from './http.js'
import { handlePlayerPage, isPlayerPagePath } from './player-page.js'
import type { ReferenceServerEvents } from './records.js'
import type { ReferenceServer } from './server.js'
import { playerTokenMatches } from './tokens.js'

export interface RouterDeps {
  server: ReferenceServer
  ctx: RouteContext
  faults: FaultOptions
  events: TypedEmitter<ReferenceServerEvents>
  log: Logger
}

const agentPrefix = '/api/internal/agent/'
const playerEventsPattern = /^\/api\/stream-sessions\/([^/]+)\/events$/

export async function routeRequest(deps: RouterDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://reference.invalid')
  const path = url.pathname
  const method = req.method ?? 'GET'
  res.once('close', () => deps.events.emit('request', { method, path, status: res.headersSent ? res.statusCode : 0 }))
  try {
    if (path.startsWith(agentPrefix)) await handleAgent(deps, req, res, url)
    else if (playerEventsPattern.test(path)) handlePlayer(deps, req, res, url)
    else if (path.startsWith('/api/reference/') || path === '/api/reference') {
      if (!requestBearerMatches(req, deps.server.accessToken)) throw new HttpError(401, 'unauthorized', 'missing or wrong Bearer access token')
      await handleControlRoute(deps.server, req, res, url)
    } else if (isPlayerPagePath(path)) handlePlayerPage(req, res, url)
    else throw new HttpError(404, 'not_found', `no route ${method} ${path}`)
  } catch (err) {
    if (res.headersSent) {
      res.destroy()
      return
    }
    if (err instanceof HttpError) sendError(res, err.status, err.code, err.message, err.extra)
    else if (err instanceof ReferenceServerError) sendError(res, 400, 'bad_request', err.message)
    else {
      deps.log.error({ err, path }, 'reference server handler failed')
      sendError(res, 500, 'internal', (err as Error).message ?? String(err))
    }
  }
}

async function handleAgent(deps: RouterDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname
  if (deps.faults.delayMs > 0) await delay(deps.faults.delayMs)
  const injected = takeInjectedFailure(deps.faults, path)
  if (injected !== undefined) throw new HttpError(injected, 'injected_fault', `fault injected by the reference server on ${path}`)
  if (takeInjectedUnauthorized(deps.faults, deps.server.state.now())) throw new HttpError(401, 'unauthorized', 'access token rejected (injected fault)')
  if (!requestBearerMatches(req, deps.server.accessToken)) throw new HttpError(401, 'unauthorized', 'missing or wrong Bearer access token')
  const version = checkAgentVersion(req, deps.server.minAgentVersion)
  if (!version.ok) {
    throw new HttpError(426, 'upgrade_required', `agent version ${version.version} is below the minimum ${deps.server.minAgentVersion}`, { minAgentVersion: deps.server.minAgentVersion })
  }
  const route = agentRoutes[path]
  if (!route) throw new HttpError(404, 'not_found', `no agent route ${path}`)
  if (req.method !== route.method) throw new HttpError(405, 'method_not_allowed', `${path} takes ${route.method}`)
  await route.handler(deps.ctx, req, res, url)
}

function handlePlayer(deps: RouterDeps, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'player events take GET')
  const match = playerEventsPattern.exec(url.pathname)
  let sessionId: string
  try {
    sessionId = decodeURIComponent(match?.[1] ?? '')
  } catch {
    throw new HttpError(404, 'not_found', 'no such stream session')
  }
  const record = deps.server.state.sessions.live(sessionId)
  // Same 404 for an unknown session and a bad token: no hint which it was.
  const authorised = record !== undefined && (playerTokenMatches(url.searchParams.get('token'), record.tokens.playerToken) || requestBearerMatches(req, deps.server.accessToken))
  if (!record || !authorised) throw new HttpError(404, 'not_found', 'no such stream session')
  deps.ctx.players.open(req, res, record)
}
