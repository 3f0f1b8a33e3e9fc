import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from './ports.js'

// Runs the built CLI (dist/cli.js) as a real process: e2e tests see exactly what a person sees.

export const repoRoot = resolve(import.meta.dirname, '..', '..')
export const cliPath = join(repoRoot, 'dist', 'cli.js')

export function assertBuilt(): void {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` first (npm test does)`)
}

/** assertBuilt, and no file under src/ newer than the build (a bench must not time old code). */
export function assertBuildCurrent(): void {
  assertBuilt()
  const built = statSync(cliPath).mtimeMs
  const newer = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      const found = entry.isDirectory() ? newer(path) : statSync(path).mtimeMs > built ? path : undefined
      if (found) return found
    }
    return undefined
  }
  const changed = newer(join(repoRoot, 'src'))
  if (changed) throw new Error(`${changed} is newer than ${cliPath}: run \`npm run build\` first`)
}

export interface LogLine {
  level: number
  msg: string
  [key: string]: unknown
}

export interface DaemonProcess {
  readonly child: ChildProcess
  readonly logs: LogLine[]
  readonly stderrText: () => string
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface TempAgent {
  dir: string
  stateDir: string
  configPath: string
  adminPort: number
  streamPort: number
  cleanup(): Promise<void>
}

/** A temp dir with a config file for one agent; `extra` is appended TOML; `funnel` replaces the `[funnel]` lines; `upnp` maps the stream port (a test router only). */
export async function tempAgent(options: { baseUrl: string; accessToken?: string; extra?: string; funnel?: string[]; upnp?: boolean }): Promise<TempAgent> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-e2e-'))
  const stateDir = join(dir, 'state')
  const adminPort = await freePort()
  const streamPort = await freePort()
  const configPath = join(dir, 'config.toml')
  await writeFile(configPath, [
    '[server]',
    `base_url = "${options.baseUrl}"`,
    `access_token = "${options.accessToken ?? 'e2e-token'}"`,
    '[daemon]',
    `state_dir = "${stateDir}"`,
    '[stream]',
    `port = ${streamPort}`,
    `upnp = ${String(options.upnp ?? false)}`,
    '[admin]',
    `listen = "127.0.0.1:${adminPort}"`,
    '[downloads]',
    `dir = "${join(dir, 'downloads')}"`,
    '[downloads.hls_cache]',
    `dir = "${join(dir, 'hls')}"`,
    // Tests reach loopback only: no DHT, LAN discovery or router port mapping.
    '[downloads.torrent]',
    'dht = false',
    'lsd = false',
    'nat_traversal = false',
    '[funnel]',
    ...(options.funnel ?? ['enabled = false']),
    options.extra ?? '',
  ].join('\n'))
  return { dir, stateDir, configPath, adminPort, streamPort, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** `launcher`: a command that runs node for us, e.g. `['setpriv', '--reuid=65534', ...]` (another user). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, launcher: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  assertBuilt()
  return new Promise((resolvePromise, reject) => {
    const [command = process.execPath, ...prefix] = [...launcher, ...(launcher.length > 0 ? [process.execPath] : [])]
    const child = spawn(command, [...prefix, cliPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.once('error', reject)
    child.once('exit', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

export function startDaemon(args: string[], env: NodeJS.ProcessEnv = {}): DaemonProcess {
  assertBuilt()
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const logs: LogLine[] = []
  let stderr = ''
  const waiters = new Set<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>()
  let buffered = ''
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk
    buffered += chunk
    let newline: number
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      let line: LogLine
      try { line = JSON.parse(text) as LogLine } catch { continue }
      logs.push(line)
      for (const waiter of waiters) if (waiter.predicate(line)) { waiters.delete(waiter); waiter.resolve(line) }
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) => child.once('exit', (code, signal) => resolvePromise({ code, signal })))
  return {
    child,
    logs,
    stderrText: () => stderr,
    waitForLog(predicate, timeoutMs = 30_000) {
      const found = logs.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolvePromise, reject) => {
        const waiter = { predicate, resolve: (line: LogLine) => { clearTimeout(timer); resolvePromise(line) } }
        const timer = setTimeout(() => { waiters.delete(waiter); reject(new Error(`no matching log line within ${timeoutMs} ms; stderr so far:\n${stderr.slice(-4000)}`)) }, timeoutMs)
        waiters.add(waiter)
        void exited.then(() => { if (waiters.delete(waiter)) { clearTimeout(timer); reject(new Error(`daemon exited before the expected log line; stderr:\n${stderr.slice(-4000)}`)) } })
      })
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}
