// Summarises V8 CPU profiles (`node --cpu-prof`): self time by package and the top functions, so
// that a profile of the torrent engine can be compared before and after a change.
//
//   node scripts/with-node.mjs node --import tsx bench/_cpuprofile.ts <file.cpuprofile>... [--json out.json]
//
// Self time of a function is the time of the samples whose top frame it is. The package is the
// `node_modules/<name>` (or `@scope/name`) of the script; `node:` internals are "node", the
// agent's own files "media-agent", and V8's pseudo-frames keep their names: "(garbage collector)"
// (main-thread GC pauses only: V8's background GC threads are not sampled), "(program)" (native
// code without a JS frame: libuv, syscalls, the parser), "(idle)" (waiting for events).
import { readFile, writeFile } from 'node:fs/promises'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

export interface CpuProfileSummary {
  files: string[]
  /** Sampled milliseconds, idle excluded. */
  busyMs: number
  idleMs: number
  byPackage: { package: string; ms: number; percent: number }[]
  /** With the callers (the frame one up) that most of each function's self time came through. */
  topFunctions: { function: string; package: string; ms: number; percent: number; via: string[] }[]
  text: string
}

export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : 'node (native)'
  if (url.startsWith('node:')) return 'node'
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url)
  if (match) return match[1]!
  if (/\/(src|bench|test)\//.test(url)) return 'media-agent'
  return url
}

function shortUrl(url: string): string {
  const inModules = url.lastIndexOf('node_modules/')
  if (inModules >= 0) return url.slice(inModules + 'node_modules/'.length)
  const inSrc = url.search(/\/(src|bench|test)\//)
  return inSrc >= 0 ? url.slice(inSrc + 1) : url.replace(/^file:\/\//, '')
}

export async function summariseCpuProfiles(files: string[], jsonOut?: string, top = 25): Promise<CpuProfileSummary> {
  const byPackage = new Map<string, number>()
  const byFunction = new Map<string, { package: string; us: number; callers: Map<string, number> }>()
  let idleUs = 0
  let busyUs = 0
  for (const file of files) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const parents = new Map<number, number>()
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
    const keyOf = (frame: ProfileNode['callFrame']) => (frame.url === '' ? (frame.functionName || '(anonymous)') : `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`)
    const selfUs = new Map<number, number>()
    profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
    for (const [id, us] of selfUs) {
      const { functionName, url, lineNumber } = nodes.get(id)!.callFrame
      if (functionName === '(idle)') {
        idleUs += us
        continue
      }
      busyUs += us
      const pkg = packageOf(url, functionName)
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us)
      const key = keyOf({ functionName, url, lineNumber })
      const entry = byFunction.get(key) ?? { package: pkg, us: 0, callers: new Map<string, number>() }
      entry.us += us
      const parent = parents.get(id)
      const caller = parent === undefined ? '(root)' : keyOf(nodes.get(parent)!.callFrame)
      entry.callers.set(caller, (entry.callers.get(caller) ?? 0) + us)
      byFunction.set(key, entry)
    }
  }
  const percent = (us: number) => Number(((100 * us) / Math.max(1, busyUs)).toFixed(1))
  const ms = (us: number) => Number((us / 1000).toFixed(1))
  const summary: Omit<CpuProfileSummary, 'text'> = {
    files,
    busyMs: ms(busyUs),
    idleMs: ms(idleUs),
    byPackage: [...byPackage].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ package: name, ms: ms(us), percent: percent(us) })),
    topFunctions: [...byFunction].sort((a, b) => b[1].us - a[1].us).slice(0, top).map(([name, entry]) => ({
      function: name,
      package: entry.package,
      ms: ms(entry.us),
      percent: percent(entry.us),
      via: [...entry.callers].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([caller, us]) => `${caller} (${percent(us)} %)`),
    })),
  }
  const text = [
    `CPU profile: ${summary.busyMs} ms busy, ${summary.idleMs} ms idle (${files.length} file(s))`,
    'self time by package:',
    ...summary.byPackage.slice(0, 15).map((p) => `  ${String(p.percent).padStart(5)} %  ${String(p.ms).padStart(8)} ms  ${p.package}`),
    'top functions by self time:',
    ...summary.topFunctions.map((f) => `  ${String(f.percent).padStart(5)} %  ${String(f.ms).padStart(8)} ms  ${f.function}${f.percent >= 2 ? `\n             via ${f.via.join('; ')}` : ''}`),
  ].join('\n')
  if (jsonOut) await writeFile(jsonOut, `${JSON.stringify(summary, null, 2)}\n`)
  return { ...summary, text }
}

if (import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2)
  const jsonAt = args.indexOf('--json')
  const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined
  const files = args.filter((_, i) => jsonAt < 0 || (i !== jsonAt && i !== jsonAt + 1))
  if (files.length === 0) {
    process.stderr.write('usage: node --import tsx bench/_cpuprofile.ts <file.cpuprofile>... [--json out.json]\n')
    process.exit(2)
  }
  process.stdout.write(`${(await summariseCpuProfiles(files, jsonOut)).text}\n`)
}
