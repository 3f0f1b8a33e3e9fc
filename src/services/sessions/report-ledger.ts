// The `sessions` of the sync request (protocol.md 1; docs/sessions.md "Reporting"), fed by the
// session actors and read by the sync cycle.
import type { SessionReport, StreamSession } from '../../protocol/wire.js'

/**
 * The `sessions` of the sync request (protocol.md 1), fed by the session actors' `publish`
 * action. A session reports its state while its actor lives; `ended` is reported until one sync
 * carrying it succeeded, then the session is left out (docs/sessions.md "Reporting").
 */
export interface SessionReportLedger {
  publish(report: SessionReport): void
  /** A session actor crashed: reported failed while the server lists it, then ended once. */
  crashed(sessionId: string, error: string): void
  /** Called when a cycle starts (SyncStateSource.collect). */
  collect(): SessionReport[]
  /** Called after every successful sync with the server's list. */
  syncSucceeded(listed: readonly StreamSession[]): void
  /** Whether a session is still starting (not ready, failed or ended); no side effect (library scans pause meanwhile, issue 16). */
  anyStarting(): boolean
  /** Calls `listener` whenever a session starts; returns the unsubscribe (library scans stop their ffprobe, issue 16). */
  onStarting(listener: () => void): () => void
}

export function createSessionReportLedger(): SessionReportLedger {
  const entries = new Map<string, { report: SessionReport; finalSent: boolean; crashed: boolean }>()
  const startListeners = new Set<() => void>()
  return {
    publish(report) {
      const wasStarting = entries.get(report.sessionId)?.report.state === 'starting'
      entries.set(report.sessionId, { report, finalSent: false, crashed: false })
      if (report.state === 'starting' && !wasStarting) for (const listener of startListeners) listener()
    },
    onStarting(listener) {
      startListeners.add(listener)
      return () => startListeners.delete(listener)
    },
    crashed(sessionId, error) {
      const cacheHit = entries.get(sessionId)?.report.cacheHit ?? false
      entries.set(sessionId, { report: { sessionId, state: 'failed', cacheHit, error }, finalSent: false, crashed: true })
    },
    collect() {
      const reports: SessionReport[] = []
      for (const entry of entries.values()) {
        if (entry.report.state === 'ended') entry.finalSent = true
        reports.push({ ...entry.report })
      }
      return reports
    },
    anyStarting() {
      for (const entry of entries.values()) if (entry.report.state === 'starting') return true
      return false
    },
    syncSucceeded(listed) {
      const ids = new Set(listed.map((session) => session.sessionId))
      for (const [sessionId, entry] of entries) {
        if (entry.finalSent) entries.delete(sessionId)
        else if (entry.crashed && !ids.has(sessionId)) {
          // No actor will say `ended` for a crashed session: say it here, once.
          entries.set(sessionId, { report: { sessionId, state: 'ended', cacheHit: entry.report.cacheHit }, finalSent: false, crashed: false })
        }
      }
    },
  }
}
