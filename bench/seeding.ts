// `npm run bench -- seeding`: what seeding a library of complete torrents costs, the agent against
// qBittorrent-nox (libtorrent 2) on the same data. Prints ONE JSON line.
//
// N complete torrents (BENCH_SEEDING_N, default 100; 1000 for the seedbox goal), each one file of
// BENCH_SEEDING_MB (4) MiB in 1 MiB pieces, announcing to a loopback opentracker
// (BENCH_SEEDING_TRACKER=0: no tracker at all). No other peers.
//
// The agent is the built daemon (`dist/cli.js daemon`; run `npm run build` first) in its own
// process, against the reference server in this process, exactly as a user runs it: the server
// queues N add_task actions whose sources are .torrent URLs served here, the daemon fetches them,
// finds the data in its downloads dir and seeds. So whatever the daemon's tasks part builds
// (src/system/tasks-part.ts: lazy engine, WebTorrentEngine, FileTasksStore, task bindings) is what
// is measured, and a change to the engine shows here with no edit.
//
// Phases, for each client:
// - add: from queuing the N torrents (agent: add_task + a wake; qBittorrent: `torrents/add` with
//   hash checking, as a user adds existing data; BENCH_SEEDING_QBT_SKIP_CHECK=1 skips it) until
//   every torrent is seeding. "Seeding" is asked from outside, the same way for both clients: a
//   BitTorrent handshake on the client's peer port per torrent, answered with every piece
//   (test/helpers/bt-probe.ts). The agent's own view (the tasks in its syncs all `seeding`) is reported
//   beside it as `reportedMs`.
// - idle: RSS once all seed and after BENCH_SEEDING_IDLE_S (60) seconds with nothing to do, CPU
//   seconds over that window (and % of one core), and wake-ups per minute (voluntary context
//   switches of all threads: the process slept and something woke it).
//   RSS per torrent = (RSS seeding - RSS of the same process idle before the torrents) / N.
// - restart: the process is stopped (SIGTERM) and started again on the same state (the agent:
//   its tasks.json and saved .torrent files; qBittorrent: its profile and fastresume data);
//   from the spawn until every torrent is seeding again (goal: 1,000 within 10 s). `stopMs`: from
//   the SIGTERM until the old process exited.
// Dormant torrents (docs/torrents.md): the daemon's config sets `idle_grace_s` to
// BENCH_SEEDING_GRACE_S (5; 60 from 500 torrents); a torrent without peers for that long keeps only its metadata. So for
// the agent: once all seed, the bench waits until its `GET /api/torrents/status` says all are
// dormant and their first announces are out (the scheduler spreads them over a minute), then
// measures RSS and the idle window; after the restart it waits until all are restored dormant,
// takes RSS there, and only then probes (each probe's handshake wakes its torrent).
// Engine loaded: before the N torrents, each client gets one warm-up torrent, and RSS is taken
// again once it seeds (the agent loads webtorrent with its first task, ~40 MiB an idle daemon does
// not hold; qBittorrent has libtorrent from the start). `rssPerTorrentEngineLoadedMiB` is
// (RSS with the N - RSS with the warm-up) / N, the same way for both: what each further torrent costs.
// Marginal cost (BENCH_SEEDING_WAVES=2): the N go in as two halves, RSS taken after the first
// (the agent: all dormant and announced); `rssPerTorrentMarginalMiB` = (RSS with all - RSS after
// the first half) / the second half, the same way for both clients. The engine-loaded figure
// also charges the torrents with what a process pays once when it first does real work (code
// compiled and paged in); this one does not. In that mode `addMs` is the second half's.
// The page cache is warm (the data was just written or read): a restart on a cold disk is slower.
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createWriteStream } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { createReferenceServer, type ReferenceServer } from '../src/reference-server/index.js'
import type { TorrentsStatus } from '../src/system/tasks-part.js'
import { harnessConfigToml } from '../test/helpers/agent-harness.js'
import { cliPath } from '../test/helpers/daemon.js'
import { startOpentracker, type OpenTracker } from '../test/helpers/opentracker.js'
import { freePort } from '../test/helpers/ports.js'
import { qbittorrentVersion, startQbittorrent, type Qbittorrent } from '../test/helpers/qbittorrent.js'
import { bencode } from '../test/helpers/torrent-fixtures.js'
import { shebangEnv, shebangNodeFlags } from './_daemon-flags.js'
import { waitUntilAllSeed } from '../test/helpers/bt-probe.js'
import { contextSwitches, cpuSeconds, loadAverage1m, rssMiB, switchesBetween } from './_proc.js'

const MiB = 1024 * 1024
const count = Number(process.env.BENCH_SEEDING_N ?? 100)
const sizeMb = Number(process.env.BENCH_SEEDING_MB ?? 4)
const pieceLength = MiB
const idleSeconds = Number(process.env.BENCH_SEEDING_IDLE_S ?? 60)
const withTracker = process.env.BENCH_SEEDING_TRACKER !== '0'
const qbtSkipCheck = process.env.BENCH_SEEDING_QBT_SKIP_CHECK === '1'
// Longer than adding 1,000 takes here (~40 s verifying 4 GiB), or torrents seen seeding early would
// go dormant while the rest are still probed, and a probe's 500 ms can be shorter than a wake under load.
const graceSeconds = Number(process.env.BENCH_SEEDING_GRACE_S ?? (count >= 500 ? 60 : 5))
const clients = (process.env.BENCH_SEEDING_CLIENTS ?? 'agent,qbittorrent').split(',').map((name) => name.trim())
/**
 * 2: the library goes in as two halves, RSS taken once the first half seeds (the agent: dormant,
 * announced), so that `rssPerTorrentMarginalMiB` = (RSS with all - RSS with the first half) /
 * the second half is what each further torrent costs once everything a process pays once (code
 * compiled and paged in, heap growth steps) has been paid. 1 (default): one wave.
 */
const waves = process.env.BENCH_SEEDING_WAVES === '2' ? 2 : 1
const cli = process.env.BENCH_SEEDING_CLI ?? cliPath
/** Profiles the restarted daemon (restore and the probe's wakes, until its stop) into this dir: `node --cpu-prof`. */
const restartCpuProfDir = process.env.BENCH_SEEDING_CPU_PROF
/**
 * Heap snapshots of the first daemon into this dir (`--heapsnapshot-signal`, one per memory note:
 * engine loaded, first wave dormant, all dormant), named after the note, to see what a dormant
 * torrent holds: `node --import tsx bench/_heapsnapshot.ts <before> <after> <torrents between>`.
 */
const heapSnapshotDir = process.env.BENCH_SEEDING_HEAP_SNAPSHOTS
/** A copy of each daemon's `/proc/<pid>/smaps` at each memory note into this dir, to see which mappings grew: `node --import tsx bench/_smaps.ts <before> <after>`. */
const smapsDir = process.env.BENCH_SEEDING_SMAPS
/** The restarted daemon's debug log (JSON lines, epoch ms) and a `bench: restart spawned` line, to see where its start-up went. */
const restartLogFile = process.env.BENCH_SEEDING_RESTART_LOG
/** Generous: qBittorrent checks one torrent at a time, ~1 s each on this machine. */
const phaseTimeoutMs = Math.max(120_000, count * 3_000)
const round = (value: number, digits = 2) => Number(value.toFixed(digits))
const log = (message: string) => process.stderr.write(`[bench seeding] ${message}\n`)

interface Fixture {
  name: string
  infoHash: string
  pieces: number
  torrentFile: Buffer
}

/** Writes N + 1 files (distinct content; the last is the warm-up) and their .torrent metadata, hashing pieces as mktorrent would. */
async function makeLibrary(dataDir: string, announceUrl: string | undefined): Promise<Fixture[]> {
  await mkdir(dataDir, { recursive: true })
  const pool = randomBytes(64 * MiB)
  const fixtures: Fixture[] = []
  for (let i = 0; i <= count; i++) {
    const name = `seed-${String(i).padStart(5, '0')}.bin`
    const data = Buffer.alloc(sizeMb * MiB)
    // Different bytes per file: a window of the pool, plus the index up front.
    pool.copy(data, 0, (i * 4099 * 1024) % (pool.length - data.length))
    data.writeUInt32BE(i, 0)
    await writeFile(join(dataDir, name), data)
    const hashes: Buffer[] = []
    for (let offset = 0; offset < data.length; offset += pieceLength) hashes.push(createHash('sha1').update(data.subarray(offset, offset + pieceLength)).digest())
    const info = { length: data.length, name, 'piece length': pieceLength, pieces: Buffer.concat(hashes) }
    const torrentFile = bencode({ ...(announceUrl ? { announce: announceUrl } : {}), 'created by': 'media-agent bench', info })
    fixtures.push({ name, infoHash: createHash('sha1').update(bencode(info)).digest('hex'), pieces: hashes.length, torrentFile })
  }
  return fixtures
}

interface PhaseFigures {
  addMs?: number
  reportedMs?: number | null
  restartMs?: number
  restartReportedMs?: number | null
  processStartMs?: number
  /** The restart's stop: from SIGTERM until the process exited (state flushed, connections closed). */
  stopMs?: number
  rssIdleBeforeMiB?: number
  rssSeedingMiB?: number
  rssAfterIdleMiB?: number
  rssPerTorrentMiB?: number
  idleCpuSeconds?: number
  idleCpuPercentOfCore?: number
  idleWakeupsPerMinute?: number
  idleInvoluntaryPerMinute?: number
  rssAfterRestartMiB?: number
  rssEngineLoadedMiB?: number
  rssPerTorrentEngineLoadedMiB?: number
  /** The agent: RSS right after all seed, before they go dormant (the probes woke them all). */
  rssLiveMiB?: number
  rssPerTorrentLiveMiB?: number
  dormantAfterAddMs?: number
  dormant?: number
  announcesBeforeIdle?: number
  restartDormantMs?: number
  dormantAfterRestart?: number
  rssRestoredDormantMiB?: number
  /** (RSS restored dormant after the restart - RSS idle before any torrent) / N: no torrent was ever live in that process. */
  rssPerTorrentRestoredMiB?: number
  /** BENCH_SEEDING_WAVES=2: RSS once the first half seeds (the agent: all of it dormant and announced). */
  rssFirstWaveMiB?: number
  /** BENCH_SEEDING_WAVES=2: (RSS seeding with all - rssFirstWaveMiB) / the second half. */
  rssPerTorrentMarginalMiB?: number
}

/** The library as the bench adds it: all at once, or (BENCH_SEEDING_WAVES=2) a first half measured before the rest. */
function wavesOf(library: Fixture[]): { first: Fixture[]; main: Fixture[]; firstIndex: number } {
  const first = waves === 2 ? library.slice(0, Math.floor(library.length / 2)) : []
  return { first, main: library.slice(first.length), firstIndex: first.length }
}

/** Sets rssPerTorrentMarginalMiB once rssSeedingMiB is known (waves mode only). */
function marginal(figures: PhaseFigures, mainWave: number): void {
  if (figures.rssFirstWaveMiB === undefined || figures.rssSeedingMiB === undefined) return
  figures.rssPerTorrentMarginalMiB = round((figures.rssSeedingMiB - figures.rssFirstWaveMiB) / mainWave, 4)
}

async function idleWindow(pid: number, figures: PhaseFigures): Promise<void> {
  figures.rssSeedingMiB = round(await rssMiB(pid), 1)
  figures.rssPerTorrentMiB = round((figures.rssSeedingMiB - figures.rssIdleBeforeMiB!) / count, 3)
  figures.rssPerTorrentEngineLoadedMiB = round((figures.rssSeedingMiB - figures.rssEngineLoadedMiB!) / count, 4)
  const cpuBefore = await cpuSeconds(pid)
  const switchesBefore = await contextSwitches(pid)
  log(`idle window ${idleSeconds} s (pid ${pid})`)
  await delay(idleSeconds * 1000)
  const cpu = (await cpuSeconds(pid)) - cpuBefore
  const switchesAfter = await contextSwitches(pid)
  const switches = switchesBetween(switchesBefore, switchesAfter)
  // Which threads woke (stderr, for a post-mortem of the wake-up figure).
  const byThread = await Promise.all([...switchesAfter.threads].map(async ([id, t]) => {
    const name = (await readFile(`/proc/${pid}/task/${id}/comm`, 'utf8').catch(() => '?')).trim()
    return `${name}:${t.voluntary - (switchesBefore.threads.get(id)?.voluntary ?? 0)}`
  }))
  log(`idle wake-ups by thread: ${byThread.join(' ')}`)
  figures.idleCpuSeconds = round(cpu)
  figures.idleCpuPercentOfCore = round((100 * cpu) / idleSeconds)
  figures.idleWakeupsPerMinute = Math.round((switches.voluntary * 60) / idleSeconds)
  figures.idleInvoluntaryPerMinute = Math.round((switches.involuntary * 60) / idleSeconds)
  figures.rssAfterIdleMiB = round(await rssMiB(pid), 1)
}

/** Asks the daemon for a heap snapshot (SIGUSR2) and waits until it is written; renames it after `label`. */
async function heapSnapshot(pid: number, label: string, answers: () => Promise<unknown>): Promise<void> {
  const dir = heapSnapshotDir!
  const written = async () => (await readdir(dir)).filter((name) => name.endsWith('.heapsnapshot') && name.includes(`.${pid}.`))
  const before = new Set(await written())
  process.kill(pid, 'SIGUSR2')
  const deadline = performance.now() + 120_000
  for (;;) {
    await delay(500)
    const fresh = (await written()).find((name) => !before.has(name))
    // Node writes the file in one go on the main thread: it is complete once the daemon answers again.
    if (fresh && (await answers().then(() => true, () => false))) {
      const to = join(dir, `${label.replace(/\W+/g, '-')}.heapsnapshot`)
      await rename(join(dir, fresh), to)
      log(`heap snapshot ${label}: ${to}`)
      return
    }
    if (performance.now() > deadline) throw new Error(`no heap snapshot from ${pid} within 120 s`)
  }
}

/** Resolves with when (performance.now()) a sync from the agent first lists all N tasks as seeding. */
function whenReportedSeeding(server: ReferenceServer): Promise<number> {
  return new Promise((resolve) => {
    const off = server.on('sync', (record) => {
      const tasks = record.request.tasks ?? []
      if (tasks.length === count + 1 && tasks.every((task) => task.state === 'seeding')) {
        off()
        resolve(performance.now())
      }
    })
  })
}

async function benchAgent(dir: string, fixtures: Fixture[]): Promise<PhaseFigures> {
  const figures: PhaseFigures = {}
  const server = await createReferenceServer({ accessToken: 'bench-seeding-token' })
  const http: Server = createServer((req, res) => {
    const match = /^\/t\/(\d+)\.torrent$/.exec(req.url ?? '')
    const fixture = match ? fixtures[Number(match[1])] : undefined
    if (fixture) res.writeHead(200, { 'content-type': 'application/x-bittorrent' }).end(fixture.torrentFile)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const torrentBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}/t`
  const peerPort = await freePort()
  const configPath = join(dir, 'config.toml')
  await writeFile(configPath, harnessConfigToml({
    baseUrl: server.url, accessToken: server.accessToken, dir, adminPort: await freePort(), streamPort: await freePort(), downlink: 'auto', testing: {},
    // Loopback only; a fixed peer port so that the probe knows where to knock.
    extraToml: `[downloads.torrent]\ndht = false\nlsd = false\npex = false\nnat_traversal = false\nport = ${peerPort}\nidle_grace_s = ${graceSeconds}\n`,
  }))
  const adminPort = Number(/listen = "127\.0\.0\.1:(\d+)"/.exec(await readFile(configPath, 'utf8'))![1])
  /** The daemon's own view of its torrents (docs/torrents.md, Dormant torrents). */
  const torrentsStatus = async (): Promise<TorrentsStatus> => {
    const token = (await readFile(join(dir, 'state', 'admin.token'), 'utf8')).trim()
    const res = await fetch(`http://127.0.0.1:${adminPort}/api/torrents/status`, { headers: { authorization: `Bearer ${token}` } })
    if (!res.ok) throw new Error(`/api/torrents/status answered ${res.status}`)
    return (await res.json()) as TorrentsStatus
  }
  /** stderr only: where the RSS is (anonymous memory, V8's heap used and committed, from /proc and the daemon's /metrics). */
  const memoryNote = async (pid: number, label: string) => {
    if (heapSnapshotDir && pid === child?.pid && !label.includes('idle')) await heapSnapshot(pid, label, torrentsStatus)
    if (smapsDir) await writeFile(join(smapsDir, `${pid}-${label.replaceAll(' ', '-')}.smaps`), await readFile(`/proc/${pid}/smaps`, 'utf8')).catch((err: unknown) => log(`smaps ${label}: ${(err as Error).message}`))
    try {
      const token = (await readFile(join(dir, 'state', 'admin.token'), 'utf8')).trim()
      const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()
      const metric = (name: string) => Number(new RegExp(`^media_agent_nodejs_${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN) / MiB
      const anon = Number(/^Anonymous:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? Number.NaN) / 1024
      log(`memory ${label}: rss ${round(await rssMiB(pid), 1)} MiB, anon ${round(anon, 1)}, heap used ${round(metric('heap_size_used_bytes'), 1)} of ${round(metric('heap_size_total_bytes'), 1)}, external ${round(metric('external_memory_bytes'), 1)}`)
    } catch (err) {
      log(`memory ${label}: ${(err as Error).message}`)
    }
  }
  const waitForStatus = async (what: string, check: (status: TorrentsStatus) => boolean, timeoutMs = phaseTimeoutMs) => {
    const deadline = performance.now() + timeoutMs
    for (;;) {
      const status = await torrentsStatus().catch(() => undefined)
      if (status && check(status)) return status
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(status)})`)
      await delay(1000)
    }
  }
  // The daemon gives memory back once its torrents are dormant and their first announces are over
  // (memory-settle.ts: up to a minute after the previous GC): a seedbox at rest is measured.
  const settled = async () => {
    const started = performance.now()
    await waitForStatus('the memory settle after the dormant torrents', (s) => !s.memorySettling, 120_000).catch(() => undefined)
    log(`agent: memory settled ${Math.round(performance.now() - started)} ms after the announces`)
  }
  const library = fixtures.slice(0, count)
  const wave = wavesOf(library)
  const warmUp = fixtures[count]!
  let child: ChildProcess | undefined
  let stderr = ''
  const startDaemon = (options: { profile?: boolean } = {}) => {
    const profile = options.profile && restartCpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', restartCpuProfDir] : []
    const snapshots = !options.profile && heapSnapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapSnapshotDir}`] : []
    const restartLog = options.profile && restartLogFile ? createWriteStream(restartLogFile) : undefined
    const proc = spawn(process.execPath, [...shebangNodeFlags(cli), ...profile, ...snapshots, cli, 'daemon', '--config', configPath, '--log-level', restartLog ? 'debug' : 'warn'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...shebangEnv(cli, process.env.BENCH_SEEDING_DAEMON_ENV) },
    })
    restartLog?.write(`${JSON.stringify({ time: Date.now(), msg: 'bench: restart spawned' })}\n`)
    proc.stderr!.on('data', (chunk: Buffer) => {
      restartLog?.write(chunk)
      stderr = (stderr + chunk.toString()).slice(-8000)
    })
    proc.once('exit', () => restartLog?.end())
    return proc
  }
  const stopDaemon = async (proc: ChildProcess) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill('SIGTERM')
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000)
    await exited
    clearTimeout(timer)
  }
  try {
    const registered = server.waitFor('register', undefined, 30_000)
    child = startDaemon()
    await registered
    if (server.connections().downlink === 0) await server.waitFor('sseOpen', undefined, 30_000)
    await delay(3000)
    const pid = child.pid!
    figures.rssIdleBeforeMiB = round(await rssMiB(pid), 1)
    await memoryNote(pid, 'idle before')

    log('agent: warm-up torrent')
    server.queueTask(`${torrentBase}/${count}.torrent`, { taskId: 'warm-up' })
    server.raiseWake('bench seeding warm-up')
    await waitUntilAllSeed(peerPort, [warmUp], { timeoutMs: phaseTimeoutMs })
    await waitForStatus('the warm-up torrent to go dormant', (s) => s.dormant === 1)
    await delay(3000)
    figures.rssEngineLoadedMiB = round(await rssMiB(pid), 1)
    await memoryNote(pid, 'engine loaded')

    if (wave.first.length > 0) {
      log(`agent: first wave, queuing ${wave.first.length} add_task`)
      for (let i = 0; i < wave.first.length; i++) server.queueTask(`${torrentBase}/${i}.torrent`, { taskId: `seed-${i}` })
      server.raiseWake('bench seeding first wave')
      await waitUntilAllSeed(peerPort, wave.first, { timeoutMs: phaseTimeoutMs })
      await waitForStatus(`the first wave's ${wave.first.length + 1} torrents to go dormant`, (s) => s.dormant === wave.first.length + 1)
      await waitForStatus('the first wave\'s announces', (s) => !withTracker || s.announces >= wave.first.length + 1, 120_000).catch(() => undefined)
      await settled()
      await delay(5000)
      figures.rssFirstWaveMiB = round(await rssMiB(pid), 1)
      await memoryNote(pid, 'first wave dormant')
    }
    log(`agent: queuing ${wave.main.length} add_task`)
    const started = performance.now()
    const reported = whenReportedSeeding(server)
    for (let i = wave.firstIndex; i < count; i++) server.queueTask(`${torrentBase}/${i}.torrent`, { taskId: `seed-${i}` })
    server.raiseWake('bench seeding')
    const seen = await waitUntilAllSeed(peerPort, wave.main, { timeoutMs: phaseTimeoutMs })
    figures.addMs = Math.round(Math.max(...seen.values()) - started)
    figures.reportedMs = await Promise.race([reported.then((at) => Math.round(at - started)), delay(30_000).then(() => null)])
    log(`agent: all ${wave.main.length} seeding after ${figures.addMs} ms (reported after ${figures.reportedMs} ms)`)
    figures.rssLiveMiB = round(await rssMiB(pid), 1)
    if (wave.first.length === 0) figures.rssPerTorrentLiveMiB = round((figures.rssLiveMiB - figures.rssIdleBeforeMiB) / count, 3)
    await waitForStatus(`all ${count + 1} torrents to go dormant`, (s) => s.dormant === count + 1)
    figures.dormantAfterAddMs = Math.round(performance.now() - started)
    // The scheduler's first announces of the newly dormant torrents are spread over a minute: the idle window starts after them.
    const announced = await waitForStatus('the first announces of the dormant torrents', (s) => !withTracker || s.announces >= count + 1, 120_000).catch(() => undefined)
    figures.announcesBeforeIdle = announced?.announces
    log(`agent: all dormant after ${figures.dormantAfterAddMs} ms; ${figures.announcesBeforeIdle} announces`)
    await settled()
    await delay(5000)
    figures.dormant = (await torrentsStatus()).dormant
    await memoryNote(pid, 'all dormant')
    await idleWindow(pid, figures)
    marginal(figures, wave.main.length)
    await memoryNote(pid, 'after the idle window')

    log('agent: restart')
    const stopping = performance.now()
    await stopDaemon(child)
    figures.stopMs = Math.round(performance.now() - stopping)
    // With many tasks the restarted daemon can take a while even to register: wait as long as the phase.
    const registeredAgain = server.waitFor('register', undefined, phaseTimeoutMs)
    const restarted = performance.now()
    const reportedAgain = whenReportedSeeding(server)
    child = startDaemon({ profile: true })
    const registeredAt = registeredAgain.then(() => performance.now(), () => undefined)
    // Restored straight to dormant (their maps match): RSS of that, before the probes wake them.
    const restored = await waitForStatus('the restored torrents to be dormant', (s) => s.dormant === count + 1)
    figures.restartDormantMs = Math.round(performance.now() - restarted)
    figures.dormantAfterRestart = restored.dormant
    figures.rssRestoredDormantMiB = round(await rssMiB(child.pid!), 1)
    figures.rssPerTorrentRestoredMiB = round((figures.rssRestoredDormantMiB - figures.rssIdleBeforeMiB) / count, 3)
    await memoryNote(child.pid!, 'restored dormant')
    // Syncs the agent sends while the probe wakes its torrents (each one collects every task's report).
    let syncsDuringWakes = 0
    const offSyncs = server.on('sync', () => { syncsDuringWakes++ })
    const wakesStarted = performance.now()
    const seenAgain = await waitUntilAllSeed(peerPort, library, { timeoutMs: phaseTimeoutMs })
    offSyncs()
    figures.restartMs = Math.round(Math.max(...seenAgain.values()) - restarted)
    log(`agent: the probe saw all ${count} seeding ${Math.round(Math.max(...seenAgain.values()) - wakesStarted)} ms after it started knocking; ${syncsDuringWakes} syncs meanwhile`)
    figures.restartReportedMs = await Promise.race([reportedAgain.then((at) => Math.round(at - restarted)), delay(30_000).then(() => null)])
    figures.rssAfterRestartMiB = round(await rssMiB(child.pid!), 1)
    const registeredAfter = await registeredAt
    if (registeredAfter !== undefined) figures.processStartMs = Math.round(registeredAfter - restarted)
    log(`agent: all seeding ${figures.restartMs} ms after the restart (reported after ${figures.restartReportedMs} ms; registered after ${figures.processStartMs} ms)`)
    return figures
  } catch (err) {
    log(`daemon stderr:\n${stderr.slice(-3000)}`)
    throw err
  } finally {
    if (child) await stopDaemon(child)
    await server.close()
    await new Promise((resolve) => http.close(resolve))
  }
}

async function benchQbittorrent(dir: string, dataDir: string, fixtures: Fixture[]): Promise<PhaseFigures & { checked: boolean }> {
  const figures: PhaseFigures & { checked: boolean } = { checked: !qbtSkipCheck }
  const profileDir = join(dir, 'qbt-profile')
  await mkdir(profileDir)
  let qbt: Qbittorrent | undefined = await startQbittorrent({ profileDir })
  try {
    await delay(3000)
    figures.rssIdleBeforeMiB = round(await rssMiB(qbt.pid), 1)
    const library = fixtures.slice(0, count)
    const wave = wavesOf(library)
    const warmUp = fixtures[count]!
    await qbt.add(warmUp.torrentFile, dataDir, { skipChecking: qbtSkipCheck })
    await waitUntilAllSeed(qbt.port, [warmUp], { timeoutMs: phaseTimeoutMs })
    await delay(3000)
    figures.rssEngineLoadedMiB = round(await rssMiB(qbt.pid), 1)
    if (wave.first.length > 0) {
      log(`qBittorrent: first wave, adding ${wave.first.length} torrents`)
      for (const fixture of wave.first) await qbt.add(fixture.torrentFile, dataDir, { skipChecking: qbtSkipCheck })
      await waitUntilAllSeed(qbt.port, wave.first, { timeoutMs: phaseTimeoutMs })
      await delay(5000)
      figures.rssFirstWaveMiB = round(await rssMiB(qbt.pid), 1)
    }
    log(`qBittorrent: adding ${wave.main.length} torrents${qbtSkipCheck ? ' (no hash check)' : ''}`)
    const started = performance.now()
    for (const fixture of wave.main) await qbt.add(fixture.torrentFile, dataDir, { skipChecking: qbtSkipCheck })
    const seen = await waitUntilAllSeed(qbt.port, wave.main, { timeoutMs: phaseTimeoutMs })
    figures.addMs = Math.round(Math.max(...seen.values()) - started)
    log(`qBittorrent: all ${wave.main.length} seeding after ${figures.addMs} ms`)
    await delay(5000)
    await idleWindow(qbt.pid, figures)
    marginal(figures, wave.main.length)

    log('qBittorrent: restart')
    const stopping = performance.now()
    await qbt.stop()
    figures.stopMs = Math.round(performance.now() - stopping)
    qbt = undefined
    const restarted = performance.now()
    qbt = await startQbittorrent({ profileDir })
    figures.processStartMs = Math.round(performance.now() - restarted)
    // A new peer port on every start (the helper picks a free one): probe that one.
    const seenAgain = await waitUntilAllSeed(qbt.port, library, { timeoutMs: phaseTimeoutMs })
    figures.restartMs = Math.round(Math.max(...seenAgain.values()) - restarted)
    figures.rssAfterRestartMiB = round(await rssMiB(qbt.pid), 1)
    log(`qBittorrent: all seeding ${figures.restartMs} ms after the restart (WebUI up after ${figures.processStartMs} ms)`)
    return figures
  } finally {
    await qbt?.stop()
  }
}

export async function main(): Promise<void> {
  const loadBefore = loadAverage1m()
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-seeding-'))
  let tracker: OpenTracker | undefined
  try {
    tracker = withTracker ? await startOpentracker() : undefined
    // The daemon's downloads dir is <dir>/downloads (harnessConfigToml): the data goes there.
    const dataDir = join(dir, 'downloads')
    log(`writing ${count} x ${sizeMb} MiB`)
    const fixtures = await makeLibrary(dataDir, tracker?.announceUrl)
    await tracker?.allow(fixtures.map((f) => f.infoHash))
    const agent = clients.includes('agent') ? await benchAgent(dir, fixtures) : undefined
    const qbittorrent = clients.includes('qbittorrent') ? await benchQbittorrent(dir, dataDir, fixtures) : undefined
    const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? null : round(a / b, 3))
    process.stdout.write(`${JSON.stringify({
      bench: 'seeding',
      node: process.version,
      qbittorrentVersion: qbittorrent ? await qbittorrentVersion() : undefined,
      cpus: availableParallelism(),
      loadAverage1m: { before: loadBefore, after: loadAverage1m() },
      torrents: count,
      torrentMiB: sizeMb,
      pieceKiB: pieceLength / 1024,
      tracker: withTracker,
      idleSeconds,
      graceSeconds,
      waves,
      agent,
      qbittorrent,
      ratios: {
        agentToQbittorrentRssPerTorrent: ratio(agent?.rssPerTorrentMiB, qbittorrent?.rssPerTorrentMiB),
        agentToQbittorrentRssPerTorrentEngineLoaded: ratio(agent?.rssPerTorrentEngineLoadedMiB, qbittorrent?.rssPerTorrentEngineLoadedMiB),
        agentToQbittorrentRssPerTorrentMarginal: ratio(agent?.rssPerTorrentMarginalMiB, qbittorrent?.rssPerTorrentMarginalMiB),
        agentRestoredDormantToQbittorrentRssPerTorrent: ratio(agent?.rssPerTorrentRestoredMiB, qbittorrent?.rssPerTorrentMiB),
        agentToQbittorrentAddMs: ratio(agent?.addMs, qbittorrent?.addMs),
        agentToQbittorrentRestartMs: ratio(agent?.restartMs, qbittorrent?.restartMs),
      },
      goals: { agentToQbittorrentRssPerTorrentAtMost: 1, restartMsAtMostWith1000Torrents: 10_000, idleCpuPercentOfCoreUnder: 1 },
    })}\n`)
  } finally {
    await tracker?.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
