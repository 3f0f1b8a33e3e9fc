import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import { ConfigSwitchCommand } from '../config-switch.js'
import type { VpnCheckResult, VpnStatus } from '../../services/vpn/status.js'

// `media-agent vpn status [--json] [--check]`, `vpn enable`, `vpn disable` (protocol.md 7.3): thin
// clients of the daemon's /api/vpn routes (src/system/vpn-part.ts).


function describe(status: VpnStatus): string[] {
  return [
    `vpn: ${status.enabled ? 'enabled' : 'disabled'}, ${status.state}${status.mode === 'wireguard' ? ` (wireguard${status.exitServer ? `, exit ${status.exitServer}` : ''})` : ''}`,
    `handshake: ${status.handshakeAgeSeconds === null ? 'none yet' : `${status.handshakeAgeSeconds} s ago`}`,
    `bytes: received ${status.rxBytes}, sent ${status.txBytes}`,
    ...(status.error ? [`error: ${status.error}`] : []),
  ]
}

export class VpnStatusCommand extends AgentCommand {
  static override paths = [['vpn', 'status']]
  static override usage = Command.Usage({
    description: 'Show the managed VPN: state, exit server, handshake age, bytes.',
    details: 'Asks the running daemon (exit code 3 when none runs). `--check` asks the web server whether this agent may use the VPN (vpn-config with probe=1, which never claims the slot) and prints `ok`, `disabled`, `not_provisioned` or `slot_on_device`; the exit code is 0 only for `ok`.',
    examples: [['State', '$0 vpn status'], ['For scripts', '$0 vpn status --json'], ['Provisioning', '$0 vpn status --check']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })
  check = Option.Boolean('--check', false, { description: 'Ask the server (probe=1) and print the typed result' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    const client = adminClient(loaded.config)
    try {
      if (this.check) {
        const reply = await client.post<VpnCheckResult>('/api/vpn/check')
        if (this.json) out(JSON.stringify(reply))
        else if (reply.result === 'error') out(`error: ${reply.error}`)
        else out(reply.result)
        return reply.result === 'ok' ? 0 : 1
      }
      const status = await client.get<VpnStatus>('/api/vpn')
      if (this.json) {
        out(JSON.stringify(status))
        return 0
      }
      for (const line of describe(status)) out(line)
      return 0
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
  }
}

abstract class VpnSwitchCommand extends ConfigSwitchCommand<VpnStatus> {
  protected readonly table = 'downloads.vpn'
  protected readonly route = '/api/vpn'
  protected describe(status: VpnStatus): string[] {
    return describe(status)
  }
}

export class VpnEnableCommand extends VpnSwitchCommand {
  static override paths = [['vpn', 'enable']]
  static override usage = Command.Usage({
    description: 'Turn the managed VPN on: saved in the config file and applied to the running daemon.',
    details: 'Writes `[downloads.vpn] enabled = true` into the config file in use (`--config` or the default path; comments and other lines kept), then applies it to the running daemon; with no daemon it applies at the next start. With no config file nothing changes (exit 1). Torrent peer and tracker traffic then goes through the WireGuard tunnel only; while it connects, torrents wait.',
  })

  protected readonly enabled = true
}

export class VpnDisableCommand extends VpnSwitchCommand {
  static override paths = [['vpn', 'disable']]
  static override usage = Command.Usage({
    description: 'Turn the managed VPN off: saved in the config file and applied to the running daemon.',
    details: 'Writes `[downloads.vpn] enabled = false` (see `vpn enable` for the file and the daemon). Torrents then download in the clear; the tunnel closes and its account slot is freed by the next sync.',
  })

  protected readonly enabled = false
}
