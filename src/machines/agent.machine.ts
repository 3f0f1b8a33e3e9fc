import { setup, assign, enqueueActions, fromPromise, stopChild, type AnyActorLogic } from 'xstate'

// The root actor (design.md "The actor tree"). It spawns one long-lived child per concern, each
// with a systemId, supervises them (a failing child is logged and restarted with backoff, never
// takes the root down), and on shutdown stops them in reverse start order before the services
// flush their state.
//
// Every child is a named actor here and is bound to its real logic in
// src/system/implementations.ts with `.provide()`; until then it is a placeholder that rejects,
// so a forgotten binding fails loudly instead of silently doing nothing.

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
}

export interface AgentContext {
  children: readonly AgentChildName[]
  childInputs: Partial<Record<AgentChildName, unknown>>
  supervisor: SupervisorSettings
  /** How many times each child has been restarted since the agent started. */
  restarts: Record<string, number>
  /** The last failure of each child, for the debug tree. */
  lastFailure: Record<string, string>
}

export type AgentEvent =
  | { type: 'agent.shutdown' }
  | { type: 'agent.respawn'; child: AgentChildName }
  /** A spawned child failed: delivered by XState, never sent by hand (types the wildcard handlers). */
  | { type: `xstate.error.actor.${string}`; error: unknown }

export type AgentChildName = 'controlPlane'

export const agentChildNames: readonly AgentChildName[] = ['controlPlane']

const unbound = (name: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`actor "${name}" is not bound: provide it in src/system/implementations.ts`)
  })

export function restartDelayMs(settings: SupervisorSettings, restartCount: number): number {
  const exponent = Math.min(restartCount, 16)
  return Math.min(settings.childRestartMaxMs, settings.childRestartBaseMs * 2 ** exponent)
}

const childErrorPrefix = 'xstate.error.actor.'

export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    input: {} as AgentInput,
    events: {} as AgentEvent,
  },
  actors: {
    controlPlane: unbound('controlPlane') as AnyActorLogic,
    shutdownServices: unbound('shutdownServices') as AnyActorLogic,
  },
  actions: {
    // Bound to the root logger in implementations.ts; pure here.
    logChildFailure: (_, _params: { child: string; error: string; restartInMs: number }) => {},
    logShutdown: (_, _params: { phase: 'begin' | 'services' | 'done' | 'timeout' }) => {},
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({
    children: input.children,
    childInputs: input.childInputs,
    supervisor: input.supervisor,
    restarts: {},
    lastFailure: {},
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
        // An unhandled child error would otherwise put the root in its error state (XState v5).
        'xstate.error.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const child = event.type.slice(childErrorPrefix.length) as AgentChildName
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
        // Reverse start order: the things that depend on others go first.
        enqueueActions(({ context, enqueue }) => {
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

function describeError(error: unknown): string {
  if (error instanceof Error) return `${(error as { code?: string }).code ?? error.name}: ${error.message}`
  return String(error)
}
