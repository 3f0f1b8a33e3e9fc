// `media-agent daemon` without the command-line framework (issue 18, idle footprint): the full
// CLI (clipanion and every command's module graph: the reference server, statecharts, upgrade,
// init...) costs the daemon about 4.7 MiB of idle RSS for a parse of two options. This parses the
// forms a unit file, a container or a person write (`--config <file>`, `--config=<file>`,
// `--log-level <level>`, `--log-level=<level>`) and declines everything else (`--help`, an
// unknown or repeated option, a missing or bad value, a stray argument): `src/cli.ts` then runs
// the full CLI, so help, usage errors and their exit codes come from the one place they always did.
import type { LevelWithSilent } from 'pino'
import { isAgentError } from '../errors.js'
import { logLevels } from '../log.js'

export interface DaemonArgs {
  configPath: string | undefined
  level: LevelWithSilent
}

const optionNames = { '--config': 'configPath', '--log-level': 'logLevel' } as const

/** `daemon`'s options after the verb, or undefined when the full CLI must handle the line. */
export function parseDaemonArgs(args: readonly string[]): DaemonArgs | undefined {
  const values: { configPath?: string; logLevel?: string } = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const eq = arg.indexOf('=')
    const name = eq === -1 ? arg : arg.slice(0, eq)
    if (!Object.hasOwn(optionNames, name)) return undefined
    const key = optionNames[name as keyof typeof optionNames]
    if (values[key] !== undefined) return undefined
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
    // A value that looks like an option is clipanion's to judge (it may be a usage error).
    if (value === undefined || value === '' || value.startsWith('-')) return undefined
    values[key] = value
  }
  const level = values.logLevel ?? 'info'
  if (!(logLevels as readonly string[]).includes(level)) return undefined
  return { configPath: values.configPath, level: level as LevelWithSilent }
}

/**
 * Runs the daemon for `args` (after the verb) with the exit codes of the full CLI (protocol.md
 * 7.7), or returns undefined without doing anything when `parseDaemonArgs` declines them.
 */
export async function runDaemonFast(args: readonly string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } = process): Promise<number | undefined> {
  const parsed = parseDaemonArgs(args)
  if (parsed === undefined) return undefined
  const { runDaemon } = await import('../main.js')
  try {
    return await runDaemon({ configPath: parsed.configPath, level: parsed.level, stdout: io.stdout, stderr: io.stderr })
  } catch (error) {
    // As `runCli` reports a command's error (src/cli/index.ts).
    if (isAgentError(error) && error.userVisible) {
      io.stderr.write(`media-agent: ${error.message} [${error.code}]\n`)
      return 1
    }
    io.stderr.write(`media-agent: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  }
}
