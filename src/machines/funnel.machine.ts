// The public tunnel's supervisor (issue 14; contract 1.7, 2.4 FunnelURL, 3 tunnel row, 8;
// protocol.md 7.4; docs/funnel.md). Pure: getting the helper file (`ensureHelper`) and running it
// (`helper`, a callback actor whose cleanup kills the process) are named actors bound in
// src/system/funnel-part.ts; every delay comes from the input, so tests run hours in ms.
//
//   off <-> on
//     on: preparing (ensureHelper) -> live.starting (helper runs) -> live.up (URL reported)
//         any exit, failure or start timeout -> backoff (2 s, 4 s, ... 5 min) -> preparing
//   An hour in `up` resets the backoff; a new URL while up (rotation) is reported again.
//   `reportUrl` is called with every change of the URL, '' included, the moment it happens.
import { assign, fromCallback, fromPromise, setup } from 'xstate'

export interface FunnelInput {
  enabled: boolean
  restartBaseMs: number
  restartMaxMs: number
  /** Floor of the delay after the provider rate-limited the helper (429 / 1015). */
  rateLimitedRestartMs: number
  healthyResetMs: number
  startTimeoutMs: number
}

export interface FunnelContext extends FunnelInput {
  url: string
  /** Failures since the last healthy hour: the exponent of the next backoff. */
  failures: number
  /** Helper restarts since the agent started (status). */
  restarts: number
  rateLimited: boolean
  lastError: string | undefined
  helperPath: string | undefined
}

export type FunnelEvent =
  | { type: 'funnel.enable' }
  | { type: 'funnel.disable' }
  | { type: 'funnel.helper.ready'; url: string }
  | { type: 'funnel.helper.exited'; code: number | null; signal: string | null; rateLimited: boolean; stderrTail: string[] }

export interface HelperInput {
  helperPath: string
}

/** The backoff before restart number `failures` (1-based): base * 2^(failures-1), capped; rate-limited: at least the floor. */
export function funnelRestartDelayMs(context: Pick<FunnelContext, 'restartBaseMs' | 'restartMaxMs' | 'rateLimitedRestartMs' | 'failures' | 'rateLimited'>): number {
  const exponent = Math.min(Math.max(context.failures - 1, 0), 30)
  const delay = Math.min(context.restartMaxMs, context.restartBaseMs * 2 ** exponent)
  return context.rateLimited ? Math.min(context.restartMaxMs, Math.max(delay, context.rateLimitedRestartMs)) : delay
}

/** The state name `funnel status` shows (protocol.md 7.4; `FunnelStatus.state` in src/protocol/wire.ts). */
export type FunnelStateName = 'off' | 'preparing' | 'starting' | 'up' | 'backoff'

export const funnelMachine = setup({
  types: {
    context: {} as FunnelContext,
    events: {} as FunnelEvent,
    input: {} as FunnelInput,
  },
  actors: {
    ensureHelper: fromPromise<string, void>(async () => {
      throw new Error('ensureHelper is not bound')
    }),
    helper: fromCallback<FunnelEvent, HelperInput>(() => undefined),
  },
  guards: {
    enabled: ({ context }) => context.enabled,
    urlChanged: ({ context, event }) => event.type === 'funnel.helper.ready' && event.url !== context.url,
  },
  actions: {
    /** Bound by the part: the sync state source and an immediate sync. */
    reportUrl: (_, _params: { url: string }) => {},
    /** One more failure: the exponent of the next backoff, and why (for status and the log). */
    countFailure: assign(({ context, event }) => ({
      failures: context.failures + 1,
      rateLimited: event.type === 'funnel.helper.exited' && event.rateLimited,
      lastError: failureReason(event),
    })),
    /** Bound by the part: logs `lastError` and the delay before the restart. */
    logExit: () => {},
  },
  delays: {
    restart: ({ context }) => funnelRestartDelayMs(context),
    healthyReset: ({ context }) => context.healthyResetMs,
    startTimeout: ({ context }) => context.startTimeoutMs,
  },
}).createMachine({
  id: 'funnel',
  description: 'Public tunnel supervisor: gets the helper, runs it, reports its URL, restarts it with backoff (protocol.md 7.4).',
  context: ({ input }) => ({ ...input, url: '', failures: 0, restarts: 0, rateLimited: false, lastError: undefined, helperPath: undefined }),
  initial: 'booting',
  states: {
    booting: {
      always: [{ guard: 'enabled', target: 'on' }, { target: 'off' }],
    },
    off: {
      entry: assign({ enabled: false }),
      on: { 'funnel.enable': { target: 'on' } },
    },
    on: {
      entry: assign({ enabled: true }),
      initial: 'preparing',
      // Leaving `on` leaves `live` too: the helper is killed and the URL cleared there.
      on: { 'funnel.disable': { target: 'off' } },
      states: {
        preparing: {
          invoke: {
            id: 'ensureHelper',
            src: 'ensureHelper',
            onDone: { target: 'live', actions: assign({ helperPath: ({ event }) => event.output }) },
            onError: {
              target: 'backoff',
              actions: ['countFailure', 'logExit'],
            },
          },
        },
        live: {
          invoke: {
            id: 'helper',
            src: 'helper',
            input: ({ context }): HelperInput => ({ helperPath: context.helperPath ?? '' }),
            // The binding threw while starting the process: counted like an exit.
            onError: {
              target: 'backoff',
              actions: ['countFailure', 'logExit'],
            },
          },
          initial: 'starting',
          on: {
            'funnel.helper.exited': {
              target: 'backoff',
              actions: ['countFailure', 'logExit'],
            },
          },
          // The URL is cleared the moment the helper is gone, before the backoff starts.
          exit: [assign({ url: '' }), { type: 'reportUrl', params: { url: '' } }],
          states: {
            starting: {
              on: {
                'funnel.helper.ready': {
                  target: 'up',
                  actions: [assign({ url: ({ event }) => event.url }), { type: 'reportUrl', params: ({ event }) => ({ url: event.url }) }],
                },
              },
              after: {
                startTimeout: {
                  target: '#funnel.on.backoff',
                  actions: ['countFailure', 'logExit'],
                },
              },
            },
            up: {
              after: {
                // Healthy for an hour: the next failure starts the backoff at the base again.
                healthyReset: { actions: assign({ failures: 0, rateLimited: false }) },
              },
              on: {
                // The provider rotated the tunnel: the helper printed (and confirmed) a new URL.
                'funnel.helper.ready': {
                  guard: 'urlChanged',
                  actions: [assign({ url: ({ event }) => event.url }), { type: 'reportUrl', params: ({ event }) => ({ url: event.url }) }],
                },
              },
            },
          },
        },
        backoff: {
          after: {
            restart: { target: 'preparing', actions: assign({ restarts: ({ context }) => context.restarts + 1 }) },
          },
        },
      },
    },
  },
})

/** The state name of a funnel snapshot value. */
export function funnelStateName(value: unknown): FunnelStateName {
  if (value === 'off' || value === 'booting') return 'off'
  const on = (value as { on?: unknown } | undefined)?.on
  if (on === 'preparing' || on === 'backoff') return on
  const live = (on as { live?: unknown } | undefined)?.live
  return live === 'up' ? 'up' : 'starting'
}

function failureReason(event: { type: string }): string {
  if (event.type === 'funnel.helper.exited') {
    const exit = event as Extract<FunnelEvent, { type: 'funnel.helper.exited' }>
    return `helper exited (${exit.signal ?? `code ${String(exit.code)}`})${exit.rateLimited ? ', rate-limited by the provider' : ''}: ${exit.stderrTail.slice(-3).join(' | ')}`
  }
  if ('error' in event) return describe((event as { error: unknown }).error)
  return 'the helper gave no ready URL in time'
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${(error as { code?: string }).code ?? error.name}: ${error.message}`
  return String(error)
}
