import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import { openStateDir } from '../services/state/state-dir.js'
import { startAdminServer, type AdminServer } from '../server/admin-server.js'
import { createSystem, type AgentSystem } from './create-system.js'
import { buildSystemParts, type SystemDeps } from './implementations.js'
import { agentVersion } from '../version.js'

// Brings a whole agent up from a validated config: state dir, services, the actor system, and
// the admin listener. The daemon command and the tests both start agents through here.

export interface RunningAgent {
  readonly system: AgentSystem
  readonly admin: AdminServer
  readonly agentId: string
  readonly adminTokenPath: string
  /** Resolves with the code the daemon should stop and exit with on its own (75 after an upgrade); never otherwise. */
  readonly exitRequested: Promise<number>
  stop(): Promise<{ clean: boolean }>
}

/** `options.sessions`: dependencies the config does not give (the HLS engine; tests: loopback, CA). */
export async function startAgent(config: AgentConfig, logger: Logger, options: Pick<SystemDeps, 'sessions' | 'tasks'> = {}): Promise<RunningAgent> {
  const stateDir = openStateDir(config.daemon.stateDir)
  const agentId = await stateDir.agentId()
  const startedAt = Date.now()
  const parts = await buildSystemParts({ config, logger, stateDir, agentId, ...options })
  const system = createSystem({ parts, logger })

  const adminToken = await stateDir.writeAdminToken()
  let admin: AdminServer
  try {
    admin = await startAdminServer({
      host: config.admin.listen.host,
      port: config.admin.listen.port,
      token: adminToken,
      logger: logger.child({ component: 'admin' }),
      source: {
        actorTree: () => system.actorTree(),
        routes: parts.adminRoutes,
        inspection: system.inspection,
        status: () => ({
          version: agentVersion,
          pid: process.pid,
          agentId,
          startedAt: new Date(startedAt).toISOString(),
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
          ...parts.status(),
        }),
      },
    })
  } catch (error) {
    await system.shutdown()
    throw error
  }
  logger.info({ agentId, version: agentVersion, admin: admin.url, stateDir: stateDir.path }, 'media-agent started')

  let stopping: Promise<{ clean: boolean }> | undefined
  return {
    system,
    admin,
    agentId,
    adminTokenPath: stateDir.adminTokenPath(),
    exitRequested: parts.exitRequested ?? new Promise<number>(() => {}),
    stop() {
      stopping ??= system.shutdown().finally(() => admin.close())
      return stopping
    },
  }
}
