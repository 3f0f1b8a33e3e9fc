// The agent-facing routes of protocol.md 1 other than register and sync.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { agentHeaders, apiPaths, vpnConfigErrorStatus } from '../protocol/wire.js'
import { requestMeta, type RouteContext } from './context.js'
import { HttpError, readJsonBody, readRawBody, sendEmpty, sendError, sendText } from './http.js'
import { handleRegister, handleSync } from './sync.js'
import { parseLibrarySync, parseSessionReady, parseUpgradeResult } from './validate.js'

const gunzipAsync = promisify(gunzip)

type Handler = (ctx: RouteContext, req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void

async function handleSessionReady(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sessionId = parseSessionReady(await readJsonBody(req, ctx.maxBodyBytes))
  const marked = ctx.state.sessions.markReady(sessionId, ctx.state.nowIso())
  if (!marked) throw new HttpError(404, 'not_found', `no live stream session ${sessionId}`)
  sendEmpty(res, 204)
  if (marked.first) ctx.players.ready(marked.record)
  ctx.events.emit('sessionReady', marked)
}

async function handleUpgradeResult(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const result = parseUpgradeResult(await readJsonBody(req, ctx.maxBodyBytes))
  const record = ctx.state.upgradeResult(result, requestMeta(req))
  sendEmpty(res, 204)
  ctx.log.info({ outcome: result.outcome, from: result.fromVersion, to: result.toVersion }, 'upgrade result')
  ctx.events.emit('upgradeResult', record)
}

function handleVpnConfig(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const agentId = url.searchParams.get('agent_id')
  if (!agentId) throw new HttpError(400, 'bad_request', 'vpn-config needs the agent_id query parameter')
  const probe = url.searchParams.get('probe') === '1'
  const result = ctx.state.vpn.fetch(agentId, probe)
  const meta = { at: ctx.state.now(), ...requestMeta(req), agentId, probe }
  if (!result.ok) {
    const status = vpnConfigErrorStatus[result.code]
    const messages = {
      disabled: 'the managed VPN is disabled for this account',
      not_provisioned: 'the account has no WireGuard key pair yet',
      slot_on_device: 'the WireGuard slot is held by another agent; run OpenVPN on that host instead',
    } as const
    sendError(res, status, result.code, messages[result.code])
    ctx.events.emit('vpnConfig', { ...meta, status, error: result.code })
    return
  }
  sendText(res, 200, result.config, { [agentHeaders.vpnExitServer]: result.exitServer })
  ctx.events.emit('vpnConfig', { ...meta, status: 200, error: undefined })
}

async function handleLibrary(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase()
  if (encoding !== 'gzip') throw new HttpError(400, 'gzip_required', 'library uploads are gzip bodies (Content-Encoding: gzip)')
  const raw = await readRawBody(req, ctx.maxBodyBytes)
  let text: string
  try {
    text = (await gunzipAsync(raw, { maxOutputLength: ctx.maxBodyBytes })).toString('utf8')
  } catch (err) {
    throw new HttpError(400, 'bad_request', `library body is not valid gzip: ${(err as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new HttpError(400, 'bad_request', `library body is not JSON: ${(err as Error).message}`)
  }
  const upload = parseLibrarySync(json)
  const record = ctx.state.library(upload, raw.length, requestMeta(req))
  if (record.status === 409) {
    sendError(res, 409, 'base_mismatch', `this server does not hold scan ${upload.baseScanId ?? ''}: send a full`)
  } else {
    sendEmpty(res, 204)
  }
  ctx.events.emit('library', record)
}

function route(method: string, handler: Handler): { method: string; handler: Handler } {
  return { method, handler }
}

export const agentRoutes: Record<string, { method: string; handler: Handler }> = {
  [apiPaths.register]: route('POST', handleRegister),
  [apiPaths.sync]: route('POST', handleSync),
  [apiPaths.events]: route('GET', (ctx, req, res) => ctx.downlink.open(req, res)),
  [apiPaths.wake]: route('GET', (ctx, req, res) => ctx.wake.hold(req, res)),
  [apiPaths.sessionReady]: route('POST', handleSessionReady),
  [apiPaths.upgradeResult]: route('POST', handleUpgradeResult),
  [apiPaths.vpnConfig]: route('GET', handleVpnConfig),
  [apiPaths.library]: route('POST', handleLibrary),
}
