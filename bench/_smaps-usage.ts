// Rss and Anonymous KiB per mapping name of one copy of a /proc/<pid>/smaps (bench/_smaps.ts,
// bench/_jit-pages.ts).
import { readFileSync } from 'node:fs'

export interface Usage { rss: number; anonymous: number; privateClean: number; sharedClean: number }

/** KiB per mapping name: the file path, `[heap]`, `[stack]`, or `anon` for nameless mappings. */
export function byMapping(path: string): Map<string, Usage> {
  const usage = new Map<string, Usage>()
  let current: Usage | undefined
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line)
    if (header) {
      const name = header[1]!.trim() || 'anon'
      current = usage.get(name)
      if (!current) usage.set(name, (current = { rss: 0, anonymous: 0, privateClean: 0, sharedClean: 0 }))
      continue
    }
    const field = /^(Rss|Anonymous|Private_Clean|Shared_Clean):\s+(\d+) kB/.exec(line)
    if (!field || !current) continue
    const kib = Number(field[2])
    if (field[1] === 'Rss') current.rss += kib
    else if (field[1] === 'Anonymous') current.anonymous += kib
    else if (field[1] === 'Private_Clean') current.privateClean += kib
    else current.sharedClean += kib
  }
  return usage
}
