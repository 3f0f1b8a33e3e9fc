// `npm run bench -- dormant-wakes`: what waking a dormant torrent costs the engine (docs/torrents.md,
// Dormant torrents). One engine in this process, BENCH_WAKES_N (200) complete torrents of 4 pieces
// restored straight to dormant from their saved .torrent and piece maps (as after a restart),
// then a raw BitTorrent handshake for every one of them, BENCH_WAKES_CONCURRENCY (64) at a time
// (test/helpers/bt-probe.ts, as the seeding bench's probe): each wakes its torrent and waits for a
// bitfield naming every piece. With BENCH_WAKES_TRACKER=1 (default) the torrents announce to a
// loopback opentracker, as in the seeding bench.
//
// Prints one JSON line: the wall time from the first handshake to the last full bitfield, ms per
// wake, and the main thread's CPU over that window. BENCH_WAKES_CPU_PROF=<dir> profiles the wake
// window only (inspector, in process) and prints self time and inclusive time by function.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../src/log.js'
import { WebTorrentEngine, type TorrentEngineOptions } from '../src/services/torrent/engine.js'
import { torrentMetadataDirName } from '../src/config/defaults.js'
import { waitUntilAllSeed } from '../test/helpers/bt-probe.js'
import { startOpentracker, type OpenTracker } from '../test/helpers/opentracker.js'
import { randomTorrent, writeTorrentFiles, type FixtureTorrent } from '../test/helpers/torrent-fixtures.js'
import { summariseCpuProfiles } from './_cpuprofile.js'

const n = Number(process.env.BENCH_WAKES_N ?? 200)
const concurrency = Number(process.env.BENCH_WAKES_CONCURRENCY ?? 64)
const withTracker = process.env.BENCH_WAKES_TRACKER !== '0'
const profileDir = process.env.BENCH_WAKES_CPU_PROF
const pieceLength = 16 * 1024
const log = (message: string) => process.stderr.write(`[bench dormant-wakes] ${message}\n`)
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

function engineFor(dataDir: string, stateDir: string): WebTorrentEngine {
  const options: TorrentEngineOptions = {
    downloadDir: dataDir,
    stateDir,
    logger: silentLogger(),
    dht: false,
    lsd: false,
    pex: false,
    natUpnp: false,
    natPmp: false,
    idleGraceMs: 600_000,
    // The dormant announces of a restart would otherwise come within the wake window.
    dormantFirstAnnounceSpreadMs: 600_000,
  }
  return new WebTorrentEngine(options)
}

/** Starts every torrent and resolves once each has emitted `event` (`done`, or `dormant` true). */
async function startAll(engine: WebTorrentEngine, torrents: FixtureTorrent[], until: 'done' | 'dormant'): Promise<void> {
  await Promise.all(torrents.map((torrent) => new Promise<void>((resolve) => {
    engine.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => {
      if (event.type === 'error') throw event.error
      if (event.type === until && (until === 'done' || (event.type === 'dormant' && event.dormant))) resolve()
    })
  })))
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'ma-bench-wakes-'))
  let tracker: OpenTracker | undefined
  try {
    tracker = withTracker ? await startOpentracker() : undefined
    const dataDir = join(root, 'data')
    const stateDir = join(root, 'state')
    await mkdir(join(stateDir, torrentMetadataDirName), { recursive: true })
    const torrents: FixtureTorrent[] = []
    for (let i = 0; i < n; i++) {
      const torrent = randomTorrent(`t-${i}`, [2 * pieceLength + 100, 2 * pieceLength - 100], { pieceLength, announce: tracker ? [tracker.announceUrl] : undefined })
      torrents.push(torrent)
      await writeTorrentFiles(dataDir, torrent)
      // The tasks store keeps each .torrent there; a dormant torrent's is read back at its wake.
      await writeFile(join(stateDir, torrentMetadataDirName, `${torrent.infoHash}.torrent`), torrent.torrentFile)
    }
    await tracker?.allow(torrents.map((t) => t.infoHash))
    // First run: verify everything once and write the piece maps (a clean stop writes the last ones).
    const first = engineFor(dataDir, stateDir)
    await startAll(first, torrents, 'done')
    await first.close()
    // The restart: every torrent restored dormant, nothing read.
    const engine = engineFor(dataDir, stateDir)
    const restoreStart = performance.now()
    await startAll(engine, torrents, 'dormant')
    const restoreMs = performance.now() - restoreStart
    const { port } = await engine.listening()
    log(`${n} torrents dormant after ${Math.round(restoreMs)} ms; waking them, ${concurrency} handshakes at a time`)
    await new Promise((resolve) => setTimeout(resolve, 500))

    const session = profileDir ? new Session() : undefined
    if (session) {
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: 200 })
      await session.post('Profiler.start')
    }
    const cpuBefore = process.cpuUsage()
    const start = performance.now()
    const seenAt = await waitUntilAllSeed(port, torrents.map((t) => ({ infoHash: t.infoHash, pieces: Math.ceil(t.size / pieceLength) })), { timeoutMs: 120_000, concurrency, probeTimeoutMs: 30_000 })
    const wallMs = performance.now() - start
    const cpu = process.cpuUsage(cpuBefore)
    let profileFile: string | undefined
    if (session) {
      const { profile } = await session.post('Profiler.stop')
      session.disconnect()
      await mkdir(profileDir!, { recursive: true })
      profileFile = join(profileDir!, `dormant-wakes-${Date.now()}.cpuprofile`)
      await writeFile(profileFile, JSON.stringify(profile))
    }
    const status = engine.dormancy()
    await engine.close()
    const lastMs = Math.max(...[...seenAt.values()].map((at) => at - start))
    const cpuMs = (cpu.user + cpu.system) / 1000
    process.stdout.write(`${JSON.stringify({
      bench: 'dormant-wakes',
      node: process.version,
      cpus: availableParallelism(),
      loadAverage1m: round(loadavg()[0]!, 2),
      torrents: n,
      concurrency,
      tracker: withTracker,
      restoreDormantMs: Math.round(restoreMs),
      wakeAllMs: Math.round(lastMs),
      msPerWake: round(wallMs / n, 2),
      cpuMs: Math.round(cpuMs),
      cpuMsPerWake: round(cpuMs / n, 2),
      liveAfter: status.live,
      dormantAfter: status.dormant,
      profiled: Boolean(session),
    })}\n`)
    if (profileFile) {
      const summary = await summariseCpuProfiles([profileFile], undefined, 30)
      log(summary.text)
      log(inclusive(JSON.parse(await (await import('node:fs/promises')).readFile(profileFile, 'utf8')) as Profile))
    }
  } finally {
    await tracker?.stop()
    await rm(root, { recursive: true, force: true })
  }
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

/** Inclusive (self + callees) time by function, each function counted once per sample. */
function inclusive(profile: Profile, top = 40): string {
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const key = (id: number) => {
    const frame = byId.get(id)!.callFrame
    const url = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench|test)\//, '$1/')
    return `${frame.functionName || '(anonymous)'} ${url}:${frame.lineNumber + 1}`
  }
  const total = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    if (byId.get(id)!.callFrame.functionName === '(idle)') return
    busy += us
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(at)
      if (seen.has(k)) continue
      seen.add(k)
      total.set(k, (total.get(k) ?? 0) + us)
    }
  })
  return ['inclusive time by function:', ...[...total].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([k, us]) => `  ${String(round((100 * us) / busy)).padStart(5)} %  ${String(round(us / 1000)).padStart(8)} ms  ${k}`)].join('\n')
}

await main()
