import { Command, Option } from 'clipanion'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AgentCommand } from '../options.js'
import { adminClient } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import { tasksFileName } from '../../config/defaults.js'
import { isAgentError } from '../../errors.js'

interface StatusReply {
  version: string
  agentId: string
  uptimeSeconds: number
  activeTaskCount: number
  tasks?: { name?: string; state?: string; progress?: number }[]
}

const activeStates = new Set(['queued', 'fetching_metadata', 'downloading', 'seeding'])

export class StatusCommand extends AgentCommand {
  static override paths = [['status']]
  static override usage = Command.Usage({
    description: 'Show the active task count and the state of the running daemon.',
    details: 'Asks the running daemon through its admin listener. With no daemon running it says so and reads tasks.json from the state dir when there is one.',
    examples: [['Human-readable', '$0 status'], ['For scripts', '$0 status --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const { config } = loaded
    try {
      const status = await adminClient(config).get<StatusReply>('/api/status')
      if (this.json) this.context.stdout.write(`${JSON.stringify({ running: true, ...status })}\n`)
      else {
        this.context.stdout.write(`active tasks: ${status.activeTaskCount}\n`)
        this.context.stdout.write(`daemon: running (version ${status.version}, up ${status.uptimeSeconds} s, agent ${status.agentId})\n`)
      }
      return 0
    } catch (error) {
      if (!isAgentError(error) || error.code !== 'MA_ERR_DAEMON_NOT_RUNNING') throw error
      const tasks = await readTasksFile(join(config.daemon.stateDir, tasksFileName))
      const active = tasks?.filter((task) => activeStates.has(String(task.state))).length ?? 0
      if (this.json) this.context.stdout.write(`${JSON.stringify({ running: false, activeTaskCount: active, tasks: tasks ?? [] })}\n`)
      else {
        this.context.stdout.write(`active tasks: ${active}\n`)
        this.context.stdout.write(`daemon: not running (${error.message})${tasks ? '; counts read from tasks.json' : ''}\n`)
      }
      return 3 // like `systemctl status`: not running
    }
  }
}

async function readTasksFile(path: string): Promise<{ state?: unknown }[] | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown
    const tasks = Array.isArray(parsed) ? parsed : (parsed as { tasks?: unknown }).tasks
    return Array.isArray(tasks) ? (tasks as { state?: unknown }[]) : undefined
  } catch {
    return undefined
  }
}
