import { Command } from 'clipanion'
import { AgentCommand } from '../options.js'
import { runDaemon } from '../../main.js'

export class DaemonCommand extends AgentCommand {
  static override paths = [['daemon']]
  static override usage = Command.Usage({
    description: 'Run the agent in the foreground until SIGINT or SIGTERM.',
    details: 'Loads the config, registers with the web server and keeps in step with it. Stops every part in order and exits 0 on SIGINT/SIGTERM.',
    examples: [['Run with the default config', '$0 daemon'], ['Run with another config', '$0 daemon --config ./config.toml --log-level debug']],
  })

  async execute(): Promise<number> {
    return runDaemon({ configPath: this.configPath, level: this.level(), stdout: this.context.stdout, stderr: this.context.stderr })
  }
}
