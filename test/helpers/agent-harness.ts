// A whole agent (startAgent, in this process) in front of a reference server, for integration
// tests that need the real control plane, downlink and admin listener without a child process.
// The config is real TOML parsed by parseConfigText, with a temp state dir, free loopback ports
// and `[testing]` overrides of the time constants (snake_case keys of src/config/defaults.ts).
//
//   const h = await startAgentHarness({ testing: { liveness_timeout_ms: 1500 } })
//   const synced = h.server.waitFor('sync')
//   h.server.raiseWake('test')
//   await synced
//   await h.stop()
//
// What a test can watch: the reference server's records and events, every JSON log line the
// agent wrote (`logs`, `waitForLog`), the live actor tree from the admin listener (`tree`,
// `downlink`, `controlPlane`, `waitForNode`), and how many times each control id reached the
// control handler (`applied`), taken from the actor system's inspection stream.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { request } from 'undici'
import type { InspectionEvent } from 'xstate'
import { parseConfigText } from '../../src/config/load.js'
import { createRootLogger, type Logger } from '../../src/log.js'
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions, type SyncRecord } from '../../src/reference-server/index.js'
import type { ActorNode } from '../../src/system/actor-tree.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { freePort } from './ports.js'

export const harnessAccessToken = 'harness-access-token'

/** Fast retries so a test never waits seconds for a backoff; a test may override any of them. */
export const fastRetries: Readonly<Record<string, number>> = Object.freeze({
  register_retry_base_ms: 50,
  register_retry_max_ms: 400,
  sync_failure_backoff_base_ms: 50,
  sync_failure_backoff_max_ms: 400,
  sse_reconnect_delay_ms: 50,
  sse_reconnect_max_ms: 400,
  wake_retry_delay_ms: 50,
  wake_retry_max_ms: 400,
  unauthorized_retry_ms: 200,
  version_too_old_retry_ms: 200,
})

export interface AgentHarnessOptions {
  /** Use this server (the harness does not close it); otherwise one is created and closed. */
  server?: ReferenceServer
  /** Options of the server the harness creates (`accessToken` defaults to harnessAccessToken). */
  serverOptions?: Partial<ReferenceServerOptions>
  /** `[server] base_url`; the reference server's URL by default (a proxy's URL to go through one). */
  baseUrl?: string
  /** `[server] access_token`; the server's token by default. */
  accessToken?: string
  /** `[daemon] downlink`. */
  downlink?: 'auto' | 'sse' | 'poll'
  /** `[testing]` overrides, snake_case, merged over `fastRetries`. */
  testing?: Record<string, number>
  /** Appended to the TOML as is (more tables). */
  extraToml?: string
  /** Lines of the `[funnel]` table (`enabled = false` by default: tests reach no tunnel provider). */
  funnel?: string[]
  /** Agent log level; `debug` by default (the downlink logs its connects at debug). */
  logLevel?: 'debug' | 'info' | 'warn'
}

export interface LogLine {
  level: number
  msg: string
  component?: string
  [key: string]: unknown
}

export interface AgentHarness {
  readonly server: ReferenceServer
  readonly agent: RunningAgent
  readonly agentId: string
  readonly dir: string
  readonly stateDir: string
  readonly configText: string
  /** Every JSON line the agent logged, in order. */
  readonly logs: LogLine[]
  /** The first line (already logged or future) matching `predicate`. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  /** `GET /debug/actors` from the agent's admin listener, with the admin token. */
  tree(): Promise<ActorNode>
  /** The node with this systemId in the current tree (`controlPlane`, `downlink`), if live. */
  node(systemId: string): Promise<ActorNode | undefined>
  /** Polls the admin tree until `predicate` holds for the node with `systemId`; rejects after `timeoutMs`. */
  waitForNode(systemId: string, predicate: (node: ActorNode) => boolean, timeoutMs?: number, what?: string): Promise<ActorNode>
  /** How many times the control handler was called for `controlId` (any origin). */
  applied(controlId: string): number
  /** Every control handed to the handler, in order, with where it came from. */
  readonly appliedLog: { id: string; kind: string; origin: string }[]
  /** Stops the agent, the server (when the harness made it) and removes the temp dir. Idempotent. */
  stop(): Promise<void>
}

const defaultTimeoutMs = 15_000

/** The top-level state name of a downlink node: 'sse', 'poll' or 'choosing'. */
export function downlinkMode(node: ActorNode | undefined): string | undefined {
  const value = node?.value
  if (typeof value === 'string') return value
  if (value && typeof value === 'object') return Object.keys(value)[0]
  return undefined
}

export function findNode(tree: ActorNode, systemId: string): ActorNode | undefined {
  if (tree.systemId === systemId) return tree
  for (const child of tree.children) {
    const found = findNode(child, systemId)
    if (found) return found
  }
  return undefined
}

function tomlString(value: string): string {
  return JSON.stringify(value)
}

export function harnessConfigToml(options: {
  baseUrl: string
  accessToken: string
  dir: string
  adminPort: number
  streamPort: number
  downlink: string
  testing: Record<string, number>
  extraToml?: string
  funnel?: string[]
}): string {
  const lines = [
    '[server]',
    `base_url = ${tomlString(options.baseUrl)}`,
    `access_token = ${tomlString(options.accessToken)}`,
    '[daemon]',
    `downlink = ${tomlString(options.downlink)}`,
    `state_dir = ${tomlString(join(options.dir, 'state'))}`,
    '[stream]',
    `port = ${options.streamPort}`,
    'upnp = false',
    '[admin]',
    `listen = "127.0.0.1:${options.adminPort}"`,
    '[downloads]',
    `dir = ${tomlString(join(options.dir, 'downloads'))}`,
    '[downloads.hls_cache]',
    `dir = ${tomlString(join(options.dir, 'hls'))}`,
    '[funnel]',
    ...(options.funnel ?? ['enabled = false']),
    '[testing]',
    ...Object.entries(options.testing).map(([key, value]) => `${key} = ${value}`),
    options.extraToml ?? '',
  ]
  return `${lines.join('\n')}\n`
}

class LogCollector extends Writable {
  readonly lines: LogLine[] = []
  readonly #waiters = new Set<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>()
  #buffered = ''

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#buffered += chunk.toString()
    let newline: number
    while ((newline = this.#buffered.indexOf('\n')) >= 0) {
      const text = this.#buffered.slice(0, newline)
      this.#buffered = this.#buffered.slice(newline + 1)
      let line: LogLine
      try {
        line = JSON.parse(text) as LogLine
      } catch {
        continue
      }
      if (process.env.HARNESS_LOG) process.stderr.write(`${text}\n`)
      this.lines.push(line)
      for (const waiter of this.#waiters) {
        if (waiter.predicate(line)) {
          this.#waiters.delete(waiter)
          waiter.resolve(line)
        }
      }
    }
    callback()
  }

  waitFor(predicate: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine> {
    const found = this.lines.find(predicate)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (line: LogLine) => {
          clearTimeout(timer)
          resolve(line)
        },
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter)
        const tail = this.lines.slice(-15).map((line) => JSON.stringify(line)).join('\n')
        reject(new Error(`no matching agent log line within ${timeoutMs} ms; last lines:\n${tail}`))
      }, timeoutMs)
      this.#waiters.add(waiter)
    })
  }
}

export async function startAgentHarness(options: AgentHarnessOptions = {}): Promise<AgentHarness> {
  const ownServer = options.server === undefined
  const server = options.server ?? (await createReferenceServer({ accessToken: harnessAccessToken, ...options.serverOptions }))
  const dir = await mkdtemp(join(tmpdir(), 'ma-harness-'))
  const collector = new LogCollector()
  const logger: Logger = createRootLogger({ level: options.logLevel ?? 'debug', pretty: false, destination: collector })
  const appliedLog: { id: string; kind: string; origin: string }[] = []
  let agent: RunningAgent | undefined
  let configText = ''
  try {
    // The admin port is picked free, then bound by the agent: retry once if someone took it.
    for (let attempt = 0; ; attempt++) {
      configText = harnessConfigToml({
        baseUrl: options.baseUrl ?? server.url,
        accessToken: options.accessToken ?? server.accessToken,
        dir,
        adminPort: await freePort(),
        streamPort: await freePort(),
        downlink: options.downlink ?? 'auto',
        testing: { ...fastRetries, ...options.testing },
        ...(options.extraToml !== undefined ? { extraToml: options.extraToml } : {}),
        ...(options.funnel !== undefined ? { funnel: options.funnel } : {}),
      })
      const { config } = parseConfigText(configText, { file: join(dir, 'config.toml') })
      try {
        agent = await startAgent(config, logger)
        break
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 2) throw error
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    if (ownServer) await server.close()
    throw error
  }
  const running = agent
  // Every control handed to the bound `applyControl` action, with its params (the admin tree
  // only shows summaries, and the ids that were acknowledged leave the ledger).
  running.system.root.system.inspect((event: InspectionEvent) => {
    if (event.type !== '@xstate.action' || event.action.type !== 'applyControl') return
    const params = event.action.params as { control?: { id?: string; kind?: string }; origin?: string } | undefined
    if (params?.control?.id) appliedLog.push({ id: params.control.id, kind: String(params.control.kind), origin: String(params.origin) })
  })
  const adminToken = (await readFile(running.adminTokenPath, 'utf8')).trim()

  const tree = async (): Promise<ActorNode> => {
    const response = await request(`${running.admin.url}/debug/actors`, { headers: { authorization: `Bearer ${adminToken}` } })
    if (response.statusCode !== 200) throw new Error(`/debug/actors answered ${response.statusCode}: ${await response.body.text()}`)
    return (await response.body.json()) as ActorNode
  }
  const node = async (systemId: string) => findNode(await tree(), systemId)

  let stopped: Promise<void> | undefined
  return {
    server,
    agent: running,
    agentId: running.agentId,
    dir,
    stateDir: join(dir, 'state'),
    configText,
    logs: collector.lines,
    appliedLog,
    waitForLog: (predicate, timeoutMs = defaultTimeoutMs) => collector.waitFor(predicate, timeoutMs),
    tree,
    node,
    async waitForNode(systemId, predicate, timeoutMs = defaultTimeoutMs, what = 'the expected state') {
      const deadline = Date.now() + timeoutMs
      let last: ActorNode | undefined
      // Polls the admin listener as a person's tooling would; a bounded wait, not a sleep.
      for (;;) {
        last = await node(systemId)
        if (last && predicate(last)) return last
        if (Date.now() >= deadline) {
          throw new Error(`${systemId} did not reach ${what} within ${timeoutMs} ms; last seen: ${JSON.stringify({ value: last?.value, context: last?.context })}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    applied: (controlId) => appliedLog.filter((entry) => entry.id === controlId).length,
    stop() {
      stopped ??= (async () => {
        try {
          await running.stop()
        } finally {
          if (ownServer) await server.close()
          await rm(dir, { recursive: true, force: true })
        }
      })()
      return stopped
    },
  }
}

/**
 * A sync record matching `predicate`: one already recorded, else the next one to arrive. For
 * "the next sync after X" call `server.waitFor('sync', ...)` before causing X instead.
 */
export function syncWhere(server: ReferenceServer, predicate: (record: SyncRecord) => boolean, timeoutMs = defaultTimeoutMs): Promise<SyncRecord> {
  const past = server.syncHistory().find(predicate)
  if (past) return Promise.resolve(past)
  return server.waitFor('sync', predicate, timeoutMs)
}

/** Counts answered agent requests by path and status from now on (`server.on('request')`). */
export function requestCounter(server: ReferenceServer): { count(path: string, status?: number): number; stop(): void } {
  const seen: { path: string; status: number }[] = []
  const off = server.on('request', ({ path, status }) => seen.push({ path, status }))
  return {
    count: (path, status) => seen.filter((entry) => entry.path === path && (status === undefined || entry.status === status)).length,
    stop: off,
  }
}

export const agentPaths = {
  register: '/api/internal/agent/register',
  sync: '/api/internal/agent/sync',
  events: '/api/internal/agent/events',
  wake: '/api/internal/agent/wake',
} as const
