import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import type { RecheckReply, TorrentsStatus } from '../../system/tasks-part.js'

// `media-agent torrent recheck <taskId|infohash>`: a thin client of the daemon's
// POST /api/torrents/recheck (design.md house rule 7; docs/torrents.md, Recheck).


export class TorrentRecheckCommand extends AgentCommand {
  static override paths = [['torrent', 'recheck']]
  static override usage = Command.Usage({
    description: 'Hash a task\'s data again instead of trusting its verified-piece map.',
    details:
      'A downloading, seeding or completed task is checked now (it reports `downloading` meanwhile and fetches what is missing or damaged); ' +
      'a paused or failed task is checked when it next starts. Exit 0 when asked, 1 for an unknown task or one without metadata, 3 when no daemon runs.',
    examples: [['By task id', '$0 torrent recheck 42'], ['By info hash', '$0 torrent recheck 0123456789abcdef0123456789abcdef01234567']],
  })

  task = Option.String({ name: 'taskId|infohash' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    let reply: RecheckReply
    try {
      reply = await adminClient(loaded.config).post<RecheckReply>('/api/torrents/recheck', { task: this.task })
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
    switch (reply.outcome) {
      case 'checking':
        this.context.stdout.write(`task ${reply.taskId}: checking every piece now (${reply.infoHash})\n`)
        return 0
      case 'next_start':
        this.context.stdout.write(`task ${reply.taskId} is ${reply.state}: every piece is checked when it starts again\n`)
        return 0
      default:
        this.context.stderr.write(`media-agent: ${reply.message ?? reply.outcome}\n`)
        return 1
    }
  }
}

export class TorrentStatusCommand extends AgentCommand {
  static override paths = [['torrent', 'status']]
  static override usage = Command.Usage({
    description: 'Which torrents the engine holds live and which dormant (metadata only, woken by a peer or a reader).',
    details: 'One line of counts, then one line per task: its id, state, info hash and `dormant` or `live`. `--json` prints the daemon\'s answer. Exit 3 when no daemon runs.',
    examples: [['Counts and tasks', '$0 torrent status']],
  })

  json = Option.Boolean('--json', false)

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    let reply: TorrentsStatus
    try {
      reply = await adminClient(loaded.config).get<TorrentsStatus>('/api/torrents/status')
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(reply)}\n`)
      return 0
    }
    this.context.stdout.write(`torrent engine ${reply.engine === 'started' ? 'started' : 'not started'}: ${reply.live} live, ${reply.dormant} dormant (${reply.announces} announces for dormant torrents)\n`)
    for (const task of reply.tasks) {
      const held = task.state === 'seeding' || task.state === 'downloading' || task.state === 'fetching_metadata' ? (task.dormant ? ' dormant' : ' live') : ''
      this.context.stdout.write(`${task.id}  ${task.state}${held}  ${task.infoHash}\n`)
    }
    return 0
  }
}
