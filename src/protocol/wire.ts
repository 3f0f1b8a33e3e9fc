// The wire of protocol.md section 1-4, as types. Both the agent and the reference server import
// these, so the two cannot drift apart. JSON names are exactly the protocol's (including the
// contract's capitalised `FunnelURL`, `VPNActive`, `DirectURL`, `PlayMethod`).

export const apiPaths = {
  register: '/api/internal/agent/register',
  sync: '/api/internal/agent/sync',
  events: '/api/internal/agent/events',
  wake: '/api/internal/agent/wake',
  sessionReady: '/api/internal/agent/session-ready',
  upgradeResult: '/api/internal/agent/upgrade-result',
  vpnConfig: '/api/internal/agent/vpn-config',
  library: '/api/internal/agent/library',
  /** Player-facing readiness stream of the reference server (protocol.md 4). */
  playerSessionEvents: (sessionId: string) => `/api/stream-sessions/${encodeURIComponent(sessionId)}/events`,
} as const

export const agentHeaders = {
  version: 'x-agent-version',
  vpnExitServer: 'x-vpn-exit-server',
} as const

export interface ServerErrorBody {
  error: string
  message?: string
  minAgentVersion?: string
}

export type AddressKind = 'upnp' | 'mesh' | 'lan'

export interface StreamServerInfo {
  port: number
  publicUrl: string
  addresses: { kind: AddressKind; url: string }[]
}

/** One hardware encoder's one-frame test encode (protocol.md 7.2). */
export interface HwAccelCandidate {
  encoder: string
  ok: boolean
  ms: number
  /** The test encode's own error lines (ffmpeg's), or why it was not finished. */
  error?: string
}

export interface HwAccelDiagnostic {
  ffmpegVersion: string
  ffmpegPath: string
  /** The H.264 encoders compiled into that ffmpeg (libx264 and the hardware ones). */
  encoders: string[]
  /** `error` names a permission problem (the render group) or an unreadable device. */
  devices: { path: string; driver: string; error?: string }[]
  drivers: string[]
  chosenEncoder: string
  maxTranscodeHeight: number
  probeMs: number
  /** One per hardware encoder compiled in, in the order `auto` prefers them (protocol.md 7.2). */
  candidates: HwAccelCandidate[]
  /** Set when ffmpeg itself could not run (missing, hung, not ffmpeg). */
  error?: string
}

export type VpnMode = 'off' | 'wireguard'

export interface RegisterRequest {
  agentId: string
  version: string
  hostname: string
  platform: { os: string; arch: string; node: string; container: boolean }
  streamServer: StreamServerInfo
  FunnelURL: string
  VPNActive: boolean
  VPNMode: VpnMode
  VPNExitServer: string
  hwAccel?: HwAccelDiagnostic
}

export interface RegisterResponse {
  agentId: string
  signingSecret: string
  minAgentVersion: string
}

export type TaskState = 'queued' | 'fetching_metadata' | 'downloading' | 'paused' | 'seeding' | 'completed' | 'error'

export interface TaskFileReport {
  path: string
  size: number
  progress: number
}

export interface TaskReport {
  id: string
  infoHash: string
  name: string
  state: TaskState
  progress: number
  size: number
  downloaded: number
  uploaded: number
  downloadSpeed: number
  uploadSpeed: number
  peers: number
  etaSeconds: number | null
  files: TaskFileReport[]
  error?: string
}

export type SessionReportState = 'starting' | 'ready' | 'failed' | 'ended'

export interface SessionReport {
  sessionId: string
  state: SessionReportState
  cacheHit: boolean
  error?: string
}

export interface SyncRequest {
  agentId: string
  version: string
  tasks: TaskReport[]
  sessions: SessionReport[]
  appliedControls: string[]
  FunnelURL: string
  VPNActive: boolean
  VPNMode: VpnMode
  VPNExitServer: string
  streamServer: StreamServerInfo
}

export type Quality = '480p' | '720p' | '1080p' | '1440p' | '2160p' | 'original'

export interface StreamSession {
  sessionId: string
  filePath?: string
  DirectURL?: string
  PlayMethod: 'hls' | 'direct' | string
  quality: Quality | string
  cacheId?: string
  audioIndex?: number
  subtitleIndex?: number
  startSeconds?: number
}

export type SyncAction =
  | { type: 'add_task'; taskId: string; source: string }
  | { type: 'delete_task'; taskId: string; deleteFiles?: boolean }

export type Control =
  | { id: string; kind: 'pause_task'; taskId: string }
  | { id: string; kind: 'resume_task'; taskId: string }
  | { id: string; kind: 'stop_session'; sessionId: string }
  | { id: string; kind: 'scan_library'; full?: boolean }
  | { id: string; kind: 'set_funnel'; enabled: boolean }
  | { id: string; kind: 'set_vpn'; enabled: boolean }
  | { id: string; kind: 'set_downlink'; mode: 'auto' | 'sse' | 'poll' }

/** A control as it may arrive: known kinds are typed, unknown kinds are acknowledged and logged. */
export type IncomingControl = Control | { id: string; kind: string; [key: string]: unknown }

export interface UpgradeOffer {
  targetVersion: string
  artifactUrl: string
  sha256: string
}

export interface SyncResponse {
  watching: boolean
  streamSessions: StreamSession[]
  actions: SyncAction[]
  controls: IncomingControl[]
  upgradeRequested: boolean
  upgrade?: UpgradeOffer
}

export interface UpgradeResult {
  outcome: 'success' | 'failure' | 'noop'
  fromVersion: string
  toVersion: string
  error?: string
}

export type VpnConfigErrorCode = 'disabled' | 'not_provisioned' | 'slot_on_device'

export const vpnConfigErrorStatus: Record<VpnConfigErrorCode, number> = {
  disabled: 403,
  not_provisioned: 412,
  slot_on_device: 409,
}

export interface LibraryItem {
  /** Absolute path under its library root. */
  path: string
  size: number
  /** Integer milliseconds since the epoch (protocol.md 7.6). */
  mtime: number
  /** ffprobe's format name (`matroska,webm`, `mov,mp4,m4a,3gp,3g2,mj2`); an agent extension of protocol.md 1. */
  container?: string
  durationSeconds?: number
  /** `fps` is an agent extension of protocol.md 1 (issue 16 asks for it). */
  video?: { codec: string; width: number; height: number; fps?: number }
  audio: { codec: string; language: string; channels: number }[]
  /** Embedded tracks, then sidecar files (`path` set, protocol.md 7.6). */
  subtitles: { codec: string; language: string; path?: string }[]
}

export type LibrarySyncMode = 'full' | 'delta'

/** One library root in a LibrarySync: every item (`full`), or new/changed items and removed paths (`delta`). */
export interface LibraryRootSync {
  root: string
  items: LibraryItem[]
  removed?: string[]
}

export interface LibrarySync {
  agentId: string
  scanId: string
  /** protocol.md 7.6; absent in uploads of agents before it (read as `full`). */
  mode?: LibrarySyncMode
  /** `delta` only: the last scan the server acknowledged. */
  baseScanId?: string
  /** A `full` over 5,000 items goes in parts under one scanId (1-based). */
  part?: number
  parts?: number
  libraries: LibraryRootSync[]
}

/** Downlink SSE event names (protocol.md 3). */
export type DownlinkEventName = 'command' | 'sync' | 'ping'

/** `[daemon] downlink` (contract 2.7) and the `set_downlink` control. */
export type DownlinkMode = 'auto' | 'sse' | 'poll'

/** Body of a `200` from the wake long-poll, and the data of an SSE `sync` event (protocol.md 1, 3). */
export interface WakeSignal {
  reason: string
}

export interface PlayerReadyEvent {
  sessionId: string
  readyAt: string
}

// ---- funnel (issue 14; protocol.md 7.4) ----
/** `media-agent funnel status --json` and the admin route `GET /api/funnel`. */
export interface FunnelStatus {
  enabled: boolean
  state: 'off' | 'preparing' | 'starting' | 'up' | 'backoff'
  url: string
  restarts: number
  helperPath: string
  /** The last failure of the helper, while there is one to tell. */
  error?: string
}
// ---- end funnel ----
