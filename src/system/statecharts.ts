import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'

// Machine definition -> Mermaid `stateDiagram-v2` (design.md house rule 8: diagrams are
// generated). Pure: no I/O, no clock; the same definition always gives the same text, so
// `media-agent statecharts --check` can compare byte for byte.
//
// Mermaid quirks this file works around (checked against the mermaid 11 parser):
// - state ids are global to a diagram, so a nested state gets its whole path as id
//   (`stopping__flush`), sanitised to [A-Za-z0-9_], with the real name as its label;
// - `default`, `click`, `href`, `state`, `note`, ... are lexer keywords, never usable as ids;
// - a composite state may carry only a label, so what a composite does (invoke, entry, exit,
//   internal transitions) goes into a note beside it, while an atomic state lists it inside;
// - `;` ends a statement and `#...` starts a comment, so labels carry them (and `:`, `"`,
//   `<`, `>`) as Mermaid entity codes, which render as the real character.
//
// Internal (targetless) transitions are never drawn as arrows (an arrow back to the same
// state would read as a re-entry); they are listed in the state as `event [guard] (internal)`.

export type TransitionKind = 'event' | 'always' | 'after' | 'done' | 'error'

export interface TransitionRow {
  /** The state node that declares the transition. */
  source: AnyStateNode
  /** The event descriptor as written (`xstate.error.actor.*`, `xstate.after.500.agent.x`); '' for `always`. */
  event: string
  kind: TransitionKind
  /** Named delay or milliseconds, for `after` transitions. */
  delay?: string | number
  /** Invoked actor id, for `done` / `error` transitions of an invoke. */
  invokeId?: string
  guard?: string
  /** Empty for an internal (targetless) transition. */
  targets: AnyStateNode[]
  /** Position among the candidates for the same descriptor on the same state (guards are tried in order). */
  index: number
  definition: AnyTransitionDefinition
}

/** Every transition of the definition, in document order: state by state, then as declared. */
export function listTransitions(machine: AnyStateMachine): TransitionRow[] {
  return listStateNodes(machine).flatMap(ownTransitions)
}

/** Every state node, root first, depth-first in document order. */
export function listStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  return allStateNodes(machine.root)
}

/** A short human-readable label: `event [guard]`, `after liveness`, `always [guard]`. */
export function transitionLabel(row: TransitionRow): string {
  let head: string
  if (row.kind === 'always') head = 'always'
  else if (row.kind === 'after') head = `after ${typeof row.delay === 'number' ? `${row.delay}ms` : String(row.delay)}`
  else head = row.event
  return row.guard ? `${head} [${row.guard}]` : head
}

export function toMermaid(machine: AnyStateMachine): string {
  const ids = assignIds(machine.root)
  const out: string[] = ['stateDiagram-v2']
  const rows = listTransitions(machine)
  const internal = new Map<AnyStateNode, TransitionRow[]>()
  for (const row of rows) {
    if (row.targets.length > 0) continue
    const list = internal.get(row.source) ?? []
    list.push(row)
    internal.set(row.source, list)
  }

  const root = machine.root
  // A compound root is the diagram itself; any other root (or one with its own transitions,
  // invokes or actions) is drawn as a box so those have something to hang on.
  const wrapRoot = root.type !== 'compound' || rows.some((row) => row.source === root || row.targets.includes(root)) || extrasOf(root, []).length > 0
  const write = (depth: number, line: string) => out.push(`${'  '.repeat(depth)}${line}`)

  const emitBody = (node: AnyStateNode, depth: number) => {
    const children = Object.values(node.states) as AnyStateNode[]
    if (node.type === 'parallel') {
      children.forEach((child, i) => {
        if (i > 0) write(depth, '--')
        emitState(child, depth)
      })
      return
    }
    for (const child of children) emitState(child, depth)
    for (const target of node.initial?.target ?? []) write(depth, `[*] --> ${ids.get(target)}`)
    for (const child of children) if (child.type === 'final') write(depth, `${ids.get(child)} --> [*]`)
  }
  const emitState = (node: AnyStateNode, depth: number) => {
    const id = ids.get(node)!
    const label = escapeText(stateLabel(node))
    const extras = extrasOf(node, internal.get(node) ?? [])
    if (node.type === 'compound' || node.type === 'parallel') {
      write(depth, `state "${label}" as ${id} {`)
      emitBody(node, depth + 1)
      write(depth, '}')
      if (extras.length > 0) {
        write(depth, `note right of ${id}`)
        for (const extra of extras) write(depth + 1, escapeText(extra))
        write(depth, 'end note')
      }
    } else {
      write(depth, `state "${label}" as ${id}`)
      for (const extra of extras) write(depth, `${id} : ${escapeText(extra)}`)
    }
  }

  if (wrapRoot) {
    emitState(root, 1)
    write(1, `[*] --> ${ids.get(root)}`)
    if (root.type === 'final') write(1, `${ids.get(root)} --> [*]`)
  } else {
    emitBody(root, 1)
  }
  // Every arrow between states is written at the top level, after all declarations: Mermaid
  // moves both ends of an arrow into the block the arrow is written in (the last mention
  // wins), while a top-level mention leaves a state where it was declared. Only the `[*]`
  // pseudo-state arrows above belong inside their block.
  for (const row of rows) {
    for (const target of row.targets) write(1, `${ids.get(row.source)} --> ${ids.get(target)} : ${escapeText(transitionLabel(row))}`)
  }
  return `${out.join('\n')}\n`
}

export const generatedMarker = '<!-- Generated by `media-agent statecharts` from src/machines/index.ts. Do not edit by hand. -->'

/**
 * One Markdown file per machine (a ```mermaid block renders on GitHub) plus `README.md`, an
 * index with a link and a one-line description per machine. Keys are file names.
 */
export function renderStatecharts(machines: Record<string, AnyStateMachine>): Map<string, string> {
  const names = Object.keys(machines).sort(compareCodeUnits)
  const files = new Map<string, string>()
  const index: string[] = [
    generatedMarker,
    '',
    '# Statecharts',
    '',
    'One diagram per machine, generated from the definitions registered in `src/machines/index.ts`.',
    'Regenerate with `media-agent statecharts` (`npm run statecharts`); `npm test` runs',
    '`media-agent statecharts --check`, which fails while these files are stale. See `docs/statecharts.md`.',
    '',
    '| machine | description |',
    '| --- | --- |',
  ]
  const perMachine = new Map<string, string>()
  for (const name of names) {
    const fileName = machineFileName(name)
    if (fileName === 'README.md' || perMachine.has(fileName)) throw new Error(`statecharts: machine name "${name}" gives a clashing file name ${fileName}`)
    perMachine.set(fileName, name)
    const machine = machines[name]!
    index.push(`| [${escapeCell(name)}](${fileName}) | ${escapeCell(describeMachine(machine))} |`)
  }
  files.set('README.md', `${index.join('\n')}\n`)
  for (const [fileName, name] of perMachine) files.set(fileName, renderMachineFile(name, machines[name]!))
  return files
}

export function machineFileName(name: string): string {
  return `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.md`
}

export function describeMachine(machine: AnyStateMachine): string {
  const description = (machine.config as { description?: unknown }).description
  const text = typeof description === 'string' && description.trim() ? description : machine.id
  return text.replace(/\s+/g, ' ').trim()
}

function renderMachineFile(name: string, machine: AnyStateMachine): string {
  const lines = [
    generatedMarker,
    '',
    `# ${name}`,
    '',
    typeof (machine.config as { description?: unknown }).description === 'string' ? describeMachine(machine) : `Machine id \`${machine.id}\`.`,
    '',
    '```mermaid',
    toMermaid(machine).trimEnd(),
    '```',
    '',
    '## Transitions',
    '',
    '| from | event | guard | to |',
    '| --- | --- | --- | --- |',
  ]
  for (const row of listTransitions(machine)) {
    const event = row.kind === 'always' ? '(always)' : row.kind === 'after' ? `${row.event} (after ${typeof row.delay === 'number' ? `${row.delay}ms` : String(row.delay)})` : row.event
    const to = row.targets.length ? row.targets.map((target) => `\`${target.id}\``).join(', ') : '(internal)'
    lines.push(`| \`${row.source.id}\` | \`${escapeCell(event)}\` | ${row.guard ? `\`${escapeCell(row.guard)}\`` : ''} | ${to} |`)
  }
  return `${lines.join('\n')}\n`
}

function ownTransitions(node: AnyStateNode): TransitionRow[] {
  const rows: TransitionRow[] = []
  const delays = new Map<AnyTransitionDefinition, string | number>()
  for (const delayed of node.after) delays.set(delayed, typeof delayed.delay === 'function' ? 'inline delay' : delayed.delay)
  const invokeIds = new Set(node.invoke.map((invoke) => invoke.id))
  for (const [descriptor, candidates] of node.transitions) {
    candidates.forEach((definition, index) => {
      const row: TransitionRow = { source: node, event: descriptor, kind: 'event', targets: [...(definition.target ?? [])], index, definition }
      const guard = guardName(definition.guard)
      if (guard !== undefined) row.guard = guard
      if (delays.has(definition)) {
        row.kind = 'after'
        row.delay = delays.get(definition)!
      } else {
        const invoked = /^xstate\.(done|error)\.actor\.(.+)$/.exec(descriptor)
        if (invoked && invokeIds.has(invoked[2]!)) {
          row.kind = invoked[1] === 'done' ? 'done' : 'error'
          row.invokeId = invoked[2]!
        }
      }
      rows.push(row)
    })
  }
  node.always?.forEach((definition, index) => {
    const row: TransitionRow = { source: node, event: '', kind: 'always', targets: [...(definition.target ?? [])], index, definition }
    const guard = guardName(definition.guard)
    if (guard !== undefined) row.guard = guard
    rows.push(row)
  })
  return rows
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined
  if (typeof guard === 'string') return guard
  if (typeof guard === 'function') {
    const combinator = guard as { name?: string; guards?: unknown[]; stateValue?: unknown }
    if (Array.isArray(combinator.guards)) {
      const inner = combinator.guards.map((g) => guardName(g) ?? '?')
      return combinator.name === 'not' ? `!${inner[0]}` : inner.join(combinator.name === 'or' ? ' || ' : ' && ')
    }
    if (combinator.stateValue !== undefined) return `in ${typeof combinator.stateValue === 'string' ? combinator.stateValue : JSON.stringify(combinator.stateValue)}`
    return 'inline guard'
  }
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') return (guard as { type: string }).type
  return 'guard'
}

function actionNames(actions: readonly unknown[]): string[] {
  const names: string[] = []
  for (const action of actions) {
    // Built-ins (assign, raise, enqueueActions, spawnChild...) and inline functions have no
    // stable, meaningful name; only the named actions of setup() are shown.
    const name = typeof action === 'string' ? action : typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined
    if (typeof name === 'string' && !name.startsWith('xstate.')) names.push(name)
  }
  return names
}

function extrasOf(node: AnyStateNode, internal: readonly TransitionRow[]): string[] {
  const extras: string[] = []
  const entry = actionNames(node.entry)
  if (entry.length) extras.push(`entry / ${entry.join(', ')}`)
  const exit = actionNames(node.exit)
  if (exit.length) extras.push(`exit / ${exit.join(', ')}`)
  for (const invoke of node.invoke) {
    // An inline logic gets a generated src (`xstate.invoke...`): noise, not a name.
    const src = typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.') ? invoke.src : undefined
    extras.push(src && src !== invoke.id ? `invoke ${invoke.id} (${src})` : `invoke ${invoke.id}`)
  }
  for (const row of internal) extras.push(`${transitionLabel(row)} (internal)`)
  return extras
}

function stateLabel(node: AnyStateNode): string {
  if (node.type === 'history') return `${node.key} (${node.history === 'deep' ? 'H*' : 'H'})`
  return node.key
}

function allStateNodes(root: AnyStateNode): AnyStateNode[] {
  const nodes: AnyStateNode[] = [root]
  for (const child of Object.values(root.states) as AnyStateNode[]) nodes.push(...allStateNodes(child))
  return nodes
}

// Reserved by the Mermaid state-diagram lexer (case-insensitive, matched as whole words).
const reservedIds = new Set(['default', 'click', 'href', 'state', 'note', 'class', 'classdef', 'style', 'scale', 'direction', 'end', 'hide', 'acctitle', 'accdescr', 'statediagram', 'as', 'left', 'right', 'of'])

function assignIds(root: AnyStateNode): Map<AnyStateNode, string> {
  const ids = new Map<AnyStateNode, string>()
  const used = new Set<string>()
  const visit = (node: AnyStateNode, path: string[]) => {
    let base = (path.length ? path : [node.key]).map((segment) => segment.replace(/[^A-Za-z0-9]/g, '_') || '_').join('__')
    if (/^[0-9]/.test(base) || reservedIds.has(base.toLowerCase())) base = `s_${base}`
    let id = base
    for (let n = 2; used.has(id); n++) id = `${base}_${n}`
    used.add(id)
    ids.set(node, id)
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child, [...path, child.key])
  }
  visit(root, [])
  return ids
}

const entityCodes: Record<string, string> = { '#': '#35;', ';': '#59;', ':': '#58;', '"': '#quot;', '<': '#lt;', '>': '#gt;', '%': '#37;' }

function escapeText(text: string): string {
  // One pass, so the `;` of an inserted code is never escaped again.
  return text.replace(/\s+/g, ' ').replace(/[#;:"<>%]/g, (ch) => entityCodes[ch]!).replace(/^end note\b/i, 'end#32;note')
}

function escapeCell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|')
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
