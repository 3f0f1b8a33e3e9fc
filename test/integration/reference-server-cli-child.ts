// Runs `media-agent reference-server <args>` through clipanion exactly as the CLI would, for
// test/integration/reference-server-cli.test.ts (src/cli/index.ts registers the command for real).
import { Builtins, Cli } from 'clipanion'
import { ReferenceServerCommand } from '../../src/cli/commands/reference-server.js'

const cli = new Cli({ binaryName: 'media-agent', enableCapture: false })
cli.register(Builtins.HelpCommand)
cli.register(ReferenceServerCommand)
process.exitCode = await cli.run(['reference-server', ...process.argv.slice(2)], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr })
