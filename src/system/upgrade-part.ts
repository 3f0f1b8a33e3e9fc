import { rename } from 'node:fs/promises'
import { fromPromise, type AnyActorRef } from 'xstate'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { ServerApi } from '../services/http/server-api.js'
import type { UpgradeOffer, UpgradeResult } from '../protocol/wire.js'
import * as defaults from '../config/defaults.js'
import { upgradeMachine, upgradeStatusOf, type UpgradeContext, type UpgradeInput, type UpgradeSupervisor } from '../machines/upgrade.machine.js'
import type { ArtifactDownloader } from '../services/upgrade/artifact-download.js'
import type { Installer } from '../services/upgrade/installer.js'
import { detectSupervisor, supervisorEnvVar, unknownSupervisorValue } from '../services/upgrade/supervisor.js'
import { emptyUpgradeState, readUpgradeState, updateUpgradeState, upgradeStatePath, versionsDir, type UpgradeState } from '../services/upgrade/upgrade-store.js'
import { agentVersion } from '../version.js'

// Wiring of the `upgrade` actor (docs/upgrade.md): the state dir's upgrade.json gives its
// input, the artifact downloader and installer its actors, the server API its report, and the
// daemon its exit 75. `POST /api/upgrade` is `media-agent update`.

export interface UpgradePartOptions {
  config: Pick<AgentConfig, 'server' | 'daemon'>
  logger: Logger
  api: Pick<ServerApi, 'upgradeResult'>
  /** The running `upgrade` actor (a child of the root), once the root exists. */
  actor: () => AnyActorRef | undefined
  requestSync: (reason: string) => void
  /** How many sync cycles have started (the `cycle` of the latest `upgrade.sync`). */
  syncCycles: () => number
  /** Tests: the supervisor and version as they would be detected and read. */
  supervisor?: UpgradeSupervisor
  currentVersion?: string
  downloader?: ArtifactDownloader
  installer?: Installer
}

export interface UpgradePart {
  logic: ReturnType<typeof createUpgradeLogic>
  input: UpgradeInput
  /** Resolves with 75 once a new version is in place: the daemon stops in order and exits with it. */
  exitRequested: Promise<number>
  adminRoutes: AdminRoute[]
  status(): Record<string, unknown>
}

type UpgradeSnapshot = { value: unknown; status: string; context: UpgradeContext }

export async function createUpgradePart(options: UpgradePartOptions): Promise<UpgradePart> {
  const log = options.logger.child({ component: 'upgrade' })
  const stateDir = options.config.daemon.stateDir
  const currentVersion = options.currentVersion ?? agentVersion
  const unknown = unknownSupervisorValue(process.env)
  if (unknown !== undefined) log.warn({ value: unknown }, `${supervisorEnvVar} is not restart-on-75, systemd, container or none; detecting instead`)
  const supervisor = options.supervisor ?? detectSupervisor()
  const stored = await readOrSetAside(stateDir, log)
  const input: UpgradeInput = {
    currentVersion,
    supervisor,
    reported: stored.results.filter((entry) => entry.posted).map((entry) => entry.result.toVersion),
    unposted: stored.results.filter((entry) => !entry.posted).map((entry) => entry.result),
    ...(stored.pending?.toVersion === currentVersion ? { justInstalled: { fromVersion: stored.pending.fromVersion, toVersion: currentVersion } } : {}),
  }
  if (input.justInstalled) log.info(input.justInstalled, 'this is the version just installed; success is reported once it has registered')

  // Every flag-down sync asks to forget; only one that has something to forget writes the file.
  let remembered = stored.results.some((entry) => entry.posted)
  // upgrade.json is read-modify-written by the report and by forgetReported: one at a time.
  let queue: Promise<unknown> = Promise.resolve()
  const change = (fn: (state: UpgradeState) => UpgradeState) => {
    const next = queue.then(() => updateUpgradeState(stateDir, fn))
    queue = next.catch(() => {})
    return next
  }

  // The downloader and installer load with the first upgrade, not with every agent (docs/operations.md "Idle footprint").
  const downloader: ArtifactDownloader = options.downloader ?? {
    download: async (offer) => (await import('../services/upgrade/artifact-download.js')).createArtifactDownloader({
      dir: versionsDir(stateDir),
      maxBytes: defaults.upgradeMaxArtifactBytes,
      timeoutMs: defaults.upgradeDownloadTimeoutMs,
      server: { baseUrl: options.config.server.baseUrl, accessToken: options.config.server.accessToken },
    }).download(offer),
  }
  const installer: Installer = options.installer ?? {
    install: async (params) => (await import('../services/upgrade/installer.js')).createInstaller({
      stateDir,
      extractTimeoutMs: defaults.upgradeExtractTimeoutMs,
      smokeTestTimeoutMs: defaults.upgradeSmokeTestTimeoutMs,
    }).install(params),
  }

  let requestExit!: (code: number) => void
  const exitRequested = new Promise<number>((resolve) => { requestExit = resolve })

  const report = async (result: UpgradeResult) => {
    // Decided first, posted second: a crash in between posts it after the restart, never twice
    // decided. The version just installed turns its marker into the result in the same write.
    const remember = (posted: boolean) => change((state) => ({
      pending: result.outcome === 'success' && state.pending?.toVersion === result.toVersion ? null : state.pending,
      results: [...state.results.filter((entry) => entry.result.toVersion !== result.toVersion), { result, posted }],
    }))
    await remember(false)
    await options.api.upgradeResult(result)
    await remember(true)
    remembered = true
    log.info({ ...result }, 'upgrade result reported')
  }

  const logic = createUpgradeLogic({
    download: ({ offer }) => downloader.download(offer).then((artifactPath) => ({ artifactPath })),
    install: (params) => installer.install(params),
    report,
    exitForRestart: (toVersion) => {
      log.info({ from: currentVersion, to: toVersion, exitCode: defaults.upgradeRestartExitCode }, 'new version installed; exiting so the supervisor starts it')
      requestExit(defaults.upgradeRestartExitCode)
    },
    forgetReported: () => {
      if (!remembered) return
      remembered = false
      change((state) => ({ ...state, results: state.results.filter((entry) => !entry.posted) }))
        .catch((error: unknown) => log.warn({ err: error }, 'cannot update upgrade.json'))
    },
    requestSync: () => options.requestSync('update'),
    log: (level, msg, data) => log[level](data ?? {}, msg),
  })

  const snapshot = () => options.actor()?.getSnapshot() as UpgradeSnapshot | undefined
  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/upgrade', handle: () => ({ status: 200, json: describe(snapshot()) }) },
    {
      method: 'POST',
      path: '/api/upgrade',
      handle: async () => {
        const answer = await runUpdate(options.actor, options.syncCycles, defaults.upgradeCommandTimeoutMs)
        // The sync that answered may have forgotten reported results (a write still queued):
        // the command returns once upgrade.json says what the answer says.
        await queue
        return { status: 200, json: answer }
      },
    },
  ]
  return { logic, input, exitRequested, adminRoutes, status: () => ({ upgrade: describe(snapshot()) }) }
}

/** A damaged upgrade.json must not keep the agent down: it is moved aside and the agent starts afresh. */
async function readOrSetAside(stateDir: string, log: Logger): Promise<UpgradeState> {
  try {
    return await readUpgradeState(stateDir)
  } catch (error) {
    const aside = `${upgradeStatePath(stateDir)}.corrupt-${Date.now()}`
    await rename(upgradeStatePath(stateDir), aside).catch(() => {})
    log.error({ err: error, movedTo: aside }, 'upgrade.json could not be read; moved aside, starting with no upgrade state')
    return emptyUpgradeState()
  }
}

function describe(snapshot: UpgradeSnapshot | undefined): Record<string, unknown> {
  return snapshot ? upgradeStatusOf(snapshot) : { state: 'not running' }
}

/**
 * `media-agent update`: ask for a sync and wait for the attempt it leads to; with an attempt
 * already under way (the server's flag seen by a sync of its own), wait for that one instead:
 * it is the answer the person asked for, and a second attempt would find the flag cleared. The answer's
 * `outcome`: `applied` (exiting into the new version), `noop`, `none` (nothing offered),
 * `failure` (with `error`), or `success` (a report of the version just installed).
 */
async function runUpdate(actor: () => AnyActorRef | undefined, syncCycles: () => number, timeoutMs: number): Promise<Record<string, unknown>> {
  const ref = actor()
  const first = ref?.getSnapshot() as UpgradeSnapshot | undefined
  if (!ref || !first || first.status !== 'active') return { outcome: 'failure', error: 'the upgrade actor is not running' }
  const underWay = first.value !== 'idle'
  // A result is recorded (seq = attempts + 1) when an attempt ends, so the next result is the
  // one under way or the one this update leads to.
  const before = first.context.attempts
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe()
      resolve({ outcome: 'failure', error: `no sync with the server completed within ${Math.round(timeoutMs / 1000)} s` })
    }, timeoutMs)
    const subscription = ref.subscribe((snapshot: UpgradeSnapshot) => {
      const last = snapshot.context.last
      if (!last || last.seq <= before) return
      clearTimeout(timer)
      subscription.unsubscribe()
      resolve({ ...last, currentVersion: snapshot.context.currentVersion })
    })
    if (!underWay) ref.send({ type: 'upgrade.manual', afterCycle: syncCycles() })
  })
}

export interface UpgradeBindings {
  download(input: { offer: UpgradeOffer }): Promise<{ artifactPath: string }>
  install(input: { offer: UpgradeOffer; artifactPath: string; fromVersion: string }): Promise<void>
  report(result: UpgradeResult): Promise<void>
  exitForRestart(toVersion: string): void
  forgetReported(): void
  requestSync(): void
  log(level: 'info' | 'warn', msg: string, data?: Record<string, unknown>): void
  /** Tests: milliseconds before a failed post is tried again. */
  reportRetryMs?: number
}

/** The machine bound to its services (design.md house rule 1); tests bind fakes the same way. */
export function createUpgradeLogic(bindings: UpgradeBindings) {
  return upgradeMachine.provide({
    actors: {
      download: fromPromise(({ input }) => bindings.download(input)),
      install: fromPromise(({ input }) => bindings.install(input)),
      report: fromPromise(({ input }) => bindings.report(input.result)),
    },
    actions: {
      exitForRestart: (_, { toVersion }) => bindings.exitForRestart(toVersion),
      forgetReported: () => bindings.forgetReported(),
      requestSync: () => bindings.requestSync(),
      log: (_, { level, msg, data }) => bindings.log(level, msg, data),
    },
    delays: { reportRetry: bindings.reportRetryMs ?? defaults.upgradeReportRetryMs },
  })
}
