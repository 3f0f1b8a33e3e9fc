import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import { ConfigSwitchCommand } from '../config-switch.js'
import type { FunnelStatus } from '../../protocol/wire.js'

// `media-agent funnel on|off|status` (contract 4.5, protocol.md 7.4): a thin client of the
// daemon's `/api/funnel`. `on`/`off` are the common switch of src/cli/config-switch.ts: write
// `[funnel] enabled` into the config file this command loaded (comments kept), then apply it to the
// running daemon.

function describe(status: FunnelStatus): string[] {
  return [
    `funnel: ${status.enabled ? 'on' : 'off'} (${status.state})`,
    `url: ${status.url || '-'}`,
    `restarts: ${status.restarts}`,
    `helper: ${status.helperPath}`,
    ...(status.error ? [`last error: ${status.error}`] : []),
  ]
}


abstract class FunnelSwitch extends ConfigSwitchCommand<FunnelStatus> {
  protected readonly table = 'funnel'
  protected readonly route = '/api/funnel'
  protected describe(status: FunnelStatus): string[] {
    return describe(status)
  }
}

export class FunnelOnCommand extends FunnelSwitch {
  static override paths = [['funnel', 'on']]
  static override usage = Command.Usage({
    description: 'Turn the public tunnel on: persist `[funnel] enabled = true` and apply it to the running daemon.',
    details: 'Writes the key into the config file in use (`--config` or the default path; comments and other lines are kept), then applies it to the running daemon; with no daemon it applies at the next start. With no config file nothing changes (exit 1): `media-agent init` writes one.',
    examples: [['Turn it on', '$0 funnel on']],
  })

  protected readonly enabled = true
}

export class FunnelOffCommand extends FunnelSwitch {
  static override paths = [['funnel', 'off']]
  static override usage = Command.Usage({
    description: 'Turn the public tunnel off: persist `[funnel] enabled = false`, stop the helper and clear FunnelURL.',
    examples: [['Turn it off', '$0 funnel off']],
  })

  protected readonly enabled = false
}

export class FunnelStatusCommand extends AgentCommand {
  static override paths = [['funnel', 'status']]
  static override usage = Command.Usage({
    description: 'Show the public tunnel: on or off, its state, the URL, restarts and the helper path.',
    details: 'Asks the running daemon (exit code 3 when none runs). `--json` prints `{ enabled, state, url, restarts, helperPath }` (protocol.md 7.4).',
    examples: [['For people', '$0 funnel status'], ['For scripts', '$0 funnel status --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    try {
      const status = await adminClient(loaded.config).get<FunnelStatus>('/api/funnel')
      if (this.json) out(JSON.stringify(status))
      else for (const line of describe(status)) out(line)
      return 0
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
  }
}
