import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { adminClient, daemonNotRunning } from '../admin-client.js'
import { loadConfigForCli } from '../load.js'
import type { LibraryStatus } from '../../system/library-part.js'

// `media-agent library status [--json]` and `media-agent library scan [--full]` (protocol.md 7.6):
// thin clients of the daemon's /api/library routes (design.md house rule 7).

// The reply shape only: a type import, erased at build time (the CLI never loads the daemon's code).
type LibraryStatusReply = LibraryStatus

interface ScanReply {
  ticket: number
  outcome: 'pending' | 'acknowledged' | 'failed' | 'nothing'
  message?: string
  status?: LibraryStatusReply
}


export class LibraryStatusCommand extends AgentCommand {
  static override paths = [['library', 'status']]
  static override usage = Command.Usage({
    description: 'Show the library sync: state, roots, media items and the last scan.',
    details: 'Asks the running daemon through its admin listener; exit code 3 when no daemon runs.',
    examples: [['Human-readable', '$0 library status'], ['For scripts', '$0 library status --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object (protocol.md 7.6)' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    let status: LibraryStatusReply
    try {
      status = await adminClient(loaded.config).get<LibraryStatusReply>('/api/library')
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(status)}\n`)
      return 0
    }
    for (const line of describeStatus(status)) this.context.stdout.write(`${line}\n`)
    return 0
  }
}

export class LibraryScanCommand extends AgentCommand {
  static override paths = [['library', 'scan']]
  static override usage = Command.Usage({
    description: 'Scan the library now and wait until the server has the result.',
    details: 'Exit 0 once the upload is acknowledged (or there was nothing to upload), 1 when the scan or its upload failed (the daemon keeps retrying with backoff), 3 when no daemon runs.',
    examples: [['Changes since the last upload', '$0 library scan'], ['Send the whole library', '$0 library scan --full']],
  })

  full = Option.Boolean('--full', false, { description: 'Upload the whole library, not only what changed' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const client = adminClient(loaded.config)
    const out = (line: string) => this.context.stdout.write(`${line}\n`)
    try {
      const started = await client.post<ScanReply>('/api/library/scan', { full: this.full })
      if (started.outcome === 'nothing') {
        out(`nothing to scan: ${started.message ?? 'no library paths'}`)
        return 0
      }
      // Each wait is held open by the daemon for a few seconds, under the admin client's timeout.
      for (;;) {
        const reply = await client.get<ScanReply>(`/api/library/scan?ticket=${started.ticket}`)
        if (reply.outcome === 'pending') continue
        const status = reply.status
        if (reply.outcome === 'failed') {
          this.context.stderr.write(`media-agent: library scan failed: ${status?.error ?? 'unknown error'} (the daemon retries with backoff)\n`)
          return 1
        }
        const last = status?.lastScan
        if (last && last.uploadedItems + last.removed > 0) out(`library uploaded (${last.mode}): ${last.uploadedItems} items, ${last.removed} removed; ${last.files} files seen, ${last.probed} probed, scan ${last.ms} ms`)
        else out(`library scanned: nothing to upload${last ? ` (${last.files} files seen, ${last.probed} probed, scan ${last.ms} ms)` : ''}`)
        return 0
      }
    } catch (error) {
      return daemonNotRunning(error, this.context.stderr)
    }
  }
}

export function describeStatus(status: LibraryStatusReply): string[] {
  const lines = [`library: ${status.state}, ${status.items} media items in ${status.roots.length} folder${status.roots.length === 1 ? '' : 's'}`]
  for (const root of status.roots) lines.push(`  ${root}`)
  if (status.progress) lines.push(`scanning: ${status.progress.files} files seen, ${status.progress.probed} of ${status.progress.toProbe} probed`)
  const last = status.lastScan
  if (last) lines.push(`last scan ${last.scanId}: ${last.files} files seen, ${last.probed} probed, ${last.skipped} skipped, ${last.uploadedItems} uploaded (${last.mode}), ${last.ms} ms`)
  if (status.error) lines.push(`last error: ${status.error}`)
  return lines
}
