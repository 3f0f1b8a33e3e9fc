// `npm run bench -- idle`: what an idle daemon costs the host (issue 18; goal: idle RSS under
// 60 MiB). The built daemon (`dist/cli.js daemon`, run `npm run build` first) against the
// reference server in this process: registered, SSE downlink open, no tasks, no sessions, default
// timers (60 s idle sync, 15 s server heartbeat). Once the downlink is open the run waits
// BENCH_IDLE_SETTLE_S (default 10 s) for start-up work to finish, then watches BENCH_IDLE_S
// (default 60 s). Figures, read from /proc (Linux):
//
// - registerSeconds: from spawning the daemon to its register request at the server (start-up
//   time: module loading, the encoder probe register waits for, the admin and stream listeners).
// - rssMiB: resident set at the end of the window; peakRssMiB: VmHWM, the high-water mark
//   since the process started (the start-up peak).
// - anonMiB: the anonymous (private) part of rssMiB; the rest is file-backed, mostly the node
//   binary's own pages (bare Node 24 touches ~31 MiB of them), shared with every node process.
// - heapUsedMiB: V8's used heap at the end, from the agent's own /metrics (null if it has none).
// - cpuSeconds: user + system CPU over the window.
// - wakeupsPerMinute: context switches (voluntary + involuntary) of every thread of the process
//   over the window, per minute: each is the process being woken up or preempted.
//
// BENCH_IDLE_CLI runs another build (e.g. the previous commit's dist/cli.js) for a before/after.
// The daemon runs with the Node flags of the CLI's shebang (`#!/usr/bin/env -S node <flags>`), as
// `media-agent daemon` runs under systemd or in the container; BENCH_IDLE_NODE_FLAGS (space-
// separated, empty for none) replaces them, to measure a setting (docs/operations.md "Idle footprint").
// Prints ONE JSON line; the anchor is the 60 MiB goal (ratio < 1 meets it).
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { request } from 'undici'
import { createReferenceServer } from '../src/reference-server/index.js'
import { harnessConfigToml } from '../test/helpers/agent-harness.js'
import { cliPath } from '../test/helpers/daemon.js'
import { freePort } from '../test/helpers/ports.js'
import { nodeFlagsFrom, shebangEnv } from './_daemon-flags.js'
import { contextSwitches, cpuSeconds, statusField, switchesBetween } from './_proc.js'

const windowSeconds = Number(process.env.BENCH_IDLE_S ?? 60)
const settleSeconds = Number(process.env.BENCH_IDLE_SETTLE_S ?? 10)
const cli = process.env.BENCH_IDLE_CLI ?? cliPath
const nodeFlags = nodeFlagsFrom(process.env.BENCH_IDLE_NODE_FLAGS, cli)
/** The shebang's malloc settings (BENCH_IDLE_DAEMON_ENV: space-separated NAME=value, '' for none). */
const daemonEnv = shebangEnv(cli, process.env.BENCH_IDLE_DAEMON_ENV)
const goalMiB = 60
const MiB = 1024 * 1024
const log = (message: string) => process.stderr.write(`[bench idle] ${message}\n`)
const round = (value: number, digits = 2) => Number(value.toFixed(digits))

async function anonymousKiB(pid: number): Promise<number> {
  const match = /^Anonymous:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))
  return match === null ? Number.NaN : Number(match[1])
}

async function heapUsed(adminUrl: string, tokenFile: string): Promise<number | null> {
  try {
    const token = (await readFile(tokenFile, 'utf8')).trim()
    const response = await request(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    const text = await response.body.text()
    if (response.statusCode !== 200) return null
    const line = text.split('\n').find((candidate) => candidate.startsWith('media_agent_nodejs_heap_size_used_bytes '))
    return line === undefined ? null : Number(line.split(' ')[1])
  } catch {
    return null
  }
}

export async function main(): Promise<void> {
  const server = await createReferenceServer({ accessToken: 'bench-idle-token' })
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-idle-'))
  const adminPort = await freePort()
  const configPath = join(dir, 'config.toml')
  await writeFile(configPath, harnessConfigToml({
    baseUrl: server.url, accessToken: server.accessToken, dir, adminPort, streamPort: await freePort(), downlink: 'auto', testing: {},
    // Loopback only: no DHT, LAN discovery or router port mapping (they would not run idle anyway).
    extraToml: '[downloads.torrent]\ndht = false\nlsd = false\nnat_traversal = false\n',
  }))
  const registered = server.waitFor('register', undefined, 30_000)
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...nodeFlags, cli, 'daemon', '--config', configPath, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...daemonEnv },
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const pid = child.pid!
  try {
    await registered
    const registerSeconds = (performance.now() - spawnedAt) / 1000
    if (server.connections().downlink === 0) await server.waitFor('sseOpen', undefined, 30_000)
    log(`daemon ${pid} registered, SSE open; settling ${settleSeconds} s, then watching ${windowSeconds} s`)
    await delay(settleSeconds * 1000)
    const cpuBefore = await cpuSeconds(pid)
    const switchesBefore = await contextSwitches(pid)
    await delay(windowSeconds * 1000)
    const cpuUsed = (await cpuSeconds(pid)) - cpuBefore
    const delta = switchesBetween(switchesBefore, await contextSwitches(pid))
    const switches = delta.voluntary + delta.involuntary
    const rssMiB = (await statusField(pid, 'VmRSS')) / 1024
    const peakRssMiB = (await statusField(pid, 'VmHWM')) / 1024
    const anonMiB = (await anonymousKiB(pid)) / 1024
    const heap = await heapUsed(`http://127.0.0.1:${adminPort}`, join(dir, 'state', 'admin.token'))
    process.stdout.write(`${JSON.stringify({
      bench: 'idle',
      node: process.version,
      cli: cli === cliPath ? 'dist/cli.js' : cli,
      nodeFlags: nodeFlags.join(' '),
      daemonEnv: Object.entries(daemonEnv).map(([name, value]) => `${name}=${value}`).join(' '),
      loadavg1m: round(loadavg()[0]!),
      cpus: availableParallelism(),
      windowSeconds,
      registerSeconds: round(registerSeconds),
      rssMiB: round(rssMiB, 1),
      peakRssMiB: round(peakRssMiB, 1),
      anonMiB: round(anonMiB, 1),
      heapUsedMiB: heap === null ? null : round(heap / MiB, 1),
      cpuSeconds: round(cpuUsed),
      wakeupsPerMinute: Math.round((switches * 60) / windowSeconds),
      goalRssMiB: goalMiB,
      ratioRssToGoal: round(rssMiB / goalMiB, 3),
    })}\n`)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    if (child.exitCode !== 0) log(`daemon exited ${child.exitCode}; stderr:\n${stderr.slice(-2000)}`)
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
