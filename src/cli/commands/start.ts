import { Command } from 'clipanion'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { randomBytes } from 'node:crypto'
import { AgentCommand } from '../options.js'
import { runDaemon } from '../../main.js'
import { defaultConfigPath, embeddedDefaultConfig } from '../../config/load.js'
import { createRootLogger } from '../../log.js'
import type { ReferenceServer } from '../../reference-server/index.js'
import { playerPageUrl } from '../../reference-server/player-page.js'
import { embeddedReferenceServerPort } from '../../config/defaults.js'
import type { RunningAgent } from '../../system/start-agent.js'

export class StartCommand extends AgentCommand {
  static override paths = [['start']]
  static override usage = Command.Usage({
    description: 'Run the agent: with your config, or the embedded default when you have none.',
    details: `With a config file (--config, or the default path) this is \`media-agent daemon\`. With none, it runs the in-memory reference web server on 127.0.0.1:${embeddedReferenceServerPort} and the daemon against it on loopback, and prints what to open or curl. This is what \`npm start\` runs.`,
    examples: [['Run (what npm start does)', '$0 start']],
  })

  async execute(): Promise<number> {
    const io = { level: this.level(), stdout: this.context.stdout, stderr: this.context.stderr }
    const userConfig = this.configPath ?? defaultConfigPath(process.env, homedir())
    if (this.configPath !== undefined || existsSync(userConfig)) return runDaemon({ ...io, configPath: userConfig })

    const accessToken = randomBytes(24).toString('base64url')
    const serverLogger = createRootLogger({ level: io.level }).child({ component: 'reference-server' })
    let server: ReferenceServer
    try {
      // Imported only for the embedded default: with a config of its own the daemon never loads it.
      const { createReferenceServer } = await import('../../reference-server/index.js')
      server = await createReferenceServer({ accessToken, host: '127.0.0.1', port: embeddedReferenceServerPort, logger: serverLogger })
    } catch (error) {
      this.context.stderr.write(`media-agent: cannot start the embedded reference server on 127.0.0.1:${embeddedReferenceServerPort}: ${(error as Error).message}\n`)
      return 1
    }
    const config = embeddedDefaultConfig(process.env, homedir())
    config.server.baseUrl = server.url
    config.server.accessToken = accessToken
    config.stream.upnp = false
    try {
      return await runDaemon({ ...io, config, onStarted: (agent) => this.printWelcome(server, agent, accessToken) })
    } finally {
      await server.close()
    }
  }

  private printWelcome(server: ReferenceServer, agent: RunningAgent, accessToken: string) {
    const lines = [
      '',
      `  watch a video       ${playerPageUrl(server.url, accessToken)}`,
      '',
      'media-agent is running with the embedded default: no config file was found, so a local',
      `reference web server runs at ${server.url} and the agent is registered with it. The page`,
      'above (the player page) starts a session from a file path or a link, queues magnets and plays.',
      '',
      `  access token        ${accessToken}`,
      `  live actor tree     curl -H "Authorization: Bearer $(cat ${agent.adminTokenPath})" ${agent.admin.url}/debug/actors`,
      `  agent status        media-agent status   (or: node dist/cli.js status)`,
      `  server state        curl -H "Authorization: Bearer ${accessToken}" ${server.url}/api/reference/state`,
      `  queue a download    curl -H "Authorization: Bearer ${accessToken}" -H 'content-type: application/json' -d '{"source":"magnet:?xt=urn:btih:<hash>"}' ${server.url}/api/reference/tasks`,
      '',
      `To use your own web server, write ${defaultConfigPath(process.env, homedir())} (see docs/configuration.md).`,
      'Stop with Ctrl-C.',
      '',
    ]
    this.context.stdout.write(lines.join('\n'))
  }
}
