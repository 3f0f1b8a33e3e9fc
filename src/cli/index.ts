import { Builtins, Cli } from 'clipanion'
import { agentVersion } from '../version.js'
import { isAgentError } from '../errors.js'
import { DaemonCommand } from './commands/daemon.js'
import { StatusCommand } from './commands/status.js'
import { StartCommand } from './commands/start.js'
import { ReferenceServerCommand } from './commands/reference-server.js'
import { StatechartsCommand } from './commands/statecharts.js'
// ---- library (issue 16) ----
import { LibraryScanCommand, LibraryStatusCommand } from './commands/library.js'

export function buildCli(): Cli {
  const cli = new Cli({ binaryLabel: 'media-agent', binaryName: 'media-agent', binaryVersion: agentVersion, enableCapture: false })
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  cli.register(DaemonCommand)
  cli.register(StatusCommand)
  cli.register(StartCommand)
  cli.register(ReferenceServerCommand)
  cli.register(StatechartsCommand)
  // ---- library (issue 16) ----
  cli.register(LibraryStatusCommand)
  cli.register(LibraryScanCommand)
  return cli
}

export async function runCli(args: string[]): Promise<number> {
  const cli = buildCli()
  try {
    return await cli.run(args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr })
  } catch (error) {
    // Typed errors are meant for people: print the message, not a stack.
    if (isAgentError(error) && error.userVisible) {
      process.stderr.write(`media-agent: ${error.message} [${error.code}]\n`)
      return 1
    }
    throw error
  }
}
