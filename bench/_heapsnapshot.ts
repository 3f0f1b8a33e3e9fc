// What grew between two V8 heap snapshots of one process, per unit: self size and count by node
// type and constructor (or closure) name, the largest first. For the seeding bench's snapshots
// (BENCH_SEEDING_HEAP_SNAPSHOTS): `node --import tsx bench/_heapsnapshot.ts <before> <after> <N>`
// prints what each of the N torrents added between them holds, e.g. `object:Actor 2 x 0.45 KiB`.
// A reading aid for docs/torrents.md "Memory", not a bench: no JSON line, no goal.
import { readFileSync } from 'node:fs'

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } }
  nodes: number[]
  strings: string[]
}

/** `type:name` -> [count, self bytes]. */
function groups(path: string): Map<string, [number, number]> {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Snapshot
  const fields = data.snapshot.meta.node_fields
  const types = data.snapshot.meta.node_types[0]
  const width = fields.length
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') }
  const out = new Map<string, [number, number]>()
  for (let i = 0; i < data.nodes.length; i += width) {
    const type = types[data.nodes[i + at.type]!]!
    // Strings are grouped by kind, not by their text; the rest by constructor or function name.
    const name = type.includes('string') || type === 'number' ? '' : (data.strings[data.nodes[i + at.name]!] ?? '').slice(0, 60)
    const key = `${type}:${name}`
    const entry = out.get(key) ?? [0, 0]
    entry[0]++
    entry[1] += data.nodes[i + at.size]!
    out.set(key, entry)
  }
  return out
}

const [beforePath, afterPath, unitsArg] = process.argv.slice(2)
if (!beforePath || !afterPath) {
  process.stderr.write('usage: node --import tsx bench/_heapsnapshot.ts <before.heapsnapshot> <after.heapsnapshot> [units]\n')
  process.exit(2)
}
const units = Number(unitsArg ?? 1)
const before = groups(beforePath)
const after = groups(afterPath)
const rows = [...after.entries()].map(([key, [count, bytes]]) => {
  const [count0, bytes0] = before.get(key) ?? [0, 0]
  return { key, count: (count - count0) / units, bytes: (bytes - bytes0) / units }
})
const total = rows.reduce((sum, row) => sum + row.bytes, 0)
process.stdout.write(`per unit (${units}): ${(total / 1024).toFixed(2)} KiB of self size in all\n`)
for (const row of rows.sort((a, b) => b.bytes - a.bytes).slice(0, Number(process.env.TOP ?? 45))) {
  process.stdout.write(`${(row.bytes / 1024).toFixed(3).padStart(8)} KiB  ${row.count.toFixed(2).padStart(7)} x  ${row.key}\n`)
}
