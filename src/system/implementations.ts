import { hostname } from 'node:os'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { StateDir } from '../services/state/state-dir.js'
import type { SystemParts } from './create-system.js'
import type { Control, StreamServerInfo, SyncAction, UpgradeOffer } from '../protocol/wire.js'
import { createControlPlanePart, type ControlSink, type SyncStateSource } from './control-plane-bindings.js'
import { streamServerAddresses } from '../services/net/addresses.js'
import { isContainer } from '../services/net/container.js'

// The one wiring module (after Tailscale's tsd): builds every service from the config and binds
// it to the machine that uses it. Tests build parts of their own instead.

export interface SystemDeps {
  config: AgentConfig
  logger: Logger
  stateDir: StateDir
  agentId: string
}

export interface BuiltParts extends SystemParts {
  /** What `GET /api/status` (and so `media-agent status`) reports beyond version and uptime. */
  status(): Record<string, unknown>
  /** The signing secret in force (config override, else the one from register). */
  signingSecret(): string | undefined
}

export async function buildSystemParts(deps: SystemDeps): Promise<BuiltParts> {
  const { config, logger } = deps
  let registeredSecret: string | undefined
  let upgradeRequested = false
  let lastUpgradeOffer: UpgradeOffer | undefined
  const streamServer = (): StreamServerInfo => streamServerAddresses({ port: config.stream.port })
  const notYetAvailable = new Set<string>()

  const source: SyncStateSource = {
    collect: () => ({
      tasks: [],
      sessions: [],
      FunnelURL: '',
      VPNActive: false,
      VPNMode: 'off',
      VPNExitServer: '',
      streamServer: streamServer(),
    }),
  }

  // One idempotent callback for every action and control, whichever path brought it (the
  // control plane deduplicates by id before calling here). Capabilities not built into this
  // version are logged once per kind and acknowledged, never fatal (protocol.md 1, Control).
  const log = logger.child({ component: 'controls' })
  const unavailable = (what: string, detail: Record<string, unknown>) => {
    if (notYetAvailable.has(what)) return
    notYetAvailable.add(what)
    log.warn(detail, `${what} is not available in this version of media-agent; acknowledged and ignored`)
  }
  const sink: ControlSink = {
    applyAction: (action: SyncAction) => unavailable(action.type, { action: action.type }),
    applyControl: (control: Control) => {
      switch (control.kind) {
        case 'set_downlink':
          // The control plane has already switched the running downlink.
          log.info({ mode: control.mode }, 'downlink mode set by the server')
          return
        default:
          unavailable(control.kind, { control: control.kind })
      }
    },
    streamSessions: (sessions) => {
      if (sessions.length > 0) unavailable('stream sessions', { count: sessions.length })
    },
    upgrade: (requested, offer) => {
      if (requested && !upgradeRequested) unavailable('upgrade', { targetVersion: offer?.targetVersion })
      upgradeRequested = requested
      lastUpgradeOffer = offer
    },
  }

  const controlPlane = createControlPlanePart({
    config,
    logger,
    agentId: deps.agentId,
    source,
    sink,
    registerSource: {
      collect: () => ({
        hostname: hostname(),
        platform: { os: process.platform, arch: process.arch, node: process.versions.node, container: isContainer() },
      }),
    },
    onRegistered: (info) => {
      registeredSecret = info.signingSecret
    },
  })

  return {
    children: [{ name: 'controlPlane', logic: controlPlane.logic, input: controlPlane.input }],
    closers: [...controlPlane.closers],
    signingSecret: () => config.server.signingSecret || registeredSecret,
    status: () => ({
      activeTaskCount: 0,
      tasks: [],
      server: config.server.baseUrl,
      registered: registeredSecret !== undefined,
      upgradeRequested,
      ...(lastUpgradeOffer ? { upgradeOffer: lastUpgradeOffer.targetVersion } : {}),
    }),
  }
}
