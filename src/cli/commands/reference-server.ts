import { Command, Option } from 'clipanion'
import { randomBytes } from 'node:crypto'
import type { LevelWithSilent } from 'pino'
import { referenceServerCliPort, referenceServerHost } from '../../config/defaults.js'
import { createRootLogger, logLevels } from '../../log.js'
import { apiPaths } from '../../protocol/wire.js'
import type { createReferenceServer } from '../../reference-server/server.js'
import { playerPageUrl } from '../../reference-server/player-page.js'

/** Runs the in-memory reference web server (docs/reference-server.md) until SIGINT or SIGTERM. */
export class ReferenceServerCommand extends Command {
  static override paths = [['reference-server']]
  static override usage = Command.Usage({
    description: 'Run the in-memory reference web server that an agent can register and sync with.',
    details: 'Everything lives in memory and is gone when it stops. It prints its base URL, the access token to put in the agent config, and curl lines to queue a task or a stream session. See docs/reference-server.md.',
    examples: [['On the default port with a random token', '$0 reference-server'], ['Fixed token and port', '$0 reference-server --port 8780 --access-token secret']],
  })

  port = Option.String('--port', String(referenceServerCliPort), { description: `TCP port (default ${referenceServerCliPort}; 0 picks a free one)` })
  host = Option.String('--host', referenceServerHost, { description: `Listen address (default ${referenceServerHost})` })
  accessToken = Option.String('--access-token', { description: 'Agent access token (default: random, printed)' })
  signingSecret = Option.String('--signing-secret', { description: 'Signing secret handed out by register (default: random)' })
  minAgentVersion = Option.String('--min-agent-version', { description: 'Agents below this get 426 (default 0.9.4)' })
  logLevel = Option.String('--log-level', { description: `One of ${logLevels.join(', ')} (default: info)` })

  async execute(): Promise<number> {
    const port = Number(this.port)
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      this.context.stderr.write(`media-agent: --port must be an integer 0-65535, not "${this.port}"\n`)
      return 2
    }
    const level = (this.logLevel ?? 'info') as LevelWithSilent
    if (!logLevels.includes(level)) {
      this.context.stderr.write(`media-agent: --log-level must be one of ${logLevels.join(', ')}\n`)
      return 2
    }
    const accessToken = this.accessToken ?? randomBytes(24).toString('base64url')
    const options: Parameters<typeof createReferenceServer>[0] = { accessToken, host: this.host, port, logger: createRootLogger({ level }) }
    if (this.signingSecret !== undefined) options.signingSecret = this.signingSecret
    if (this.minAgentVersion !== undefined) options.minAgentVersion = this.minAgentVersion
    // Listen for the stop signals before printing anything, so a signal sent as soon as the
    // banner appears is never the default (killing) one.
    const stopped = new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        resolve()
      }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
    // Imported here: the daemon, which shares this CLI, never loads the reference server.
    const server = await (await import('../../reference-server/server.js')).createReferenceServer(options)
    const out = this.context.stdout
    const auth = `-H 'Authorization: Bearer ${accessToken}'`
    const json = `-H 'Content-Type: application/json'`
    out.write(
      [
        `reference server listening on ${server.url}`,
        `player page:    ${playerPageUrl(server.url, accessToken)}`,
        `access token:   ${accessToken}`,
        `signing secret: ${server.signingSecret}`,
        '',
        'agent config.toml:',
        '  [server]',
        `  base_url = "${server.url}"`,
        `  access_token = "${accessToken}"`,
        '',
        'queue a download task:',
        `  curl -s ${auth} ${json} -d '{"source":"magnet:?xt=urn:btih:<infohash>"}' ${server.url}/api/reference/tasks`,
        'create an HLS stream session (the reply has the player URLs):',
        `  curl -s ${auth} ${json} -d '{"filePath":"/abs/path/movie.mkv","PlayMethod":"hls","quality":"720p"}' ${server.url}/api/reference/sessions`,
        'see what the agent reported:',
        `  curl -s ${auth} ${server.url}/api/reference/state`,
        `agent routes live under ${server.url}${apiPaths.sync.replace(/\/sync$/, '')}/; Ctrl-C stops the server.`,
        '',
      ].join('\n'),
    )
    await stopped
    await server.close()
    out.write('reference server stopped\n')
    return 0
  }
}
