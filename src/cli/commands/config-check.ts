import { Command } from 'clipanion'
import { stringify } from 'smol-toml'
import { AgentCommand } from '../options.js'
import { loadConfigForCli } from '../load.js'
import { camelToSnake, type AgentConfig } from '../../config/schema.js'

// `media-agent config check` (protocol.md 7.7): loads the config exactly as the daemon would and
// prints the effective values, every secret redacted; a config error is printed and exits 78.

const redacted = '[redacted]'

export class ConfigCheckCommand extends AgentCommand {
  static override paths = [['config', 'check']]
  static override usage = Command.Usage({
    description: 'Load the config as the daemon would and print the effective values, secrets redacted.',
    details:
      'Every default filled in, `~` and the XDG variables expanded, the access token taken from MEDIA_AGENT_ACCESS_TOKEN, [server] access_token_file or [server] access_token (first to last) and shown as [redacted]. Exits 0 when the config is valid; otherwise prints the file, the key and what is expected, and exits 78.',
    examples: [['The default config', '$0 config check'], ['Another file', '$0 config check --config /etc/media-agent/config.toml']],
  })

  async execute(): Promise<number> {
    this.level() // a wrong --log-level is a usage error here as everywhere
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    for (const warning of loaded.warnings) this.context.stderr.write(`media-agent: warning: ${warning}\n`)
    const { config } = loaded
    const header = [
      loaded.source === 'file' ? `# effective config of ${loaded.path}` : `# no config file at ${loaded.path}: the embedded default (npm start runs a local reference server with it)`,
      `# access token: ${config.server.accessToken === '' ? 'none' : `from ${config.server.accessTokenSource ?? '[server] access_token'}`}`,
    ]
    this.context.stdout.write(`${header.join('\n')}\n${stringify(effectiveToml(config))}\n`)
    return 0
  }
}

/**
 * The config as TOML tables again: snake_case keys, `listen` as one string, every secret redacted:
 * any string under a key ending in token, secret, password or private_key (keys later versions
 * add are covered too), whatever its table.
 */
export function effectiveToml(config: AgentConfig): Record<string, unknown> {
  const { accessTokenSource: _source, ...server } = config.server
  const { host, port } = config.admin.listen
  const shaped: Record<string, unknown> = { ...config, server, admin: { listen: `${host.includes(':') ? `[${host}]` : host}:${port}` } }
  if (Object.keys(config.testing).length === 0) delete shaped.testing
  return snakeKeys(shaped) as Record<string, unknown>
}

const secretKey = /(?:token|secret|password|private_key)$/

function snakeKeys(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && value !== '' && secretKey.test(key)) return redacted
  if (Array.isArray(value)) return value.map((item) => snakeKeys(item, key))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [camelToSnake(name), snakeKeys(inner, camelToSnake(name))]))
}
