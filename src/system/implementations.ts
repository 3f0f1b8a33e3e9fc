import { hostname } from 'node:os'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { StateDir } from '../services/state/state-dir.js'
import type { SystemParts } from './create-system.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { Control, StreamServerInfo, SyncAction, UpgradeOffer } from '../protocol/wire.js'
import { createControlPlanePart, type ControlSink, type SyncStateSource } from './control-plane-bindings.js'
import { streamServerAddresses } from '../services/net/addresses.js'
import { isContainer } from '../services/net/container.js'
import { createTasksPart, type TasksPartOptions } from './tasks-part.js'
import { createHlsPart } from './hls-part.js'
// ---- library (issue 16, docs/library.md) ----
import { createLibraryPart } from './library-part.js'
import { createProbeService } from '../services/ffmpeg/probe.js'
// ---- end library ----
// ---- sessions and stream server (issue 5, docs/sessions.md) ----
import type { Actor } from 'xstate'
import type { agentMachine } from '../machines/agent.machine.js'
import { createSessionReportLedger, fileCompleteIn, startSessionPart, type SessionPartOptions } from './session-bindings.js'
// ---- end sessions and stream server ----

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
}

export interface BuiltParts extends SystemParts {
  /** Admin routes the parts add (protocol.md 7: cache, vpn, funnel, update, library, metrics). */
  adminRoutes: AdminRoute[]
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
  const tasks = createTasksPart({ config, logger, changed: requestSync, ...deps.tasks })

  const source: SyncStateSource = {
    collect: () => ({
      tasks: tasks.reports(),
      sessions: sessionReports.collect(),
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
    applyAction: (action: SyncAction) => {
      post(() => tasks.apply(action))
    },
    applyControl: (control: Control) => {
      if (control.kind === 'pause_task' || control.kind === 'resume_task') return post(() => tasks.apply(control))
      switch (control.kind) {
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
        default:
          unavailable(control.kind, { control: control.kind })
      }
    },
    // ---- sessions (issue 5): only an event; session start never blocks the sync (contract 4.3.7) ----
    streamSessions: (sessions) => {
      sessionReports.syncSucceeded(sessions)
      post(() => root?.send({ type: 'sessions.update', sessions }))
    },
    // ---- end sessions ----
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
  const hls = deps.sessions?.hlsEngine ? { engine: deps.sessions.hlsEngine, closers: [] } : createHlsPart({ config, logger, probe })
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
    ...deps.sessions,
  })
  // ---- end sessions and stream server ----

  return {
    children: [
      { name: 'tasks', logic: tasks.logic, input: tasks.input },
      { name: 'controlPlane', logic: controlPlane.logic, input: controlPlane.input },
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
      library.attach(() => agent.system.get('library'))
    },
    closers: [...library.closers, ...sessions.closers, ...hls.closers, ...tasks.closers, ...controlPlane.closers],
    // ---- end sessions and stream server ----
    signingSecret,
    adminRoutes: [
      // ---- library (issue 16) ----
      ...library.adminRoutes,
    ],
    status: () => ({
      activeTaskCount: tasks.activeCount(),
      tasks: tasks.reports(),
      server: config.server.baseUrl,
      registered: registeredSecret !== undefined,
      upgradeRequested,
      streamServer: sessions.server.url,
      ...(lastUpgradeOffer ? { upgradeOffer: lastUpgradeOffer.targetVersion } : {}),
      // ---- library (issue 16): files seen, probed, uploaded ----
      library: library.summary(),
    }),
  }
}
