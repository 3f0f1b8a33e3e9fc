import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import { upgradeCommandTimeoutMs } from '../../config/defaults.js'

// `media-agent update` (contract 4.5, protocol.md 7.5): a thin client of `POST /api/upgrade`,
// which syncs now and applies what the server offers. Exit 0 when one was applied or none is
// offered (or it is the running version), 1 on failure, 3 with no daemon.

interface UpdateReply {
  outcome: 'applied' | 'success' | 'noop' | 'none' | 'failure'
  targetVersion?: string
  currentVersion?: string
  error?: string
}

export class UpdateCommand extends AgentCommand {
  static override paths = [['update']]
  static override usage = Command.Usage({
    description: 'Sync with the server now and apply the upgrade it offers.',
    details: 'Asks the running daemon (admin API) to sync at once. An offered version is downloaded, checked against its sha256, installed side by side under <state_dir>/versions and started by the supervisor (the daemon exits 75). Exit 0 when one was applied or none is offered, 1 on failure, 3 when no daemon runs. See docs/upgrade.md.',
    examples: [['Upgrade now', '$0 update'], ['For scripts', '$0 update --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    let reply: UpdateReply
    try {
      // The daemon waits for the sync and the attempt; give it that long and a little more.
      reply = await adminClient(loaded.config).post<UpdateReply>('/api/upgrade', {}, { timeoutMs: upgradeCommandTimeoutMs + 30_000 })
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
    if (this.json) out(JSON.stringify(reply))
    else out(describeReply(reply))
    return reply.outcome === 'failure' ? 1 : 0
  }
}

function describeReply(reply: UpdateReply): string {
  switch (reply.outcome) {
    case 'applied':
      return `upgrade applied: ${reply.currentVersion ?? 'this version'} -> ${reply.targetVersion}; the daemon exits 75 and its supervisor starts the new version`
    case 'success':
      return `version ${reply.targetVersion} was just installed and is running`
    case 'noop':
      return `no upgrade needed: ${reply.targetVersion} is the running version`
    case 'none':
      return `no upgrade offered (running ${reply.currentVersion ?? 'this version'})`
    case 'failure':
      return `upgrade failed${reply.targetVersion ? ` (${reply.targetVersion})` : ''}: ${reply.error ?? 'unknown error'}`
  }
}
