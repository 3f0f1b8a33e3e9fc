import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/errors.js
var AgentError = class extends Error {
  code;
  retryable;
  userVisible;
  details;
  constructor(code, message, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.userVisible = options.userVisible ?? true;
    this.details = options.details;
  }
};
function isAgentError(value) {
  return value instanceof AgentError;
}
function toAgentError(value, code = "MA_ERR_INTERNAL") {
  if (value instanceof AgentError)
    return value;
  const message = value instanceof Error ? value.message : String(value);
  return new AgentError(code, message, { cause: value, userVisible: false });
}
var InternalError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_INTERNAL", message, { userVisible: false, ...options });
  }
};
var ConfigError = class extends AgentError {
  constructor(message, options = {}) {
    super("MA_ERR_CONFIG", message, {
      ...options,
      details: { file: options.file, key: options.key, expected: options.expected, ...options.details }
    });
  }
};
var DaemonNotRunningError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_DAEMON_NOT_RUNNING", message, { retryable: true, ...options });
  }
};
var AdminTokenAccessError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_ADMIN_TOKEN_ACCESS", message, options);
  }
};
var AdminAuthError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_ADMIN_AUTH", message, options);
  }
};
var ShutdownTimeoutError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_SHUTDOWN_TIMEOUT", message, options);
  }
};
var StateFileError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_STATE_FILE", message, options);
  }
};
var ReferenceServerError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_REFERENCE_SERVER", message, options);
  }
};
var ServerUnauthorizedError = class extends AgentError {
  constructor(baseUrl, options) {
    super("MA_ERR_SERVER_UNAUTHORIZED", `the web server at ${baseUrl} refused the access token (401): check [server] access_token in the config file; the agent keeps retrying slowly`, { retryable: false, ...options });
  }
};
var AgentVersionTooOldError = class extends AgentError {
  minAgentVersion;
  constructor(agentVersion, minAgentVersion, options) {
    super("MA_ERR_AGENT_TOO_OLD", `the web server needs agent version ${minAgentVersion ?? "(not named)"} or newer; this agent is ${agentVersion}: upgrade with \`media-agent update\``, { retryable: false, ...options, details: { agentVersion, minAgentVersion, ...options?.details } });
    this.minAgentVersion = minAgentVersion;
  }
};
var ServerError = class extends AgentError {
  status;
  constructor(status, message, options) {
    super("MA_ERR_SERVER", message, { retryable: true, ...options, details: { status, ...options?.details } });
    this.status = status;
  }
};
var ServerRequestError = class extends AgentError {
  status;
  serverCode;
  constructor(status, serverCode, message, options) {
    super("MA_ERR_SERVER_REQUEST", message, { retryable: false, userVisible: false, ...options, details: { status, serverCode, ...options?.details } });
    this.status = status;
    this.serverCode = serverCode;
  }
};
var ServerResponseError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_SERVER_RESPONSE", message, { retryable: true, userVisible: false, ...options });
  }
};
var ServerUnreachableError = class extends AgentError {
  constructor(baseUrl, reason, options) {
    super("MA_ERR_SERVER_UNREACHABLE", `cannot reach the web server at ${baseUrl}: ${reason} (check [server] base_url and that the server is up; the agent keeps retrying)`, { retryable: true, ...options, details: { baseUrl, ...options?.details } });
  }
};
var vpnRefusalCodes = {
  disabled: "MA_ERR_VPN_DISABLED",
  not_provisioned: "MA_ERR_VPN_NOT_PROVISIONED",
  slot_on_device: "MA_ERR_VPN_SLOT_ON_DEVICE"
};
var vpnRefusalMessages = {
  disabled: "the managed VPN is disabled for this account: downloads go in the clear",
  not_provisioned: "the managed VPN is not provisioned for this account: downloads go in the clear",
  slot_on_device: "the WireGuard slot of this account is held by another agent: run OpenVPN on this host instead; downloads go in the clear"
};
var VpnConfigError = class extends AgentError {
  reason;
  constructor(reason, options) {
    super(vpnRefusalCodes[reason], vpnRefusalMessages[reason], { retryable: false, ...options, details: { reason, ...options?.details } });
    this.reason = reason;
  }
};
var SseLimitError = class extends AgentError {
  constructor(what, limitBytes, options) {
    super("MA_ERR_SSE_LIMIT", `downlink SSE ${what} longer than ${limitBytes} bytes: the stream is closed and reopened`, { retryable: true, userVisible: false, ...options, details: { what, limitBytes, ...options?.details } });
  }
};
var TorrentSourceError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_SOURCE", message, options);
  }
};
var TorrentFetchError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_FETCH", message, { retryable: true, ...options, details: { status: options?.status, url: options?.url, ...options?.details } });
  }
};
var TorrentMetadataError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_METADATA", message, options);
  }
};
var TorrentDuplicateError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_DUPLICATE", message, { ...options, details: { infoHash: options?.infoHash, existingTaskId: options?.existingTaskId, ...options?.details } });
  }
};
var TorrentDiskFullError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_DISK_FULL", message, { retryable: true, ...options });
  }
};
var TorrentEngineError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_ENGINE", message, { retryable: true, ...options });
  }
};
var TorrentNotFoundError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TORRENT_NOT_FOUND", message, options);
  }
};
var TasksFileCorruptError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TASKS_FILE_CORRUPT", message, { ...options, details: { movedTo: options?.movedTo, ...options?.details } });
  }
};
var SourceMissingError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_SOURCE_MISSING", message, { userVisible: false, ...options });
  }
};
var DirectUrlUnsupportedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_DIRECT_URL_UNSUPPORTED", message, options);
  }
};
var UpstreamError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_UPSTREAM", message, { retryable: true, ...options });
  }
};
var FfmpegNotFoundError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_FFMPEG_NOT_FOUND", message, options);
  }
};
var ThumbnailError = class extends AgentError {
  reason;
  constructor(reason, message, options) {
    super(reason === "timeout" ? "MA_ERR_THUMBNAIL_TIMEOUT" : "MA_ERR_THUMBNAIL_FAILED", message, { retryable: reason !== "no-frame", userVisible: false, ...options });
    this.reason = reason;
  }
};
var StreamServerListenError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_STREAM_LISTEN", message, { retryable: true, ...options });
  }
};
var HlsUnavailableError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_HLS_UNAVAILABLE", message, options);
  }
};
var ProbeFailedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_PROBE_FAILED", message, options);
  }
};
var TranscodeFailedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TRANSCODE_FAILED", message, options);
  }
};
var TcpConnectionRefusedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TCP_REFUSED", message, { retryable: true, userVisible: false, ...options });
  }
};
var TcpConnectionResetError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TCP_RESET", message, { retryable: true, userVisible: false, ...options });
  }
};
var TcpTimeoutError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TCP_TIMEOUT", message, { retryable: true, userVisible: false, ...options });
  }
};
var DnsResolveError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_DNS_RESOLVE", message, { retryable: true, userVisible: false, ...options });
  }
};
var NetstackClosedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_NETSTACK_CLOSED", message, { userVisible: false, ...options });
  }
};
var NetstackAddressInUseError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_NETSTACK_ADDRESS_IN_USE", message, { userVisible: false, ...options });
  }
};
var NetstackPingTimeoutError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_NETSTACK_PING_TIMEOUT", message, { retryable: true, userVisible: false, ...options });
  }
};
var NetstackInvalidArgumentError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_NETSTACK_INVALID_ARGUMENT", message, { userVisible: false, ...options });
  }
};
var WireGuardConfigError = class extends AgentError {
  constructor(message, options = {}) {
    super("MA_ERR_WG_CONFIG", message, {
      ...options,
      details: { line: options.line, text: options.text, ...options.details }
    });
  }
};
var WireGuardSocketError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_WG_SOCKET", message, { retryable: true, ...options });
  }
};
var WireGuardHandshakeTimeoutError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_WG_HANDSHAKE_TIMEOUT", message, { retryable: true, ...options });
  }
};
var TunnelConfigError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TUNNEL_CONFIG", message, options);
  }
};
var TunnelClosedError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TUNNEL_CLOSED", message, { userVisible: false, ...options });
  }
};
var TunnelDownError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_TUNNEL_DOWN", message, { retryable: true, ...options });
  }
};
var UpgradeDownloadError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_UPGRADE_DOWNLOAD", message, { retryable: true, ...options });
  }
};
var UpgradeVerifyError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_UPGRADE_VERIFY", message, options);
  }
};
var UpgradeInstallError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_UPGRADE_INSTALL", message, options);
  }
};
var FunnelPlatformError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_FUNNEL_PLATFORM", message, options);
  }
};
var FunnelHelperDownloadError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_FUNNEL_HELPER_DOWNLOAD", message, { retryable: true, ...options });
  }
};
var FunnelHelperInvalidError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_FUNNEL_HELPER_INVALID", message, { retryable: true, ...options });
  }
};
var UpnpMappingError = class extends AgentError {
  constructor(message, options) {
    super("MA_ERR_UPNP_MAPPING", message, { retryable: true, userVisible: false, ...options });
  }
};

export {
  AgentError,
  isAgentError,
  toAgentError,
  InternalError,
  ConfigError,
  DaemonNotRunningError,
  AdminTokenAccessError,
  AdminAuthError,
  ShutdownTimeoutError,
  StateFileError,
  ReferenceServerError,
  ServerUnauthorizedError,
  AgentVersionTooOldError,
  ServerError,
  ServerRequestError,
  ServerResponseError,
  ServerUnreachableError,
  VpnConfigError,
  SseLimitError,
  TorrentSourceError,
  TorrentFetchError,
  TorrentMetadataError,
  TorrentDuplicateError,
  TorrentDiskFullError,
  TorrentEngineError,
  TorrentNotFoundError,
  TasksFileCorruptError,
  SourceMissingError,
  DirectUrlUnsupportedError,
  UpstreamError,
  FfmpegNotFoundError,
  ThumbnailError,
  StreamServerListenError,
  HlsUnavailableError,
  ProbeFailedError,
  TranscodeFailedError,
  TcpConnectionRefusedError,
  TcpConnectionResetError,
  TcpTimeoutError,
  DnsResolveError,
  NetstackClosedError,
  NetstackAddressInUseError,
  NetstackPingTimeoutError,
  NetstackInvalidArgumentError,
  WireGuardConfigError,
  WireGuardSocketError,
  WireGuardHandshakeTimeoutError,
  TunnelConfigError,
  TunnelClosedError,
  TunnelDownError,
  UpgradeDownloadError,
  UpgradeVerifyError,
  UpgradeInstallError,
  FunnelPlatformError,
  FunnelHelperDownloadError,
  FunnelHelperInvalidError,
  UpnpMappingError
};
