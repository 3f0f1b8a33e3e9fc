import { Command, Option } from 'clipanion'
import { mkdir, open } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, resolve } from 'node:path'
import { defaultConfigPath, parseConfigText, renderFreshConfig } from '../../config/load.js'
import { expandHome } from '../../config/paths.js'
import { accessTokenEnvVar } from '../../config/defaults.js'
import { isAgentError } from '../../errors.js'

// `media-agent init` (protocol.md 7.7): the fresh-install config file, commented, mode 0600,
// never over an existing one. A local file operation: it does not need (or talk to) the daemon.

export class InitCommand extends Command {
  static override paths = [['init']]
  static override usage = Command.Usage({
    description: 'Write a commented config file with the fresh-install defaults (funnel on).',
    details:
      'Writes the file with mode 0600 (it holds the access token), making its parent folders. It never overwrites: with a file already there it exits 1 and leaves it untouched. Without --server and --token the two keys are left empty for you to fill in (or set MEDIA_AGENT_ACCESS_TOKEN); `media-agent config check` then tells whether the file is complete.',
    examples: [
      ['At the default path', '$0 init --server https://media.example --token <ACCESS_TOKEN>'],
      ['Somewhere else', '$0 init --config /etc/media-agent/config.toml --server https://media.example'],
    ],
  })

  configPath = Option.String('--config', { description: 'Where to write (default: $XDG_CONFIG_HOME/media-agent/config.toml)' })
  server = Option.String('--server', { description: 'The web server URL ([server] base_url)' })
  token = Option.String('--token', { description: 'The access token the web server issued ([server] access_token)' })

  async execute(): Promise<number> {
    const file = this.configPath === undefined ? defaultConfigPath(process.env, homedir()) : resolve(expandHome(this.configPath, homedir()))
    const text = renderFreshConfig({ ...(this.server !== undefined ? { baseUrl: this.server } : {}), ...(this.token !== undefined ? { accessToken: this.token } : {}) })
    // What was given must be valid now, not at the daemon's first start.
    if (this.server !== undefined || this.token !== undefined) {
      const problem = givenValuesProblem(text, file, { server: this.server !== undefined, token: this.token !== undefined })
      if (problem !== undefined) {
        this.context.stderr.write(`media-agent: ${problem}\n`)
        return 2
      }
    }
    await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    let handle
    try {
      // `wx`: fails if the file exists, atomically (no check-then-write race).
      handle = await open(file, 'wx', 0o600)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        this.context.stderr.write(`media-agent: ${file} already exists; init never overwrites a config (check it with \`media-agent config check\`)\n`)
        return 1
      }
      throw error
    }
    try {
      await handle.writeFile(text, 'utf8')
      await handle.chmod(0o600) // whatever the umask
    } finally {
      await handle.close()
    }
    const missing = [this.server === undefined ? '[server] base_url' : '', this.token === undefined ? `[server] access_token (or ${accessTokenEnvVar})` : ''].filter(Boolean)
    this.context.stdout.write(`wrote ${file} (mode 0600)\n`)
    if (missing.length > 0) this.context.stdout.write(`fill in ${missing.join(' and ')}, then run: media-agent config check\n`)
    return 0
  }
}

/** The error about --server or --token in the rendered file, if any; a missing other key is not one. */
function givenValuesProblem(text: string, file: string, given: { server: boolean; token: boolean }): string | undefined {
  try {
    parseConfigText(text, { file, freshInstall: true })
    return undefined
  } catch (error) {
    if (!isAgentError(error)) throw error
    const key = (error.details as { key?: string } | undefined)?.key
    if ((key === 'server.base_url' && given.server) || (key === 'server.access_token' && given.token)) {
      return error.message.replace(/^Invalid config [^:]+: server\.base_url/, '--server').replace(/^Invalid config [^:]+: server\.access_token/, '--token')
    }
    return undefined
  }
}
