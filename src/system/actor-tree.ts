import type { AnyActorRef } from 'xstate'
import { summarize } from './summarize.js'

// The live actor tree for `GET /debug/actors` (protocol.md 6): every actor with its id,
// systemId, machine id, state value, status, a secret-free context summary and its children.

export interface ActorNode {
  id: string
  systemId?: string
  machine?: string
  status?: string
  value?: unknown
  context?: unknown
  error?: string
  children: ActorNode[]
}

export function describeActorTree(actor: AnyActorRef): ActorNode {
  const snapshot = actor.getSnapshot() as {
    status?: string
    value?: unknown
    context?: unknown
    error?: unknown
    children?: Record<string, AnyActorRef | undefined>
  }
  const logic = (actor as { logic?: { id?: string; config?: unknown } }).logic
  const machineId = logic && 'config' in logic ? logic.id : undefined
  // Actor instances carry their systemId; the ActorRef type does not declare it.
  const systemId = (actor as { systemId?: string }).systemId
  const node: ActorNode = {
    id: actor.id,
    ...(systemId ? { systemId } : {}),
    ...(machineId ? { machine: machineId } : {}),
    ...(snapshot.status ? { status: snapshot.status } : {}),
    ...(snapshot.value !== undefined ? { value: summarize(snapshot.value) } : {}),
    ...(snapshot.context !== undefined ? { context: summarize(snapshot.context) } : {}),
    ...(snapshot.error !== undefined ? { error: String((snapshot.error as Error)?.message ?? snapshot.error) } : {}),
    children: [],
  }
  for (const [key, child] of Object.entries(snapshot.children ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (child) node.children.push({ ...describeActorTree(child), id: child.id ?? key })
  }
  return node
}
