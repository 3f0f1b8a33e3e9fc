import { AgentCommand } from './options.js'
import { adminClient, isDaemonNotRunning } from './admin-client.js'
import { loadConfigForCli } from './load.js'
import { setConfigValue } from '../config/edit.js'

// One on/off switch of the daemon (a table's `enabled` key), the same for every command that has
// one (`vpn enable|disable`, `funnel on|off`; protocol.md 7.3 and 7.4: "persist the key and apply it
// to the running daemon").
//
// The config file is what the switch is about: the daemon reads it at every start, so a setting
// that is only applied live would silently come back at the next restart. Hence, one behaviour:
// - a config file: the key is written (comments and every other line kept), then the running daemon
//   applies it at once; with no daemon the command still succeeds (exit 0) and says the setting
//   applies when the daemon starts. Exit 3 belongs to commands that need the daemon to answer
//   (`status`, protocol.md 7.7); this one did its job by writing the file.
// - no config file (the daemon would run on the embedded default): nothing is written and nothing is
//   applied, exit 1 with the way out (`media-agent init`, or `--config`).
// A config file that cannot take the key (unreadable, would not parse) is a ConfigError: exit 1 with
// its message, the file untouched and the daemon not asked.

export abstract class ConfigSwitchCommand<Status> extends AgentCommand {
  /** The dotted table (`downloads.vpn`) whose `enabled` key the switch writes. */
  protected abstract readonly table: string
  /** The value this command sets. */
  protected abstract readonly enabled: boolean
  /** The admin route that applies it live: POST `{ "enabled": bool }`, answers the part's status. */
  protected abstract readonly route: string
  /** What to print about the part once the running daemon applied the setting. */
  protected abstract describe(status: Status): string[]

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    const setting = `[${this.table}] enabled = ${String(this.enabled)}`
    if (loaded.source !== 'file') {
      this.context.stderr.write(
        `media-agent: no config file at ${loaded.path} to keep ${setting} in, so nothing changed ` +
          '(a running daemon would go back to the embedded default at its next start). ' +
          'Run `media-agent init` to write one, or pass --config FILE.\n',
      )
      return 1
    }
    await setConfigValue(loaded.path, this.table, 'enabled', this.enabled)
    out(`${setting} written to ${loaded.path}`)
    let status: Status
    try {
      status = await adminClient(loaded.config).post<Status>(this.route, { enabled: this.enabled })
    } catch (error) {
      if (!isDaemonNotRunning(error)) throw error
      out(`daemon: ${error.message}; the setting applies when it starts`)
      return 0
    }
    out('daemon: applied to the running daemon')
    for (const line of this.describe(status)) out(line)
    return 0
  }
}
