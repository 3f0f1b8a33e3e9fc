import { Builtins, Cli, UsageError, type Command } from 'clipanion'
import { colorWanted } from '../terminal.js'
import { agentVersion } from '../version.js'
import { isAgentError } from '../errors.js'
import { DaemonCommand } from './commands/daemon.js'
import { StatusCommand } from './commands/status.js'
import { StartCommand } from './commands/start.js'
import { ReferenceServerCommand } from './commands/reference-server.js'
import { StatechartsCommand } from './commands/statecharts.js'
import { UpdateCommand } from './commands/update.js'
import { ProbeHwaccelCommand } from './commands/probe-hwaccel.js'
import { FunnelOffCommand, FunnelOnCommand, FunnelStatusCommand } from './commands/funnel.js'
import { CacheClearCommand, CacheStatusCommand } from './commands/cache.js'
import { InitCommand } from './commands/init.js'
import { ConfigCheckCommand } from './commands/config-check.js'
import { VpnDisableCommand, VpnEnableCommand, VpnStatusCommand } from './commands/vpn.js'
// ---- library (issue 16) ----
import { LibraryScanCommand, LibraryStatusCommand } from './commands/library.js'
// ---- torrent (issue 20) ----
import { TorrentRecheckCommand, TorrentStatusCommand } from './commands/torrent.js'

export function buildCli(options: { colors?: boolean } = {}): Cli {
  const cli = new Cli({ binaryLabel: 'media-agent', binaryName: 'media-agent', binaryVersion: agentVersion, enableCapture: false, enableColors: options.colors ?? colorWanted(process.stdout) })
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  cli.register(DaemonCommand)
  cli.register(StatusCommand)
  cli.register(StartCommand)
  cli.register(ReferenceServerCommand)
  cli.register(StatechartsCommand)
  cli.register(UpdateCommand)
  cli.register(ProbeHwaccelCommand)
  cli.register(FunnelOnCommand)
  cli.register(FunnelOffCommand)
  cli.register(FunnelStatusCommand)
  cli.register(CacheStatusCommand)
  cli.register(CacheClearCommand)
  cli.register(InitCommand)
  cli.register(ConfigCheckCommand)
  cli.register(VpnStatusCommand)
  cli.register(VpnEnableCommand)
  cli.register(VpnDisableCommand)
  // ---- library (issue 16) ----
  cli.register(LibraryStatusCommand)
  cli.register(LibraryScanCommand)
  // ---- torrent (issue 20) ----
  cli.register(TorrentRecheckCommand)
  cli.register(TorrentStatusCommand)
  return cli
}

/**
 * Runs one command. Exit codes (protocol.md 7.7): 0 done, 1 failure, 2 usage (unknown command or
 * option), 3 daemon not running, 78 configuration error; 75 belongs to the upgrade. Errors go to
 * stderr, never stdout (clipanion's own reporting writes them to stdout).
 */
export async function runCli(args: string[]): Promise<number> {
  const stdout = process.stdout
  const stderr = process.stderr
  const cli = buildCli({ colors: colorWanted(stdout) })
  const context = { stdin: process.stdin, stdout, stderr, colorDepth: colorWanted(stdout) ? stdout.getColorDepth?.() ?? 8 : 1 }
  let command: Command
  try {
    command = cli.process(args, context)
  } catch (error) {
    stderr.write(cli.error(error, { colored: colorWanted(stderr) }))
    return 2
  }
  const execute = command.execute.bind(command)
  command.execute = async () => {
    try {
      return await execute()
    } catch (error) {
      // Typed errors are meant for people: print the message, not a stack.
      if (isAgentError(error) && error.userVisible) {
        stderr.write(`media-agent: ${error.message} [${error.code}]\n`)
        return 1
      }
      if (error instanceof UsageError) {
        stderr.write(`media-agent: ${error.message}\n`)
        return 2
      }
      stderr.write(`media-agent: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      return 1
    }
  }
  return cli.run(command, context)
}
