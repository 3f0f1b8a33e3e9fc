import { Command, Option } from 'clipanion'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AgentCommand } from '../options.js'
import { adminClient, exitDaemonNotRunning, isDaemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import { tasksFileName } from '../../config/defaults.js'
import { formatTaskLines } from '../../services/torrent/format.js'
import { parseTasksFile } from '../../services/torrent/tasks-store.js'
import type { TaskReport, TaskState } from '../../protocol/wire.js'

interface StatusReply {
  version: string
  agentId: string
  uptimeSeconds: number
  activeTaskCount: number
  tasks?: TaskReport[]
  /** Library sync progress (issue 16). */
  library?: { state: string; items: number; files: number; probed: number; uploadedItems: number }
}

// The states in which a task still does something (downloads, verifies or seeds).
const activeStates = new Set<TaskState>(['queued', 'fetching_metadata', 'downloading', 'seeding'])

export class StatusCommand extends AgentCommand {
  static override paths = [['status']]
  static override usage = Command.Usage({
    description: 'Show the active task count, then each download task and the state of the daemon.',
    details: 'Asks the running daemon through its admin listener. With no daemon running it says so (exit code 3) and reads tasks.json from the state dir when there is one.',
    examples: [['Human-readable', '$0 status'], ['For scripts', '$0 status --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const { config } = loaded
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    try {
      const status = await adminClient(config).get<StatusReply>('/api/status')
      if (this.json) {
        out(JSON.stringify({ running: true, ...status }))
        return 0
      }
      out(`active tasks: ${status.activeTaskCount}`)
      for (const line of formatTaskLines(status.tasks ?? [])) out(line)
      if (status.library) out(`library: ${status.library.state}, ${status.library.items} media items (${status.library.files} files seen, ${status.library.probed} probed, ${status.library.uploadedItems} uploaded)`)
      out(`daemon: running (version ${status.version}, up ${status.uptimeSeconds} s, agent ${status.agentId})`)
      return 0
    } catch (error) {
      if (!isDaemonNotRunning(error)) throw error
      const tasks = await readTasksFile(join(config.daemon.stateDir, tasksFileName))
      const active = tasks?.filter((task) => activeStates.has(task.state)).length ?? 0
      if (this.json) {
        out(JSON.stringify({ running: false, activeTaskCount: active, tasks: tasks ?? [] }))
        return exitDaemonNotRunning
      }
      out(`active tasks: ${active}`)
      if (tasks) for (const line of formatTaskLines(tasks)) out(line)
      // The client's message already says "the daemon is not running (why)": print only the why.
      const why = /^the daemon is not running \((.*)\)$/s.exec(error.message)?.[1] ?? error.message
      out(`daemon: not running (${why})${tasks ? '; tasks read from tasks.json' : ''}`)
      return exitDaemonNotRunning
    }
  }
}

/** Tasks as tasks.json last recorded them; nothing moves while the daemon is down. */
async function readTasksFile(path: string): Promise<TaskReport[] | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    return parseTasksFile(text).map((record) => ({
      id: record.id,
      infoHash: record.infoHash,
      name: record.name,
      state: record.state,
      progress: record.progress,
      size: record.size,
      downloaded: record.downloaded,
      uploaded: record.uploaded,
      downloadSpeed: 0,
      uploadSpeed: 0,
      peers: 0,
      etaSeconds: null,
      files: record.files,
      ...(record.error ? { error: record.error } : {}),
    }))
  } catch {
    return undefined
  }
}
