// The registry of live stream sessions the stream server reads (docs/stream-server.md): the
// session actors put an entry in when their source is open and take it out when they end. The
// entry's shape lives here, below the server, because services fill registries too (the HLS
// inputs' loopback registry, src/services/hls/inputs.ts).
import type { StreamSession } from '../../protocol/wire.js'
import type { ByteSource } from '../media/byte-source.js'

export interface SessionEntry {
  session: StreamSession
  source: ByteSource
  /** Called when a GET is answered with body bytes (not HEAD, 304, 412, 416): a player plays. */
  onMedia?: () => void
}

/** The root's live sessions, as the stream server sees them. */
export interface SessionRegistry {
  get(sessionId: string): SessionEntry | undefined
}

export interface MutableSessionRegistry extends SessionRegistry {
  set(sessionId: string, entry: SessionEntry): void
  /** Removes the entry only when it is still `entry` (a newer one for the same id stays). */
  delete(sessionId: string, entry?: SessionEntry): void
  readonly size: number
}

export function createSessionRegistry(): MutableSessionRegistry {
  const entries = new Map<string, SessionEntry>()
  return {
    get: (sessionId) => entries.get(sessionId),
    set: (sessionId, entry) => {
      entries.set(sessionId, entry)
    },
    delete: (sessionId, entry) => {
      if (entry === undefined || entries.get(sessionId) === entry) entries.delete(sessionId)
    },
    get size() {
      return entries.size
    },
  }
}
