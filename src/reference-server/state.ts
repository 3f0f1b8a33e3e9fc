// The in-memory account: one agent access token, its agents, and everything queued for them.
// Pure bookkeeping: no sockets here. Changes the agent must see are reported through `onChange`
// so the server can raise a wake and an SSE `sync` event.
import { randomUUID } from 'node:crypto'
import { referenceServerHistoryRecords } from '../config/defaults.js'
import type { LibrarySync, RegisterRequest, SyncRequest, SyncResponse, UpgradeOffer, UpgradeResult } from '../protocol/wire.js'
import { ControlQueue, type ControlInput, type ControlRecord } from './controls.js'
import { LibraryHoldings } from './library.js'
import type { LibraryRecord, RegisterRecord, SyncRecord, UpgradeResultRecord } from './records.js'
import { SessionStore } from './sessions.js'
import { TaskQueue } from './tasks.js'
import { VpnSlot, type VpnSettings } from './vpn-slot.js'

export interface RequestMeta {
  agentVersion: string | undefined
  userAgent: string | undefined
}

export interface StateOptions {
  now: () => number
  newId?: () => string
  watching?: boolean
  vpn?: Partial<VpnSettings>
  /** Records kept per history (default `referenceServerHistoryRecords`). */
  historyRecords?: number
}

/** Appends, then drops the oldest records past `limit`. */
function remember<T>(history: T[], record: T, limit: number): void {
  history.push(record)
  if (history.length > limit) history.splice(0, history.length - limit)
}

function ofAgent<T extends { agentId: string }>(history: T[], agentId: string | undefined, latest: Map<string, T>): T[] {
  if (agentId === undefined) return [...history]
  const kept = history.filter((record) => record.agentId === agentId)
  const last = latest.get(agentId)
  return kept.length === 0 && last !== undefined ? [last] : kept
}

export class ReferenceState {
  readonly now: () => number
  readonly tasks: TaskQueue
  readonly controls: ControlQueue
  readonly sessions = new SessionStore()
  readonly vpn: VpnSlot
  watching: boolean
  upgradeRequested = false
  upgradeOffer: UpgradeOffer | undefined
  readonly registrations: RegisterRecord[] = []
  readonly syncs: SyncRecord[] = []
  readonly upgradeResults: UpgradeResultRecord[] = []
  readonly libraryUploads: LibraryRecord[] = []
  /** What each agent's library is as far as this server knows (protocol.md 7.6). */
  readonly libraries = new LibraryHoldings()
  /** Each agent's latest register and sync: kept when the bounded histories have let them go. */
  readonly lastRegisterOf = new Map<string, RegisterRecord>()
  readonly lastSyncOf = new Map<string, SyncRecord>()
  #lastHeard: RegisterRecord | SyncRecord | undefined
  readonly #historyRecords: number

  constructor(options: StateOptions) {
    this.now = options.now
    const newId = options.newId ?? randomUUID
    this.tasks = new TaskQueue(newId, this.now)
    this.controls = new ControlQueue(newId, this.now)
    this.vpn = new VpnSlot(options.vpn)
    this.watching = options.watching ?? false
    this.#historyRecords = Math.max(1, options.historyRecords ?? referenceServerHistoryRecords)
  }

  nowIso(): string {
    return new Date(this.now()).toISOString()
  }

  register(request: RegisterRequest, meta: RequestMeta): RegisterRecord {
    const record: RegisterRecord = { at: this.now(), ...meta, agentId: request.agentId, request }
    remember(this.registrations, record, this.#historyRecords)
    this.lastRegisterOf.set(record.agentId, record)
    this.#lastHeard = record
    return record
  }

  sync(request: SyncRequest, meta: RequestMeta): SyncRecord {
    const agentId = request.agentId
    this.tasks.acknowledge(agentId, new Set(request.tasks.map((task) => task.id)))
    this.controls.acknowledge(agentId, request.appliedControls)
    this.vpn.reportActive(agentId, request.VPNActive)
    const response: SyncResponse = {
      watching: this.watching,
      streamSessions: this.sessions.listFor(agentId),
      actions: this.tasks.actionsFor(agentId),
      controls: this.controls.controlsFor(agentId),
      upgradeRequested: this.upgradeRequested,
    }
    if (this.upgradeRequested && this.upgradeOffer) response.upgrade = this.upgradeOffer
    const record: SyncRecord = { at: this.now(), ...meta, agentId, request, response }
    remember(this.syncs, record, this.#historyRecords)
    this.lastSyncOf.set(agentId, record)
    this.#lastHeard = record
    return record
  }

  requestUpgrade(offer: UpgradeOffer): void {
    this.upgradeRequested = true
    this.upgradeOffer = offer
  }

  /** Any outcome clears the flag (contract 3), so the agent does not loop. */
  upgradeResult(result: UpgradeResult, meta: RequestMeta): UpgradeResultRecord {
    this.upgradeRequested = false
    this.upgradeOffer = undefined
    const record: UpgradeResultRecord = { at: this.now(), ...meta, result }
    remember(this.upgradeResults, record, this.#historyRecords)
    return record
  }

  /** Applies a LibrarySync; a delta on a base the server does not hold is recorded with status 409. */
  library(upload: LibrarySync, compressedBytes: number, meta: RequestMeta): LibraryRecord {
    const result = this.libraries.apply(upload)
    const record: LibraryRecord = { at: this.now(), ...meta, agentId: upload.agentId, upload, compressedBytes, status: result.ok ? 204 : 409 }
    remember(this.libraryUploads, record, this.#historyRecords)
    return record
  }

  queueControl(input: ControlInput, agentId?: string): ControlRecord {
    return this.controls.queue(input, agentId)
  }

  /** The agent most recently heard from (register or sync), if any. */
  latestAgentId(): string | undefined {
    return this.#lastHeard?.agentId
  }

  /**
   * One agent's registrations or syncs still in the bounded history; when they have all left it
   * (a busy agent's flood), its latest, which is kept: `GET syncs?agentId=` never answers empty for
   * an agent the server has heard from (docs/reference-server.md).
   */
  registrationsOf(agentId: string | undefined): RegisterRecord[] {
    return ofAgent(this.registrations, agentId, this.lastRegisterOf)
  }

  syncsOf(agentId: string | undefined): SyncRecord[] {
    return ofAgent(this.syncs, agentId, this.lastSyncOf)
  }

  /** Every agent heard from since the server started. */
  agentIds(): string[] {
    return [...new Set([...this.lastRegisterOf.keys(), ...this.lastSyncOf.keys()])]
  }

  /**
   * The base URL players should use for an agent: its public tunnel URL when reported (the web
   * prefers it, contract 1.11), else its stream server's public URL.
   */
  agentBaseUrl(agentId: string | undefined): string | undefined {
    const id = agentId ?? this.latestAgentId()
    if (id === undefined) return undefined
    const sync = this.lastSyncOf.get(id)
    const register = this.lastRegisterOf.get(id)
    const latest = sync && (!register || sync.at >= register.at) ? sync.request : register?.request
    if (!latest) return undefined
    if (latest.FunnelURL) return latest.FunnelURL.replace(/\/+$/, '')
    return latest.streamServer?.publicUrl ? latest.streamServer.publicUrl.replace(/\/+$/, '') : undefined
  }
}
