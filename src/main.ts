import type { LevelWithSilent } from 'pino'
import { createRootLogger, logFatalErrors, routeConsoleToLogger, type Logger } from './log.js'
import { loadConfigForCli } from './cli/load.js'
import { startAgent, type RunningAgent } from './system/start-agent.js'
import type { AgentConfig } from './config/schema.js'
import { launchCurrentVersion } from './services/upgrade/launcher.js'
import { packageRoot } from './version.js'
import { mallocTrim } from './services/runtime/malloc-trim.js'
import { settleAfterStartup } from './services/runtime/startup-memory.js'

// Daemon entry: load config -> create system -> start -> wait for SIGINT/SIGTERM -> stop in
// order -> exit 0 (design.md layout, issue "Foundation" 3).

export interface RunDaemonOptions {
  configPath?: string | undefined
  level: LevelWithSilent
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  /** A config built in memory (the embedded default of `npm start`) instead of a file. */
  config?: AgentConfig
  /** The command line, passed on unchanged when `versions/current` names another version (protocol.md 7.5). */
  argv?: readonly string[]
  /** Called once the agent is up (used by `start` to print what to open). */
  onStarted?: (agent: RunningAgent, logger: Logger) => void | Promise<void>
}

export async function runDaemon(options: RunDaemonOptions): Promise<number> {
  const logger = createRootLogger({ level: options.level })
  // Output hygiene (issue 18): stderr carries only log lines, a crash is one fatal line.
  const restoreConsole = routeConsoleToLogger(logger)
  const stopFatal = logFatalErrors(logger)
  try {
    return await runWithLogger(options, logger)
  } finally {
    stopFatal()
    restoreConsole()
  }
}

async function runWithLogger(options: RunDaemonOptions, logger: Logger): Promise<number> {
  let config = options.config
  if (!config) {
    const loaded = await loadConfigForCli(options.configPath, options.stderr)
    if (typeof loaded === 'number') return loaded
    for (const warning of loaded.warnings) logger.warn({ file: loaded.path }, warning)
    logger.info({ file: loaded.source === 'file' ? loaded.path : '(embedded default)' }, 'config loaded')
    config = loaded.config
    // Issue 15: after an upgrade, run the version `<state_dir>/versions/current` names.
    try {
      const delegated = await launchCurrentVersion({ stateDir: config.daemon.stateDir, argv: options.argv ?? process.argv.slice(2), env: process.env, ownRoot: packageRoot, log: logger })
      if (delegated !== undefined) {
        logger.flush()
        return delegated
      }
    } catch (error) {
      logger.error({ err: error }, 'cannot settle a pending upgrade; running this version')
    }
  }

  const signal = waitForSignal()
  let agent: RunningAgent
  try {
    agent = await startAgent(config, logger)
  } catch (error) {
    logger.fatal({ err: error }, 'media-agent could not start')
    signal.dispose()
    return 1
  }
  await options.onStarted?.(agent, logger)
  // Issue 18: what start-up leaves resident (compiler code, garbage) goes once it has settled.
  const cancelSettle = settleAfterStartup((result) => logger.debug(result, 'start-up settled: compilers back, heap compacted'))
  const trim = mallocTrim()
  if (!trim.available) logger.info({ reason: trim.reason }, 'no malloc_trim helper: memory freed after busy phases stays with the allocator (docs/operations.md "Memory allocator")')
  const received = await Promise.race([signal.promise, agent.exitRequested])
  cancelSettle()
  if (typeof received === 'number') logger.info({ exitCode: received }, 'stopping to restart into the new version')
  else logger.info({ signal: received }, 'signal received; stopping')
  const { clean } = await agent.stop()
  logger.info({ clean }, 'media-agent stopped')
  logger.flush()
  return typeof received === 'number' ? received : 0
}

function waitForSignal(): { promise: Promise<NodeJS.Signals>; dispose(): void } {
  let resolve!: (signal: NodeJS.Signals) => void
  const promise = new Promise<NodeJS.Signals>((r) => { resolve = r })
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = () => resolve(signal)
    process.once(signal, handler)
    return [signal, handler] as const
  })
  return {
    promise,
    dispose: () => { for (const [signal, handler] of handlers) process.off(signal, handler) },
  }
}
