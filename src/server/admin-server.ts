import type { IncomingMessage, ServerResponse, Server } from 'node:http'
import { createHash, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import type { Logger } from '../log.js'
import { AgentError } from '../errors.js'
import type { InspectionHub, InspectionRecord } from '../system/inspection.js'
import type { ActorNode } from '../system/actor-tree.js'
import { adminBodyLimitBytes, adminEventsKeepAliveMs } from '../config/defaults.js'

// Not `import { ... } from 'node:http'`: an ESM import of node:http reads every export, and its
// lazy WebSocket getter loads Node's bundled undici (~6 MiB RSS idle; docs/operations.md "Idle footprint").
const { createServer } = process.getBuiltinModule('node:http')

// The admin listener (protocol.md 6): loopback only, every route behind the admin token.
// The CLI is a thin client of these routes (design.md house rule 7).

export interface AdminRoutesSource {
  actorTree(): ActorNode
  inspection: InspectionHub
  status(): Promise<unknown> | unknown
  /** Routes the parts add (`GET /api/cache`, `POST /api/vpn`, `GET /metrics`, ...), behind the same token. */
  routes?: readonly AdminRoute[]
}

/** What a part's admin route answers: JSON (`json`) or text (`text`, e.g. Prometheus exposition). */
export type AdminReply = { status: number; json: unknown } | { status: number; text: string; contentType: string }

export interface AdminRequest {
  url: URL
  /** The request body parsed as JSON (`{}` when empty); a body that is not JSON answers 400 before the handler runs. */
  body: unknown
}

export interface AdminRoute {
  method: 'GET' | 'POST'
  /** Exact path, e.g. `/api/cache`. */
  path: string
  handle(request: AdminRequest): Promise<AdminReply> | AdminReply
}

export interface AdminServerOptions {
  host: string
  port: number
  token: string
  source: AdminRoutesSource
  logger: Logger
  /** Interval of SSE keep-alive comments on /debug/events. */
  keepAliveMs?: number
}

export interface AdminServer {
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true
  const bare = host.replace(/^\[|\]$/g, '')
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1'
  return false
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  if (!isLoopbackHost(options.host)) {
    throw new AgentError('MA_ERR_CONFIG', `admin listener must bind a loopback address, not ${options.host}`, { details: { key: 'admin.listen' } })
  }
  const log = options.logger
  const expected = digest(options.token)
  const streams = new Set<ServerResponse>()

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.error({ err: error }, 'admin request failed')
      if (!res.headersSent) json(res, 500, { error: 'internal' })
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!authorized(req.headers.authorization)) {
      // Nothing but the status: no hint about which routes exist.
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
      res.end('{"error":"unauthorized"}')
      return
    }
    const url = new URL(req.url ?? '/', 'http://admin')
    const route = `${req.method} ${url.pathname}`
    switch (route) {
      case 'GET /debug/actors':
        return json(res, 200, options.source.actorTree())
      case 'GET /debug/events':
        return streamEvents(req, res, url)
      case 'GET /api/status':
        return json(res, 200, await options.source.status())
      default:
        return partRoute(req, res, url)
    }
  }

  async function partRoute(req: IncomingMessage, res: ServerResponse, url: URL) {
    const route = options.source.routes?.find((candidate) => candidate.method === req.method && candidate.path === url.pathname)
    if (!route) return json(res, 404, { error: 'not_found' })
    let body: unknown = {}
    if (req.method === 'POST') {
      const text = await readBody(req)
      if (text === undefined) return json(res, 413, { error: 'too_large' })
      if (text.trim().length > 0) {
        try {
          body = JSON.parse(text)
        } catch {
          return json(res, 400, { error: 'bad_request', message: 'the request body is not JSON' })
        }
      }
    }
    const reply = await route.handle({ url, body })
    if ('json' in reply) return json(res, reply.status, reply.json)
    res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.text) })
    res.end(reply.text)
  }

  function authorized(header: string | undefined): boolean {
    const match = /^Bearer (.+)$/.exec(header ?? '')
    if (!match) return false
    return timingSafeEqual(digest(match[1] ?? ''), expected)
  }

  function streamEvents(req: IncomingMessage, res: ServerResponse, url: URL) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' })
    const after = Number(req.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0) || 0
    const send = (record: InspectionRecord) => {
      res.write(`id: ${record.seq}\nevent: ${record.type}\ndata: ${JSON.stringify(record)}\n\n`)
    }
    for (const record of options.source.inspection.recent(after)) send(record)
    const unsubscribe = options.source.inspection.subscribe(send)
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs ?? adminEventsKeepAliveMs)
    streams.add(res)
    res.on('close', () => {
      unsubscribe()
      clearInterval(keepAlive)
      streams.delete(res)
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const hostForUrl = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host
  log.info({ url: `http://${hostForUrl}:${port}` }, 'admin listener ready')

  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    async close() {
      for (const res of streams) res.end()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The body as text, or undefined past adminBodyLimitBytes (admin requests are small commands). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > adminBodyLimitBytes) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}
