// The in-memory account: one agent access token, its agents, and everything queued for them.
// Pure bookkeeping: no sockets here. Changes the agent must see are reported through `onChange`
// so the server can raise a wake and an SSE `sync` event.
import { randomUUID } from 'node:crypto'
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

  constructor(options: StateOptions) {
    this.now = options.now
    const newId = options.newId ?? randomUUID
    this.tasks = new TaskQueue(newId, this.now)
    this.controls = new ControlQueue(newId, this.now)
    this.vpn = new VpnSlot(options.vpn)
    this.watching = options.watching ?? false
  }

  nowIso(): string {
    return new Date(this.now()).toISOString()
  }

  register(request: RegisterRequest, meta: RequestMeta): RegisterRecord {
    const record: RegisterRecord = { at: this.now(), ...meta, agentId: request.agentId, request }
    this.registrations.push(record)
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
    this.syncs.push(record)
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
    this.upgradeResults.push(record)
    return record
  }

  /** Applies a LibrarySync; a delta on a base the server does not hold is recorded with status 409. */
  library(upload: LibrarySync, compressedBytes: number, meta: RequestMeta): LibraryRecord {
    const result = this.libraries.apply(upload)
    const record: LibraryRecord = { at: this.now(), ...meta, agentId: upload.agentId, upload, compressedBytes, status: result.ok ? 204 : 409 }
    this.libraryUploads.push(record)
    return record
  }

  queueControl(input: ControlInput, agentId?: string): ControlRecord {
    return this.controls.queue(input, agentId)
  }

  /** The agent most recently heard from (register or sync), if any. */
  latestAgentId(): string | undefined {
    const lastSync = this.syncs.at(-1)
    const lastRegister = this.registrations.at(-1)
    if (!lastSync) return lastRegister?.agentId
    if (!lastRegister) return lastSync.agentId
    return lastSync.at >= lastRegister.at ? lastSync.agentId : lastRegister.agentId
  }

  /**
   * The base URL players should use for an agent: its public tunnel URL when reported (the web
   * prefers it, contract 1.11), else its stream server's public URL.
   */
  agentBaseUrl(agentId: string | undefined): string | undefined {
    const id = agentId ?? this.latestAgentId()
    if (id === undefined) return undefined
    const sync = this.syncs.findLast((record) => record.agentId === id)
    const register = this.registrations.findLast((record) => record.agentId === id)
    const latest = sync && (!register || sync.at >= register.at) ? sync.request : register?.request
    if (!latest) return undefined
    if (latest.FunnelURL) return latest.FunnelURL.replace(/\/+$/, '')
    return latest.streamServer?.publicUrl ? latest.streamServer.publicUrl.replace(/\/+$/, '') : undefined
  }
}
