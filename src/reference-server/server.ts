// The reference web server: routing, listen, close and restart, plus the in-process control API
// that tests and the `media-agent reference-server` command drive (docs/reference-server.md).
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename } from 'node:path'
import { minAgentVersionFloor, referenceMaxBodyBytes, referenceServerHost, referenceStreamTokenTtlSeconds, serverHeartbeatMs } from '../config/defaults.js'
import { ReferenceServerError } from '../errors.js'
import { silentLogger, type Logger } from '../log.js'
import type { IncomingControl, StreamSession, UpgradeOffer } from '../protocol/wire.js'
import type { RouteContext } from './context.js'
import type { ControlInput, ControlRecord } from './controls.js'
import { TypedEmitter } from './emitter.js'
import { DownlinkStreams } from './events-sse.js'
import { createFaults, type FaultOptions } from './faults.js'
import { PlayerStreams } from './player-events.js'
import { routeRequest, type RouterDeps } from './router.js'
import type { HeldLibrary } from './library.js'
import type { LibraryRecord, ReferenceServerEvents, RegisterRecord, SyncRecord, UpgradeResultRecord } from './records.js'
import type { SessionInput, SessionRecord } from './sessions.js'
import { ReferenceState } from './state.js'
import type { TaskRecord } from './tasks.js'
import { mintSessionTokens, mintToken, scopes, sessionPaths, thumbnailPath, type SessionPaths } from './tokens.js'
import type { VpnSettings } from './vpn-slot.js'
import { WakeHolds } from './wake.js'
import type { WireGuardFields } from './wg-config.js'

export interface ReferenceServerOptions {
  /** The account's agent credential: every agent call and `/api/reference/*` needs it as Bearer. */
  accessToken: string
  /** Loopback by default. */
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Agents below this answer 426 (default 0.9.4, contract 9). */
  minAgentVersion?: string
  /** Handed out by register; random (32 bytes, base64url) per server instance when absent. */
  signingSecret?: string
  /** Downlink and player SSE comment heartbeat (default 15 s). */
  heartbeatMs?: number
  /** Send `X-Accel-Buffering: no` on the agent SSE stream (default true). */
  accelBufferingHeader?: boolean
  /** Lifetime of stream/hls tokens minted with a session (default 6 h). */
  tokenTtlSeconds?: number
  vpn?: Partial<VpnSettings>
  watching?: boolean
  faults?: Partial<FaultOptions>
  /** Parent logger; the server logs through a child. Silent by default. */
  logger?: Logger
  /** Epoch milliseconds; `ready_at`, record times, token expiry and `unauthorizedUntilMs` use it. */
  now?: () => number
  /** Records kept of each history (registrations, syncs, upgrade results, library uploads); default `referenceServerHistoryRecords`. */
  historyRecords?: number
  maxBodyBytes?: number
  /** Agent stream-server base URL for player URLs when the agent has reported none. */
  agentUrl?: string
}

export type VpnPatch = Partial<Omit<VpnSettings, 'fields'>> & { fields?: Partial<WireGuardFields> }

export interface SessionView extends SessionRecord {
  sessionId: string
  /** Paths on the agent's stream server (stream, hls) and on this server (playerEvents). */
  paths: SessionPaths
  /** Absolute URLs; stream and hls are undefined until the agent's address is known. */
  urls: { stream: string | undefined; hls: string | undefined; playerEvents: string }
}

export interface VpnState {
  settings: VpnSettings
  holder: string | undefined
}

export class ReferenceServer {
  readonly accessToken: string
  readonly signingSecret: string
  readonly minAgentVersion: string
  readonly host: string
  /** Mutable at runtime: see faults.ts. */
  readonly faults: FaultOptions
  readonly state: ReferenceState
  readonly #events = new TypedEmitter<ReferenceServerEvents>()
  readonly #log: Logger
  readonly #server: Server
  readonly #ctx: RouteContext
  readonly #tokenTtlSeconds: number
  readonly #agentUrl: string | undefined
  #port: number
  #closed = false

  constructor(options: ReferenceServerOptions) {
    if (typeof options.accessToken !== 'string' || options.accessToken === '') throw new ReferenceServerError('accessToken must be a non-empty string')
    this.accessToken = options.accessToken
    this.signingSecret = options.signingSecret ?? randomBytes(32).toString('base64url')
    this.minAgentVersion = options.minAgentVersion ?? minAgentVersionFloor
    this.host = options.host ?? referenceServerHost
    this.#port = options.port ?? 0
    this.faults = createFaults(options.faults)
    this.#log = (options.logger ?? silentLogger()).child({ component: 'reference-server' })
    this.#tokenTtlSeconds = options.tokenTtlSeconds ?? referenceStreamTokenTtlSeconds
    this.#agentUrl = options.agentUrl?.replace(/\/+$/, '')
    const stateOptions: ConstructorParameters<typeof ReferenceState>[0] = { now: options.now ?? Date.now }
    if (options.watching !== undefined) stateOptions.watching = options.watching
    if (options.vpn !== undefined) stateOptions.vpn = options.vpn
    if (options.historyRecords !== undefined) stateOptions.historyRecords = options.historyRecords
    this.state = new ReferenceState(stateOptions)
    const heartbeatMs = options.heartbeatMs ?? serverHeartbeatMs
    const events = this.#events
    this.#ctx = {
      state: this.state,
      events,
      wake: new WakeHolds({ onHold: (info) => events.emit('wakeHold', info), onRelease: (info) => events.emit('wakeRelease', info) }),
      downlink: new DownlinkStreams({
        heartbeatMs,
        accelBufferingHeader: options.accelBufferingHeader ?? true,
        faults: this.faults,
        log: this.#log,
        onOpen: (info) => events.emit('sseOpen', info),
        onClose: (info) => events.emit('sseClose', info),
      }),
      players: new PlayerStreams(heartbeatMs, (info) => events.emit('playerOpen', info)),
      signingSecret: this.signingSecret,
      minAgentVersion: this.minAgentVersion,
      maxBodyBytes: options.maxBodyBytes ?? referenceMaxBodyBytes,
      log: this.#log,
      notify: (reason) => this.#notify(reason),
    }
    const routerDeps: RouterDeps = { server: this, ctx: this.#ctx, faults: this.faults, events, log: this.#log }
    this.#server = createServer((req, res) => void routeRequest(routerDeps, req, res))
    // Wake holds and SSE streams are open for as long as the agent likes, and library uploads
    // may be slow: no whole-request deadline.
    this.#server.requestTimeout = 0
  }

  get port(): number {
    return this.#port
  }

  get url(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host
    return `http://${host}:${this.#port}`
  }

  /** Starts listening; createReferenceServer calls it. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error): void => reject(err)
      this.#server.once('error', onError)
      this.#server.listen(this.#port, this.host, () => {
        this.#server.off('error', onError)
        this.#port = (this.#server.address() as AddressInfo).port
        resolve()
      })
    })
    this.#log.info({ url: this.url }, 'reference server listening')
  }

  /** Wake holds end with 204, SSE streams end, then the listener closes. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()))
    const ending = [...this.#ctx.wake.endAll(), ...this.#ctx.downlink.endAll(), ...this.#ctx.players.endAll()]
    await Promise.all(ending)
    this.#server.closeAllConnections()
    await closed
  }

  /** Cuts every connection (a server crash as the agent sees it) and listens again on the same port. */
  async restart(): Promise<void> {
    if (this.#closed) throw new ReferenceServerError('restart() after close()')
    this.#ctx.wake.destroyAll()
    this.#ctx.downlink.destroyAll()
    this.#ctx.players.destroyAll()
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()))
    this.#server.closeAllConnections()
    await closed
    await this.listen()
  }

  // ---- events -------------------------------------------------------------------------------

  on<K extends keyof ReferenceServerEvents & string>(name: K, listener: (payload: ReferenceServerEvents[K]) => void): () => void {
    return this.#events.on(name, listener)
  }

  /** The next `name` event (future only) matching `predicate`; register before causing it. */
  waitFor<K extends keyof ReferenceServerEvents & string>(name: K, predicate?: (payload: ReferenceServerEvents[K]) => boolean, timeoutMs?: number): Promise<ReferenceServerEvents[K]> {
    return this.#events.waitFor(name, predicate, timeoutMs)
  }

  // ---- control API ---------------------------------------------------------------------------

  createStreamSession(input: SessionInput): SessionView {
    const sessionId = input.sessionId ?? randomUUID()
    if (this.state.sessions.has(sessionId)) throw new ReferenceServerError(`stream session ${sessionId} already exists`)
    if (!input.filePath && !input.DirectURL) throw new ReferenceServerError('a stream session needs filePath or DirectURL')
    for (const key of ['sessionId', 'agentId', 'filePath', 'DirectURL', 'PlayMethod', 'quality', 'cacheId'] as const) {
      if (input[key] !== undefined && typeof input[key] !== 'string') throw new ReferenceServerError(`stream session: ${key} must be a string`)
    }
    for (const key of ['audioIndex', 'subtitleIndex', 'startSeconds'] as const) {
      if (input[key] !== undefined && typeof input[key] !== 'number') throw new ReferenceServerError(`stream session: ${key} must be a number`)
    }
    const session: StreamSession = { sessionId, PlayMethod: input.PlayMethod ?? 'hls', quality: input.quality ?? 'original' }
    for (const key of ['filePath', 'DirectURL', 'cacheId', 'audioIndex', 'subtitleIndex', 'startSeconds'] as const) {
      if (input[key] !== undefined) (session as unknown as Record<string, unknown>)[key] = input[key]
    }
    const tokens = mintSessionTokens(this.signingSecret, sessionId, this.#tokenTtlSeconds, this.state.now() / 1000)
    const record = this.state.sessions.add(session, input.agentId, tokens, this.state.nowIso())
    this.#notify('session_created')
    return this.#view(record)
  }

  /** Stops listing the session (the agent stops it); false when no live session has that id. */
  removeStreamSession(sessionId: string): boolean {
    const record = this.state.sessions.remove(sessionId, this.state.nowIso())
    if (!record) return false
    this.#ctx.players.sessionRemoved(sessionId)
    this.#notify('session_removed')
    return true
  }

  queueTask(source: string, options: { agentId?: string; taskId?: string } = {}): string {
    if (typeof source !== 'string' || source.trim() === '') throw new ReferenceServerError('a task needs a source (magnet URI, .torrent URL or info hash)')
    if (options.taskId !== undefined && this.state.tasks.get(options.taskId)) throw new ReferenceServerError(`task ${options.taskId} already exists`)
    const record = this.state.tasks.queue(source, options.agentId, options.taskId)
    this.#notify('task_queued')
    return record.taskId
  }

  deleteTask(taskId: string, options: { deleteFiles?: boolean; agentId?: string } = {}): void {
    if (this.state.tasks.delete(taskId, options)) this.#notify('task_deleted')
  }

  /** Queues a typed control (an id is generated when absent) and sends it as an SSE `command`. */
  queueControl(input: ControlInput, options: { agentId?: string } = {}): IncomingControl {
    return this.#queueControl(input, options.agentId, 'control_queued').control
  }

  /** A `scan_library` control; `full` asks for a full upload (protocol.md 7.6). */
  requestScan(options: { agentId?: string; full?: boolean } = {}): IncomingControl {
    return this.#queueControl({ kind: 'scan_library', ...(options.full === true ? { full: true } : {}) }, options.agentId, 'scan_requested').control
  }

  requestUpgrade(offer: UpgradeOffer): void {
    if (!offer || typeof offer.targetVersion !== 'string' || typeof offer.artifactUrl !== 'string' || typeof offer.sha256 !== 'string') {
      throw new ReferenceServerError('an upgrade offer needs targetVersion, artifactUrl and sha256')
    }
    this.state.requestUpgrade({ targetVersion: offer.targetVersion, artifactUrl: offer.artifactUrl, sha256: offer.sha256 })
    this.#notify('upgrade_requested')
  }

  get upgradeRequested(): boolean {
    return this.state.upgradeRequested
  }

  /** VPN settings do not travel in sync, so no wake. The slot holder is kept. */
  setVpn(patch: VpnPatch): void {
    this.state.vpn.update(patch as Partial<VpnSettings>)
  }

  releaseVpnSlot(): void {
    this.state.vpn.release()
  }

  vpnState(): VpnState {
    return { settings: { ...this.state.vpn.settings }, holder: this.state.vpn.holder }
  }

  setWatching(watching: boolean): void {
    if (this.state.watching === watching) return
    this.state.watching = watching
    this.#notify('watching_changed')
  }

  get watching(): boolean {
    return this.state.watching
  }

  raiseWake(reason = 'manual'): void {
    this.#notify(reason)
  }

  /** A token of the protocol.md 2 format for any scope, signed with this server's secret. */
  mintToken(scope: string, ttlSeconds: number = this.#tokenTtlSeconds): string {
    return mintToken(this.signingSecret, scope, ttlSeconds, this.state.now() / 1000)
  }

  /** Path (and URL, when the agent's address is known) of a thumbnail request with its token. */
  thumbnailUrl(path: string, seconds: number, options: { width?: number; agentId?: string } = {}): { path: string; url: string | undefined } {
    const relative = thumbnailPath(path, seconds, this.mintToken(scopes.thumbnail(path)), options.width)
    const base = this.#agentBase(options.agentId)
    return { path: relative, url: base === undefined ? undefined : `${base}${relative}` }
  }

  // ---- getters -------------------------------------------------------------------------------

  registrations(agentId?: string): RegisterRecord[] {
    return this.state.registrationsOf(agentId)
  }

  lastRegistration(agentId?: string): RegisterRecord | undefined {
    return agentId === undefined ? this.state.registrations.at(-1) : this.state.lastRegisterOf.get(agentId)
  }

  /** Every agent heard from (register or sync) since the server started. */
  agentIds(): string[] {
    return this.state.agentIds()
  }

  syncHistory(agentId?: string): SyncRecord[] {
    return this.state.syncsOf(agentId)
  }

  lastSync(agentId?: string): SyncRecord | undefined {
    return agentId === undefined ? this.state.syncs.at(-1) : this.state.lastSyncOf.get(agentId)
  }

  upgradeResults(): UpgradeResultRecord[] {
    return [...this.state.upgradeResults]
  }

  libraryUploads(agentId?: string): LibraryRecord[] {
    return this.state.libraryUploads.filter((record) => agentId === undefined || record.agentId === agentId)
  }

  /** The library the server holds for an agent (the latest one heard from by default). */
  library(agentId?: string): HeldLibrary | undefined {
    const id = agentId ?? this.state.latestAgentId()
    return id === undefined ? undefined : this.state.libraries.held(id)
  }

  /** Drops what the server holds (one agent or all): the agent's next delta is answered 409 base_mismatch. */
  forgetLibrary(agentId?: string): void {
    this.state.libraries.forget(agentId)
  }

  /** Every session ever created, removed ones included (`removedAt` set). */
  sessions(): SessionView[] {
    return this.state.sessions.list().map((record) => this.#view(record))
  }

  session(sessionId: string): SessionView | undefined {
    const record = this.state.sessions.get(sessionId)
    return record && this.#view(record)
  }

  tasks(): TaskRecord[] {
    return this.state.tasks.list()
  }

  controls(): ControlRecord[] {
    return this.state.controls.list()
  }

  /** Open agent SSE streams (stalled ones excluded) and held wake requests. */
  connections(): { downlink: number; wake: number } {
    return { downlink: this.#ctx.downlink.count, wake: this.#ctx.wake.count }
  }

  /** A wake raised while no request was held, not yet spent by a wake request or a sync. */
  get pendingWake(): string | undefined {
    return this.#ctx.wake.pending
  }

  // ---- internals ------------------------------------------------------------------------------

  #queueControl(input: ControlInput, agentId: string | undefined, reason: string): ControlRecord {
    if (!input || typeof input.kind !== 'string' || input.kind === '') throw new ReferenceServerError('a control needs a kind')
    if (input.id !== undefined && this.state.controls.get(input.id)) throw new ReferenceServerError(`control ${input.id} already exists`)
    const record = this.state.queueControl(input, agentId)
    const sseClients = this.#ctx.downlink.sendCommand(record.control)
    this.#events.emit('command', { control: record.control, sseClients })
    this.#notify(reason)
    return record
  }

  #notify(reason: string): void {
    const holders = this.#ctx.wake.raise(reason)
    const sseClients = this.#ctx.downlink.sendSync(reason)
    this.#log.debug({ reason, holders, sseClients }, 'wake')
    this.#events.emit('wake', { reason, holders, sseClients })
  }

  #agentBase(agentId: string | undefined): string | undefined {
    return this.state.agentBaseUrl(agentId) ?? this.#agentUrl
  }

  #view(record: SessionRecord): SessionView {
    const { session } = record
    const fileName = session.filePath ? basename(session.filePath) : 'video.mp4'
    const paths = sessionPaths(session.sessionId, fileName, record.tokens)
    const base = this.#agentBase(record.agentId)
    return {
      ...record,
      sessionId: session.sessionId,
      paths,
      urls: {
        stream: base === undefined ? undefined : `${base}${paths.stream}`,
        hls: base === undefined ? undefined : `${base}${paths.hls}`,
        playerEvents: `${this.url}${paths.playerEvents}`,
      },
    }
  }

}

export async function createReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const server = new ReferenceServer(options)
  await server.listen()
  return server
}
