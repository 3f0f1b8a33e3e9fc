// The registry of live stream sessions the stream server reads (docs/stream-server.md): the
// session actors put an entry in when their source is open and take it out when they end.
import type { SessionEntry, SessionRegistry } from '../../server/stream-server.js'

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
