// `npm run bench -- wake`: how fast the agent reacts to its web server (contract 6.2, 8: "wake to
// sync under 100 ms"; our goal: p99 under 10 ms). Two processes, as in production: the built
// daemon (`dist/cli.js daemon --config`, run `npm run build` first) against the reference server
// in this process, on loopback. Both clocks below are this process's `performance.now()`, read
// synchronously inside the server's own event listeners, so no cross-process clock is involved.
//
// - wakeToSync: `server.raiseWake()` -> the server has the agent's sync request (its `sync`
//   event, emitted once the request body is parsed). Default downlink `auto`, so the wake reaches
//   the agent as an SSE `sync` event on the open stream.
// - wakeToSyncLongPoll (extra): the same with `[daemon] downlink = "poll"` (held GET wake).
// - commandToApplied: `server.queueControl()` (which writes the SSE `command` frame) -> the
//   server has the sync request whose `appliedControls` names the control. The agent puts an id
//   there only after handing the control to its handler, so this spans delivery, apply and the
//   acknowledgement reaching the server: the end-to-end "control applied" as the web sees it.
//
// Before each sample the run waits until the agent has been quiet (no sync request in flight or
// answered) for BENCH_WAKE_QUIET_MS (default 25 ms), so every sample starts from `idle` and
// none measures a cycle that was already running. Samples: BENCH_WAKE_N (default 200), after
// BENCH_WAKE_WARMUP (default 10) unmeasured ones. Prints ONE JSON line.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { wakeToSyncLimitMs } from '../src/config/defaults.js'
import { createReferenceServer, type ReferenceServer } from '../src/reference-server/index.js'
import { harnessConfigToml } from '../test/helpers/agent-harness.js'
import { startDaemon, type DaemonProcess } from '../test/helpers/daemon.js'
import { freePort } from '../test/helpers/ports.js'

const n = Number(process.env.BENCH_WAKE_N ?? 200)
const warmup = Number(process.env.BENCH_WAKE_WARMUP ?? 10)
const quietMs = Number(process.env.BENCH_WAKE_QUIET_MS ?? 25)
const goalP99Ms = 10
const sampleTimeoutMs = 5_000
const log = (message: string) => process.stderr.write(`[bench wake] ${message}\n`)
const round = (value: number, digits = 3) => Number(value.toFixed(digits))

interface Summary {
  p50Ms: number
  p99Ms: number
  maxMs: number
  n: number
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted.at(-1)!), n: sorted.length }
}

/** Tracks the agent's sync traffic so a sample can start when it has been quiet for a while. */
function activity(server: ReferenceServer): { quiet(): Promise<void>; stop(): void } {
  const syncPath = '/api/internal/agent/sync'
  let last = performance.now()
  let inFlight = 0
  const offs = [
    server.on('sync', () => {
      last = performance.now()
      inFlight += 1
    }),
    server.on('request', ({ path }) => {
      if (path !== syncPath) return
      last = performance.now()
      inFlight = Math.max(0, inFlight - 1)
    }),
  ]
  return {
    async quiet() {
      const deadline = performance.now() + 10_000
      for (;;) {
        const idleFor = performance.now() - last
        if (inFlight === 0 && idleFor >= quietMs) return
        if (performance.now() > deadline) throw new Error('the agent never went quiet: a sync loop?')
        await delay(Math.max(1, quietMs - idleFor))
      }
    },
    stop: () => offs.forEach((off) => off()),
  }
}

/** Resolves with performance.now() taken inside the listener of the first matching sync. */
function syncStamp(server: ReferenceServer, predicate: (appliedControls: string[]) => boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`no matching sync within ${sampleTimeoutMs} ms`))
    }, sampleTimeoutMs)
    const off = server.on('sync', (record) => {
      if (!predicate(record.request.appliedControls)) return
      const at = performance.now()
      clearTimeout(timer)
      off()
      resolve(at)
    })
  })
}

async function withDaemon<T>(server: ReferenceServer, downlink: 'auto' | 'poll', run: (daemon: DaemonProcess) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-wake-'))
  const configPath = join(dir, 'config.toml')
  await writeFile(configPath, harnessConfigToml({
    baseUrl: server.url,
    accessToken: server.accessToken,
    dir,
    adminPort: await freePort(),
    streamPort: await freePort(),
    downlink,
    // Defaults everywhere (60 s idle interval, 40 s liveness): nothing but the wake brings a sync.
    testing: {},
  }))
  const registered = server.waitFor('register', undefined, 30_000)
  const daemon = startDaemon(['daemon', '--config', configPath, '--log-level', 'warn'])
  try {
    await registered
    if (downlink === 'auto') {
      if (server.connections().downlink === 0) await server.waitFor('sseOpen', undefined, 30_000)
    } else if (server.connections().wake === 0) {
      await server.waitFor('wakeHold', undefined, 30_000)
    }
    return await run(daemon)
  } finally {
    const exit = await daemon.stop('SIGTERM')
    if (exit.code !== 0) log(`daemon exited with ${JSON.stringify(exit)}; stderr:\n${daemon.stderrText().slice(-2000)}`)
    await rm(dir, { recursive: true, force: true })
  }
}

async function measureWakes(server: ReferenceServer, label: string): Promise<Summary> {
  const traffic = activity(server)
  const samples: number[] = []
  try {
    for (let i = 0; i < warmup + n; i++) {
      await traffic.quiet()
      // In poll mode the agent must be holding a wake again (it reconnects after each one).
      if (server.connections().wake === 0 && server.connections().downlink === 0) await server.waitFor('wakeHold', undefined, sampleTimeoutMs)
      const synced = syncStamp(server, () => true)
      const start = performance.now()
      server.raiseWake('bench')
      const at = await synced
      if (i >= warmup) samples.push(at - start)
    }
  } finally {
    traffic.stop()
  }
  const summary = summarize(samples)
  log(`${label}: ${JSON.stringify(summary)}`)
  return summary
}

async function measureCommands(server: ReferenceServer): Promise<Summary> {
  const traffic = activity(server)
  const samples: number[] = []
  try {
    for (let i = 0; i < warmup + n; i++) {
      await traffic.quiet()
      const id = `bench-${i}`
      const acknowledged = syncStamp(server, (applied) => applied.includes(id))
      const start = performance.now()
      server.queueControl({ kind: 'pause_task', id, taskId: `bench-task-${i}` })
      const at = await acknowledged
      if (i >= warmup) samples.push(at - start)
    }
  } finally {
    traffic.stop()
  }
  const summary = summarize(samples)
  log(`commandToApplied: ${JSON.stringify(summary)}`)
  return summary
}

export async function main(): Promise<void> {
  const server = await createReferenceServer({ accessToken: 'bench-wake-token' })
  try {
    const { wakeToSync, commandToApplied } = await withDaemon(server, 'auto', async () => ({
      wakeToSync: await measureWakes(server, 'wakeToSync (SSE)'),
      commandToApplied: await measureCommands(server),
    }))
    const wakeToSyncLongPoll = await withDaemon(server, 'poll', () => measureWakes(server, 'wakeToSync (long-poll)'))
    process.stdout.write(`${JSON.stringify({
      bench: 'wake',
      node: process.version,
      // Other work on the host shows up in the tail: print how busy it was.
      loadavg1m: round(loadavg()[0]!, 2),
      cpus: availableParallelism(),
      wakeToSync,
      commandToApplied,
      wakeToSyncLongPoll,
      limitMs: wakeToSyncLimitMs,
      goalP99Ms,
      ratioP99ToGoal: round(wakeToSync.p99Ms / goalP99Ms),
    })}\n`)
  } finally {
    await server.close()
  }
}

await main()
