import { assign, fromCallback, fromPromise, not, setup, type AnyActorLogic } from 'xstate'
import { doublingDelayMs } from './downlink.machine.js'

// The managed WireGuard split tunnel (contract 1.6, protocol.md 7.3 and vpn-config; docs/vpn.md).
//
//   off -> fetching (vpn-config with Bearer and agent id, never probe) -> tunnel.connecting
//       -> tunnel.up <-> tunnel.down;  a refusal or failure -> failed -> (after a delay) fetching
//
// `route` is where torrent peer and tracker traffic goes: `clear` (VPN off, or a typed refusal:
// disabled / not_provisioned / slot_on_device, contract 7) or `tunnel`. It turns to `tunnel` the
// moment the VPN is enabled, before any answer, and stays there through connecting, down and
// every retry of a non-typed failure: once the user asked for the tunnel, traffic waits for it
// and never falls back to the clear silently. The `gate` is open exactly while `tunnel.up`.
//
// Up (protocol.md 7.3): a handshake under handshakeMaxAgeMs old and no handshake retry unanswered
// for over retryUnansweredMaxMs; the `tunnel` actor samples both every second. All I/O (the
// fetch, the tunnel, routing the engine, the log) is in named actors and actions bound in
// src/system/vpn-part.ts.

export type VpnRoute = 'clear' | 'tunnel'
export type VpnRefusalCode = 'disabled' | 'not_provisioned' | 'slot_on_device'
export type VpnStateName = 'off' | 'fetching' | 'connecting' | 'up' | 'down' | 'failed'

export interface VpnSettings {
  handshakeMaxAgeMs: number
  retryUnansweredMaxMs: number
  refetchAfterMs: number
  retryBaseMs: number
  retryMaxMs: number
  refusalRetryMs: number
}

export interface VpnInput {
  enabled: boolean
  agentId: string
  settings: VpnSettings
}

/**
 * What the vpn-config fetch resolves with. `privateConfig` holds the WireGuard private key: the
 * name makes /debug/actors and /debug/events redact it (src/system/summarize.ts).
 */
export interface VpnConfigAnswer {
  privateConfig: string
  exitServer: string
}

/** What the fetch rejects with: a typed refusal, or any other failure (message only). */
export interface VpnFetchFailure {
  refusal?: VpnRefusalCode
  message: string
}

export interface VpnContext {
  enabled: boolean
  agentId: string
  settings: VpnSettings
  route: VpnRoute
  /** The wg-quick text (its name keeps it out of the debug endpoints). */
  privateConfig: string | undefined
  exitServer: string
  /** The refusal code, or the failure's message; undefined when nothing failed. */
  error: string | undefined
  /** The last failure was a typed refusal (its retry waits refusalRetryMs). */
  refused: boolean
  /** The typed refusal the clear route stands on, until a config is accepted or the VPN is turned off. */
  refusal: VpnRefusalCode | undefined
  /** Non-typed failures in a row (the retry backoff). */
  failures: number
}

export type VpnEvent =
  | { type: 'vpn.enable' }
  | { type: 'vpn.disable' }
  /** From the `tunnel` actor, every sample interval. null: no handshake completed yet. */
  | { type: 'vpn.sample'; handshakeAgeMs: number | null; retryingForMs: number }
  /** From the `tunnel` actor: it could not be created (bad config, socket). */
  | { type: 'vpn.tunnelFailed'; message: string }

export interface TunnelActorInput {
  privateConfig: string
}

const unbound = (name: string) =>
  fromCallback(() => {
    throw new Error(`actor "${name}" is not bound: provide it in src/system/vpn-part.ts`)
  })

function failureOf(error: unknown): VpnFetchFailure {
  const failure = error as Partial<VpnFetchFailure> | undefined
  return { ...(failure?.refusal ? { refusal: failure.refusal } : {}), message: String(failure?.message ?? error) }
}

function refusalReport(error: unknown, previous: VpnContext): { level: 'info' | 'warn'; msg: string; error?: string } {
  const failure = failureOf(error)
  return {
    // The same refusal asked again (every refusalRetryMs) is not news: said once at warn.
    level: previous.refused && previous.error === failure.refusal ? 'info' : 'warn',
    msg: failure.refusal === 'slot_on_device'
      ? 'the WireGuard slot of this account is held by another agent: run OpenVPN on its own host; torrents download in the clear'
      : `vpn-config refused (${failure.refusal}): torrents download in the clear`,
    ...(failure.refusal ? { error: failure.refusal } : {}),
  }
}

export const vpnMachine = setup({
  types: {
    context: {} as VpnContext,
    input: {} as VpnInput,
    events: {} as VpnEvent,
  },
  actors: {
    fetchConfig: fromPromise<VpnConfigAnswer, { agentId: string }>(() => Promise.reject(new Error('fetchConfig is not bound'))),
    tunnel: unbound('tunnel') as AnyActorLogic,
  },
  delays: {
    retry: ({ context }) =>
      context.refused ? context.settings.refusalRetryMs : doublingDelayMs(context.failures, context.settings.retryBaseMs, context.settings.retryMaxMs),
    refetch: ({ context }) => context.settings.refetchAfterMs,
  },
  guards: {
    healthy: ({ context, event }) => vpnMachineHealthy(context, event),
    refusal: ({ event }) => failureOf((event as { error?: unknown }).error).refusal !== undefined,
  },
  actions: {
    // Bound in vpn-part.ts: the torrent engine's route, the tunnel gate, the log, a sync now.
    applyRoute: (_, _params: { route: VpnRoute }) => {},
    setGate: (_, _params: { open: boolean }) => {},
    report: (_, _params: { level: 'info' | 'warn'; msg: string; error?: string }) => {},
    /** Something the server must see at once (VPNActive changed): a sync now. */
    changed: (_, _params: { reason: string }) => {},
    // A typed refusal (of the first fetch, or of the claim once up): the clear route, the reason logged.
    recordRefusal: assign(({ event }) => ({
      error: failureOf((event as { error?: unknown }).error).refusal,
      refused: true,
      refusal: failureOf((event as { error?: unknown }).error).refusal,
      failures: 0,
      route: 'clear' as const,
      exitServer: '',
    })),
  },
}).createMachine({
  id: 'vpn',
  context: ({ input }) => ({
    enabled: input.enabled,
    agentId: input.agentId,
    settings: input.settings,
    route: 'clear',
    privateConfig: undefined,
    exitServer: '',
    error: undefined,
    refused: false,
    refusal: undefined,
    failures: 0,
  }),
  initial: 'start',
  on: {
    'vpn.disable': {
      target: '.off',
      actions: assign({ enabled: false }),
    },
  },
  states: {
    start: {
      always: [
        { guard: ({ context }) => context.enabled, target: 'fetching', actions: [assign({ route: 'tunnel' }), { type: 'applyRoute', params: { route: 'tunnel' } }] },
        { target: 'off' },
      ],
    },
    off: {
      entry: [
        assign({ route: 'clear', privateConfig: undefined, exitServer: '', error: undefined, refused: false, refusal: undefined, failures: 0 }),
        { type: 'applyRoute', params: { route: 'clear' } },
        { type: 'report', params: { level: 'info', msg: 'VPN off: torrent traffic goes in the clear' } },
      ],
      on: {
        // From the moment the user asks for the tunnel, torrent traffic waits for it.
        'vpn.enable': { target: 'fetching', actions: [assign({ enabled: true, route: 'tunnel' }), { type: 'applyRoute', params: { route: 'tunnel' } }] },
      },
    },
    fetching: {
      // The route stays what it was: held for the tunnel, or the clear of an earlier typed
      // refusal until a config is accepted. A failure that is not a typed refusal never changes it.
      invoke: {
        id: 'fetchConfig',
        src: 'fetchConfig',
        input: ({ context }) => ({ agentId: context.agentId }),
        onDone: {
          target: 'tunnel',
          actions: assign({
            privateConfig: ({ event }) => event.output.privateConfig,
            exitServer: ({ event }) => event.output.exitServer,
            error: undefined,
            refused: false,
            refusal: undefined,
            failures: 0,
          }),
        },
        onError: [
          {
            guard: 'refusal',
            target: 'failed',
            actions: [{ type: 'report', params: ({ context, event }) => refusalReport(event.error, context) }, 'recordRefusal', { type: 'applyRoute', params: { route: 'clear' } }],
          },
          {
            target: 'failed',
            actions: [
              assign({ error: ({ event }) => failureOf(event.error).message, refused: false, failures: ({ context }) => context.failures + 1 }),
              {
                type: 'report',
                params: ({ event }) => ({
                  level: 'warn' as const,
                  msg: 'vpn-config could not be fetched; torrent traffic waits for the tunnel and the fetch is retried',
                  error: failureOf(event.error).message,
                }),
              },
            ],
          },
        ],
      },
    },
    tunnel: {
      entry: [assign({ route: 'tunnel' }), { type: 'applyRoute', params: { route: 'tunnel' } }],
      invoke: {
        id: 'tunnel',
        src: 'tunnel',
        input: ({ context }: { context: VpnContext }): TunnelActorInput => ({ privateConfig: context.privateConfig ?? '' }),
      },
      on: {
        'vpn.tunnelFailed': {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => event.message, refused: false, failures: ({ context }) => context.failures + 1 }),
            { type: 'report', params: ({ event }) => ({ level: 'warn' as const, msg: 'the tunnel could not start; torrent traffic waits and the config is fetched again', error: event.message }) },
          ],
        },
      },
      initial: 'connecting',
      states: {
        connecting: {
          on: { 'vpn.sample': { guard: 'healthy', target: 'up' } },
          after: { refetch: '#vpn.fetching' },
        },
        up: {
          entry: [
            { type: 'setGate', params: { open: true } },
            { type: 'report', params: { level: 'info', msg: 'VPN up: torrent peer and tracker traffic goes through the tunnel' } },
            { type: 'changed', params: { reason: 'vpn up' } },
          ],
          exit: [{ type: 'setGate', params: { open: false } }, { type: 'changed', params: { reason: 'vpn no longer up' } }],
          // Our own syncs while connecting (VPNActive false) freed the slot we claimed (protocol.md
          // vpn-config): claim it again now that we are up; another agent holding it by now means
          // the clear, as at the first fetch.
          invoke: {
            id: 'claim',
            src: 'fetchConfig',
            input: ({ context }: { context: VpnContext }) => ({ agentId: context.agentId }),
            onDone: { actions: assign({ exitServer: ({ event }) => event.output.exitServer }) },
            onError: [
              {
                guard: 'refusal',
                target: '#vpn.failed',
                actions: [{ type: 'report', params: ({ context, event }) => refusalReport(event.error, context) }, 'recordRefusal', { type: 'applyRoute', params: { route: 'clear' } }],
              },
              { actions: { type: 'report', params: ({ event }) => ({ level: 'warn' as const, msg: 'claiming the VPN slot again failed; staying up', error: failureOf(event.error).message }) } },
            ],
          },
          on: { 'vpn.sample': { guard: not('healthy'), target: 'down' } },
        },
        down: {
          entry: { type: 'report', params: { level: 'warn', msg: 'VPN down: torrent traffic waits until the tunnel is back' } },
          on: { 'vpn.sample': { guard: 'healthy', target: 'up' } },
          after: { refetch: '#vpn.fetching' },
        },
      },
    },
    failed: {
      after: { retry: 'fetching' },
    },
  },
})

/** Up per protocol.md 7.3: a handshake younger than the max age and no retry unanswered for too long. */
export function vpnMachineHealthy(context: Pick<VpnContext, 'settings'>, event: VpnEvent): boolean {
  return event.type === 'vpn.sample' &&
    event.handshakeAgeMs !== null &&
    event.handshakeAgeMs < context.settings.handshakeMaxAgeMs &&
    event.retryingForMs <= context.settings.retryUnansweredMaxMs
}

/** protocol.md 7.3 `state` of a vpn actor snapshot value. */
export function vpnStateName(value: unknown): VpnStateName {
  if (value === 'fetching' || value === 'failed' || value === 'off') return value
  if (typeof value === 'object' && value !== null && 'tunnel' in value) {
    const inner = (value as { tunnel: unknown }).tunnel
    if (inner === 'up' || inner === 'down' || inner === 'connecting') return inner
  }
  return 'off'
}
