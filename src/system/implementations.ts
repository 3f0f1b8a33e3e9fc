import { hostname } from 'node:os'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { StateDir } from '../services/state/state-dir.js'
import type { SystemParts } from './create-system.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { Control, StreamServerInfo, SyncAction, UpgradeOffer } from '../protocol/wire.js'
import { createControlPlanePart, type ControlSink, type SyncStateSource } from './control-plane-bindings.js'
import { isContainer } from '../services/net/container.js'
import { createTasksPart, type TasksPartOptions } from './tasks-part.js'
import { createHlsPart } from './hls-part.js'
import { createUpgradePart } from './upgrade-part.js'
// ---- hardware encoders (issue 12, docs/encoders.md) ----
import { createEncodersPart, type EncodersPartOptions } from './encoders-part.js'
// ---- end hardware encoders ----
// ---- funnel and addresses (issue 14) ----
import { createFunnelPart } from './funnel-part.js'
import { createAddressesPart } from './addresses-part.js'
// ---- end funnel and addresses ----
import { createCachePart } from './cache-part.js'
import { createVpnPart, type VpnPartOptions } from './vpn-part.js'
// ---- library (issue 16, docs/library.md) ----
import { createLibraryPart } from './library-part.js'
import { createProbeService } from '../services/ffmpeg/probe.js'
// ---- end library ----
// ---- sessions and stream server (issue 5, docs/sessions.md) ----
import type { Actor } from 'xstate'
import type { agentMachine } from '../machines/agent.machine.js'
import { startSessionPart, type SessionPartOptions } from './session-bindings.js'
import { createSessionReportLedger } from '../services/sessions/report-ledger.js'
import { fileCompleteIn } from '../services/hls/inputs.js'
// ---- end sessions and stream server ----
import { createMetricsPart } from './metrics-part.js'

// The one wiring module (after Tailscale's tsd): builds every service from the config and binds
// it to the machine that uses it. Tests build parts of their own instead.

export interface SystemDeps {
  config: AgentConfig
  logger: Logger
  stateDir: StateDir
  agentId: string
  /** Session and stream-server dependencies not built from the config (HLS engine, tests' loopback and CA). */
  sessions?: Pick<SessionPartOptions, 'hlsEngine' | 'inProgress' | 'streamHost' | 'ca' | 'dispatcher'>
  /** Torrent engine options not in the config (tests: no DHT/LSD, a loopback tracker). */
  tasks?: Pick<TasksPartOptions, 'engine'>
  /** Issue 12: the hardware detection (tests: a counting wrapper). */
  encoders?: Pick<EncodersPartOptions, 'detect'>
  /** Tunnel options not in the config (tests: the outer socket's local address). */
  vpn?: Pick<VpnPartOptions, 'tunnel'>
}

export interface BuiltParts extends SystemParts {
  /** Admin routes the parts add (protocol.md 7: cache, vpn, funnel, update, library, metrics). */
  adminRoutes: AdminRoute[]
  /** What `GET /api/status` (and so `media-agent status`) reports beyond version and uptime. */
  status(): Record<string, unknown>
  /** The signing secret in force (config override, else the one from register). */
  signingSecret(): string | undefined
  /** Resolves with the exit code the daemon should stop with on its own (75: upgrade installed). */
  exitRequested?: Promise<number>
}

export async function buildSystemParts(deps: SystemDeps): Promise<BuiltParts> {
  const { config, logger } = deps
  let registeredSecret: string | undefined
  let upgradeRequested = false
  let lastUpgradeOffer: UpgradeOffer | undefined
  const notYetAvailable = new Set<string>()

  // ---- sessions and stream server (issue 5, docs/sessions.md) ----
  // The root exists only after these parts are built: `attach` hands it over before it starts.
  let root: Actor<typeof agentMachine> | undefined
  const sessionReports = createSessionReportLedger()
  const signingSecret = () => config.server.signingSecret || registeredSecret
  // ---- end sessions and stream server ----

  // The sink below is called from inside the control plane's actions: an event sent to another
  // actor from there would be processed in the middle of that action. Deferring to a microtask
  // keeps each actor's step atomic and keeps the order of events.
  const post = (deliver: () => void) => queueMicrotask(deliver)
  const requestSync = (reason: string) => post(() => root?.system.get('controlPlane')?.send({ type: 'controlPlane.changed', reason }))
  // ---- vpn (issue 13, docs/vpn.md): built before tasks, whose engine follows its route ----
  // The server API is the control plane's, built below; the actor calls it only once running.
  const vpn = createVpnPart({
    config,
    logger,
    agentId: deps.agentId,
    changed: requestSync,
    api: { vpnConfig: (agentId, probe) => controlPlane.api.vpnConfig(agentId, probe) },
    ...deps.vpn,
  })
  // ---- end vpn ----
  const tasks = createTasksPart({ config, logger, changed: requestSync, ...deps.tasks, engine: { ...deps.tasks?.engine, route: vpn.route } })
  // ---- hardware encoders (issue 12): detected at start-up; register and sessions wait for it (bounded) ----
  const encoders = createEncodersPart({
    config, logger,
    // Only the register body carries hwAccel (protocol.md 1): a re-probe that changed it registers again.
    hwAccelChanged: (reason) => post(() => root?.system.get('controlPlane')?.send({ type: 'controlPlane.reregister', reason })),
    ...deps.encoders,
  })
  // ---- end hardware encoders ----
  // ---- funnel and addresses (issue 14; protocol.md 7.4, contract 1.11) ----
  const funnel = createFunnelPart({ config, logger, changed: requestSync })
  const addresses = createAddressesPart({ config, logger, changed: requestSync })
  const streamServer = (): StreamServerInfo => addresses.streamServer()
  // ---- end funnel and addresses ----
  // ---- metrics (issue 18, docs/operations.md): one registry the other parts feed ----
  const metricsPart = createMetricsPart({ tasks })
  const { metrics } = metricsPart
  // ---- end metrics ----

  const source: SyncStateSource = {
    collect: () => ({
      tasks: tasks.reports(),
      sessions: sessionReports.collect(),
      FunnelURL: funnel.url(),
      ...vpn.syncFields(),
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
    applyAction: (action: SyncAction) => {
      post(() => tasks.apply(action))
    },
    applyControl: (control: Control) => {
      if (control.kind === 'pause_task' || control.kind === 'resume_task') return post(() => tasks.apply(control))
      switch (control.kind) {
        // ---- funnel (issue 14): the server's switch applies live; the file stays the user's ----
        case 'set_funnel':
          post(() => funnel.apply(control.enabled))
          return
        // ---- end funnel ----
        // ---- vpn (issue 13) ----
        case 'set_vpn':
          post(() => vpn.setEnabled(control.enabled))
          return
        // ---- end vpn ----
        case 'set_downlink':
          // The control plane has already switched the running downlink.
          log.info({ mode: control.mode }, 'downlink mode set by the server')
          return
        // ---- sessions (issue 5) ----
        case 'stop_session':
          post(() => root?.send({ type: 'session.stop', sessionId: control.sessionId }))
          return
        // ---- end sessions ----
        // ---- library (issue 16): coalesced with a scan under way, so applying it twice is harmless ----
        case 'scan_library':
          post(() => library.scan(control.full === true))
          return
        // ---- end library ----
        default: {
          // Every kind of protocol.md 1 is handled above; a kind added to the wire later lands here.
          const kind = (control as { kind: string }).kind
          unavailable(kind, { control: kind })
        }
      }
    },
    // ---- sessions (issue 5): only an event; session start never blocks the sync (contract 4.3.7) ----
    streamSessions: (sessions) => {
      sessionReports.syncSucceeded(sessions)
      post(() => root?.send({ type: 'sessions.update', sessions }))
    },
    // ---- end sessions ----
    upgrade: (requested, offer, cycle) => {
      // ---- upgrade (issue 15): `cycle` numbers the sync that asked, so `media-agent update`
      // can tell the answer to its own sync from one already on its way ----
      post(() => root?.system.get('upgrade')?.send({ type: 'upgrade.sync', requested, offer, cycle }))
      // ---- end upgrade ----
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
      collect: async () => {
        // Issue 12: the diagnostic (contract 2.4); waits for the start-up probe, itself bounded by 10 s.
        const hwAccel = await encoders.hwAccel()
        return {
          hostname: hostname(),
          platform: { os: process.platform, arch: process.arch, node: process.versions.node, container: isContainer() },
          ...(hwAccel ? { hwAccel } : {}),
        }
      },
    },
    onRegistered: (info) => {
      registeredSecret = info.signingSecret
      post(() => root?.system.get('upgrade')?.send({ type: 'upgrade.registered' })) // issue 15
    },
  })

  // ---- upgrade (issue 15, docs/upgrade.md) ----
  const upgrade = await createUpgradePart({ config, logger, api: controlPlane.api, actor: () => root?.system.get('upgrade'), requestSync, syncCycles: () => controlPlane.syncsStarted() })
  // ---- end upgrade ----

  // ---- HLS segment cache (issue 11, docs/hls-cache.md) ----
  const cache = createCachePart({ config, logger, onLookup: (hit) => metrics.cacheLookup(hit) })
  // ---- end HLS segment cache ----

  // ---- library (issue 16): one probe cache for HLS sessions and library scans ----
  const probe = createProbeService({ ffprobePath: config.transcode.ffprobePath || undefined, logger: logger.child({ component: 'probe' }) })
  const library = createLibraryPart({
    config, logger, agentId: deps.agentId, api: controlPlane.api, probe,
    // A scan never costs a starting session its readiness (docs/library.md).
    playbackStarting: () => sessionReports.anyStarting(),
    onPlaybackStart: (listener) => sessionReports.onStarting(listener),
  })
  // ---- end library ----

  // ---- sessions and stream server (issue 5) ----
  const hls = deps.sessions?.hlsEngine ? { engine: deps.sessions.hlsEngine, closers: [] } : createHlsPart({ config, logger, encoders, store: cache.store, metrics, probe })
  const sessions = await startSessionPart({
    config,
    logger,
    api: controlPlane.api,
    ledger: sessionReports,
    secret: signingSecret,
    changed: requestSync,
    inProgress: tasks.inProgressFile,
    // Issue 6: an HLS input served over loopback while downloading reads the file once complete.
    fileComplete: fileCompleteIn(tasks),
    hlsEngine: hls.engine,
    metrics,
    ...deps.sessions,
  })
  // ---- end sessions and stream server ----

  return {
    children: [
      { name: 'tasks', logic: tasks.logic, input: tasks.input },
      { name: 'upgrade', logic: upgrade.logic, input: upgrade.input },
      { name: 'encoders', logic: encoders.logic, input: encoders.input },
      { name: 'addresses', logic: addresses.logic, input: addresses.input },
      { name: 'funnel', logic: funnel.logic, input: funnel.input },
      ...(cache.enabled ? [{ name: 'cache' as const, logic: cache.logic, input: cache.input }] : []),
      { name: 'controlPlane', logic: controlPlane.logic, input: controlPlane.input },
      { name: 'vpn', logic: vpn.logic, input: vpn.input }, // issue 13
      // ---- library (issue 16) ----
      { name: 'library', logic: library.logic, input: library.input },
    ],
    // ---- sessions and stream server (issue 5): spawnable, sessionInput, attach, closers ----
    spawnable: { session: sessions.logic },
    sessionInput: sessions.sessionInput,
    onSessionCrash: ({ sessionId, error }) => {
      sessions.release(sessionId)
      sessionReports.crashed(sessionId, error)
    },
    attach: (agent) => {
      root = agent
      tasks.attach(() => agent.system.get('tasks'))
      encoders.attach(() => agent.system.get('encoders'))
      funnel.attach(() => agent.system.get('funnel'))
      addresses.attach(() => agent.system.get('addresses'))
      cache.attach(() => agent.system.get('cache'))
      vpn.attach(() => agent.system.get('vpn'))
      library.attach(() => agent.system.get('library'))
      metricsPart.attach(agent)
    },
    closers: [...library.closers, ...addresses.closers, ...funnel.closers, ...sessions.closers, ...hls.closers, ...tasks.closers, ...vpn.closers, ...controlPlane.closers],
    // ---- end sessions and stream server ----
    signingSecret,
    adminRoutes: [...upgrade.adminRoutes, ...funnel.adminRoutes, ...cache.adminRoutes, ...vpn.adminRoutes, ...library.adminRoutes, ...metricsPart.adminRoutes, ...encoders.adminRoutes, ...tasks.adminRoutes],
    exitRequested: upgrade.exitRequested,
    status: () => ({
      activeTaskCount: tasks.activeCount(),
      tasks: tasks.reports(),
      server: config.server.baseUrl,
      registered: registeredSecret !== undefined,
      upgradeRequested,
      streamServer: sessions.server.url,
      funnel: funnel.status(),
      addresses: { ...addresses.status(), ...streamServer() },
      ...(lastUpgradeOffer ? { upgradeOffer: lastUpgradeOffer.targetVersion } : {}),
      ...upgrade.status(),
      // ---- library (issue 16): files seen, probed, uploaded ----
      library: library.summary(),
    }),
  }
}
