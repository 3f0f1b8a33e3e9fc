import { agentVersion } from '../../version.js'
import {
  AgentError,
  AgentVersionTooOldError,
  ServerError,
  ServerRequestError,
  ServerUnauthorizedError,
  ServerUnreachableError,
} from '../../errors.js'
import type { ServerErrorBody } from '../../protocol/wire.js'

// What every call to the web server shares (protocol.md 1): where it is, the credential, the
// three identifying headers, and how a status or a socket failure becomes a typed AgentError.

export interface ServerEndpoint {
  /** `[server] base_url`, e.g. `https://media.example` (a path prefix is kept). */
  baseUrl: string
  /** `[server] mirrors`: tried in order after `baseUrl` on an initial SSE connect. */
  mirrors?: readonly string[]
  /** `[server] access_token`. */
  accessToken: string
  /** Reported in `User-Agent` and `X-Agent-Version`; defaults to package.json's. */
  version?: string
}

export function endpointUrl(baseUrl: string, path: string, query?: Record<string, string>): URL {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl
  const url = new URL(`${base}${path}`)
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
  return url
}

export function agentRequestHeaders(endpoint: ServerEndpoint, extra: Record<string, string> = {}): Record<string, string> {
  const version = endpoint.version ?? agentVersion
  return {
    authorization: `Bearer ${endpoint.accessToken}`,
    'user-agent': `media-agent/${version}`,
    'x-agent-version': version,
    ...extra,
  }
}

/** Parses `{ error, message, minAgentVersion }` if the body is that; otherwise undefined. */
export function parseErrorBody(text: string): ServerErrorBody | undefined {
  try {
    const value = JSON.parse(text) as unknown
    if (value && typeof value === 'object' && typeof (value as ServerErrorBody).error === 'string') return value as ServerErrorBody
  } catch {
    // not JSON: a proxy's HTML page, say
  }
  return undefined
}

/** Maps a non-2xx answer to the typed error every caller relies on. */
export function statusError(endpoint: ServerEndpoint, what: string, status: number, bodyText: string): AgentError {
  const body = parseErrorBody(bodyText)
  const serverSays = body?.message ?? body?.error ?? bodyText.slice(0, 200)
  const details = { status, call: what, serverCode: body?.error }
  if (status === 401) return new ServerUnauthorizedError(endpoint.baseUrl, { details })
  if (status === 426) return new AgentVersionTooOldError(endpoint.version ?? agentVersion, body?.minAgentVersion, { details })
  if (status >= 500) return new ServerError(status, `the web server failed ${what} with ${status}: ${serverSays}`, { details })
  return new ServerRequestError(status, body?.error, `the web server refused ${what} with ${status}: ${serverSays}`, { details })
}

/** Maps a thrown undici/socket/abort error to `ServerUnreachableError` (AgentErrors pass through). */
export function transportError(endpoint: ServerEndpoint | string, what: string, error: unknown, timeoutMs?: number): AgentError {
  if (error instanceof AgentError) return error
  const baseUrl = typeof endpoint === 'string' ? endpoint : endpoint.baseUrl
  const code = (error as { code?: string } | undefined)?.code
  const name = (error as { name?: string } | undefined)?.name
  const timedOut = name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT'
  const causeMessage = describeCause(error)
  const reason = timedOut && timeoutMs !== undefined ? `${what} timed out after ${timeoutMs} ms` : `${what} failed: ${causeMessage}`
  return new ServerUnreachableError(baseUrl, reason, { cause: error, details: { call: what, code, timedOut } })
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  const code = (error as { code?: string }).code
  const inner = cause instanceof Error ? ` (${(cause as { code?: string }).code ?? cause.name}: ${cause.message})` : ''
  return `${code ?? error.name}: ${error.message}${inner}`
}
