import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http'

// Not `import { ... } from 'node:http'`: an ESM import of node:http reads every export, and its
// lazy WebSocket getter loads Node's bundled undici (~6 MiB RSS idle; docs/operations.md "Idle footprint").
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http')
// node:https (and with it node:tls and OpenSSL's TLS state, ~6 MiB RSS) loads with the first
// https:// call: an agent whose server is plain http on the LAN or loopback never pays for it.
type HttpsModule = typeof import('node:https')
let httpsModule: HttpsModule | undefined
const https = (): HttpsModule => (httpsModule ??= process.getBuiltinModule('node:https'))

// A small HTTP/1.1 client on node:http/node:https for the control plane's calls (JSON requests,
// the SSE stream and the wake long-poll). Why not undici: the daemon already loads node:http for
// its admin and stream servers, while importing undici costs an idle daemon ~25 MiB of RSS (its
// modules, the node binary pages they touch and the llhttp WebAssembly parser it compiles on the
// first connection); measured in docs/operations.md "Idle footprint". undici stays for the
// parts that need its dispatchers (torrent announces through the VPN, direct URLs, downloads),
// loaded when first used.

export interface HttpRequestOptions {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string | Buffer
  /** Aborts the request or the response body (the error is an AbortError). */
  signal?: AbortSignal
  /** Fails with a TimeoutError when the response headers have not arrived in time; 0 or absent: no limit. */
  headersTimeoutMs?: number
  /**
   * Fails with a TimeoutError when a new connection is not established in time (a reused one is
   * already connected); 0 or absent: the kernel's own limit (~2 min of SYN retries on Linux).
   */
  connectTimeoutMs?: number
}

export interface HttpResponse {
  statusCode: number
  headers: IncomingHttpHeaders
  /** The body as a stream (async-iterable; `destroy()` drops the connection). */
  body: IncomingMessage
  /** The whole body as UTF-8; rejects if the connection is cut or aborted first. */
  text(): Promise<string>
}

export interface HttpClient {
  /** Resolves at the response headers. */
  request(url: URL, options: HttpRequestOptions): Promise<HttpResponse>
  /** Destroys every connection, in flight or idle; their requests fail. */
  destroy(): void
}

export interface HttpClientOptions {
  /** Connections per origin; default unlimited. */
  maxSockets?: number
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity }
  const httpAgent = new HttpAgent(agentOptions)
  let httpsAgent: import('node:https').Agent | undefined
  const agentFor = (secure: boolean) => (secure ? (httpsAgent ??= new (https().Agent)(agentOptions)) : httpAgent)
  const inFlight = new Set<ClientRequest>()

  const attempt = (url: URL, request: HttpRequestOptions, retried: boolean): Promise<HttpResponse> =>
    new Promise<HttpResponse>((resolve, reject) => {
      const secure = url.protocol === 'https:'
      if (!secure && url.protocol !== 'http:') {
        reject(new TypeError(`unsupported protocol ${url.protocol} in ${url.origin}`))
        return
      }
      const send = secure ? https().request : httpRequest
      const req = send(url, { method: request.method, headers: request.headers, agent: agentFor(secure), signal: request.signal })
      inFlight.add(req)
      req.once('close', () => inFlight.delete(req))
      let timer: NodeJS.Timeout | undefined
      if (request.headersTimeoutMs !== undefined && request.headersTimeoutMs > 0) {
        const limit = request.headersTimeoutMs
        timer = setTimeout(() => {
          req.destroy(Object.assign(new Error(`no response headers within ${limit} ms`), { name: 'TimeoutError', code: 'ETIMEDOUT' }))
        }, limit)
      }
      if (request.connectTimeoutMs !== undefined && request.connectTimeoutMs > 0) {
        const limit = request.connectTimeoutMs
        req.once('socket', (socket) => {
          if (!socket.connecting) return
          const connectTimer = setTimeout(() => {
            req.destroy(Object.assign(new Error(`no connection within ${limit} ms`), { name: 'TimeoutError', code: 'ETIMEDOUT' }))
          }, limit)
          socket.once('connect', () => clearTimeout(connectTimer))
          socket.once('close', () => clearTimeout(connectTimer))
        })
      }
      req.once('response', (response) => {
        clearTimeout(timer)
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response, text: () => readText(response) })
      })
      req.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        // A kept-alive connection the server closed just as we reused it: the request never
        // reached the server, so sending it once more on a fresh connection is safe (the Node.js
        // docs' advice for `request.reusedSocket`). Every call here is idempotent anyway.
        if (req.reusedSocket && error.code === 'ECONNRESET' && !retried && request.signal?.aborted !== true) {
          attempt(url, request, true).then(resolve, reject)
          return
        }
        reject(error)
      })
      req.end(request.body)
    })

  return {
    request: (url, request) => attempt(url, request, false),
    destroy: () => {
      for (const req of inFlight) req.destroy()
      inFlight.clear()
      httpAgent.destroy()
      httpsAgent?.destroy()
    },
  }
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  // The async iterator rejects on a premature close (a cut connection, an abort).
  for await (const chunk of response) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
