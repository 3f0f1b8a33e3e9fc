import { setup, assign, enqueueActions, fromPromise, stopChild, type AnyActorLogic } from 'xstate'
import type { StreamSession } from '../protocol/wire.js'
import type { SessionInput } from './session.machine.js'

// The root actor (design.md "The actor tree"). It spawns one long-lived child per concern, each
// with a systemId, supervises them (a failing child is logged and restarted with backoff, never
// takes the root down), and on shutdown stops them in reverse start order before the services
// flush their state.
//
// Every child is a named actor here and is bound to its real logic in
// src/system/implementations.ts with `.provide()`; until then it is a placeholder that rejects,
// so a forgotten binding fails loudly instead of silently doing nothing.
//
// Besides the long-lived children it spawns one `session:<id>` actor per stream session
// (docs/sessions.md): `sessions.update` carries the full list of every successful sync; a new id
// is spawned, an id that left the list is sent `session.end`. A session actor is never restarted:
// it reports its own failure, and one that crashes is logged, dropped and reported failed.

export interface SupervisorSettings {
  childRestartBaseMs: number
  childRestartMaxMs: number
}

export interface AgentInput {
  /** Long-lived children to start, in order; each is also its systemId. */
  children: readonly AgentChildName[]
  /** The input each child is spawned (and respawned) with: plain data, no services. */
  childInputs: Partial<Record<AgentChildName, unknown>>
  supervisor: SupervisorSettings
  /** Plain data every `session:<id>` is spawned with besides its StreamSession. */
  sessionInput?: Omit<SessionInput, 'session'>
}

/**
 * A stream session the root knows: `live` (its actor runs), `ending` (sent `session.end`),
 * `finished` (its actor is gone but the server still lists it: never spawned again).
 */
export type AgentSessionPhase = 'live' | 'ending' | 'finished'

export interface AgentContext {
  children: readonly AgentChildName[]
  childInputs: Partial<Record<AgentChildName, unknown>>
  supervisor: SupervisorSettings
  /** How many times each child has been restarted since the agent started. */
  restarts: Record<string, number>
  /** The last failure of each child, for the debug tree. */
  lastFailure: Record<string, string>
  sessionInput: Partial<Omit<SessionInput, 'session'>>
  /** Stream sessions by id; the actor of a live one is the child `session:<id>`. */
  sessions: Record<string, AgentSessionPhase>
  /** Session ids of the last `sessions.update` (the server's list). */
  listedSessions: string[]
}

export type AgentEvent =
  | { type: 'agent.shutdown' }
  | { type: 'agent.respawn'; child: AgentChildName }
  /** After every successful sync: the server's full list of this agent's stream sessions. */
  | { type: 'sessions.update'; sessions: StreamSession[] }
  /** A `stop_session` control. */
  | { type: 'session.stop'; sessionId: string }
  /** A session actor reached `ended`: delivered by XState. */
  | { type: `xstate.done.actor.${string}` }
  /** A spawned child failed: delivered by XState, never sent by hand (types the wildcard handlers). */
  | { type: `xstate.error.actor.${string}`; error: unknown }

export type AgentChildName = 'tasks' | 'upgrade' | 'controlPlane'
  // Issue 11: the HLS segment cache (absent from `children` when [downloads.hls_cache] enabled = false).
  | 'cache'
  // Issue 12: hardware encoder detection, before the control plane (its register waits for the diagnostic).
  | 'encoders'
  // Issue 14: the stream server's addresses and the public tunnel, both reported by every sync.
  | 'addresses'
  | 'funnel'
  // Issue 13: the managed VPN; the torrent engine follows its route.
  | 'vpn'
  // Issue 16: library scans and uploads.
  | 'library'

/** Start order; shutdown stops them in reverse (the control plane first: no new actions). */
export const agentChildNames: readonly AgentChildName[] = ['tasks', 'upgrade', 'encoders', 'addresses', 'funnel', 'controlPlane', 'vpn', 'library']

const unbound = (name: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`actor "${name}" is not bound: provide it in src/system/implementations.ts`)
  })

export function restartDelayMs(settings: SupervisorSettings, restartCount: number): number {
  const exponent = Math.min(restartCount, 16)
  return Math.min(settings.childRestartMaxMs, settings.childRestartBaseMs * 2 ** exponent)
}

const childErrorPrefix = 'xstate.error.actor.'
const childDonePrefix = 'xstate.done.actor.'
const sessionPrefix = 'session:'

/** The child id of a session's actor. */
export function sessionActorId(sessionId: string): string {
  return `${sessionPrefix}${sessionId}`
}

export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    input: {} as AgentInput,
    events: {} as AgentEvent,
  },
  actors: {
    controlPlane: unbound('controlPlane') as AnyActorLogic,
    tasks: unbound('tasks') as AnyActorLogic,
    upgrade: unbound('upgrade') as AnyActorLogic,
    encoders: unbound('encoders') as AnyActorLogic,
    addresses: unbound('addresses') as AnyActorLogic,
    funnel: unbound('funnel') as AnyActorLogic,
    // The HLS segment cache (issue 11): absent from `children` when [downloads.hls_cache] enabled = false.
    cache: unbound('cache') as AnyActorLogic,
    vpn: unbound('vpn') as AnyActorLogic,
    library: unbound('library') as AnyActorLogic,
    session: unbound('session') as AnyActorLogic,
    shutdownServices: unbound('shutdownServices') as AnyActorLogic,
  },
  actions: {
    // Bound to the root logger in implementations.ts; pure here.
    logChildFailure: (_, _params: { child: string; error: string; restartInMs: number }) => {},
    logShutdown: (_, _params: { phase: 'begin' | 'services' | 'done' | 'timeout' }) => {},
    /** A session actor crashed (threw); it is not restarted. Bound to the log and the sync report. */
    reportSessionCrash: (_, _params: { sessionId: string; error: string }) => {},
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({
    children: input.children,
    childInputs: input.childInputs,
    supervisor: input.supervisor,
    restarts: {},
    lastFailure: {},
    sessionInput: input.sessionInput ?? {},
    sessions: {},
    listedSessions: [],
  }),
  initial: 'running',
  states: {
    running: {
      entry: enqueueActions(({ context, enqueue }) => {
        for (const child of context.children) {
          enqueue.spawnChild(child, { id: child, systemId: child, input: context.childInputs[child] ?? {} })
        }
      }),
      on: {
        'agent.shutdown': { target: 'stopping' },
        'agent.respawn': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.spawnChild(event.child, { id: event.child, systemId: event.child, input: context.childInputs[event.child] ?? {} })
          }),
        },
        'sessions.update': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const listed = event.sessions.map((session) => session.sessionId)
            const sessions = { ...context.sessions }
            for (const session of event.sessions) {
              if (sessions[session.sessionId] !== undefined) continue
              const id = sessionActorId(session.sessionId)
              enqueue.spawnChild('session', { id, systemId: id, input: { ...context.sessionInput, session } })
              sessions[session.sessionId] = 'live'
            }
            const stillListed = new Set(listed)
            for (const [sessionId, phase] of Object.entries(sessions)) {
              if (stillListed.has(sessionId)) continue
              if (phase === 'live') {
                enqueue.sendTo(sessionActorId(sessionId), { type: 'session.end', reason: 'removed' })
                sessions[sessionId] = 'ending'
              } else if (phase === 'finished') {
                delete sessions[sessionId]
              }
            }
            enqueue.assign({ sessions, listedSessions: listed })
          }),
        },
        'session.stop': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (context.sessions[event.sessionId] !== 'live') return
            enqueue.sendTo(sessionActorId(event.sessionId), { type: 'session.end', reason: 'stopped' })
            enqueue.assign({ sessions: { ...context.sessions, [event.sessionId]: 'ending' } })
          }),
        },
        // A session reached `ended`: drop its actor; remember the id while the server lists it.
        'xstate.done.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice(childDonePrefix.length)
            if (!id.startsWith(sessionPrefix)) return
            enqueue(stopChild(id))
            enqueue.assign({ sessions: finishSession(context, id.slice(sessionPrefix.length)) })
          }),
        },
        // An unhandled child error would otherwise put the root in its error state (XState v5).
        'xstate.error.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const failed = event.type.slice(childErrorPrefix.length)
            if (failed.startsWith(sessionPrefix)) {
              const sessionId = failed.slice(sessionPrefix.length)
              const error = describeError((event as unknown as { error?: unknown }).error)
              enqueue({ type: 'reportSessionCrash', params: { sessionId, error } })
              enqueue(stopChild(failed))
              enqueue.assign({ sessions: finishSession(context, sessionId) })
              return
            }
            const child = failed as AgentChildName
            if (!context.children.includes(child)) return
            const count = context.restarts[child] ?? 0
            const delay = restartDelayMs(context.supervisor, count)
            const error = describeError((event as unknown as { error?: unknown }).error)
            enqueue({ type: 'logChildFailure', params: { child, error, restartInMs: delay } })
            enqueue.assign({
              restarts: { ...context.restarts, [child]: count + 1 },
              lastFailure: { ...context.lastFailure, [child]: error },
            })
            enqueue.raise({ type: 'agent.respawn', child } as AgentEvent, { id: `respawn:${child}`, delay })
          }),
        },
      },
    },
    stopping: {
      entry: [
        { type: 'logShutdown', params: { phase: 'begin' } },
        // Sessions first (they use the others), then reverse start order.
        enqueueActions(({ context, enqueue }) => {
          for (const sessionId of Object.keys(context.sessions)) enqueue(stopChild(sessionActorId(sessionId)))
          for (const child of [...context.children].reverse()) enqueue(stopChild(child))
        }),
      ],
      invoke: {
        id: 'shutdownServices',
        src: 'shutdownServices',
        onDone: { target: 'stopped' },
        onError: { target: 'stopped', actions: assign({ lastFailure: ({ context, event }) => ({ ...context.lastFailure, shutdown: describeError(event.error) }) }) },
      },
      on: {
        // A child being stopped can still fail (its cleanup throws, e.g. kill() of a process that
        // already exited, or its failure was queued behind agent.shutdown). Unhandled, that would
        // put the root in its error state halfway through shutdown and the services would never
        // flush (test/property/agent-supervision.property.test.ts). shutdownServices' own error
        // still goes to onError above: an exact descriptor wins over the wildcard.
        'xstate.error.actor.*': {
          actions: assign({
            lastFailure: ({ context, event }) => ({ ...context.lastFailure, [event.type.slice(childErrorPrefix.length)]: describeError((event as unknown as { error?: unknown }).error) }),
          }),
        },
      },
    },
    stopped: {
      type: 'final',
      entry: { type: 'logShutdown', params: { phase: 'done' } },
    },
  },
})

function finishSession(context: AgentContext, sessionId: string): Record<string, AgentSessionPhase> {
  const sessions = { ...context.sessions }
  if (context.listedSessions.includes(sessionId)) sessions[sessionId] = 'finished'
  else delete sessions[sessionId]
  return sessions
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${(error as { code?: string }).code ?? error.name}: ${error.message}`
  return String(error)
}
