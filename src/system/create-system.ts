import { createActor, fromPromise, toPromise, type Actor, type AnyActorLogic } from 'xstate'
import type { Logger } from '../log.js'
import { agentMachine, type AgentChildName, type AgentInput } from '../machines/agent.machine.js'
import { InspectionHub } from './inspection.js'
import { describeActorTree, type ActorNode } from './actor-tree.js'
import { inspectionRingSize, shutdownDeadlineMs, childRestartBaseMs, childRestartMaxMs, readinessDeadlineMs } from '../config/defaults.js'
import { ShutdownTimeoutError } from '../errors.js'

// Starts the root `agent` actor (design.md "The actor tree"). This module knows nothing about
// what the children do: src/system/implementations.ts builds their logic from the services and
// hands it here with the closers that flush state on shutdown.

export interface Closer {
  name: string
  close(): Promise<void>
}

export interface SystemParts {
  /** Long-lived children, already bound to their services, in start order. */
  children: { name: AgentChildName; logic: AnyActorLogic; input?: unknown }[]
  /** Closed in this order after every actor has stopped (flush state, free ports, end processes). */
  closers: Closer[]
  /** Logic the root spawns on demand: `session` for each `session:<id>` (docs/sessions.md). */
  spawnable?: { session?: AnyActorLogic }
  /** Plain data every `session:<id>` is spawned with besides its StreamSession. */
  sessionInput?: AgentInput['sessionInput']
  /** A session actor crashed; the root has logged it and will not restart it. */
  onSessionCrash?: (params: { sessionId: string; error: string }) => void
  /** Given the root actor before it starts, for parts that send it events (`sessions.update`). */
  attach?: (root: Actor<typeof agentMachine>) => void
}

export interface CreateSystemOptions {
  parts: SystemParts
  logger: Logger
  clock?: { setTimeout: (fn: (...args: any[]) => void, ms: number) => unknown; clearTimeout: (id: any) => void }
  supervisor?: { childRestartBaseMs: number; childRestartMaxMs: number }
  shutdownDeadlineMs?: number
}

export interface AgentSystem {
  readonly root: Actor<typeof agentMachine>
  readonly inspection: InspectionHub
  actorTree(): ActorNode
  /** Stops every actor in reverse start order, then closes the services; resolves within the deadline. */
  shutdown(): Promise<{ clean: boolean }>
}

export function createSystem(options: CreateSystemOptions): AgentSystem {
  const log = options.logger.child({ actor: 'agent' })
  const inspection = new InspectionHub(inspectionRingSize)
  const deadlineMs = options.shutdownDeadlineMs ?? shutdownDeadlineMs
  const { children, closers } = options.parts

  // The closer being awaited, so a shutdown that overruns its deadline can name the culprit.
  let pendingCloser: string | undefined
  const actors: Record<string, AnyActorLogic> = {
    shutdownServices: fromPromise(async () => {
      for (const closer of closers) {
        pendingCloser = closer.name
        try {
          await closer.close()
        } catch (error) {
          log.warn({ err: error, part: closer.name }, 'part failed to close cleanly')
        }
      }
      pendingCloser = undefined
    }),
  }
  if (options.parts.spawnable?.session) actors.session = options.parts.spawnable.session
  const childInputs: Record<string, unknown> = {}
  for (const child of children) {
    actors[child.name] = child.logic
    if (child.input !== undefined) childInputs[child.name] = child.input
  }

  const machine = agentMachine.provide({
    actors: actors as never,
    actions: {
      logChildFailure: (_, params) => log.error(params, `${params.child} failed; restarting in ${params.restartInMs} ms`),
      logShutdown: (_, params) => log.info({ phase: params.phase }, params.phase === 'begin' ? 'shutting down' : 'stopped'),
      reportSessionCrash: (_, params) => {
        log.error(params, 'stream session actor crashed; reported failed, not restarted')
        options.parts.onSessionCrash?.(params)
      },
    },
  })

  const root = createActor(machine, {
    id: 'agent',
    systemId: 'agent',
    inspect: inspection.inspect,
    ...(options.clock ? { clock: options.clock } : {}),
    input: {
      children: children.map((child) => child.name),
      childInputs,
      supervisor: options.supervisor ?? { childRestartBaseMs, childRestartMaxMs },
      sessionInput: options.parts.sessionInput ?? { readinessDeadlineMs },
    },
  })
  options.parts.attach?.(root)
  root.start()

  let shuttingDown: Promise<{ clean: boolean }> | undefined
  return {
    root,
    inspection,
    actorTree: () => describeActorTree(root),
    shutdown() {
      shuttingDown ??= (async () => {
        root.send({ type: 'agent.shutdown' })
        let timer: NodeJS.Timeout | undefined
        const deadline = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), deadlineMs) })
        const outcome = await Promise.race([toPromise(root).then(() => 'done' as const, () => 'done' as const), deadline])
        clearTimeout(timer)
        if (outcome === 'timeout') {
          const pending = pendingCloser ?? 'actors'
          log.warn({ err: new ShutdownTimeoutError(`shutdown exceeded ${deadlineMs} ms; still waiting for ${pending}`) }, 'shutdown deadline reached')
          root.stop()
          return { clean: false }
        }
        return { clean: true }
      })()
      return shuttingDown
    },
  }
}
