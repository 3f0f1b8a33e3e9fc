// `npm run bench -- torrent`: the agent's torrent engine against qBittorrent-nox (libtorrent 2, the
// anchor) and aria2c, each downloading the same torrent from the same aria2c seeder over loopback
// (real opentracker), each in a process of its own. Prints ONE JSON line: per client MiB/s end to
// end, MiB/s after the first MiB, CPU seconds per GiB, and the ratios agent / qBittorrent.
//
// Env: BENCH_TORRENT_MB (512; 1024 for the 1 GiB goal), BENCH_TORRENT_ROUNDS (3; the clients take
// turns, the order rotating each round, and each keeps its best time and its lowest CPU per GiB),
// BENCH_TORRENT_CLIENTS (agent,qbittorrent,aria2c), BENCH_TORRENT_CPU_PROF=<dir> (the agent's
// child runs under `node --cpu-prof`; a summary by package and function goes to stderr and to
// <dir>/summary.json; the profiler slows the agent, so its figures are marked `profiled`),
// BENCH_TORRENT_AGENT_NODE_FLAGS (node flags for the agent's child, e.g. `--max-semi-space-size=1`;
// by default the daemon's shebang's flags from src/cli.ts; echoed in the line as agentNodeFlags), BENCH_TORRENT_PIECE_POOL=0 (the agent allocates every
// piece's buffer afresh instead of reusing them, piece-pool.ts; echoed as piecePool: false),
// BENCH_TORRENT_GC_COUNT=1 / BENCH_TORRENT_THREADS=1 (the agent's child prints its collections /
// its CPU seconds per thread, and of them in the kernel, to stderr), BENCH_TORRENT_WRITE_SLICE_KIB (its file store's largest write), BENCH_TORRENT_WARM_PAGES=1 (a
// page-cache warm-up before each download; see warmPages), BENCH_TORRENT_ALLOC=1 / =promoted (the
// agent's child prints what it allocated during the download by allocating function / only what
// outlived the young generation; V8's sampling heap profiler).
//
// Timing, the same for every client: from the moment the client is told to start the torrent
// (the agent's child constructs its WebTorrentEngine / qBittorrent's WebUI gets `torrents/add`,
// both already running and idle / aria2c is spawned) until its last piece is verified and written
// (the engine's `done` / qBittorrent runs its "on torrent finished" program, which touches a
// marker file polled every 5 ms / aria2c exits with --seed-time=0). Announce and connection
// set-up are included. "After the first MiB" starts when the client's file holds 1 MiB of
// allocated blocks on disk (polled every 10 ms) and so leaves them out. Dirty pages are flushed (`sync`) before each
// client starts, so none pays for another's writeback. Every download's sha256 is checked.
//
// CPU: user + system time of the client's process from /proc/<pid>/stat, between the start and
// the end above (aria2c's from its wrapper shell's cutime/cstime once it has waited for it).
// Load averages before and after go in the line: the machine is shared.
import { execFile, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, open, readFile, readdir, rm, stat } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { promisify } from 'node:util'
import parseTorrent from 'parse-torrent'
import { nodeFlagsFrom, shebangEnv } from './_daemon-flags.js'
import { mktorrent, startAria2, type Aria2Peer } from '../test/helpers/aria2.js'
import { startOpentracker } from '../test/helpers/opentracker.js'
import { qbittorrentVersion, startQbittorrent, type Qbittorrent } from '../test/helpers/qbittorrent.js'
import { summariseCpuProfiles } from './_cpuprofile.js'
import { cpuSeconds, loadAverage1m, waitedChildrenCpuSeconds } from './_proc.js'

const MiB = 1024 * 1024
const sizeMb = Number(process.env.BENCH_TORRENT_MB ?? 512)
const rounds = Math.max(1, Number(process.env.BENCH_TORRENT_ROUNDS ?? 3))
const clientNames = (process.env.BENCH_TORRENT_CLIENTS ?? 'agent,qbittorrent,aria2c').split(',').map((name) => name.trim()).filter(Boolean) as ClientName[]
const cpuProfDir = process.env.BENCH_TORRENT_CPU_PROF
/**
 * Node flags for the agent's child: by default those of the daemon's shebang (src/cli.ts, e.g.
 * `--max-semi-space-size=1`, which changes a download's GC: docs/torrents.md, CPU), so the bench
 * measures the engine as the daemon runs it; BENCH_TORRENT_AGENT_NODE_FLAGS overrides ('' for none).
 */
const agentNodeFlags = nodeFlagsFrom(process.env.BENCH_TORRENT_AGENT_NODE_FLAGS, join(import.meta.dirname, '..', 'src', 'cli.ts'))
/** The daemon's malloc settings from the same shebang (BENCH_TORRENT_AGENT_ENV: space-separated NAME=value, '' for none). */
const agentEnv = shebangEnv(join(import.meta.dirname, '..', 'src', 'cli.ts'), process.env.BENCH_TORRENT_AGENT_ENV)
const round = (value: number, digits = 2) => Number(value.toFixed(digits))
const log = (message: string) => process.stderr.write(`[bench torrent] ${message}\n`)
const execFileAsync = promisify(execFile)
/** Writes every dirty page back so that the next timed client starts from a quiet disk. */
const flushDisk = () => execFileAsync('sync').then(() => undefined)
/**
 * BENCH_TORRENT_WARM_PAGES=1: right before each download the bench writes and deletes a file of
 * the download's size, so that every client's page-cache pages come from memory the VM has just
 * used. Otherwise a client that takes longer to start (the agent's child: Node and the
 * engine's modules) writes into memory the VM's balloon has meanwhile reported free to the host
 * (2 s after it was freed), whose first touch faults on the host and is billed to the writing
 * thread: at 1 GiB 1.0-1.6 CPU s in the agent's file threads, 0.5-0.8 warm (docs/torrents.md,
 * What grew with the size). Off by default: at 512 MiB it changed nothing in the file threads and
 * the agent's total came out no lower (1.45-1.96 CPU s warm, 1.38-1.56 not, 6 downloads each).
 */
const warmPages = process.env.BENCH_TORRENT_WARM_PAGES === '1'
async function warmPageCache(dir: string, bytes: number): Promise<void> {
  const file = join(dir, 'warm-pages')
  await execFileAsync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${Math.ceil(bytes / MiB)}`, 'status=none'])
  await rm(file, { force: true })
}

type ClientName = 'agent' | 'qbittorrent' | 'aria2c'

interface Run {
  seconds: number
  /** Seconds from the first MiB on disk to the end; undefined if the poll never saw it before the end. */
  afterFirstMiBSeconds: number | undefined
  cpuSeconds: number
}

/** A started download: resolves when done, with the CPU seconds the client spent since `cpuBefore`. */
interface Download {
  /** The file the client writes. */
  file: string
  done: Promise<number>
  cleanup(): Promise<void>
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** When a file first holds `bytes` of allocated blocks (sparse writes count as they land). */
function watchAllocated(file: string, bytes: number): { stop(): number | undefined } {
  let reachedAt: number | undefined
  let busy = false
  const timer = setInterval(() => {
    if (busy || reachedAt !== undefined) return
    busy = true
    stat(file).then(
      (info) => { if (info.blocks * 512 >= bytes) reachedAt ??= performance.now() },
      () => {},
    ).finally(() => { busy = false })
  }, 10)
  return {
    stop() {
      clearInterval(timer)
      return reachedAt
    },
  }
}

function lineReader(child: { pid?: number; stdout: Readable }): () => Promise<string> {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  return async () => {
    for (;;) {
      const line = await lines.next()
      if (line.done) throw new Error(`child ${child.pid} closed its output`)
      // V8's tracing flags (`--trace-gc`, `--trace-incremental-marking` in
      // BENCH_TORRENT_AGENT_NODE_FLAGS) print to stdout, every line starting with `[`: passed to stderr.
      if (line.value.startsWith('[')) {
        process.stderr.write(`[bench torrent agent stdout] ${line.value}\n`)
        continue
      }
      return line.value.trim()
    }
  }
}

export async function main(): Promise<void> {
  const loadBefore = loadAverage1m()
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-torrent-'))
  const content = join(dir, 'seed', 'bench.bin')
  await mkdir(join(dir, 'seed'))
  const handle = await open(content, 'w')
  const block = randomBytes(16 * MiB)
  for (let written = 0; written < sizeMb * MiB; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, sizeMb * MiB - written))
  }
  await handle.sync()
  await handle.close()
  const expectedSha256 = await sha256Of(content)
  const tracker = await startOpentracker()
  let seeder: Aria2Peer | undefined
  const cleanups = new Set<() => Promise<void>>()
  try {
    const torrentPath = join(dir, 'bench.torrent')
    // 1 MiB pieces (what a seedbox sees for big files), 256 KiB for quick runs under 64 MiB.
    const pieceLog2 = sizeMb >= 64 ? 20 : 18
    await mktorrent(content, torrentPath, tracker.announceUrl, pieceLog2)
    const torrentFile = await readFile(torrentPath)
    const { infoHash } = await parseTorrent(torrentFile)
    await tracker.allow([infoHash])
    seeder = await startAria2({ torrentPath, dir: join(dir, 'seed'), mode: 'seed', verify: false })
    await tracker.waitForSeeders(infoHash, 1, 120_000)
    log(`seeding ${sizeMb} MiB (${infoHash}), ${1 << (pieceLog2 - 10)} KiB pieces; clients ${clientNames.join(', ')}; ${rounds} round(s)`)

    const startAgent = async (out: string): Promise<{ begin(): Promise<Download> }> => {
      const nodeArgs = [...agentNodeFlags, ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [])]
      const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(import.meta.dirname, '_torrent-agent.ts'), JSON.stringify({ torrentPath, downloadDir: out })], {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { ...process.env, ...agentEnv },
      })
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      const cleanup = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.stdin.end('quit\n')
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
          await exited
          clearTimeout(timer)
        }
      }
      cleanups.add(cleanup)
      const next = lineReader(child)
      const ready = await next()
      if (ready !== 'ready') throw new Error(`agent child said ${ready}`)
      return {
        async begin() {
          const pid = child.pid!
          const cpuBefore = await cpuSeconds(pid)
          child.stdin.write('go\n')
          const done = next().then(async (line) => {
            if (line !== 'done') throw new Error(`agent: ${line}`)
            return (await cpuSeconds(pid)) - cpuBefore
          })
          return { file: join(out, 'bench.bin'), done, cleanup: async () => { await cleanup(); cleanups.delete(cleanup) } }
        },
      }
    }

    const startQbt = async (out: string): Promise<{ begin(): Promise<Download> }> => {
      const qbt: Qbittorrent = await startQbittorrent()
      const cleanup = () => qbt.stop()
      cleanups.add(cleanup)
      // The end is qBittorrent's own "torrent finished" (all pieces verified): its external
      // program on completion touches a marker. torrents/info lags by its 1.5 s refresh interval.
      const marker = join(dir, `qbt-finished-${infoHash}`)
      await rm(marker, { force: true })
      await qbt.setPreferences({ autorun_enabled: true, autorun_program: `touch "${marker}"` })
      return {
        async begin() {
          const cpuBefore = await cpuSeconds(qbt.pid)
          await qbt.add(torrentFile, out)
          const done = (async () => {
            const deadline = Date.now() + 600_000
            while (!(await stat(marker).then(() => true, () => false))) {
              if (Date.now() > deadline) throw new Error('qBittorrent did not finish within 10 min')
              await new Promise((resolve) => setTimeout(resolve, 5))
            }
            const cpu = (await cpuSeconds(qbt.pid)) - cpuBefore
            const [torrent] = await qbt.info([infoHash])
            if (torrent?.progress !== 1) throw new Error(`qBittorrent ran its finish program at progress ${torrent?.progress}`)
            return cpu
          })()
          return { file: join(out, 'bench.bin'), done, cleanup: async () => { await cleanup(); cleanups.delete(cleanup) } }
        },
      }
    }

    const startAria2Leecher = async (out: string): Promise<{ begin(): Promise<Download> }> => ({
      async begin() {
        // A shell runs aria2c and waits for it, so its CPU time can be read (cutime/cstime of the
        // shell) after it exited; the shell then waits for a line on stdin before it exits.
        const args = [
          '--enable-dht=false', '--enable-dht6=false', '--bt-enable-lpd=false', '--enable-peer-exchange=false',
          '--disable-ipv6=true', '--interface=127.0.0.1', '--console-log-level=warn', '--summary-interval=0',
          '--show-console-readout=false', '--file-allocation=none', '--auto-save-interval=0', '--bt-save-metadata=false',
          '--seed-time=0', '--bt-stop-timeout=0', `--dir=${out}`, torrentPath,
        ]
        const shell = spawn('sh', ['-c', 'aria2c "$@" >&2; echo "exit $?"; read line', 'sh', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
        let stderr = ''
        shell.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000) })
        const exited = new Promise<void>((resolve) => shell.once('exit', () => resolve()))
        const cleanup = async () => {
          if (shell.exitCode === null && shell.signalCode === null) {
            shell.stdin.end('quit\n')
            await exited
          }
        }
        cleanups.add(cleanup)
        const next = lineReader(shell)
        const done = next().then(async (line) => {
          if (line !== 'exit 0') throw new Error(`aria2c ended with "${line}": ${stderr}`)
          return waitedChildrenCpuSeconds(shell.pid!)
        })
        return { file: join(out, 'bench.bin'), done, cleanup: async () => { await cleanup(); cleanups.delete(cleanup) } }
      },
    })

    const starters: Record<ClientName, (out: string) => Promise<{ begin(): Promise<Download> }>> = {
      agent: startAgent,
      qbittorrent: startQbt,
      aria2c: startAria2Leecher,
    }

    const runOnce = async (name: ClientName): Promise<Run> => {
      const out = join(dir, name)
      await rm(out, { recursive: true, force: true })
      await mkdir(out, { recursive: true })
      const client = await starters[name](out)
      await flushDisk()
      if (warmPages) await warmPageCache(dir, sizeMb * MiB)
      const started = performance.now()
      const download = await client.begin()
      const firstMiB = watchAllocated(download.file, MiB)
      try {
        const cpu = await download.done
        const ended = performance.now()
        const firstMiBAt = firstMiB.stop()
        const seconds = (ended - started) / 1000
        const afterFirstMiBSeconds = firstMiBAt === undefined ? undefined : (ended - firstMiBAt) / 1000
        await download.cleanup()
        const sha256 = await sha256Of(download.file)
        if (sha256 !== expectedSha256) throw new Error(`${name} downloaded different bytes: sha256 ${sha256}, expected ${expectedSha256}`)
        log(`${name}: ${round(seconds)} s, ${round(sizeMb / seconds)} MiB/s, after the first MiB ${afterFirstMiBSeconds === undefined ? '?' : round((sizeMb - 1) / afterFirstMiBSeconds)} MiB/s, ${round(cpu)} CPU s; sha256 ok`)
        return { seconds, afterFirstMiBSeconds, cpuSeconds: cpu }
      } finally {
        firstMiB.stop()
        await download.cleanup()
        await rm(out, { recursive: true, force: true })
      }
    }

    const runs = new Map<ClientName, Run[]>(clientNames.map((name) => [name, []]))
    for (let roundNo = 0; roundNo < rounds; roundNo++) {
      // The order rotates each round so that no client always goes first (or after the same one).
      const order = clientNames.map((_, i) => clientNames[(i + roundNo) % clientNames.length]!)
      for (const name of order) runs.get(name)!.push(await runOnce(name))
    }

    const figures = Object.fromEntries(clientNames.map((name) => {
      const all = runs.get(name)!
      const best = all.reduce((a, b) => (b.seconds < a.seconds ? b : a))
      const afterFirst = all.map((run) => run.afterFirstMiBSeconds).filter((s): s is number => s !== undefined)
      return [name, {
        seconds: round(best.seconds, 3),
        MiBps: round(sizeMb / best.seconds),
        MiBpsAfterFirstMiB: afterFirst.length === 0 ? null : round((sizeMb - 1) / Math.min(...afterFirst)),
        cpuSecondsPerGiB: round(Math.min(...all.map((run) => run.cpuSeconds)) / (sizeMb / 1024)),
        allSeconds: all.map((run) => round(run.seconds)),
        allCpuSeconds: all.map((run) => round(run.cpuSeconds)),
      }]
    })) as Partial<Record<ClientName, { MiBps: number; MiBpsAfterFirstMiB: number | null; cpuSecondsPerGiB: number }>>

    const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : round(a / b, 3))
    const agent = figures.agent
    const qbt = figures.qbittorrent
    const aria2 = figures.aria2c
    process.stdout.write(`${JSON.stringify({
      bench: 'torrent',
      node: process.version,
      qbittorrentVersion: clientNames.includes('qbittorrent') ? await qbittorrentVersion() : undefined,
      cpus: availableParallelism(),
      loadAverage1m: { before: loadBefore, after: loadAverage1m() },
      sizeMiB: sizeMb,
      pieceKiB: 1 << (pieceLog2 - 10),
      rounds,
      profiled: cpuProfDir ? true : undefined,
      piecePool: process.env.BENCH_TORRENT_PIECE_POOL === '0' ? false : undefined,
      agentNodeFlags: agentNodeFlags.length ? agentNodeFlags.join(' ') : undefined,
      agentEnv: Object.keys(agentEnv).length ? Object.entries(agentEnv).map(([name, value]) => `${name}=${value}`).join(' ') : undefined,
      warmPages: warmPages || undefined,
      ...figures,
      ratios: {
        agentToQbittorrentMiBps: ratio(agent?.MiBps, qbt?.MiBps),
        agentToQbittorrentAfterFirstMiB: ratio(agent?.MiBpsAfterFirstMiB, qbt?.MiBpsAfterFirstMiB),
        agentToQbittorrentCpuPerGiB: ratio(agent?.cpuSecondsPerGiB, qbt?.cpuSecondsPerGiB),
        agentToAria2cMiBps: ratio(agent?.MiBps, aria2?.MiBps),
      },
      goals: { agentToQbittorrentMiBpsAtLeast: 1, agentToQbittorrentCpuPerGiBAtMost: 1.5 },
    })}\n`)
    if (cpuProfDir) {
      const files = (await readdir(cpuProfDir)).filter((file) => file.endsWith('.cpuprofile')).map((file) => join(cpuProfDir, file))
      const summary = await summariseCpuProfiles(files, join(cpuProfDir, 'summary.json'))
      process.stderr.write(`${summary.text}\n`)
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {})
    await seeder?.stop()
    await tracker.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
