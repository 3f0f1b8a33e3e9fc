import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { httpRequestTimeoutMs, librarySyncTimeoutMs } from '../../config/defaults.js'
import { ServerResponseError, VpnConfigError, type AgentError, type VpnConfigRefusal } from '../../errors.js'
import type { Logger } from '../../log.js'
import {
  agentHeaders,
  apiPaths,
  vpnConfigErrorStatus,
  type LibrarySync,
  type RegisterRequest,
  type RegisterResponse,
  type SyncRequest,
  type SyncResponse,
  type UpgradeResult,
  type VpnConfigErrorCode,
} from '../../protocol/wire.js'
import { createHttpClient, type HttpClient } from './node-client.js'
import { agentRequestHeaders, endpointUrl, parseErrorBody, statusError, transportError, type ServerEndpoint } from './server-errors.js'

// The agent's calls to the web server (protocol.md 1). Every failure is a typed AgentError:
// 401 -> MA_ERR_SERVER_UNAUTHORIZED, 426 -> MA_ERR_AGENT_TOO_OLD, 5xx -> MA_ERR_SERVER,
// other 4xx -> MA_ERR_SERVER_REQUEST, socket or timeout -> MA_ERR_SERVER_UNREACHABLE, a body the
// protocol does not allow -> MA_ERR_SERVER_RESPONSE; vpn-config adds its three typed refusals.
// The downlink (SSE, wake) is in downlink-transport.ts: it has different timeout rules.

export interface VpnConfig {
  /** wg-quick text. */
  config: string
  /** `X-VPN-Exit-Server`, empty when the server did not name one. */
  exitServer: string
}

export interface ServerApi {
  register(body: RegisterRequest): Promise<RegisterResponse>
  sync(body: SyncRequest): Promise<SyncResponse>
  sessionReady(sessionId: string): Promise<void>
  upgradeResult(result: UpgradeResult): Promise<void>
  /** `probe` validates provisioning only and never claims the slot. */
  vpnConfig(agentId: string, probe?: boolean): Promise<VpnConfig>
  /** gzip body on a dedicated client with the library-sync timeout (contract 4.1: 10 min); resolves with the bytes sent. */
  uploadLibrary(body: LibrarySync): Promise<{ bytes: number }>
  close(): Promise<void>
}

export interface ServerApiOptions extends ServerEndpoint {
  logger: Logger
  requestTimeoutMs?: number
  libraryTimeoutMs?: number
}

const gzipAsync = promisify(gzip)

export function createServerApi(options: ServerApiOptions): ServerApi {
  return new NodeServerApi(options)
}

class NodeServerApi implements ServerApi {
  readonly #endpoint: ServerEndpoint
  readonly #log: Logger
  readonly #timeoutMs: number
  readonly #libraryTimeoutMs: number
  readonly #client: HttpClient
  readonly #libraryClient: HttpClient

  constructor(options: ServerApiOptions) {
    this.#endpoint = { baseUrl: options.baseUrl, accessToken: options.accessToken, version: options.version, mirrors: options.mirrors ?? [] }
    this.#log = options.logger
    this.#timeoutMs = options.requestTimeoutMs ?? httpRequestTimeoutMs
    this.#libraryTimeoutMs = options.libraryTimeoutMs ?? librarySyncTimeoutMs
    // Each call is bounded as a whole by its timeout (connect, headers and body: see #call).
    this.#client = createHttpClient()
    // Library uploads are big and slow; they must not hold up the sync loop's connections.
    this.#libraryClient = createHttpClient({ maxSockets: 1 })
  }

  async register(body: RegisterRequest): Promise<RegisterResponse> {
    const text = await this.#call('register', 'POST', apiPaths.register, { json: body })
    const value = parseJson(text.body, 'register') as Partial<RegisterResponse>
    if (typeof value !== 'object' || value === null || typeof value.signingSecret !== 'string') {
      throw new ServerResponseError('register: the response has no signingSecret')
    }
    return {
      agentId: typeof value.agentId === 'string' && value.agentId !== '' ? value.agentId : body.agentId,
      signingSecret: value.signingSecret,
      minAgentVersion: typeof value.minAgentVersion === 'string' ? value.minAgentVersion : '',
    }
  }

  async sync(body: SyncRequest): Promise<SyncResponse> {
    const text = await this.#call('sync', 'POST', apiPaths.sync, { json: body })
    return normalizeSyncResponse(parseJson(text.body, 'sync'))
  }

  async sessionReady(sessionId: string): Promise<void> {
    await this.#call('session-ready', 'POST', apiPaths.sessionReady, { json: { sessionId } })
  }

  async upgradeResult(result: UpgradeResult): Promise<void> {
    await this.#call('upgrade-result', 'POST', apiPaths.upgradeResult, { json: result })
  }

  async vpnConfig(agentId: string, probe = false): Promise<VpnConfig> {
    const query: Record<string, string> = { agent_id: agentId }
    if (probe) query.probe = '1'
    const answer = await this.#call('vpn-config', 'GET', apiPaths.vpnConfig, {
      query,
      refine: (status, bodyText) => vpnRefusal(status, bodyText),
    })
    const exit = answer.headers[agentHeaders.vpnExitServer]
    return { config: answer.body, exitServer: typeof exit === 'string' ? exit : '' }
  }

  async uploadLibrary(body: LibrarySync): Promise<{ bytes: number }> {
    const compressed = await gzipAsync(Buffer.from(JSON.stringify(body), 'utf8'))
    await this.#call('library-sync', 'POST', apiPaths.library, {
      raw: compressed,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      client: this.#libraryClient,
      timeoutMs: this.#libraryTimeoutMs,
    })
    return { bytes: compressed.length }
  }

  close(): Promise<void> {
    // On shutdown an in-flight call (a 10-minute library upload, say) is cut, not waited for.
    this.#client.destroy()
    this.#libraryClient.destroy()
    return Promise.resolve()
  }

  async #call(
    what: string,
    method: 'GET' | 'POST',
    path: string,
    options: {
      json?: unknown
      raw?: Buffer
      query?: Record<string, string>
      headers?: Record<string, string>
      client?: HttpClient
      timeoutMs?: number
      refine?: (status: number, bodyText: string) => AgentError | undefined
    },
  ): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs
    const url = endpointUrl(this.#endpoint.baseUrl, path, options.query)
    const extra: Record<string, string> = { ...options.headers }
    let payload: string | Buffer | undefined
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json)
      extra['content-type'] = 'application/json; charset=utf-8'
    } else if (options.raw) {
      payload = options.raw
    }
    const signal = AbortSignal.timeout(timeoutMs)
    let status: number
    let bodyText: string
    let headers: Record<string, string | string[] | undefined>
    try {
      const response = await (options.client ?? this.#client).request(url, {
        method,
        headers: agentRequestHeaders(this.#endpoint, extra),
        body: payload,
        signal,
      })
      status = response.statusCode
      headers = response.headers
      bodyText = await response.text()
    } catch (error) {
      const mapped = transportError(this.#endpoint, what, signal.aborted ? Object.assign(new Error('timed out'), { name: 'TimeoutError', cause: error }) : error, timeoutMs)
      this.#log.debug({ err: mapped, call: what }, 'server call failed')
      throw mapped
    }
    if (status >= 200 && status < 300) return { status, body: bodyText, headers }
    const error = options.refine?.(status, bodyText) ?? statusError(this.#endpoint, what, status, bodyText)
    this.#log.debug({ err: error, call: what, status }, 'server call refused')
    throw error
  }
}

function vpnRefusal(status: number, bodyText: string): VpnConfigError | undefined {
  const code = parseErrorBody(bodyText)?.error
  if (code && code in vpnConfigErrorStatus) return new VpnConfigError(code as VpnConfigRefusal, { details: { status } })
  for (const [refusal, refusalStatus] of Object.entries(vpnConfigErrorStatus) as [VpnConfigErrorCode, number][]) {
    if (refusalStatus === status) return new VpnConfigError(refusal, { details: { status } })
  }
  return undefined
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ServerResponseError(`${what}: the response is not JSON`, { cause: error })
  }
}

/** Fills in what an older or terser server leaves out; rejects what is not a sync response. */
export function normalizeSyncResponse(value: unknown): SyncResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServerResponseError('sync: the response is not a JSON object')
  }
  const record = value as Record<string, unknown>
  const list = (key: string): unknown[] => {
    const item = record[key]
    if (item === undefined || item === null) return []
    if (!Array.isArray(item)) throw new ServerResponseError(`sync: "${key}" is not an array`)
    return item
  }
  const response: SyncResponse = {
    watching: record.watching === true,
    streamSessions: list('streamSessions') as SyncResponse['streamSessions'],
    actions: list('actions') as SyncResponse['actions'],
    controls: list('controls') as SyncResponse['controls'],
    upgradeRequested: record.upgradeRequested === true,
  }
  if (typeof record.upgrade === 'object' && record.upgrade !== null) response.upgrade = record.upgrade as SyncResponse['upgrade'] & object
  return response
}
