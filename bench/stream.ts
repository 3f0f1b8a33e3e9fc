// `npm run bench -- stream`: the stream server against nginx (sendfile) on the same file, in one
// run: a full read and 200 random 1 MiB ranges through each, interleaved so both see the same
// page cache, repeated BENCH_STREAM_ROUNDS times (default 3). Prints ONE JSON line: the median
// round of every figure and ratio, and each round's ratios. Goals (docs/stream-server.md):
// throughput >= 0.9 x nginx, first-byte p99 <= 1.2 x nginx. File size: BENCH_STREAM_MB (2048).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { open, mkdtemp, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { silentLogger } from '../src/log.js'
import { mintStreamToken } from '../src/services/auth/stream-token.js'
import { createLocalFileSource } from '../src/services/media/local-file-source.js'
import { createStreamServer } from '../src/server/stream-server.js'
import { startNginx } from '../test/helpers/nginx.js'

const MiB = 1024 * 1024
const sizeMb = Number(process.env.BENCH_STREAM_MB ?? 2048)
const rangeCount = Number(process.env.BENCH_STREAM_RANGES ?? 200)
const rounds = Number(process.env.BENCH_STREAM_ROUNDS ?? 3)
const size = sizeMb * MiB

interface Sample {
  firstByteMs: number
  totalMs: number
  bytes: number
}

function fetchTimed(agent: Agent, url: string, range?: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstByteMs = -1
    let bytes = 0
    const req = request(url, { agent, headers: range === undefined ? {} : { range } }, (res) => {
      if (res.statusCode !== 200 && res.statusCode !== 206) {
        reject(new Error(`${url} answered ${res.statusCode}`))
        return
      }
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started
        bytes += chunk.length
      })
      res.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - started, bytes }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const round2 = (value: number, digits = 2) => Number(value.toFixed(digits))
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-stream-'))
  const file = join(dir, 'movie.mp4')
  const handle = await open(file, 'w')
  const block = randomBytes(MiB)
  for (let written = 0; written < size; written += MiB) await handle.write(block, 0, Math.min(MiB, size - written))
  await handle.close()

  const nginx = await startNginx({ root: dir })
  const secret = 'bench-secret'
  // The stream server runs in its own process, as nginx does: sharing the client's event loop
  // would charge it for the client's work.
  // BENCH_STREAM_CHILD_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`;
  // BENCH_STREAM_DIAG=1: the server's CPU time and context switches on stderr.
  const childArgs = (process.env.BENCH_STREAM_CHILD_ARGS ?? '').split(' ').filter((arg) => arg !== '')
  const child = spawn(process.execPath, [...childArgs, '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_STREAM_CHILD_FILE: file, BENCH_STREAM_CHILD_SECRET: secret },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const childExit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stream server child exited with ${code}`)))
    child.stdout!.setEncoding('utf8').once('data', (line: string) => resolve((JSON.parse(line) as { url: string }).url))
  })
  const token = mintStreamToken({ secret, scope: 'stream:bench', expiresAtSeconds: Math.floor(Date.now() / 1000) + 3600 })
  const targets = {
    agent: `${serverUrl}/stream/bench/movie.mp4?token=${token}`,
    nginx: `${nginx.url}/movie.mp4`,
  }
  const agents = { agent: new Agent({ keepAlive: true, maxSockets: 1 }), nginx: new Agent({ keepAlive: true, maxSockets: 1 }) }

  try {
    // Warm the page cache and both connections.
    await fetchTimed(agents.nginx, targets.nginx)
    await fetchTimed(agents.agent, targets.agent)

    type Who = 'agent' | 'nginx'
    type Figures = { fullMBps: number; fullFirstByteMs: number; rangesMBps: number; firstByteP50Ms: number; firstByteP99Ms: number }
    /** One round is the whole procedure: a full read and `rangeCount` random 1 MiB ranges through each. */
    const measureRound = async (round: number): Promise<Record<Who, Figures>> => {
      // Alternate who reads in full first from round to round, as the ranges alternate below.
      const fullOrder: Who[] = round % 2 === 0 ? ['agent', 'nginx'] : ['nginx', 'agent']
      const full = {} as Record<Who, Sample>
      for (const who of fullOrder) full[who] = await fetchTimed(agents[who], targets[who])
      const ranges = Array.from({ length: rangeCount }, () => {
        const start = Math.floor(Math.random() * (size - MiB))
        return `bytes=${start}-${start + MiB - 1}`
      })
      const samples: Record<Who, Sample[]> = { agent: [], nginx: [] }
      for (const [index, range] of ranges.entries()) {
        // Alternate who goes first so neither always meets a colder cache.
        const order: Who[] = index % 2 === 0 ? ['agent', 'nginx'] : ['nginx', 'agent']
        for (const who of order) samples[who].push(await fetchTimed(agents[who], targets[who], range))
      }
      const figures = (who: Who): Figures => {
        const list = samples[who]
        const rangeBytes = list.reduce((sum, s) => sum + s.bytes, 0)
        const rangeMs = list.reduce((sum, s) => sum + s.totalMs, 0)
        return {
          fullMBps: round2(full[who].bytes / MiB / (full[who].totalMs / 1000), 1),
          fullFirstByteMs: round2(full[who].firstByteMs, 3),
          rangesMBps: round2(rangeBytes / MiB / (rangeMs / 1000), 1),
          firstByteP50Ms: round2(percentile(list.map((s) => s.firstByteMs), 50), 3),
          firstByteP99Ms: round2(percentile(list.map((s) => s.firstByteMs), 99), 3),
        }
      }
      return { agent: figures('agent'), nginx: figures('nginx') }
    }
    const ratiosOf = (figures: Record<Who, Figures>) => ({
      fullThroughput: round2(figures.agent.fullMBps / figures.nginx.fullMBps, 3),
      rangesThroughput: round2(figures.agent.rangesMBps / figures.nginx.rangesMBps, 3),
      firstByteP50: round2(figures.agent.firstByteP50Ms / figures.nginx.firstByteP50Ms, 3),
      firstByteP99: round2(figures.agent.firstByteP99Ms / figures.nginx.firstByteP99Ms, 3),
    })

    const results: Record<Who, Figures>[] = []
    for (let index = 0; index < rounds; index++) results.push(await measureRound(index))
    const perRound = results.map(ratiosOf)
    // The median round of each figure: one full read and the 99th percentile of 200 samples (its
    // second-highest) swing with whatever else the host does; every round is printed too.
    const medianOf = (pick: (figures: Figures) => number, who: Who) => round2(median(results.map((figures) => pick(figures[who]))), 3)
    const medians = (who: Who): Figures => ({
      fullMBps: medianOf((f) => f.fullMBps, who),
      fullFirstByteMs: medianOf((f) => f.fullFirstByteMs, who),
      rangesMBps: medianOf((f) => f.rangesMBps, who),
      firstByteP50Ms: medianOf((f) => f.firstByteP50Ms, who),
      firstByteP99Ms: medianOf((f) => f.firstByteP99Ms, who),
    })
    const ratioKeys = ['fullThroughput', 'rangesThroughput', 'firstByteP50', 'firstByteP99'] as const
    process.stdout.write(`${JSON.stringify({
      bench: 'stream',
      node: process.version,
      loadAverage1m: round2(loadavg()[0]!, 2),
      fileMB: sizeMb,
      ranges: rangeCount,
      rounds,
      agent: medians('agent'),
      nginx: medians('nginx'),
      ratios: Object.fromEntries(ratioKeys.map((key) => [key, round2(median(perRound.map((ratios) => ratios[key])), 3)])),
      ratiosPerRound: Object.fromEntries(ratioKeys.map((key) => [key, perRound.map((ratios) => ratios[key])])),
      goals: { throughputAtLeast: 0.9, firstByteP99AtMost: 1.2 },
    })}\n`)
  } finally {
    agents.agent.destroy()
    agents.nginx.destroy()
    child.stdin!.end()
    await childExit
    await nginx.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The child: serves the bench file until its stdin closes. */
async function serve(file: string, secret: string): Promise<void> {
  // One entry for the session's life, as the root's registry keeps it: a source made per request
  // would open and fstat the file every time (two thread-pool hops) and defeat its descriptor cache.
  const entry = { session: { sessionId: 'bench', PlayMethod: 'direct', quality: 'original', filePath: file }, source: createLocalFileSource(file) } as const
  const server = await createStreamServer({
    host: '127.0.0.1', port: 0, logger: silentLogger(), secret: () => secret,
    sessions: { get: (id) => (id === 'bench' ? entry : undefined) },
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  process.stdin.resume()
  process.stdin.once('end', () => {
    // BENCH_STREAM_DIAG=1: the server's CPU time and context switches for the run, on stderr (the
    // JSON line is unchanged). Thread-pool reads show up as voluntary switches, a busy host as
    // involuntary ones.
    if (process.env.BENCH_STREAM_DIAG === '1') {
      const usage = process.resourceUsage()
      process.stderr.write(`${JSON.stringify({ streamServer: { userMs: Math.round(usage.userCPUTime / 1000), systemMs: Math.round(usage.systemCPUTime / 1000), voluntarySwitches: usage.voluntaryContextSwitches, involuntarySwitches: usage.involuntaryContextSwitches, blockInput: usage.fsRead } })}\n`)
    }
    void server.close().then(() => process.exit(0))
  })
}

const childFile = process.env.BENCH_STREAM_CHILD_FILE
if (childFile === undefined) await main()
else await serve(childFile, process.env.BENCH_STREAM_CHILD_SECRET ?? '')
