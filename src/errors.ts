// Typed errors with stable codes (design.md house rule 5, after undici lib/core/errors.js).
// Every code below is documented in docs/errors.md; test/unit/errors-documented.test.ts keeps
// the two in step. Add a code here and a row there in the same change.

export interface AgentErrorOptions {
  cause?: unknown
  /** Whether trying the same thing again later may succeed. */
  retryable?: boolean
  /** Whether the message is meant for the person running the agent (shown as is). */
  userVisible?: boolean
  /** Structured facts for logs (never secrets). */
  details?: Record<string, unknown>
}

export class AgentError extends Error {
  readonly code: string
  readonly retryable: boolean
  readonly userVisible: boolean
  readonly details: Record<string, unknown> | undefined

  constructor(code: string, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.retryable = options.retryable ?? false
    this.userVisible = options.userVisible ?? true
    this.details = options.details
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError
}

/** Wraps anything thrown into an AgentError so callers can rely on `.code`. */
export function toAgentError(value: unknown, code: string = 'MA_ERR_INTERNAL'): AgentError {
  if (value instanceof AgentError) return value
  const message = value instanceof Error ? value.message : String(value)
  return new AgentError(code, message, { cause: value, userVisible: false })
}

// ---- foundation -------------------------------------------------------------------------------
export class InternalError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_INTERNAL', message, { userVisible: false, ...options })
  }
}

export class ConfigError extends AgentError {
  constructor(message: string, options: AgentErrorOptions & { file?: string; key?: string; expected?: string } = {}) {
    super('MA_ERR_CONFIG', message, {
      ...options,
      details: { file: options.file, key: options.key, expected: options.expected, ...options.details },
    })
  }
}

export class DaemonNotRunningError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_DAEMON_NOT_RUNNING', message, { retryable: true, ...options })
  }
}

/** The CLI may not read the daemon's admin token: it runs as another user (issue 18). */
export class AdminTokenAccessError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_ADMIN_TOKEN_ACCESS', message, options)
  }
}

export class AdminAuthError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_ADMIN_AUTH', message, options)
  }
}

/** The daemon answered an admin request with an error (not 401): it runs, but refused or failed. */
export class AdminRequestError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_ADMIN_REQUEST', message, options)
  }
}

export class SetupError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SETUP', message, options)
  }
}

export class ShutdownTimeoutError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SHUTDOWN_TIMEOUT', message, options)
  }
}

export class StateFileError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_STATE_FILE', message, options)
  }
}

// ---- reference web server (src/reference-server) ---------------------------------------------
export class ReferenceServerError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_REFERENCE_SERVER', message, options)
  }
}

// ---- control plane (issue 3) ------------------------------------------------------------------

/** 401 from the web server: the `[server] access_token` is wrong or revoked. */
export class ServerUnauthorizedError extends AgentError {
  constructor(baseUrl: string, options?: AgentErrorOptions) {
    super('MA_ERR_SERVER_UNAUTHORIZED',
      `the web server at ${baseUrl} refused the access token (401): check [server] access_token in the config file; the agent keeps retrying slowly`,
      { retryable: false, ...options })
  }
}

/** 426 from the web server: this agent is below the server's MIN_AGENT_VERSION. */
export class AgentVersionTooOldError extends AgentError {
  readonly minAgentVersion: string | undefined
  constructor(agentVersion: string, minAgentVersion: string | undefined, options?: AgentErrorOptions) {
    super('MA_ERR_AGENT_TOO_OLD',
      `the web server needs agent version ${minAgentVersion ?? '(not named)'} or newer; this agent is ${agentVersion}: upgrade with \`media-agent update\``,
      { retryable: false, ...options, details: { agentVersion, minAgentVersion, ...options?.details } })
    this.minAgentVersion = minAgentVersion
  }
}

/** 5xx from the web server. */
export class ServerError extends AgentError {
  readonly status: number
  constructor(status: number, message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SERVER', message, { retryable: true, ...options, details: { status, ...options?.details } })
    this.status = status
  }
}

/** Any other 4xx: the request was refused as it stands (the `error` code of the body is kept). */
export class ServerRequestError extends AgentError {
  readonly status: number
  readonly serverCode: string | undefined
  constructor(status: number, serverCode: string | undefined, message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SERVER_REQUEST', message, { retryable: false, userVisible: false, ...options, details: { status, serverCode, ...options?.details } })
    this.status = status
    this.serverCode = serverCode
  }
}

/** The web server answered with something the protocol does not allow (bad JSON, wrong type). */
export class ServerResponseError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SERVER_RESPONSE', message, { retryable: true, userVisible: false, ...options })
  }
}

/** The web server could not be reached, or did not answer in time. */
export class ServerUnreachableError extends AgentError {
  constructor(baseUrl: string, reason: string, options?: AgentErrorOptions) {
    super('MA_ERR_SERVER_UNREACHABLE', `cannot reach the web server at ${baseUrl}: ${reason} (check [server] base_url and that the server is up; the agent keeps retrying)`,
      { retryable: true, ...options, details: { baseUrl, ...options?.details } })
  }
}

export type VpnConfigRefusal = 'disabled' | 'not_provisioned' | 'slot_on_device'

const vpnRefusalCodes: Record<VpnConfigRefusal, string> = {
  disabled: 'MA_ERR_VPN_DISABLED',
  not_provisioned: 'MA_ERR_VPN_NOT_PROVISIONED',
  slot_on_device: 'MA_ERR_VPN_SLOT_ON_DEVICE',
}

const vpnRefusalMessages: Record<VpnConfigRefusal, string> = {
  disabled: 'the managed VPN is disabled for this account: downloads go in the clear',
  not_provisioned: 'the managed VPN is not provisioned for this account: downloads go in the clear',
  slot_on_device: 'the WireGuard slot of this account is held by another agent: run OpenVPN on this host instead; downloads go in the clear',
}

/** The typed vpn-config refusals of contract section 7 (protocol.md 1: 403, 412, 409). */
export class VpnConfigError extends AgentError {
  readonly reason: VpnConfigRefusal
  constructor(reason: VpnConfigRefusal, options?: AgentErrorOptions) {
    super(vpnRefusalCodes[reason], vpnRefusalMessages[reason], { retryable: false, ...options, details: { reason, ...options?.details } })
    this.reason = reason
  }
}

/** An SSE line or event beyond the reader's limits: the stream is unhealthy and is closed. */
export class SseLimitError extends AgentError {
  constructor(what: 'line' | 'event', limitBytes: number, options?: AgentErrorOptions) {
    super('MA_ERR_SSE_LIMIT', `downlink SSE ${what} longer than ${limitBytes} bytes: the stream is closed and reopened`,
      { retryable: true, userVisible: false, ...options, details: { what, limitBytes, ...options?.details } })
  }
}

// ---- torrents (issue 4) -------------------------------------------------------------------------
export class TorrentSourceError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TORRENT_SOURCE', message, options)
  }
}

export class TorrentFetchError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions & { status?: number; url?: string }) {
    super('MA_ERR_TORRENT_FETCH', message, { retryable: true, ...options, details: { status: options?.status, url: options?.url, ...options?.details } })
  }
}

export class TorrentMetadataError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TORRENT_METADATA', message, options)
  }
}

export class TorrentDuplicateError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions & { infoHash?: string; existingTaskId?: string }) {
    super('MA_ERR_TORRENT_DUPLICATE', message, { ...options, details: { infoHash: options?.infoHash, existingTaskId: options?.existingTaskId, ...options?.details } })
  }
}

export class TorrentDiskFullError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TORRENT_DISK_FULL', message, { retryable: true, ...options })
  }
}

export class TorrentEngineError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TORRENT_ENGINE', message, { retryable: true, ...options })
  }
}

export class TorrentNotFoundError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TORRENT_NOT_FOUND', message, options)
  }
}

export class TasksFileCorruptError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions & { movedTo?: string }) {
    super('MA_ERR_TASKS_FILE_CORRUPT', message, { ...options, details: { movedTo: options?.movedTo, ...options?.details } })
  }
}


// ---- stream server (issue 5) --------------------------------------------------------------------
export class SourceMissingError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_SOURCE_MISSING', message, { userVisible: false, ...options })
  }
}

export class DirectUrlUnsupportedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_DIRECT_URL_UNSUPPORTED', message, options)
  }
}

export class UpstreamError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_UPSTREAM', message, { retryable: true, ...options })
  }
}

export class FfmpegNotFoundError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_FFMPEG_NOT_FOUND', message, options)
  }
}

export class ThumbnailError extends AgentError {
  readonly reason: 'timeout' | 'no-frame' | 'failed' | 'aborted'
  constructor(reason: 'timeout' | 'no-frame' | 'failed' | 'aborted', message: string, options?: AgentErrorOptions) {
    super(reason === 'timeout' ? 'MA_ERR_THUMBNAIL_TIMEOUT' : 'MA_ERR_THUMBNAIL_FAILED', message, { retryable: reason !== 'no-frame', userVisible: false, ...options })
    this.reason = reason
  }
}

export class StreamServerListenError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_STREAM_LISTEN', message, { retryable: true, ...options })
  }
}

export class HlsUnavailableError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_HLS_UNAVAILABLE', message, options)
  }
}


// ---- HLS (issue 6) ------------------------------------------------------------------------------
export class ProbeFailedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_PROBE_FAILED', message, options)
  }
}

export class TranscodeFailedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TRANSCODE_FAILED', message, options)
  }
}

// ---- WireGuard and netstack (issue 7) -----------------------------------------------------------
// Userspace TCP/IP stack (src/services/netstack). Plumbing errors: not shown to users as is.
export class TcpConnectionRefusedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TCP_REFUSED', message, { retryable: true, userVisible: false, ...options })
  }
}

export class TcpConnectionResetError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TCP_RESET', message, { retryable: true, userVisible: false, ...options })
  }
}

export class TcpTimeoutError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TCP_TIMEOUT', message, { retryable: true, userVisible: false, ...options })
  }
}

export class DnsResolveError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_DNS_RESOLVE', message, { retryable: true, userVisible: false, ...options })
  }
}

export class NetstackClosedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_NETSTACK_CLOSED', message, { userVisible: false, ...options })
  }
}

export class NetstackAddressInUseError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_NETSTACK_ADDRESS_IN_USE', message, { userVisible: false, ...options })
  }
}

export class NetstackPingTimeoutError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_NETSTACK_PING_TIMEOUT', message, { retryable: true, userVisible: false, ...options })
  }
}

export class NetstackInvalidArgumentError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_NETSTACK_INVALID_ARGUMENT', message, { userVisible: false, ...options })
  }
}

export class WireGuardConfigError extends AgentError {
  constructor(message: string, options: AgentErrorOptions & { line?: number; text?: string } = {}) {
    super('MA_ERR_WG_CONFIG', message, {
      ...options,
      details: { line: options.line, text: options.text, ...options.details },
    })
  }
}

export class WireGuardSocketError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_WG_SOCKET', message, { retryable: true, ...options })
  }
}

export class WireGuardHandshakeTimeoutError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_WG_HANDSHAKE_TIMEOUT', message, { retryable: true, ...options })
  }
}

// The tunnel service (src/services/tunnel): WireGuard device + netstack behind one API.
export class TunnelConfigError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TUNNEL_CONFIG', message, options)
  }
}

export class TunnelClosedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TUNNEL_CLOSED', message, { userVisible: false, ...options })
  }
}

export class TunnelDownError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_TUNNEL_DOWN', message, { retryable: true, ...options })
  }
}

// ---- upgrade (issue 15, docs/upgrade.md) ----
export class UpgradeDownloadError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_UPGRADE_DOWNLOAD', message, { retryable: true, ...options })
  }
}

export class UpgradeVerifyError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_UPGRADE_VERIFY', message, options)
  }
}

export class UpgradeInstallError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_UPGRADE_INSTALL', message, options)
  }
}
// ---- end upgrade ----
// ---- funnel and addresses (issue 14; protocol.md 7.4; docs/funnel.md) -------------------------
export class FunnelPlatformError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_FUNNEL_PLATFORM', message, options)
  }
}

export class FunnelHelperDownloadError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_FUNNEL_HELPER_DOWNLOAD', message, { retryable: true, ...options })
  }
}

export class FunnelHelperInvalidError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_FUNNEL_HELPER_INVALID', message, { retryable: true, ...options })
  }
}

export class FunnelHelperExitedError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_FUNNEL_HELPER_EXITED', message, { retryable: true, ...options })
  }
}

export class UpnpMappingError extends AgentError {
  constructor(message: string, options?: AgentErrorOptions) {
    super('MA_ERR_UPNP_MAPPING', message, { retryable: true, userVisible: false, ...options })
  }
}
