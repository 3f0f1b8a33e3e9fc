import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import type { StateDir } from '../services/state/state-dir.js'
import type { SystemParts } from './create-system.js'

// The one wiring module (after Tailscale's tsd): builds every service from the config and binds
// it to the machine that uses it with `.provide()`. Tests build parts of their own instead.

export interface SystemDeps {
  config: AgentConfig
  logger: Logger
  stateDir: StateDir
  agentId: string
}

export interface BuiltParts extends SystemParts {
  /** What `GET /api/status` (and so `media-agent status`) reports beyond version and uptime. */
  status(): Record<string, unknown>
}

export async function buildSystemParts(deps: SystemDeps): Promise<BuiltParts> {
  void deps
  return {
    children: [],
    closers: [],
    status: () => ({ activeTaskCount: 0, tasks: [] }),
  }
}
