import { assign, enqueueActions, fromCallback, setup, type AnyActorLogic } from 'xstate'
import type { DownlinkMode, IncomingControl } from '../protocol/wire.js'

// The server-to-agent downlink (contract 3 "downlink" rows, 6.1, 6.2; protocol.md 3), a child
// of the control plane (invoke id and systemId `downlink`). Pure: the SSE stream and the wake
// long-poll are the named callback actors `sseStream` and `wakeListener`, bound to the real
// transport in src/system/control-plane-bindings.ts. It tells its parent two things only:
// `downlink.syncRequested` (an SSE `sync` event or a wake returned) and `downlink.command` (an
// SSE `command`, applied by the control plane's single control callback).
//
// Health, in the contract's words: a stream is healthy only if a frame arrives within the
// liveness timeout; the timer starts with the attempt and restarts on every frame, so a
// connect whose preamble ping was delivered and then went silent still times out (unhealthy).
//
// Failure counting (decided here, the contract is silent): every SSE attempt that ends - the
// liveness timer fired, the connect failed on every URL, the stream ended or dropped, a line or
// event over the limit - adds one to `failures`. An attempt *proves* itself when a frame arrives
// `livenessTimeoutMs` or later after the attempt started (it survived one full liveness window
// with frames, which the connect preamble alone cannot do); that frame resets `failures` to 0.
// In mode `auto`, reaching `sseFailuresBeforeFallback` falls back to the wake long-poll; after
// `longPollReprobeMs` of polling SSE is probed again with `failures` reset to 0 (so a re-probe
// gets the same number of attempts as the first connect). Mode `sse` reopens forever. Every
// reopen waits `sseReconnectDelayMs` doubled per consecutive failure (capped at
// `sseReconnectMaxMs`); a failed long-poll likewise waits `wakeRetryDelayMs` doubled per
// consecutive failure (capped at `wakeRetryMaxMs`). Mode `poll` never opens SSE.

export interface DownlinkSettings {
  livenessTimeoutMs: number
  sseFailuresBeforeFallback: number
  longPollReprobeMs: number
  sseReconnectDelayMs: number
  sseReconnectMaxMs: number
  wakeRetryDelayMs: number
  wakeRetryMaxMs: number
}

/** One SSE frame as the transport reports it (the same shape as the reader's `SseFrame`). */
export interface DownlinkFrame {
  event: string
  data: string
  id?: string
  comment?: boolean
}

export interface DownlinkInput {
  mode?: DownlinkMode
  settings: DownlinkSettings
}

export interface DownlinkContext {
  settings: DownlinkSettings
  mode: DownlinkMode
  /** Consecutive unhealthy SSE attempts (see the counting rule above). */
  failures: number
  /** SSE attempts started since the actor started. */
  attempts: number
  /** Frames delivered on the current attempt. */
  frames: number
  /** Times auto mode fell back to the long-poll. */
  fallbacks: number
  /** Wakes returned by the long-poll. */
  wakes: number
  /** Consecutive failed long-polls (the retry delay doubles with each). */
  wakeFailures: number
  /** The base URL of the current SSE connection, when connected. */
  connectedTo: string | undefined
  /** Why the last attempt or wake ended badly, for the debug tree. */
  lastProblem: string | undefined
}

export type DownlinkEvent =
  | { type: 'downlink.sse.connected'; baseUrl: string }
  | { type: 'downlink.sse.frame'; frame: DownlinkFrame }
  | { type: 'downlink.sse.ended' }
  | { type: 'downlink.sse.failed'; error: unknown }
  | { type: 'downlink.wake.woke'; reason: string }
  | { type: 'downlink.wake.ended' }
  | { type: 'downlink.wake.failed'; error: unknown }
  | { type: 'downlink.setMode'; mode: DownlinkMode }

/** What the downlink sends its parent (the control plane). */
export type DownlinkToParentEvent =
  | { type: 'downlink.syncRequested'; source: 'sse' | 'wake'; reason: string }
  | { type: 'downlink.command'; control: IncomingControl }

export type DownlinkLogLevel = 'debug' | 'info' | 'warn'

export function describeProblem(error: unknown): string {
  if (error instanceof Error) return `${(error as { code?: string }).code ?? error.name}: ${error.message}`
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  return String(error)
}

/** Parses the data of an SSE `command` event into a control, or explains why it is not one. */
export function parseCommandFrame(data: string): { control: IncomingControl } | { problem: string } {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return { problem: 'command data is not JSON' }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: 'command data is not a JSON object' }
  const record = value as Record<string, unknown>
  if (typeof record.id !== 'string' || record.id === '') return { problem: 'command has no id' }
  if (typeof record.kind !== 'string') return { problem: 'command has no kind' }
  return { control: record as IncomingControl }
}

function syncReason(data: string): string {
  try {
    const value = JSON.parse(data) as { reason?: unknown }
    if (value && typeof value.reason === 'string') return value.reason
  } catch {
    // a bare `sync` event still asks for a sync
  }
  return 'sse'
}

/**
 * `base` after the first consecutive failure, doubling with each further one, capped at `max`:
 * a server that refuses at once is not hammered every second (mode `sse` reopens forever).
 */
export function doublingDelayMs(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30))
}

const unbound = (name: string) =>
  fromCallback(() => {
    throw new Error(`actor "${name}" is not bound: provide it in src/system/control-plane-bindings.ts`)
  })

export const downlinkMachine = setup({
  types: {
    context: {} as DownlinkContext,
    input: {} as DownlinkInput,
    events: {} as DownlinkEvent,
  },
  actors: {
    sseStream: unbound('sseStream') as AnyActorLogic,
    wakeListener: unbound('wakeListener') as AnyActorLogic,
  },
  delays: {
    liveness: ({ context }) => context.settings.livenessTimeoutMs,
    longPollReprobe: ({ context }) => context.settings.longPollReprobeMs,
    sseReconnect: ({ context }) => doublingDelayMs(context.failures, context.settings.sseReconnectDelayMs, context.settings.sseReconnectMaxMs),
    wakeRetry: ({ context }) => doublingDelayMs(context.wakeFailures, context.settings.wakeRetryDelayMs, context.settings.wakeRetryMaxMs),
  },
  guards: {
    pollOnly: ({ context }) => context.mode === 'poll',
    isAuto: ({ context }) => context.mode === 'auto',
    failureCountReached: ({ context }) =>
      context.mode === 'auto' && context.failures >= context.settings.sseFailuresBeforeFallback,
  },
  actions: {
    // The parent is the control plane; a downlink started alone (a test) has none, and
    // sendParent would throw, so these check first. Tests may also replace them with spies.
    requestSync: enqueueActions(({ enqueue, self }, params: { source: 'sse' | 'wake'; reason: string }) => {
      if (self._parent) enqueue.sendParent({ type: 'downlink.syncRequested', ...params } satisfies DownlinkToParentEvent)
    }),
    deliverCommand: enqueueActions(({ enqueue, self }, params: { control: IncomingControl }) => {
      if (self._parent) enqueue.sendParent({ type: 'downlink.command', control: params.control } satisfies DownlinkToParentEvent)
    }),
    // Bound to the control plane's child logger in the bindings.
    log: (_, _params: { level: DownlinkLogLevel; msg: string; data?: Record<string, unknown> }) => {},
  },
}).createMachine({
  id: 'downlink',
  context: ({ input }) => ({
    settings: input.settings,
    mode: input.mode ?? 'auto',
    failures: 0,
    attempts: 0,
    frames: 0,
    fallbacks: 0,
    wakes: 0,
    wakeFailures: 0,
    connectedTo: undefined,
    lastProblem: undefined,
  }),
  initial: 'choosing',
  on: {
    'downlink.setMode': {
      target: '.choosing',
      actions: [
        assign({ mode: ({ event }) => event.mode, failures: 0 }),
        { type: 'log', params: ({ event }) => ({ level: 'info' as const, msg: 'downlink mode changed', data: { mode: event.mode } }) },
      ],
    },
  },
  states: {
    choosing: {
      always: [{ guard: 'pollOnly', target: 'poll' }, { target: 'sse' }],
    },
    sse: {
      initial: 'attempt',
      states: {
        attempt: {
          type: 'parallel',
          entry: assign({ attempts: ({ context }) => context.attempts + 1, frames: 0, connectedTo: undefined }),
          exit: assign({ connectedTo: undefined }),
          invoke: { id: 'sseStream', src: 'sseStream' },
          on: {
            // The server does not replay on connect what it pushed while no stream was open (a
            // `command` or `sync` raised during an outage, a restart or before the first connect
            // is gone), so every connect asks for one sync: it catches up on anything missed.
            // During a cycle the request coalesces into the one follow-up.
            'downlink.sse.connected': {
              actions: [
                assign({ connectedTo: ({ event }) => event.baseUrl }),
                { type: 'log', params: ({ event }) => ({ level: 'debug' as const, msg: 'downlink SSE connected', data: { baseUrl: event.baseUrl } }) },
                { type: 'requestSync', params: { source: 'sse' as const, reason: 'connected' } },
              ],
            },
            'downlink.sse.ended': {
              target: 'unhealthy',
              actions: assign({ lastProblem: 'the SSE stream ended' }),
            },
            'downlink.sse.failed': {
              target: 'unhealthy',
              actions: assign({ lastProblem: ({ event }) => describeProblem(event.error) }),
            },
            'xstate.error.actor.sseStream': {
              target: 'unhealthy',
              actions: assign({ lastProblem: ({ event }) => describeProblem((event as { error?: unknown }).error) }),
            },
          },
          states: {
            liveness: {
              initial: 'waiting',
              states: {
                waiting: {
                  after: {
                    liveness: {
                      target: '#downlink.sse.unhealthy',
                      actions: assign({ lastProblem: ({ context }) => `no SSE frame within ${context.settings.livenessTimeoutMs} ms` }),
                    },
                  },
                  on: {
                    // Re-entering restarts the liveness timer; the stream (invoked on the
                    // parallel parent) is untouched.
                    'downlink.sse.frame': {
                      target: 'waiting',
                      reenter: true,
                      actions: [
                        assign({ frames: ({ context }) => context.frames + 1 }),
                        enqueueActions(({ event, enqueue }) => {
                          const frame = event.frame
                          if (frame.event === 'sync') {
                            enqueue({ type: 'requestSync', params: { source: 'sse', reason: syncReason(frame.data) } })
                          } else if (frame.event === 'command') {
                            const parsed = parseCommandFrame(frame.data)
                            if ('control' in parsed) enqueue({ type: 'deliverCommand', params: { control: parsed.control } })
                            else enqueue({ type: 'log', params: { level: 'warn', msg: 'downlink SSE command ignored', data: { problem: parsed.problem } } })
                          }
                          // `ping` (and a heartbeat comment) is liveness only; unknown events too.
                        }),
                      ],
                    },
                  },
                },
              },
            },
            proof: {
              initial: 'probation',
              states: {
                probation: { after: { liveness: 'window' } },
                window: {
                  on: {
                    'downlink.sse.frame': {
                      target: 'proven',
                      actions: assign({ failures: 0 }),
                    },
                  },
                },
                proven: {},
              },
            },
          },
        },
        unhealthy: {
          entry: [
            assign({ failures: ({ context }) => context.failures + 1 }),
            { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'downlink SSE attempt unhealthy', data: { failures: context.failures, mode: context.mode, problem: context.lastProblem } }) },
          ],
          always: [
            {
              guard: 'failureCountReached',
              target: '#downlink.poll',
              actions: [
                assign({ fallbacks: ({ context }) => context.fallbacks + 1 }),
                { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'downlink falls back to the wake long-poll', data: { failures: context.failures, reprobeInMs: context.settings.longPollReprobeMs } }) },
              ],
            },
            { target: 'reopening' },
          ],
        },
        reopening: {
          after: { sseReconnect: 'attempt' },
        },
      },
    },
    poll: {
      initial: 'listening',
      after: {
        longPollReprobe: {
          guard: 'isAuto',
          target: 'sse',
          actions: [
            assign({ failures: 0 }),
            { type: 'log', params: { level: 'info', msg: 'downlink re-probes SSE' } },
          ],
        },
      },
      states: {
        listening: {
          invoke: { id: 'wakeListener', src: 'wakeListener' },
          on: {
            // A returned wake asks for a sync and reconnects (re-entering restarts the poll).
            'downlink.wake.woke': {
              target: 'listening',
              reenter: true,
              actions: [
                assign({ wakes: ({ context }) => context.wakes + 1, wakeFailures: 0 }),
                { type: 'requestSync', params: ({ event }) => ({ source: 'wake' as const, reason: event.reason }) },
              ],
            },
            'downlink.wake.ended': { target: 'listening', reenter: true, actions: assign({ wakeFailures: 0 }) },
            'downlink.wake.failed': {
              target: 'retrying',
              actions: assign({ wakeFailures: ({ context }) => context.wakeFailures + 1, lastProblem: ({ event }) => describeProblem(event.error) }),
            },
            'xstate.error.actor.wakeListener': {
              target: 'retrying',
              actions: assign({ wakeFailures: ({ context }) => context.wakeFailures + 1, lastProblem: ({ event }) => describeProblem((event as { error?: unknown }).error) }),
            },
          },
        },
        retrying: {
          after: { wakeRetry: 'listening' },
        },
      },
    },
  },
})
