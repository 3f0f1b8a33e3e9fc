import { assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate'
import type {
  Control,
  DownlinkMode,
  IncomingControl,
  RegisterResponse,
  StreamSession,
  SyncAction,
  SyncResponse,
  UpgradeOffer,
} from '../protocol/wire.js'
import { acknowledge, admitIncoming, emptyLedger, type ControlLedger } from './control-ledger.js'
import { downlinkMachine, type DownlinkSettings } from './downlink.machine.js'
import {
  controlPlaneDelays,
  isTooOldError,
  isUnauthorizedError,
  isUnknownAgentError,
  problemOf,
  type ProblemSummary,
} from './control-plane-policy.js'

export * from './control-plane-policy.js'

// The agent's side of the control plane (contract 1.1, 2.4, 2.5, 6; protocol.md 1, 3): register,
// then the sync loop, with the downlink as a child. Pure: the server calls are the named
// promise actors `register` and `sync`, the handlers are named actions (`applyControl`,
// `applyAction`, `deliverStreamSessions`, `deliverUpgrade`, `reportRegistered`, `log`), all
// bound in src/system/control-plane-bindings.ts. See docs/control-plane.md for the rules:
// - registering retries with capped, jittered backoff; 401 and 426 retry slowly and log what to do;
// - sync interval: 3 s while the last response said `watching` or a stream session is live,
//   else 60 s; a wake, an SSE `sync`, a local change (`controlPlane.changed`) or a newly applied
//   control starts a cycle at once; cycles never overlap; any number of requests during a cycle
//   give exactly one follow-up cycle;
// - failures back off with jitter (capped); 401/426 during sync retry slowly; a server that no
//   longer knows the agent (404 / `unknown_agent`) sends it back to registering;
// - `controlPlane.reregister` (what only the register body carries changed, e.g. `hwAccel` after a
//   re-probe) registers again between cycles: at once when idle, else once the cycle in flight
//   settles; one asked for during a register attempt gives one more register after it.

export interface ControlPlaneSettings extends DownlinkSettings {
  syncIntervalWatchingMs: number
  syncIntervalIdleMs: number
  syncFailureBackoffBaseMs: number
  syncFailureBackoffMaxMs: number
  registerRetryBaseMs: number
  registerRetryMaxMs: number
  unauthorizedRetryMs: number
  versionTooOldRetryMs: number
  backoffJitterRatio: number
  appliedControlMemory: number
  unknownControlKindMemory: number
}

export interface ControlPlaneInput {
  /** Persisted in the state dir (protocol.md 1 RegisterRequest). */
  agentId: string
  /** `[daemon] downlink`. */
  downlinkMode?: DownlinkMode
  settings: ControlPlaneSettings
}

/** What the bound `sync` actor resolves with. */
export interface SyncCycleResult {
  response: SyncResponse
  /** Whether the request reported a session `starting` or `ready` (a stream is live). */
  sessionsLive: boolean
  /**
   * This sync's number, counted when it gathered its state (before its request left): an answer
   * is labelled with the sync that asked, never with a count read later (`media-agent update`
   * waits for a sync started after it asked). Absent from bindings that do not count.
   */
  cycle?: number
}

export interface SyncActorInput {
  agentId: string
  appliedControls: string[]
}

export interface RegisterActorInput {
  agentId: string
}

export interface ControlPlaneContext {
  settings: ControlPlaneSettings
  agentId: string
  downlinkMode: DownlinkMode
  minAgentVersion: string | undefined
  registerFailures: number
  syncFailures: number
  watching: boolean
  sessionsLive: boolean
  /** A cycle was asked for while one was in flight: run exactly one more when it settles. */
  followUp: boolean
  /** The acknowledgements the in-flight sync carries. */
  inFlightAcks: string[]
  ledger: ControlLedger
  /** Completed sync cycles. */
  cycles: number
  lastProblem: ProblemSummary | undefined
  /** Why the agent must register again once the current cycle settles (set by `controlPlane.reregister`). */
  reregister: string | undefined
}

export type ControlPlaneEvent =
  | { type: 'controlPlane.changed'; reason?: string }
  | { type: 'controlPlane.control'; control: IncomingControl }
  | { type: 'controlPlane.setDownlinkMode'; mode: DownlinkMode }
  /** The register body changed (protocol.md 1: only RegisterRequest carries `hwAccel`): send it again. */
  | { type: 'controlPlane.reregister'; reason: string }
  | { type: 'downlink.syncRequested'; source: 'sse' | 'wake'; reason: string }
  | { type: 'downlink.command'; control: IncomingControl }

export type ControlPlaneLogLevel = 'debug' | 'info' | 'warn' | 'error'

const downlinkModes: readonly DownlinkMode[] = ['auto', 'sse', 'poll']


const unbound = <TOutput, TInput>(name: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor "${name}" is not bound: provide it in src/system/control-plane-bindings.ts`)
  })

/** The part of XState's `enqueue` that `admit` uses (its full generic type is unwieldy). */
interface Enqueue {
  (action: any): void
  assign(assignment: any): void
  sendTo(to: any, event: any): void
}

/**
 * The single control callback: controls and actions from a sync response and an SSE command
 * come through here. Returns the new ledger and how many items were new.
 */
function admit(
  enqueue: Enqueue,
  check: (guard: any) => boolean,
  context: ControlPlaneContext,
  ledger: ControlLedger,
  incoming: { controls?: readonly unknown[]; actions?: readonly unknown[] },
  origin: 'sync' | 'sse' | 'local',
): { ledger: ControlLedger; admitted: number } {
  const result = admitIncoming(ledger, incoming, { memory: context.settings.appliedControlMemory, unknownKindMemory: context.settings.unknownControlKindMemory })
  for (const effect of result.effects) {
    if (effect.type === 'action') {
      enqueue({ type: 'applyAction', params: { action: effect.action, origin } })
    } else if (effect.type === 'control') {
      enqueue({ type: 'applyControl', params: { control: effect.control, origin } })
      const control = effect.control
      if (control.kind === 'set_downlink' && downlinkModes.includes(control.mode)) {
        enqueue.assign({ downlinkMode: control.mode })
        if (check(stateIn('#controlPlane.running.downlink.active'))) enqueue.sendTo('downlink', { type: 'downlink.setMode', mode: control.mode })
      }
    } else {
      enqueue({ type: 'log', params: { level: effect.level, msg: effect.msg, data: { ...effect.data, origin } } })
    }
  }
  return { ledger: result.ledger, admitted: result.admitted }
}

export const controlPlaneMachine = setup({
  types: {
    context: {} as ControlPlaneContext,
    input: {} as ControlPlaneInput,
    events: {} as ControlPlaneEvent,
  },
  actors: {
    register: unbound<RegisterResponse, RegisterActorInput>('register'),
    sync: unbound<SyncCycleResult, SyncActorInput>('sync'),
    downlink: downlinkMachine,
  },
  delays: controlPlaneDelays(() => 0.5),
  guards: {
    followUpWanted: ({ context }) => context.followUp,
    reregisterWanted: ({ context }) => context.reregister !== undefined,
  },
  actions: {
    // All bound in the bindings; no-ops here so the machine stays pure.
    applyControl: (_, _params: { control: Control; origin: 'sync' | 'sse' | 'local' }) => {},
    applyAction: (_, _params: { action: SyncAction; origin: 'sync' | 'sse' | 'local' }) => {},
    deliverStreamSessions: (_, _params: { sessions: StreamSession[] }) => {},
    deliverUpgrade: (_, _params: { requested: boolean; offer: UpgradeOffer | undefined; cycle: number | undefined }) => {},
    reportRegistered: (_, _params: RegisterResponse) => {},
    log: (_, _params: { level: ControlPlaneLogLevel; msg: string; data?: Record<string, unknown> }) => {},
  },
}).createMachine({
  id: 'controlPlane',
  context: ({ input }) => {
    if (!input || typeof input.agentId !== 'string' || !input.settings) {
      throw new Error('controlPlane needs input { agentId, settings }: build it with controlPlaneInput() from src/system/control-plane-bindings.ts')
    }
    return {
      settings: input.settings,
      agentId: input.agentId,
      downlinkMode: input.downlinkMode ?? 'auto',
      minAgentVersion: undefined,
      registerFailures: 0,
      syncFailures: 0,
      watching: false,
      sessionsLive: false,
      followUp: false,
      inFlightAcks: [],
      ledger: emptyLedger(),
      cycles: 0,
      lastProblem: undefined,
      reregister: undefined,
    }
  },
  // Wherever it arrives (a cycle in flight, a backoff, a register attempt): remembered, and acted
  // on where a register fits in, so it never cuts a sync short.
  on: {
    'controlPlane.reregister': { actions: assign({ reregister: ({ event }) => event.reason }) },
  },
  initial: 'registering',
  states: {
    registering: {
      initial: 'attempt',
      states: {
        attempt: {
          // This attempt collects the register body afresh, so it carries every change asked so far.
          entry: assign({ reregister: undefined }),
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ context }): RegisterActorInput => ({ agentId: context.agentId }),
            onDone: {
              target: '#controlPlane.running',
              actions: [
                assign(({ event }) => {
                  const response = event.output
                  return { agentId: response.agentId, minAgentVersion: response.minAgentVersion, registerFailures: 0, lastProblem: undefined }
                }),
                { type: 'reportRegistered', params: ({ event }) => event.output },
                { type: 'log', params: ({ context }) => ({ level: 'info' as const, msg: 'registered with the web server', data: { agentId: context.agentId, minAgentVersion: context.minAgentVersion } }) },
              ],
            },
            onError: [
              {
                guard: ({ event }) => isUnauthorizedError(event.error),
                target: 'unauthorized',
                actions: [
                  assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: 'log', params: ({ context }) => ({ level: 'error' as const, msg: context.lastProblem?.message ?? 'unauthorized', data: { code: context.lastProblem?.code, retryInMs: context.settings.unauthorizedRetryMs } }) },
                ],
              },
              {
                guard: ({ event }) => isTooOldError(event.error),
                target: 'tooOld',
                actions: [
                  assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: 'log', params: ({ context }) => ({ level: 'error' as const, msg: context.lastProblem?.message ?? 'agent too old', data: { code: context.lastProblem?.code, retryInMs: context.settings.versionTooOldRetryMs } }) },
                ],
              },
              {
                target: 'backoff',
                actions: [
                  assign({ registerFailures: ({ context }) => context.registerFailures + 1, lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'register failed; retrying with backoff', data: { failures: context.registerFailures, problem: context.lastProblem } }) },
                ],
              },
            ],
          },
        },
        backoff: { after: { registerBackoff: 'attempt' } },
        unauthorized: { after: { unauthorizedRetry: 'attempt' } },
        tooOld: { after: { versionTooOldRetry: 'attempt' } },
      },
    },
    running: {
      type: 'parallel',
      on: {
        'controlPlane.setDownlinkMode': {
          actions: enqueueActions(({ event, enqueue, check }) => {
            if (!downlinkModes.includes(event.mode)) return
            enqueue.assign({ downlinkMode: event.mode })
            if (check(stateIn('#controlPlane.running.downlink.active'))) enqueue.sendTo('downlink', { type: 'downlink.setMode', mode: event.mode })
          }),
        },
        // An SSE command or a locally injected control: the same callback as a sync response;
        // a new one asks for a cycle so that its acknowledgement and effect reach the server.
        'downlink.command': {
          actions: enqueueActions(({ context, event, enqueue, check }) => {
            const result = admit(enqueue, check, context, context.ledger, { controls: [event.control] }, 'sse')
            enqueue.assign({ ledger: result.ledger })
            if (result.admitted > 0) enqueue.raise({ type: 'controlPlane.changed', reason: 'control' })
          }),
        },
        'controlPlane.control': {
          actions: enqueueActions(({ context, event, enqueue, check }) => {
            const result = admit(enqueue, check, context, context.ledger, { controls: [event.control] }, 'local')
            enqueue.assign({ ledger: result.ledger })
            if (result.admitted > 0) enqueue.raise({ type: 'controlPlane.changed', reason: 'control' })
          }),
        },
      },
      states: {
        sync: {
          initial: 'syncing',
          states: {
            idle: {
              // Nothing in flight: a re-register the root just remembered goes through `settled`,
              // the one place that sends the agent back to registering.
              always: { guard: 'reregisterWanted', target: 'settled' },
              after: { syncInterval: 'syncing' },
              on: {
                'controlPlane.changed': 'syncing',
                'downlink.syncRequested': 'syncing',
              },
            },
            syncing: {
              entry: assign(({ context }) => ({ followUp: false, inFlightAcks: context.ledger.pendingAcks.slice() })),
              invoke: {
                id: 'sync',
                src: 'sync',
                input: ({ context }): SyncActorInput => ({ agentId: context.agentId, appliedControls: context.inFlightAcks }),
                onDone: {
                  target: 'settled',
                  actions: enqueueActions(({ context, event, enqueue, check }) => {
                    const { response, sessionsLive, cycle } = event.output
                    enqueue({ type: 'deliverStreamSessions', params: { sessions: response.streamSessions } })
                    const acknowledged = acknowledge(context.ledger, context.inFlightAcks)
                    const result = admit(enqueue, check, context, acknowledged, { controls: response.controls, actions: response.actions }, 'sync')
                    enqueue.assign({
                      ledger: result.ledger,
                      inFlightAcks: [],
                      watching: response.watching,
                      sessionsLive: sessionsLive || response.streamSessions.length > 0,
                      syncFailures: 0,
                      cycles: context.cycles + 1,
                      lastProblem: undefined,
                      // New controls: one prompt follow-up carries their acknowledgement.
                      followUp: context.followUp || result.admitted > 0,
                    })
                    enqueue({ type: 'deliverUpgrade', params: { requested: response.upgradeRequested, offer: response.upgrade, cycle } })
                  }),
                },
                onError: [
                  {
                    guard: ({ event }) => isUnknownAgentError(event.error),
                    target: '#controlPlane.registering',
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'the web server no longer knows this agent; registering again', data: { problem: context.lastProblem } }) },
                    ],
                  },
                  {
                    guard: ({ event }) => isUnauthorizedError(event.error),
                    target: 'unauthorized',
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: 'log', params: ({ context }) => ({ level: 'error' as const, msg: context.lastProblem?.message ?? 'unauthorized', data: { code: context.lastProblem?.code, retryInMs: context.settings.unauthorizedRetryMs } }) },
                    ],
                  },
                  {
                    guard: ({ event }) => isTooOldError(event.error),
                    target: 'tooOld',
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: 'log', params: ({ context }) => ({ level: 'error' as const, msg: context.lastProblem?.message ?? 'agent too old', data: { code: context.lastProblem?.code, retryInMs: context.settings.versionTooOldRetryMs } }) },
                    ],
                  },
                  {
                    target: 'backoff',
                    actions: [
                      assign({ syncFailures: ({ context }) => context.syncFailures + 1, lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'sync failed; retrying with backoff', data: { failures: context.syncFailures, problem: context.lastProblem } }) },
                    ],
                  },
                ],
              },
              on: {
                'controlPlane.changed': { actions: assign({ followUp: true }) },
                'downlink.syncRequested': { actions: assign({ followUp: true }) },
              },
            },
            settled: {
              always: [
                {
                  guard: 'reregisterWanted',
                  target: '#controlPlane.registering',
                  actions: { type: 'log', params: ({ context }) => ({ level: 'info' as const, msg: 'registering again: the register body changed', data: { reason: context.reregister } }) },
                },
                { guard: 'followUpWanted', target: 'syncing' },
                { target: 'idle' },
              ],
            },
            // A local change waits for the pending retry (which will carry it); a wake or an
            // SSE `sync` proves the server is reachable again and cuts the backoff short.
            backoff: {
              after: { syncBackoff: 'syncing' },
              on: { 'downlink.syncRequested': 'syncing' },
            },
            unauthorized: { after: { unauthorizedRetry: 'syncing' } },
            tooOld: { after: { versionTooOldRetry: 'syncing' } },
          },
        },
        downlink: {
          initial: 'active',
          states: {
            active: {
              invoke: {
                id: 'downlink',
                systemId: 'downlink',
                src: 'downlink',
                input: ({ context }) => ({ mode: context.downlinkMode, settings: context.settings }),
                onError: {
                  target: 'restarting',
                  actions: [
                    assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                    { type: 'log', params: ({ context }) => ({ level: 'error' as const, msg: 'downlink failed; restarting it', data: { problem: context.lastProblem } }) },
                  ],
                },
              },
            },
            restarting: { after: { downlinkRestart: 'active' } },
          },
        },
      },
    },
  },
})
