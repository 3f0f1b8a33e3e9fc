import { Command, Option, UsageError } from 'clipanion'
import type { LevelWithSilent } from 'pino'
import { logLevels } from '../log.js'

/** Options every command understands: which config file, how much to log. */
export abstract class AgentCommand extends Command {
  configPath = Option.String('--config', { description: 'Config file (default: $XDG_CONFIG_HOME/media-agent/config.toml)' })
  logLevel = Option.String('--log-level', { description: `One of ${logLevels.join(', ')} (default: info)` })

  protected level(): LevelWithSilent {
    const level = (this.logLevel ?? 'info') as LevelWithSilent
    if (!logLevels.includes(level)) throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}, not "${this.logLevel}"`)
    return level
  }
}
