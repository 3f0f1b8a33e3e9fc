// Fault injection for the agent routes (`/api/internal/agent/*`). The object is read on every
// request, so a test mutates `server.faults` at any time. Order per request: delay, injected
// 5xx, injected 401, then the real handling.
import { referenceFaultStatus } from '../config/defaults.js'

export interface FaultOptions {
  /** Wait this long before answering (or, for SSE and wake, before sending headers). */
  delayMs: number
  /** End each new agent SSE stream this many ms after its headers; 0 ends it right after the headers, before any frame. */
  sseDropAfterMs: number | null
  /** New agent SSE streams get headers and then nothing at all: no ping, no heartbeat, no events. */
  sseStall: boolean
  /** Agent SSE responses omit `X-Accel-Buffering: no` (as behind a buffering nginx). */
  omitAccelBufferingHeader: boolean
  /** Exact path -> how many of the next requests to it answer `failStatus`. */
  failNext: Record<string, number>
  failStatus: number
  /** How many of the next agent requests answer 401 whatever the credential. */
  unauthorizedCount: number
  /** Agent requests answer 401 while `now()` is below this epoch-ms time. */
  unauthorizedUntilMs: number
}

export function createFaults(initial: Partial<FaultOptions> = {}): FaultOptions {
  return {
    delayMs: 0,
    sseDropAfterMs: null,
    sseStall: false,
    omitAccelBufferingHeader: false,
    failNext: {},
    failStatus: referenceFaultStatus,
    unauthorizedCount: 0,
    unauthorizedUntilMs: 0,
    ...initial,
  }
}

/** Restores every field to "no fault", keeping the same object (tests may hold a reference). */
export function clearFaults(faults: FaultOptions): void {
  Object.assign(faults, createFaults())
}

export function takeInjectedFailure(faults: FaultOptions, path: string): number | undefined {
  const remaining = faults.failNext[path] ?? 0
  if (remaining <= 0) return undefined
  if (remaining === 1) delete faults.failNext[path]
  else faults.failNext[path] = remaining - 1
  return faults.failStatus
}

export function takeInjectedUnauthorized(faults: FaultOptions, nowMs: number): boolean {
  if (faults.unauthorizedCount > 0) {
    faults.unauthorizedCount -= 1
    return true
  }
  return nowMs < faults.unauthorizedUntilMs
}
