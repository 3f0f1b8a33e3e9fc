// The agent's torrent engine in a process of its own, for `bench/torrent.ts`: its CPU time is then
// read from /proc/<pid>/stat exactly like qBittorrent's and aria2c's. Not a bench by itself (the
// leading underscore keeps it out of `npm run bench`).
//
// argv[2]: JSON { torrentPath, downloadDir }. Protocol on stdio, one word a line:
//   child -> "ready" (modules loaded; nothing started)   parent -> "go"
//   child -> "done" (every piece verified and written)   parent -> "quit" (close and exit)
// An engine error is printed as "error <message>" and the child exits 1.
import { readFile } from 'node:fs/promises'
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { getHeapSpaceStatistics } from 'node:v8'
import { createInterface } from 'node:readline'
import { readFileSync, readdirSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import parseTorrent from 'parse-torrent'
import { silentLogger } from '../src/log.js'
import { WebTorrentEngine } from '../src/services/torrent/engine.js'

const { torrentPath, downloadDir } = JSON.parse(process.argv[2] ?? '{}') as { torrentPath: string; downloadDir: string }
const torrentFile = await readFile(torrentPath)
const { infoHash } = await parseTorrent(torrentFile)
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const next = async (word: string) => {
  const line = await lines.next()
  if (line.done || line.value.trim() !== word) throw new Error(`expected "${word}" from the bench, got ${line.done ? 'end of input' : JSON.stringify(line.value)}`)
}
process.stdout.write('ready\n')
await next('go')
// BENCH_TORRENT_GC_COUNT=1: counts V8's collections during the download (young generation
// scavenges vs full mark-compacts) and prints them to stderr, to see what a heap flag changes.
const gc = { scavenges: 0, markCompacts: 0, pauseMs: 0 }
const gcObserver = process.env.BENCH_TORRENT_GC_COUNT === '1' ? new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.scavenges++
    else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.markCompacts++
    gc.pauseMs += entry.duration
  }
}) : undefined
gcObserver?.observe({ entryTypes: ['gc'] })
// BENCH_TORRENT_THREADS=1: CPU seconds per thread name during the download (main thread, libuv's
// file-I/O pool, V8's GC helpers), to see which part of the process grows with the size.
const threadsBefore = process.env.BENCH_TORRENT_THREADS === '1' ? threadCpu() : undefined
// BENCH_TORRENT_ALLOC=1: V8's sampling heap profiler over the download, counting objects the
// collector has already freed too (what the young generation churns through, not what stays),
// summed by allocating function and printed to stderr: where the scavenges come from.
// BENCH_TORRENT_ALLOC=promoted: only what outlived the young generation (promoted to the old
// generation, where it costs the full collections), whether or not a full collection freed it later.
const allocationMode = process.env.BENCH_TORRENT_ALLOC
const allocations = allocationMode === '1' || allocationMode === 'promoted' ? await startAllocationSampling(allocationMode === 'promoted') : undefined
// The options of the bench before it moved to a child process (and of the daemon on loopback):
// nothing that reaches past 127.0.0.1.
const engine = new WebTorrentEngine({
  downloadDir, logger: silentLogger(), piecePool: process.env.BENCH_TORRENT_PIECE_POOL !== '0',
  writeSliceBytes: process.env.BENCH_TORRENT_WRITE_SLICE_KIB ? Number(process.env.BENCH_TORRENT_WRITE_SLICE_KIB) * 1024 : undefined, dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
})
try {
  await new Promise<void>((resolve, reject) => {
    engine.start({ infoHash, torrentFile }, (event) => {
      if (event.type === 'done') resolve()
      if (event.type === 'error') reject(event.error)
    })
  })
  if (gcObserver) {
    gcObserver.disconnect()
    const newSpaceKiB = Math.round((getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 1024)
    process.stderr.write(`[bench torrent agent] gc ${JSON.stringify({ execArgv: process.execArgv.filter((arg) => arg.startsWith('--max-semi')).join(' '), ...gc, pauseMs: Math.round(gc.pauseMs), newSpaceKiB })}\n`)
  }
  if (allocations) process.stderr.write(`[bench torrent agent] allocated ${JSON.stringify(await allocations())}\n`)
  if (threadsBefore) {
    const after = threadCpu()
    const byName: Record<string, number> = {}
    const systemByName: Record<string, number> = {}
    for (const [tid, { name, seconds, systemSeconds }] of after) {
      byName[name] = Number(((byName[name] ?? 0) + seconds - (threadsBefore.get(tid)?.seconds ?? 0)).toFixed(2))
      systemByName[name] = Number(((systemByName[name] ?? 0) + systemSeconds - (threadsBefore.get(tid)?.systemSeconds ?? 0)).toFixed(2))
    }
    process.stderr.write(`[bench torrent agent] thread CPU s ${JSON.stringify(byName)}, of it in the kernel ${JSON.stringify(systemByName)}\n`)
  }
  process.stdout.write('done\n')
  await next('quit')
} catch (err) {
  process.stdout.write(`error ${(err as Error).message.replace(/\n/g, ' ')}\n`)
  process.exitCode = 1
} finally {
  await engine.close()
  lines.return?.()
  process.stdin.destroy()
}

/** utime + stime of every thread of this process, by thread id, with the thread's name. */
/** Each thread's CPU seconds (user + system) and, of them, in the kernel (syscalls: socket reads, file writes). */
function threadCpu(): Map<string, { name: string; seconds: number; systemSeconds: number }> {
  const out = new Map<string, { name: string; seconds: number; systemSeconds: number }>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const text = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')).replace(/[0-9]+$/, '')
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
      out.set(tid, { name: tid === String(process.pid) ? 'main' : name, seconds: (Number(fields[11]) + Number(fields[12])) / 100, systemSeconds: Number(fields[12]) / 100 })
    } catch {
      // The thread ended.
    }
  }
  return out
}

interface SamplingNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SamplingNode[] }

/** Starts sampling every allocation; the returned function stops and gives the top sites in MiB. */
async function startAllocationSampling(promotedOnly: boolean): Promise<() => Promise<Record<string, number>>> {
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !promotedOnly })
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling') as { profile: { head: SamplingNode } }
    session.disconnect()
    const bySite = new Map<string, number>()
    const walk = (node: SamplingNode) => {
      const { functionName, url, lineNumber } = node.callFrame
      const site = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/')}:${lineNumber + 1}`
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
      for (const child of node.children) walk(child)
    }
    walk(profile.head)
    const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)
    const total = [...bySite.values()].reduce((a, b) => a + b, 0)
    const rows: [string, number][] = [['(total)', total], ...top]
    return Object.fromEntries(rows.map(([site, bytes]) => [site, Number((bytes / 1048576).toFixed(1))]))
  }
}
