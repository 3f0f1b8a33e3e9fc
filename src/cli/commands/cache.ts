import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import type { CacheClearReply, CacheStatus } from '../../services/cache/cache-status.js'

// `media-agent cache status [--json]` and `media-agent cache clear` (protocol.md 7.1): thin
// clients of the daemon's `GET /api/cache` and `POST /api/cache/clear` (src/system/cache-part.ts).

type CacheStatusReply = CacheStatus & Partial<Pick<CacheClearReply, 'removed'>>

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

function describe(status: CacheStatusReply): string[] {
  if (!status.enabled) return [`hls cache: off ([downloads.hls_cache] enabled = false), dir ${status.dir}`]
  return [
    `hls cache: ${status.dir}`,
    `size: ${megabytes(status.sizeBytes)} of ${megabytes(status.budgetBytes)} in ${status.entries} entries (${status.pinned} playing)`,
    `lookups since start: ${status.hits} hits, ${status.misses} misses`,
  ]
}

abstract class CacheCommand extends AgentCommand {
  /** Exit 3 with no daemon (like `status`); other failures propagate. */
  protected async ask(call: (client: ReturnType<typeof adminClient>) => Promise<CacheStatusReply>, print: (reply: CacheStatusReply) => void): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    try {
      print(await call(adminClient(loaded.config)))
      return 0
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
  }
}

export class CacheStatusCommand extends CacheCommand {
  static override paths = [['cache', 'status']]
  static override usage = Command.Usage({
    description: 'Show the HLS segment cache: size against its budget, entries, those playing, hits and misses.',
    details: 'Asks the running daemon (exit code 3 when none runs). `--json` prints protocol.md 7.1\'s object: enabled, dir, budgetBytes, sizeBytes, entries, pinned, hits, misses.',
    examples: [['Human-readable', '$0 cache status'], ['For scripts', '$0 cache status --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object' })

  execute(): Promise<number> {
    return this.ask((client) => client.get<CacheStatusReply>('/api/cache'), (status) => {
      const out = (line: string) => this.context.stdout.write(`${line}\n`)
      if (this.json) out(JSON.stringify(status))
      else for (const line of describe(status)) out(line)
    })
  }
}

export class CacheClearCommand extends CacheCommand {
  static override paths = [['cache', 'clear']]
  static override usage = Command.Usage({
    description: 'Remove every HLS cache entry that is not playing or being written.',
    details: 'Entries a session plays (pinned) or writes stay. Asks the running daemon (exit code 3 when none runs).',
    examples: [['Clear the cache', '$0 cache clear']],
  })

  execute(): Promise<number> {
    return this.ask((client) => client.post<CacheStatusReply>('/api/cache/clear'), (status) => {
      this.context.stdout.write(`removed ${status.removed ?? 0} entries; ${status.entries} left (${status.pinned} playing or written)\n`)
    })
  }
}
