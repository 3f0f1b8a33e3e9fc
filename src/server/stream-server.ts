// The agent's stream server (contract 1.3, 1.4, 1.11, 4.2, 5; protocol.md 2): direct play under
// /stream, thumbnails under /thumbnail, HLS under /hls (its routes come with the HLS issue).
// Every miss answers one fixed 404 (routes/responses.ts). docs/stream-server.md is the manual.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  streamMaxRanges,
  streamServerHeadersTimeoutMs,
  streamServerHost,
  streamServerKeepAliveTimeoutMs,
  streamServerPort,
  thumbnailMaxConcurrent,
  thumbnailMaxQueue,
  thumbnailRetryAfterSeconds,
  thumbnailTimeoutMs,
} from '../config/defaults.js'
import { SourceMissingError, StreamServerListenError, UpstreamError } from '../errors.js'
import type { Logger } from '../log.js'
import type { StreamRequestSample } from '../services/metrics/metrics.js'
import { createStreamTokenVerifier } from '../services/auth/stream-token-verifier.js'
import { createFfmpegThumbnailer, type Thumbnailer } from '../services/ffmpeg/thumbnail.js'
import type { SessionRegistry } from '../services/sessions/registry.js'
import type { RouteContext, RouteHandler } from './routes/context.js'
import { createJobQueue } from './routes/job-queue.js'
import { parseRequestTarget } from './routes/request-target.js'
import { sendNotFound, sendStatus } from './routes/responses.js'
import { createStreamRoute } from './routes/stream.js'
import { createThumbnailRoute } from './routes/thumbnail.js'

// Not `import { ... } from 'node:http'`: an ESM import of node:http reads every export, and its
// lazy WebSocket getter loads Node's bundled undici (~6 MiB RSS idle; docs/operations.md "Idle footprint").
const { createServer } = process.getBuiltinModule('node:http')

export type { RouteContext, RouteHandler } from './routes/context.js'
export { createSourceRoute, streamScope } from './routes/stream.js'
export { thumbScope } from './routes/thumbnail.js'

export interface StreamServerOptions {
  /** Defaults to 0.0.0.0 (contract 1.11); tests pass 127.0.0.1. */
  host?: string
  /** Defaults to 7890; 0 picks a free port (see `port` on the result). */
  port?: number
  logger: Logger
  sessions: SessionRegistry
  /** The signing secret (register response or `[server] signing_secret`); undefined: every request 404s. */
  secret: () => string | undefined
  /** Milliseconds since the epoch; token expiry is judged against it. */
  now?: () => number
  /** ffmpeg for thumbnails (services/ffmpeg/binaries.ts); without it and without `thumbnailer`, /thumbnail 404s. */
  ffmpegPath?: string
  /** Replaces the ffmpeg thumbnailer (tests). */
  thumbnailer?: Thumbnailer
  /** Roots a thumbnail path must resolve into: the library paths and the downloads dir. */
  allowedRoots?: () => readonly string[]
  thumbnailTimeoutMs?: number
  thumbnailMaxConcurrent?: number
  thumbnailMaxQueue?: number
  thumbnailRetryAfterSeconds?: number
  maxRanges?: number
  /**
   * Routes added by later issues; until then their prefixes answer the usual 404. `source`: the
   * agent's own loopback input for an HLS session whose file is still downloading (docs/hls.md).
   */
  routes?: { hls?: RouteHandler; source?: RouteHandler }
  /** Told about every answered request (/metrics: requests, bytes, time to the response head). */
  metrics?: { streamRequest(sample: StreamRequestSample): void }
}

export interface StreamServer {
  /** `http://<host>:<port>` with 0.0.0.0 shown as 127.0.0.1 (a local URL, not the public one). */
  url: string
  port: number
  host: string
  /** Stops listening, cuts open connections (players reconnect elsewhere) and kills thumbnail jobs. */
  close(): Promise<void>
}

// A bare abort() builds a DOMException with a stack, and every response closes: one reason
// serves them all (it was a measurable share of a 1 MiB range's server time).
const responseClosed = new DOMException('The response closed', 'AbortError')

// A CORS preflight says the same for every path, so answering it leaks nothing.
const preflightHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': 'Range, If-Range, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since',
  'access-control-max-age': '600',
  'content-length': '0',
}

/**
 * Reports one request when its response ends: bytes from the socket's counter (HTTP/1.1 answers
 * one request at a time per connection, so the difference is this response), first byte from the
 * response head (implicit heads go through writeHead too).
 */
function observe(metrics: NonNullable<StreamServerOptions['metrics']>, req: IncomingMessage, res: ServerResponse, route: string, started: number): void {
  const socket = req.socket
  const bytesBefore = socket.bytesWritten
  let firstByteSeconds: number | undefined
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    firstByteSeconds ??= (performance.now() - started) / 1000
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof res.writeHead
  res.once('close', () => {
    metrics.streamRequest({ route, status: res.statusCode, bytes: Math.max(0, socket.bytesWritten - bytesBefore), firstByteSeconds })
  })
}

export async function createStreamServer(options: StreamServerOptions): Promise<StreamServer> {
  const log = options.logger.child({ component: 'stream-server' })
  const now = options.now ?? Date.now
  const host = options.host ?? streamServerHost
  const thumbnailer = options.thumbnailer ?? (options.ffmpegPath === undefined
    ? undefined
    : createFfmpegThumbnailer({ ffmpegPath: options.ffmpegPath, logger: log, timeoutMs: options.thumbnailTimeoutMs ?? thumbnailTimeoutMs }))

  const stream = createStreamRoute({ sessions: options.sessions, maxRanges: options.maxRanges ?? streamMaxRanges })
  const thumbnail = thumbnailer === undefined
    ? undefined
    : createThumbnailRoute({
      thumbnailer,
      queue: createJobQueue({ maxConcurrent: options.thumbnailMaxConcurrent ?? thumbnailMaxConcurrent, maxQueue: options.thumbnailMaxQueue ?? thumbnailMaxQueue }),
      allowedRoots: options.allowedRoots ?? (() => []),
      retryAfterSeconds: options.thumbnailRetryAfterSeconds ?? thumbnailRetryAfterSeconds,
    })
  // Maps, not objects: the first path segment is the client's (`__proto__`, `constructor`).
  const routes = new Map<string, RouteHandler | undefined>([['stream', stream], ['thumbnail', thumbnail], ['hls', options.routes?.hls], ['source', options.routes?.source]])
  const routeLoggers = new Map([...routes.keys()].map((route) => [route, log.child({ route })]))

  const verifyStreamToken = createStreamTokenVerifier()
  const verifyToken = (token: string | undefined, scope: string): boolean => {
    const secret = options.secret()
    if (token === undefined || secret === undefined || secret === '') return false
    return verifyStreamToken({ secret, token, scope, nowSeconds: Math.floor(now() / 1000) })
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now()
    const controller = new AbortController()
    res.once('close', () => controller.abort(responseClosed))
    const target = parseRequestTarget(req.url)
    const name = target?.segments[0] ?? ''
    // A child logger per request would cost more than the rest of a small range answer.
    const requestLog = routeLoggers.get(name) ?? log
    if (log.isLevelEnabled('debug')) {
      res.once('finish', () => requestLog.debug({ method: req.method, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'answered'))
    }
    if (options.metrics) observe(options.metrics, req, res, routes.has(name) ? name : 'other', started)

    if (req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, preflightHeaders)
      res.end()
      return
    }
    const route = target === undefined ? undefined : routes.get(name)
    if (target === undefined || route === undefined) {
      sendNotFound(req, res)
      return
    }
    const context: RouteContext = { req, res, target, signal: controller.signal, log: requestLog, verifyToken }
    route(context).catch((err: unknown) => {
      if (controller.signal.aborted) return
      if (err instanceof SourceMissingError) {
        requestLog.debug({ err }, 'source missing')
        sendNotFound(req, res)
      } else if (err instanceof UpstreamError) {
        requestLog.warn({ err }, 'upstream failed')
        sendStatus(req, res, 502, 'Bad Gateway')
      } else {
        requestLog.error({ err }, 'stream server route failed')
        sendStatus(req, res, 500, 'Internal Server Error')
      }
    })
  }

  const server: Server = createServer({
    keepAliveTimeout: streamServerKeepAliveTimeoutMs,
    headersTimeout: streamServerHeadersTimeoutMs,
    // A player may hold a paused download open for long; only the request head is timed.
    requestTimeout: 0,
    noDelay: true,
  }, handle)
  server.on('clientError', (err, socket) => {
    log.debug({ err: { code: (err as NodeJS.ErrnoException).code, message: err.message } }, 'bad request from client')
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    else socket.destroy()
  })

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(new StreamServerListenError(`stream server cannot listen on ${host}:${options.port ?? streamServerPort}: ${err.code ?? err.message}`, { cause: err, details: { host, port: options.port ?? streamServerPort } }))
    }
    server.once('error', onError)
    server.listen(options.port ?? streamServerPort, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  server.on('error', (err) => log.error({ err }, 'stream server error'))
  const address = server.address() as AddressInfo
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  log.info({ host, port: address.port }, 'stream server listening')

  let closing: Promise<void> | undefined
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
