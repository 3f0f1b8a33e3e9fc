import { createEmptyActor, type AnyActorScope, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine, type AnyTransitionDefinition, type InputFrom } from 'xstate'
import { getAdjacencyMap, getShortestPaths, getSimplePaths, serializeSnapshot, type StatePath } from 'xstate/graph'
import { listStateNodes, listTransitions, transitionLabel, type TransitionRow } from '../../src/system/statecharts.js'

// Path generation for property tests over a machine *definition* (docs/statecharts.md).
//
// xstate/graph's test model refuses machines with `invoke` or `after`, and all of ours have
// them. The traversal below stays on the pure `machine.transition()` instead: nothing is
// started, no timer runs, and what the outside world would do (a child finishing or failing,
// a delay elapsing, a delayed `raise` arriving) is sent explicitly as the internal event it
// becomes: `xstate.done.actor.<id>`, `xstate.error.actor.<id>`, `xstate.after.<delay>.<stateId>`,
// or the raised event itself.

export type MachinePath<TMachine extends AnyStateMachine = AnyStateMachine> = StatePath<ReturnType<TMachine['transition']>, AnyEventObject>

export interface PathOptions<TMachine extends AnyStateMachine> {
  /** Every event to try in every state (or per state). Use `internalEvents(machine)` for a start. */
  events: readonly AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => readonly AnyEventObject[])
  input?: InputFrom<TMachine>
  /**
   * What makes two snapshots the same vertex. Default: value + context (JSON). Context that
   * grows without bound (counters, logs) must be capped or left out here, or the traversal
   * never ends.
   */
  serializeState?: (snapshot: AnyMachineSnapshot) => string
  /**
   * `true` (default): a vertex is the transition that reached a state (previous state, event,
   * state), so the shortest paths take every edge of the state graph once, self-loops and
   * internal transitions included. `false`: a vertex is a state, one path per state.
   */
  perTransition?: boolean
  toState?: (snapshot: AnyMachineSnapshot) => boolean
  /** Traversal bound (adjacency iterations); throws when exceeded. Default 10 000. */
  limit?: number
}

export function shortestPaths<TMachine extends AnyStateMachine>(machine: TMachine, options: PathOptions<TMachine>): MachinePath<TMachine>[] {
  return getShortestPaths(isolated(machine), traversal(machine, options)) as MachinePath<TMachine>[]
}

export function simplePaths<TMachine extends AnyStateMachine>(machine: TMachine, options: PathOptions<TMachine>): MachinePath<TMachine>[] {
  return getSimplePaths(isolated(machine), traversal(machine, options)) as MachinePath<TMachine>[]
}

/** One edge of the reachable state graph: `prev --event--> next`. */
export interface MachineEdge {
  prev: AnyMachineSnapshot
  event: AnyEventObject
  next: AnyMachineSnapshot
}

/**
 * Every edge of the reachable state graph, a vertex per state (`serializeState`): for machines
 * whose per-transition path set is too big, and for rules checked on every edge.
 */
export function reachableEdges<TMachine extends AnyStateMachine>(machine: TMachine, options: PathOptions<TMachine>): MachineEdge[] {
  type Vertex = { state: AnyMachineSnapshot; transitions: Record<string, { event: AnyEventObject; state: AnyMachineSnapshot }> }
  const adjacency = getAdjacencyMap(isolated(machine), traversal(machine, { ...options, perTransition: false }) as never)
  return (Object.values(adjacency) as Vertex[]).flatMap(({ state, transitions }) =>
    Object.values(transitions).map(({ event, state: next }) => ({ prev: state, event, next })))
}

/** The keys of the transitions no edge takes (see `uncoveredTransitions` for paths). */
export function transitionsNotTakenBy(machine: AnyStateMachine, edges: readonly MachineEdge[]): string[] {
  // An edge is a one-step path from `prev`: the replay below starts from a step's predecessor.
  const paths = edges.map(({ prev, event, next }) => ({
    state: next,
    weight: 1,
    steps: [{ state: prev, event: { type: 'xstate.init' } }, { state: next, event }],
  })) as unknown as MachinePath[]
  return uncoveredTransitions(machine, paths)
}

export interface DefinedTransition {
  /** Stable, readable identity: `agent.running --agent.shutdown--> agent.stopping`. */
  key: string
  source: string
  event: string
  guard?: string
  targets: string[]
  row: TransitionRow
}

/** Every transition of the definition (source state, event, guard, targets), in document order. */
export function allTransitions(machine: AnyStateMachine): DefinedTransition[] {
  return listTransitions(machine).map((row) => {
    const targets = row.targets.map((target) => target.id)
    const sameDescriptor = row.kind === 'always' ? row.source.always ?? [] : row.source.transitions.get(row.event) ?? []
    const position = sameDescriptor.length > 1 ? ` #${row.index + 1}` : ''
    const transition: DefinedTransition = {
      key: `${row.source.id} --${transitionLabel(row)}${position}--> ${targets.length ? targets.join(', ') : '(internal)'}`,
      source: row.source.id,
      event: row.event,
      targets,
      row,
    }
    if (row.guard !== undefined) transition.guard = row.guard
    return transition
  })
}

/**
 * The keys (see `allTransitions`) of the transitions taken along the paths, found by replaying
 * each step through `machine.transition()` and recording the microsteps, so eventless
 * transitions and raised events count too.
 */
export function transitionsCoveredBy(machine: AnyStateMachine, paths: readonly MachinePath[]): Set<string> {
  // Matched by position, not identity: `machine.provide()` builds a new tree of state nodes, and
  // paths generated from a provided machine must still count for the plain definition.
  const keyOf = new Map<string, string>()
  for (const transition of allTransitions(machine)) keyOf.set(positionOf(transition.row.definition), transition.key)
  const covered = new Set<string>()
  const record = (definitions: readonly AnyTransitionDefinition[]) => {
    for (const definition of definitions) {
      const key = keyOf.get(positionOf(definition))
      if (key !== undefined) covered.add(key)
    }
  }
  for (const path of paths) {
    for (let i = 1; i < path.steps.length; i++) {
      const before = path.steps[i - 1]!.state as AnyMachineSnapshot
      before.machine.transition(before, path.steps[i]!.event, freshScope(record))
    }
  }
  return covered
}

function positionOf(definition: AnyTransitionDefinition): string {
  const source = definition.source
  const candidates = definition.eventType === '' ? source.always ?? [] : source.transitions.get(definition.eventType) ?? []
  return `${source.id}\n${definition.eventType}\n${candidates.indexOf(definition)}`
}

export function uncoveredTransitions(machine: AnyStateMachine, paths: readonly MachinePath[]): string[] {
  const covered = transitionsCoveredBy(machine, paths)
  return allTransitions(machine).map((transition) => transition.key).filter((key) => !covered.has(key))
}

/**
 * The events a definition can react to, as event objects: every named event, and for each
 * invoke its `xstate.done.actor.<id>` / `xstate.error.actor.<id>`, for each `after` its
 * `xstate.after.<delay>.<stateId>`. Wildcard descriptors (`*`, `xstate.error.actor.*`) are left
 * out: add concrete events for them yourself.
 */
export function internalEvents(machine: AnyStateMachine): AnyEventObject[] {
  const types = new Set<string>()
  for (const row of listTransitions(machine)) {
    if (row.kind === 'always' || row.event.endsWith('*')) continue
    types.add(row.event)
  }
  for (const node of listStateNodes(machine)) {
    for (const invoke of node.invoke) {
      types.add(`xstate.done.actor.${invoke.id}`)
      types.add(`xstate.error.actor.${invoke.id}`)
    }
  }
  return [...types].map((type) => (type.startsWith('xstate.error.') ? { type, error: new Error(`${type} (generated)`) } : { type }))
}

/** `xstate.init -> agent.shutdown -> xstate.done.actor.shutdownServices`, for test names. */
export function describePath(path: MachinePath): string {
  return path.steps.map((step) => step.event.type).join(' -> ')
}

function traversal<TMachine extends AnyStateMachine>(machine: TMachine, options: PathOptions<TMachine>) {
  const serializeState = options.serializeState ?? ((snapshot: AnyMachineSnapshot) => serializeSnapshot(snapshot))
  const perTransition = options.perTransition ?? true
  const fromState = machine.getInitialSnapshot(freshScope(), options.input) as ReturnType<TMachine['transition']>
  return {
    input: options.input,
    events: options.events as readonly AnyEventObject[],
    fromState,
    limit: options.limit ?? 10_000,
    // A snapshot that is done, stopped or in error receives nothing more (a real actor has stopped).
    filterEvents: (snapshot: AnyMachineSnapshot) => snapshot.status === 'active',
    ...(options.toState ? { toState: options.toState } : {}),
    serializeState: (snapshot: AnyMachineSnapshot, event: AnyEventObject | undefined, previous?: AnyMachineSnapshot) =>
      perTransition && event ? `${serializeState(previous!)} ${JSON.stringify(event)} ${serializeState(snapshot)}` : serializeState(snapshot),
  } as unknown as Parameters<typeof getShortestPaths<TMachine>>[1]
}

// xstate/graph transitions every state with one shared mock actor scope, so respawning a child
// that has a systemId ("Actor with system ID ... already exists") breaks the traversal. Each
// transition here gets a scope of its own; nothing it creates is ever started.
function isolated<TMachine extends AnyStateMachine>(machine: TMachine): TMachine {
  const logic = Object.create(machine) as TMachine
  Object.defineProperty(logic, 'transition', { value: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => machine.transition(snapshot, event, freshScope()) })
  Object.defineProperty(logic, 'getInitialSnapshot', { value: (_scope: AnyActorScope, input: unknown) => machine.getInitialSnapshot(freshScope(), input) })
  return logic
}

function freshScope(onMicrostep?: (transitions: readonly AnyTransitionDefinition[]) => void): AnyActorScope {
  const self = createEmptyActor()
  if (onMicrostep) {
    self.system.inspect((event) => {
      if (event.type === '@xstate.microstep') onMicrostep((event as { _transitions?: AnyTransitionDefinition[] })._transitions ?? [])
    })
  }
  return {
    self,
    id: '',
    sessionId: '',
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope
}
