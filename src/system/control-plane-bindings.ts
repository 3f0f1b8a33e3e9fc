import { hostname as osHostname } from 'node:os'
import { fromCallback, fromPromise } from 'xstate'
import * as defaults from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import type { Logger } from '../log.js'
import {
  controlPlaneDelays,
  controlPlaneMachine,
  type ControlPlaneInput,
  type ControlPlaneLogLevel,
  type ControlPlaneSettings,
  type RegisterActorInput,
  type SyncActorInput,
  type SyncCycleResult,
} from '../machines/control-plane.machine.js'
import { downlinkMachine, type DownlinkEvent } from '../machines/downlink.machine.js'
import type {
  Control,
  DownlinkMode,
  HwAccelDiagnostic,
  RegisterRequest,
  RegisterResponse,
  StreamSession,
  SyncAction,
  SyncRequest,
  UpgradeOffer,
} from '../protocol/wire.js'
import { createDownlinkTransport, type DownlinkTransport } from '../services/http/downlink-transport.js'
import { createServerApi, type ServerApi } from '../services/http/server-api.js'
import { agentVersion } from '../version.js'

// Binds the pure control-plane and downlink machines to the server API, the downlink
// transport, the state source and the control sink (design.md house rule 1). The root spawns
// the result as its child `controlPlane` with `controlPlaneInput(...)` as the input.

/** The dynamic parts of every sync request, gathered when a cycle starts. */
export interface SyncStateSource {
  collect(): SyncStateParts | Promise<SyncStateParts>
}

export type SyncStateParts = Omit<SyncRequest, 'agentId' | 'version' | 'appliedControls'>

/** Host facts for the register request; by default the OS hostname and platform, no hwAccel. */
export interface RegisterStateSource {
  collect(): RegisterHostParts | Promise<RegisterHostParts>
}

export interface RegisterHostParts {
  hostname: string
  platform: RegisterRequest['platform']
  hwAccel?: HwAccelDiagnostic
}

/**
 * Where applied controls and the rest of a sync response go. Called from the control plane's
 * single control callback, which has already deduplicated by id: a throw or a rejection is
 * logged and the control is still acknowledged (docs/control-plane.md).
 */
export interface ControlSink {
  applyAction(action: SyncAction): void | Promise<void>
  applyControl(control: Control): void | Promise<void>
  /** Every successful sync: the full list of this agent's stream sessions. */
  streamSessions(sessions: StreamSession[]): void
  /** Every successful sync: the server's `upgradeRequested` and `upgrade`; `cycle`: that sync's number (`SyncCycleResult`). */
  upgrade(requested: boolean, offer: UpgradeOffer | undefined, cycle: number | undefined): void
}

export interface RegisteredInfo {
  agentId: string
  /** From the register response; a `[server] signing_secret` in the config must win over it. */
  signingSecret: string
  minAgentVersion: string
}

export interface ControlPlaneDeps {
  api: ServerApi
  transport: DownlinkTransport
  source: SyncStateSource
  sink: ControlSink
  logger: Logger
  settings: ControlPlaneSettings
  onRegistered: (info: RegisteredInfo) => void
  registerSource?: RegisterStateSource
  /** Jitter source in [0, 1) for the backoff delays; Math.random by default. */
  random?: () => number
  /** Reported in the register and sync bodies; package.json's version by default. */
  version?: string
  /** Counts the syncs started (each one's `cycle`); the part reads it for `media-agent update`. */
  syncs?: SyncCounter
}

/** How many syncs have gathered their state so far; register requests are not counted. */
export interface SyncCounter {
  started: number
}

const settingKeys = [
  'syncIntervalWatchingMs',
  'syncIntervalIdleMs',
  'syncFailureBackoffBaseMs',
  'syncFailureBackoffMaxMs',
  'registerRetryBaseMs',
  'registerRetryMaxMs',
  'unauthorizedRetryMs',
  'versionTooOldRetryMs',
  'backoffJitterRatio',
  'appliedControlMemory',
  'unknownControlKindMemory',
  'livenessTimeoutMs',
  'sseFailuresBeforeFallback',
  'longPollReprobeMs',
  'sseReconnectDelayMs',
  'sseReconnectMaxMs',
  'wakeRetryDelayMs',
  'wakeRetryMaxMs',
] as const satisfies readonly (keyof ControlPlaneSettings)[]

export const defaultControlPlaneSettings: Readonly<ControlPlaneSettings> = Object.freeze(
  Object.fromEntries(settingKeys.map((key) => [key, defaults[key]])) as unknown as ControlPlaneSettings,
)

/**
 * The control-plane settings: defaults.ts overridden by `overrides` (the config's `[testing]`
 * table, camelCase keys). Keys of other subsystems and non-numbers are ignored.
 */
export function controlPlaneSettingsFrom(overrides: Partial<Record<string, unknown>> = {}): ControlPlaneSettings {
  const settings: ControlPlaneSettings = { ...defaultControlPlaneSettings }
  for (const key of settingKeys) {
    const value = overrides[key]
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) settings[key] = value
  }
  return settings
}

/** The plain-data input the root spawns `controlPlane` with (`childInputs.controlPlane`). */
export function controlPlaneInput(options: { agentId: string; downlinkMode?: DownlinkMode; settings?: ControlPlaneSettings }): ControlPlaneInput {
  return {
    agentId: options.agentId,
    downlinkMode: options.downlinkMode ?? defaults.downlinkMode,
    settings: options.settings ?? controlPlaneSettingsFrom(),
  }
}

const defaultRegisterSource: RegisterStateSource = {
  collect: () => ({
    hostname: osHostname(),
    platform: { os: process.platform, arch: process.arch, node: process.versions.node, container: false },
  }),
}

/** Calls a handler; a throw or a rejection is logged, never propagated (the control is acknowledged). */
function guarded(log: Logger, what: Record<string, unknown>, run: () => void | Promise<void>): void {
  try {
    const result = run()
    if (result && typeof (result as Promise<void>).then === 'function') {
      ;(result as Promise<void>).catch((err: unknown) => log.error({ err, ...what }, 'control handler failed; acknowledged anyway'))
    }
  } catch (err) {
    log.error({ err, ...what }, 'control handler failed; acknowledged anyway')
  }
}

function logAt(log: Logger, level: ControlPlaneLogLevel, msg: string, data?: Record<string, unknown>): void {
  log[level](data ?? {}, msg)
}

export function createControlPlaneLogic(deps: ControlPlaneDeps) {
  const log = deps.logger
  const downlinkLog = log.child({ component: 'downlink' })
  const version = deps.version ?? agentVersion
  const registerSource = deps.registerSource ?? defaultRegisterSource
  const syncs = deps.syncs ?? { started: 0 }

  const downlink = downlinkMachine.provide({
    actors: {
      sseStream: fromCallback<DownlinkEvent>(({ sendBack }) => {
        const handle = deps.transport.openEvents({
          onConnected: ({ baseUrl }) => sendBack({ type: 'downlink.sse.connected', baseUrl }),
          onFrame: (frame) => sendBack({ type: 'downlink.sse.frame', frame }),
          onEnded: () => sendBack({ type: 'downlink.sse.ended' }),
          onFailed: (error) => sendBack({ type: 'downlink.sse.failed', error }),
        })
        return () => handle.close()
      }),
      wakeListener: fromCallback<DownlinkEvent>(({ sendBack }) => {
        const handle = deps.transport.openWake({
          onWake: ({ reason }) => sendBack({ type: 'downlink.wake.woke', reason }),
          onEnded: () => sendBack({ type: 'downlink.wake.ended' }),
          onFailed: (error) => sendBack({ type: 'downlink.wake.failed', error }),
        })
        return () => handle.close()
      }),
    },
    actions: {
      log: (_, params) => logAt(downlinkLog, params.level, params.msg, params.data),
    },
  })

  return controlPlaneMachine.provide({
    actors: {
      register: fromPromise<RegisterResponse, RegisterActorInput>(async ({ input }) => {
        const [state, host] = await Promise.all([deps.source.collect(), registerSource.collect()])
        const body: RegisterRequest = {
          agentId: input.agentId,
          version,
          hostname: host.hostname,
          platform: host.platform,
          streamServer: state.streamServer,
          FunnelURL: state.FunnelURL,
          VPNActive: state.VPNActive,
          VPNMode: state.VPNMode,
          VPNExitServer: state.VPNExitServer,
        }
        if (host.hwAccel) body.hwAccel = host.hwAccel
        return deps.api.register(body)
      }),
      sync: fromPromise<SyncCycleResult, SyncActorInput>(async ({ input }) => {
        syncs.started += 1
        const cycle = syncs.started
        const state = await deps.source.collect()
        const response = await deps.api.sync({
          ...state,
          // Always present, never omitted: a downed tunnel frees the slot (contract 2.4).
          VPNActive: state.VPNActive === true,
          agentId: input.agentId,
          version,
          appliedControls: input.appliedControls,
        })
        return { response, cycle, sessionsLive: state.sessions.some((session) => session.state === 'starting' || session.state === 'ready') }
      }),
      downlink,
    },
    actions: {
      applyControl: (_, { control, origin }) =>
        guarded(log, { controlId: control.id, kind: control.kind, origin }, () => deps.sink.applyControl(control)),
      applyAction: (_, { action, origin }) =>
        guarded(log, { action: action.type, taskId: action.taskId, origin }, () => deps.sink.applyAction(action)),
      deliverStreamSessions: (_, { sessions }) => guarded(log, { what: 'streamSessions' }, () => deps.sink.streamSessions(sessions)),
      deliverUpgrade: (_, { requested, offer, cycle }) => guarded(log, { what: 'upgrade' }, () => deps.sink.upgrade(requested, offer, cycle)),
      reportRegistered: (_, response) =>
        guarded(log, { what: 'onRegistered' }, () =>
          deps.onRegistered({ agentId: response.agentId, signingSecret: response.signingSecret, minAgentVersion: response.minAgentVersion })),
      log: (_, params) => logAt(log, params.level, params.msg, params.data),
    },
    delays: controlPlaneDelays(deps.random ?? Math.random),
  })
}

export interface ControlPlanePart {
  /** Shared with the other parts (session-ready, upgrade-result, vpn-config, library upload). */
  api: ServerApi
  transport: DownlinkTransport
  /** The root's child `controlPlane`: spawn `logic` with `input`. */
  logic: ReturnType<typeof createControlPlaneLogic>
  input: ControlPlaneInput
  /** Close after the actors stopped: they drop the held-open SSE/wake and idle sockets. */
  closers: { name: string; close(): Promise<void> }[]
  /** How many syncs have started: the `cycle` of the latest one (`media-agent update` waits for a later one). */
  syncsStarted(): number
}

/**
 * Everything the control plane needs, built from the config: `[server]` (base_url, mirrors,
 * access_token), `[daemon] downlink`, and the `[testing]` timing overrides.
 */
export function createControlPlanePart(options: {
  config: Pick<AgentConfig, 'server' | 'daemon' | 'testing'>
  logger: Logger
  agentId: string
  source: SyncStateSource
  sink: ControlSink
  onRegistered: (info: RegisteredInfo) => void
  registerSource?: RegisterStateSource
  random?: () => number
}): ControlPlanePart {
  const { config } = options
  const logger = options.logger.child({ component: 'controlPlane' })
  const endpoint = { baseUrl: config.server.baseUrl, mirrors: config.server.mirrors, accessToken: config.server.accessToken }
  const api = createServerApi({
    ...endpoint,
    logger: logger.child({ component: 'serverApi' }),
    requestTimeoutMs: timing(config, 'httpRequestTimeoutMs'),
    libraryTimeoutMs: timing(config, 'librarySyncTimeoutMs'),
  })
  const transport = createDownlinkTransport({
    ...endpoint,
    logger: logger.child({ component: 'downlinkTransport' }),
    connectTimeoutMs: timing(config, 'sseConnectTimeoutMs'),
    maxLineBytes: timing(config, 'sseMaxLineBytes'),
    maxEventBytes: timing(config, 'sseMaxEventBytes'),
    wakeHeldReconnectMs: timing(config, 'wakeHeldReconnectMs'),
  })
  const settings = controlPlaneSettingsFrom(config.testing)
  const syncs: SyncCounter = { started: 0 }
  const logic = createControlPlaneLogic({
    api, transport, settings, logger, syncs,
    source: options.source, sink: options.sink, onRegistered: options.onRegistered,
    ...(options.registerSource ? { registerSource: options.registerSource } : {}),
    ...(options.random ? { random: options.random } : {}),
  })
  return {
    api,
    transport,
    logic,
    input: controlPlaneInput({ agentId: options.agentId, downlinkMode: config.daemon.downlink, settings }),
    closers: [
      { name: 'downlinkTransport', close: () => transport.close() },
      { name: 'serverApi', close: () => api.close() },
    ],
    syncsStarted: () => syncs.started,
  }
}
