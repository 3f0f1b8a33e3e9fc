// Stream sessions created by a test or a person, and the server's `ready_at` (contract 2.2, 3).
// A live session is listed in every sync response to its agent; a removed one stops being listed,
// which tells the agent to stop it. A session created without an agent id binds to the first agent
// that syncs. `ready_at` is set once: a repeated session-ready keeps the first time.
import type { StreamSession } from '../protocol/wire.js'
import type { SessionTokens } from './tokens.js'

export interface SessionRecord {
  session: StreamSession
  agentId: string | undefined
  createdAt: string
  /** ISO 8601; null until the agent's first session-ready call. */
  readyAt: string | null
  removedAt: string | null
  tokens: SessionTokens
}

export type SessionInput = Partial<StreamSession> & { agentId?: string }

export class SessionStore {
  readonly #records = new Map<string, SessionRecord>()

  add(session: StreamSession, agentId: string | undefined, tokens: SessionTokens, nowIso: string): SessionRecord {
    const record: SessionRecord = { session, agentId, createdAt: nowIso, readyAt: null, removedAt: null, tokens }
    this.#records.set(session.sessionId, record)
    return record
  }

  has(sessionId: string): boolean {
    return this.#records.has(sessionId)
  }

  get(sessionId: string): SessionRecord | undefined {
    return this.#records.get(sessionId)
  }

  /** Live sessions only. */
  live(sessionId: string): SessionRecord | undefined {
    const record = this.#records.get(sessionId)
    return record && record.removedAt === null ? record : undefined
  }

  remove(sessionId: string, nowIso: string): SessionRecord | undefined {
    const record = this.live(sessionId)
    if (record) record.removedAt = nowIso
    return record
  }

  /** Sessions for one sync response; binds unbound live sessions to this agent. */
  listFor(agentId: string): StreamSession[] {
    const sessions: StreamSession[] = []
    for (const record of this.#records.values()) {
      if (record.removedAt !== null) continue
      if (record.agentId !== undefined && record.agentId !== agentId) continue
      record.agentId = agentId
      sessions.push(record.session)
    }
    return sessions
  }

  /** Returns the record and whether this call set `ready_at`; undefined for an unknown or removed session. */
  markReady(sessionId: string, nowIso: string): { record: SessionRecord; first: boolean } | undefined {
    const record = this.live(sessionId)
    if (!record) return undefined
    if (record.readyAt !== null) return { record, first: false }
    record.readyAt = nowIso
    return { record, first: true }
  }

  list(): SessionRecord[] {
    return [...this.#records.values()]
  }
}
