// How much of the `node` executable a process pages in when its code gets hot: V8's compilers
// live in that executable, so the first busy phase of any Node process (the seeding bench's
// "engine loaded -> 100 dormant") touches pages of it that an idle process never ran. Starts a
// plain `node` (no tsx, whose own compiling would page most of them in first) three times: with
// every compiler, stopped at Maglev (--max-opt=2) and at the baseline compiler (--max-opt=0), runs
// a small hot workload in each and prints one JSON line with the executable's Rss paged in, KiB.
// Usage: node --import tsx bench/_jit-pages.ts
import { execFileSync } from 'node:child_process'

// Plain JavaScript for the child: the executable's Rss from /proc/self/smaps, before and after.
const workload = `
const { readFileSync } = require('node:fs')
function executableRssKiB() {
  let inExecutable = false, kib = 0
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \\S+ \\S+ \\S+ \\d+\\s*(.*)$/.exec(line)
    if (header) inExecutable = header[1].trim() === process.execPath
    else if (inExecutable && line.startsWith('Rss:')) kib += Number(line.split(/\\s+/)[1])
  }
  return kib
}
const before = executableRssKiB()
const combine = (values, factor) => values.map((v) => v * factor + 1).filter((v) => v % 3).reduce((s, v) => s + v, 0)
let total = 0
for (let i = 0; i < 200000; i++) total += combine([i, i + 1, i + 2, i + 3], i)
const byKey = new Map()
for (let i = 0; i < 100000; i++) byKey.set('key' + i, i)
for (let i = 0; i < 100000; i++) total += byKey.get('key' + (i % 1000))
console.log(JSON.stringify({ before, pagedIn: executableRssKiB() - before, total }))
`

const tiers = { all: [], maglevAtMost: ['--max-opt=2'], baselineAtMost: ['--max-opt=0'] } as const
const pagedInKiB: Record<string, number> = {}
let idleExecutableKiB = 0
for (const [tier, flags] of Object.entries(tiers)) {
  const output = JSON.parse(execFileSync(process.execPath, [...flags, '-e', workload], { encoding: 'utf8' })) as { before: number; pagedIn: number }
  pagedInKiB[tier] = output.pagedIn
  if (tier === 'all') idleExecutableKiB = output.before
}
console.log(JSON.stringify({ bench: 'jit-pages', node: process.version, idleExecutableKiB, pagedInKiB, turbofanKiB: pagedInKiB.all! - pagedInKiB.maglevAtMost! }))
