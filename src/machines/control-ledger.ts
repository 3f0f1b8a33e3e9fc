import type { Control, IncomingControl, SyncAction } from '../protocol/wire.js'

// The bookkeeping behind the control plane's one idempotent control callback (contract 2.5,
// 6.1; protocol.md 1 "Control"). Pure, so the machine stays pure and the property tests can
// hammer it directly. Decisions where protocol.md is silent:
// - A control is acknowledged (its id goes to the next sync's `appliedControls`) when it is
//   handed to its handler, whatever the handler then does: a handler that throws or rejects is
//   logged and still acknowledged, so the server never re-sends a control that would fail the
//   same way forever. The effect (or its absence) shows in the reported task/session state.
// - Unknown kinds are acknowledged without a handler and logged once per kind.
// - A control without a string `id` cannot be acknowledged: it is dropped with a warning.
// - Sync actions (`add_task`, `delete_task`) have no id on the wire; they go through the same
//   callback deduplicated by `action:<type>:<taskId>` (the server re-sends pending actions until
//   it sees their effect) and are never acknowledged in `appliedControls`.
// - Memory: the last `appliedControlMemory` keys (controls and actions together), oldest out.

export const knownControlKinds = [
  'pause_task',
  'resume_task',
  'stop_session',
  'scan_library',
  'set_funnel',
  'set_vpn',
  'set_downlink',
] as const satisfies readonly Control['kind'][]

// Fails to compile when protocol.md grows a kind and this list does not.
type MissingKind = Exclude<Control['kind'], (typeof knownControlKinds)[number]>
const _everyKindListed: MissingKind extends never ? true : never = true
void _everyKindListed

export const knownActionTypes = ['add_task', 'delete_task'] as const satisfies readonly SyncAction['type'][]

export interface ControlLedger {
  /** Keys already applied, oldest first, at most `memory` long. */
  seen: string[]
  /** Control ids applied and not yet carried by a successful sync. */
  pendingAcks: string[]
  /** Unknown kinds already logged, at most `unknownKindMemory` long. */
  unknownKinds: string[]
}

export const emptyLedger = (): ControlLedger => ({ seen: [], pendingAcks: [], unknownKinds: [] })

export type LedgerEffect =
  | { type: 'control'; control: Control }
  | { type: 'action'; action: SyncAction }
  | { type: 'log'; level: 'info' | 'warn'; msg: string; data: Record<string, unknown> }

export interface AdmitResult {
  ledger: ControlLedger
  /** In arrival order: what to hand to the handlers, and what to log. */
  effects: LedgerEffect[]
  /** How many controls or actions were new (applied now, acknowledged or not). */
  admitted: number
}

export interface LedgerLimits {
  memory: number
  unknownKindMemory: number
}

function remember(list: string[], key: string, limit: number): string[] {
  const next = list.length >= limit ? list.slice(list.length - limit + 1) : list.slice()
  next.push(key)
  return next
}

/** Admits controls and actions from one sync response or one SSE command, in order. */
export function admitIncoming(
  ledger: ControlLedger,
  incoming: { controls?: readonly unknown[]; actions?: readonly unknown[] },
  limits: LedgerLimits,
): AdmitResult {
  let { seen, pendingAcks, unknownKinds } = ledger
  const seenSet = new Set(seen)
  const effects: LedgerEffect[] = []
  let admitted = 0

  const admitKey = (key: string): boolean => {
    if (seenSet.has(key)) return false
    seen = remember(seen, key, limits.memory)
    seenSet.add(key)
    if (seenSet.size > seen.length) {
      // keep the Set in step with the trimmed list
      seenSet.clear()
      for (const item of seen) seenSet.add(item)
    }
    admitted++
    return true
  }

  const logUnknown = (kind: string, data: Record<string, unknown>): void => {
    if (unknownKinds.includes(kind)) return
    unknownKinds = remember(unknownKinds, kind, limits.unknownKindMemory)
    effects.push({ type: 'log', level: 'warn', msg: 'unknown control kind acknowledged without effect (logged once per kind)', data })
  }

  for (const raw of incoming.actions ?? []) {
    const action = raw as Partial<SyncAction> & Record<string, unknown>
    if (!action || typeof action !== 'object' || typeof action.type !== 'string') {
      effects.push({ type: 'log', level: 'warn', msg: 'sync action without a type ignored', data: {} })
      continue
    }
    if (!(knownActionTypes as readonly string[]).includes(action.type)) {
      logUnknown(`action:${action.type}`, { actionType: action.type })
      continue
    }
    if (typeof action.taskId !== 'string' || action.taskId === '') {
      effects.push({ type: 'log', level: 'warn', msg: 'sync action without a taskId ignored', data: { actionType: action.type } })
      continue
    }
    if (admitKey(`action:${action.type}:${action.taskId}`)) effects.push({ type: 'action', action: action as SyncAction })
  }

  for (const raw of incoming.controls ?? []) {
    const control = raw as Partial<IncomingControl> & Record<string, unknown>
    if (!control || typeof control !== 'object' || typeof control.id !== 'string' || control.id === '') {
      effects.push({ type: 'log', level: 'warn', msg: 'control without an id dropped (it cannot be acknowledged)', data: { kind: control?.kind } })
      continue
    }
    if (!admitKey(`control:${control.id}`)) continue
    if (!pendingAcks.includes(control.id)) pendingAcks = remember(pendingAcks, control.id, limits.memory)
    const kind = typeof control.kind === 'string' ? control.kind : '(none)'
    if ((knownControlKinds as readonly string[]).includes(kind)) {
      effects.push({ type: 'control', control: control as Control })
    } else {
      logUnknown(kind, { kind, controlId: control.id })
    }
  }

  return { ledger: { seen, pendingAcks, unknownKinds }, effects, admitted }
}

/** After a sync carrying `sent` succeeded: those ids are acknowledged and leave the ledger. */
export function acknowledge(ledger: ControlLedger, sent: readonly string[]): ControlLedger {
  if (sent.length === 0) return ledger
  const done = new Set(sent)
  return { ...ledger, pendingAcks: ledger.pendingAcks.filter((id) => !done.has(id)) }
}
