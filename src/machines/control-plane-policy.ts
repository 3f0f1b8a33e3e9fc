import { describeProblem } from './downlink.machine.js'
import type { ControlPlaneContext } from './control-plane.machine.js'

// The control plane's pure policy: how an error is classified, how long to wait after a failure,
// how often to sync. Split from the machine so each reads on its own; the machine re-exports it.

export interface ProblemSummary {
  code: string | undefined
  message: string
}

export function problemOf(error: unknown): ProblemSummary {
  const code = (error as { code?: unknown } | undefined)?.code
  return { code: typeof code === 'string' ? code : undefined, message: describeProblem(error) }
}

function errorDetail(error: unknown, key: string): unknown {
  const direct = (error as Record<string, unknown> | undefined)?.[key]
  if (direct !== undefined) return direct
  return ((error as { details?: Record<string, unknown> } | undefined)?.details ?? {})[key]
}

const isCode = (error: unknown, code: string) => problemOf(error).code === code

/** A 401: bad credential. */
export const isUnauthorizedError = (error: unknown) => isCode(error, 'MA_ERR_SERVER_UNAUTHORIZED')
/** A 426: the agent is older than the server's floor. */
export const isTooOldError = (error: unknown) => isCode(error, 'MA_ERR_AGENT_TOO_OLD')
/** The server does not know this agent (any more): register again. */
export const isUnknownAgentError = (error: unknown) =>
  isCode(error, 'MA_ERR_SERVER_REQUEST') && (errorDetail(error, 'serverCode') === 'unknown_agent' || errorDetail(error, 'status') === 404)

/**
 * Exponential step `base * 2^(failures-1)` capped at `max`, of which `1 - jitterRatio` is kept
 * and up to `jitterRatio` is drawn from `random` (in [0, 1)). Never above `max`.
 */
export function backoffDelayMs(failures: number, baseMs: number, maxMs: number, jitterRatio: number, random: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30)
  const step = Math.min(maxMs, baseMs * 2 ** exponent)
  const r = Math.min(Math.max(random, 0), 1)
  return Math.min(maxMs, Math.round(step * (1 - jitterRatio) + step * jitterRatio * r))
}

export function syncIntervalMs(context: Pick<ControlPlaneContext, 'watching' | 'sessionsLive' | 'settings'>): number {
  return context.watching || context.sessionsLive ? context.settings.syncIntervalWatchingMs : context.settings.syncIntervalIdleMs
}

type DelayArgs = { context: ControlPlaneContext }

/** The named delays; the jitter source is injected (the bindings pass Math.random or a seed). */
export function controlPlaneDelays(random: () => number) {
  return {
    syncInterval: ({ context }: DelayArgs) => syncIntervalMs(context),
    syncBackoff: ({ context }: DelayArgs) =>
      backoffDelayMs(context.syncFailures, context.settings.syncFailureBackoffBaseMs, context.settings.syncFailureBackoffMaxMs, context.settings.backoffJitterRatio, random()),
    registerBackoff: ({ context }: DelayArgs) =>
      backoffDelayMs(context.registerFailures, context.settings.registerRetryBaseMs, context.settings.registerRetryMaxMs, context.settings.backoffJitterRatio, random()),
    unauthorizedRetry: ({ context }: DelayArgs) => context.settings.unauthorizedRetryMs,
    versionTooOldRetry: ({ context }: DelayArgs) => context.settings.versionTooOldRetryMs,
    downlinkRestart: ({ context }: DelayArgs) => context.settings.sseReconnectDelayMs,
  }
}
