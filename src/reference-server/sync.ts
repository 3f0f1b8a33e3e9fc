// Register and sync (protocol.md 1): the request is remembered, pending acknowledgements are
// applied, and the response lists what is still owed to this agent (docs/reference-server.md).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RegisterResponse } from '../protocol/wire.js'
import { requestMeta, type RouteContext } from './context.js'
import { readJsonBody, sendJson } from './http.js'
import { parseRegisterRequest, parseSyncRequest } from './validate.js'

export async function handleRegister(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = parseRegisterRequest(await readJsonBody(req, ctx.maxBodyBytes))
  const record = ctx.state.register(request, requestMeta(req))
  const response: RegisterResponse = { agentId: request.agentId, signingSecret: ctx.signingSecret, minAgentVersion: ctx.minAgentVersion }
  sendJson(res, 200, response)
  ctx.log.info({ agentId: request.agentId, version: request.version }, 'agent registered')
  ctx.events.emit('register', record)
}

export async function handleSync(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = parseSyncRequest(await readJsonBody(req, ctx.maxBodyBytes))
  // This response reflects every change so far, so a wake raised while nobody held one is spent.
  ctx.wake.clearPending()
  const record = ctx.state.sync(request, requestMeta(req))
  sendJson(res, 200, record.response)
  ctx.log.debug({ agentId: request.agentId, actions: record.response.actions.length, controls: record.response.controls.length }, 'sync')
  ctx.events.emit('sync', record)
}
