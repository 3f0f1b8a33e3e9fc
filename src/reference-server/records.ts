// What the reference server remembers for tests, and the events it emits as it observes them.
import type { IncomingControl, LibrarySync, RegisterRequest, SyncRequest, SyncResponse, UpgradeResult, VpnConfigErrorCode } from '../protocol/wire.js'
import type { SessionRecord } from './sessions.js'

interface RequestFacts {
  /** Epoch milliseconds (the server's `now()`). */
  at: number
  /** `X-Agent-Version` as sent, if any. */
  agentVersion: string | undefined
  userAgent: string | undefined
}

export interface RegisterRecord extends RequestFacts {
  agentId: string
  request: RegisterRequest
}

export interface SyncRecord extends RequestFacts {
  agentId: string
  request: SyncRequest
  response: SyncResponse
}

export interface UpgradeResultRecord extends RequestFacts {
  result: UpgradeResult
}

export interface LibraryRecord extends RequestFacts {
  agentId: string
  upload: LibrarySync
  /** Size of the gzip body as received. */
  compressedBytes: number
  /** 204, or 409 when a delta's base is not the scan the server holds (protocol.md 7.6). */
  status: 204 | 409
}

export interface VpnConfigRecord extends RequestFacts {
  agentId: string
  probe: boolean
  status: number
  error: VpnConfigErrorCode | undefined
}

export interface ReferenceServerEvents {
  register: RegisterRecord
  sync: SyncRecord
  sessionReady: { record: SessionRecord; first: boolean }
  upgradeResult: UpgradeResultRecord
  library: LibraryRecord
  vpnConfig: VpnConfigRecord
  /** The server raised a wake (wake holders answered, SSE `sync` sent). */
  wake: { reason: string; holders: number; sseClients: number }
  command: { control: IncomingControl; sseClients: number }
  sseOpen: { id: number; stalled: boolean; dropAfterMs: number | null }
  sseClose: { id: number }
  wakeHold: { id: number }
  wakeRelease: { id: number; status: 200 | 204 | 0; reason: string | undefined }
  playerOpen: { sessionId: string }
  /** Every answered request (after the response finished or the socket closed). */
  request: { method: string; path: string; status: number }
}
