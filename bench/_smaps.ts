// Which mappings of a process grew between two copies of its /proc/<pid>/smaps (the seeding
// bench writes them with BENCH_SEEDING_SMAPS): Rss and Anonymous per mapping name, the largest
// growth first. Usage: node --import tsx bench/_smaps.ts <before.smaps> <after.smaps> [rows]
import { readFileSync } from 'node:fs'

interface Usage { rss: number; anonymous: number; privateClean: number; sharedClean: number }

/** KiB per mapping name: the file path, `[heap]`, `[stack]`, or `anon` for nameless mappings. */
function byMapping(path: string): Map<string, Usage> {
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

const [beforePath, afterPath, rowsArg] = process.argv.slice(2)
if (!beforePath || !afterPath) {
  console.error('usage: node --import tsx bench/_smaps.ts <before.smaps> <after.smaps> [rows]')
  process.exit(2)
}
const before = byMapping(beforePath)
const after = byMapping(afterPath)
const zero: Usage = { rss: 0, anonymous: 0, privateClean: 0, sharedClean: 0 }
const rows = [...new Set([...before.keys(), ...after.keys()])].map((name) => {
  const a = before.get(name) ?? zero
  const b = after.get(name) ?? zero
  return { name, rssKiB: b.rss - a.rss, anonymousKiB: b.anonymous - a.anonymous, cleanKiB: b.privateClean + b.sharedClean - a.privateClean - a.sharedClean, rssAfterKiB: b.rss }
}).sort((x, y) => Math.abs(y.rssKiB) - Math.abs(x.rssKiB))
const total = rows.reduce((sum, row) => sum + row.rssKiB, 0)
console.log(`Rss grew ${total} KiB`)
for (const row of rows.slice(0, Number(rowsArg ?? 15))) console.log(`${String(row.rssKiB).padStart(8)} KiB rss (anon ${row.anonymousKiB}, clean ${row.cleanKiB}; ${row.rssAfterKiB} after)  ${row.name}`)
