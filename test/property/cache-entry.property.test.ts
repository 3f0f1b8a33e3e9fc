import { describe, expect, it } from 'vitest'
import { initialTransition, transition, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { cacheEntryMachine, type CacheEntryContext, type CacheEntryInput, type CacheOpenRequest } from '../../src/machines/cache-entry.machine.js'
import { describePath, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'

// docs/hls-cache.md: paths generated from the cacheEntry statechart take every transition, and
// along each of them (replayed with xstate's pure `transition`, which also returns the actions):
// every lookup is answered exactly once, at most one session writes at a time, a pinned or
// writing entry is never evicted, and a HIT is only answered after a passed verification.

// The entry reports to its parent (`sendParent`); alone here, that report is a no-op.
const entryMachine = cacheEntryMachine.provide({ actions: { report: () => {} } })
const request = (sessionId: string, source = '/m/x.mkv'): CacheOpenRequest => ({ requestId: `r-${sessionId}`, sessionId, source, at: 1 })
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const error = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error(`${id} failed`) })

const events: AnyEventObject[] = [
  { type: 'entry.open', request: request('a') },
  { type: 'entry.open', request: request('b') },
  { type: 'entry.open', request: request('c', '/m/other.mkv') },
  { type: 'entry.release', sessionId: 'a' },
  { type: 'entry.release', sessionId: 'b' },
  { type: 'entry.release', sessionId: 'c' },
  { type: 'entry.written', sessionId: 'a', payload: { files: 1 } },
  { type: 'entry.written', sessionId: 'b', payload: { files: 1 } },
  { type: 'entry.evict' },
  done('acquire', true), done('acquire', false), error('acquire'),
  done('commit', { bytes: 100 }), error('commit'),
  done('verify', { ok: true, source: '/m/x.mkv' }), done('verify', { ok: false, collision: true, source: '/m/other.mkv' }), done('verify', { ok: false, collision: false, reason: 'truncated' }), error('verify'),
  done('tidy', undefined), error('tidy'),
  done('discard', true), error('discard'),
  done('removeInvalid', true), done('removeInvalid', false), error('removeInvalid'),
  done('evict', true), done('evict', false), error('evict'),
]

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as CacheEntryContext
/** A session asks once and releases only what it holds, as the cache part does. */
const eventsIn = (snapshot: AnyMachineSnapshot) => {
  const context = contextOf(snapshot)
  return events.filter((event) => {
    const invoke = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    if (invoke) return snapshot.children[invoke[2]!] !== undefined
    if (event.type === 'entry.open') {
      const { sessionId } = (event as unknown as { request: CacheOpenRequest }).request
      return !context.pins.includes(sessionId) && !context.waiting.some((waiting) => waiting.sessionId === sessionId) && context.writer !== sessionId
    }
    if (event.type === 'entry.release') return context.pins.includes((event as unknown as { sessionId: string }).sessionId)
    if (event.type === 'entry.written') return context.writer === (event as unknown as { sessionId: string }).sessionId && context.pins.includes(context.writer)
    return true
  })
}
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const context = contextOf(snapshot)
  return JSON.stringify([snapshot.value, snapshot.status, [...context.pins].sort(), context.writer, context.waiting.map((waiting) => waiting.sessionId).sort(), context.bytes])
}

const inputs: CacheEntryInput[] = [
  { key: 'aaaaaaaa', complete: false, bytes: 0, lastUsedAt: 0 },
  { key: 'aaaaaaaa', complete: true, bytes: 500, lastUsedAt: 0 },
]
const pathSets = inputs.map((input) => ({ input, paths: shortestPaths(entryMachine, { input, events: eventsIn, serializeState: serializeState as never, limit: 100_000 }) }))
const paths = pathSets.flatMap((set) => set.paths)

interface Answer { sessionId: string; outcome: string }

/** Replays a path with the pure transition function and collects the answers it gives. */
function replay(input: CacheEntryInput, path: (typeof paths)[number], check: (snapshot: AnyMachineSnapshot, answers: Answer[]) => void): Answer[] {
  let [snapshot] = initialTransition(entryMachine, input)
  const answers: Answer[] = []
  for (const step of path.steps.slice(1)) {
    const [next, actions] = transition(entryMachine, snapshot, step.event as never)
    for (const action of actions) {
      if (action.type !== 'answer') continue
      const params = action.params as { requests: CacheOpenRequest[]; outcome: string }
      for (const asked of params.requests) answers.push({ sessionId: asked.sessionId, outcome: params.outcome })
    }
    snapshot = next
    check(snapshot, answers)
  }
  return answers
}

describe('cacheEntry machine paths', () => {
  it('cover every transition of the entry statechart', () => {
    expect(paths.length).toBeGreaterThan(30)
    // The start dispatch happens while the initial snapshot is made, which a replay does not see.
    const dispatch = ['cacheEntry.start --always [foundComplete] #1--> cacheEntry.complete', 'cacheEntry.start --always #2--> cacheEntry.absent']
    expect(uncoveredTransitions(entryMachine, paths).filter((key) => !dispatch.includes(key))).toEqual([])
  })

  it('answer every lookup once, give one writer at a time, never evict what is pinned or written, and serve a HIT only after a verification', () => {
    for (const { input, paths: fromInput } of pathSets) {
      for (const path of fromInput) {
        let verifiedSinceAsk = false
        const answers = replay(input, path, (snapshot, given) => {
          const context = contextOf(snapshot)
          expect(snapshot.status, describePath(path)).not.toBe('error')
          const value = JSON.stringify(snapshot.value)
          if (value.includes('verifying')) verifiedSinceAsk = true
          if (value.includes('evicting')) {
            expect(context.pins, describePath(path)).toEqual([])
            expect(context.writer, describePath(path)).toBeUndefined()
          }
          // Sessions told "write" and still holding the entry: never more than one.
          const writers = new Set(given.filter((answer) => answer.outcome === 'write').map((answer) => answer.sessionId))
          expect([...writers].filter((sessionId) => context.pins.includes(sessionId) && context.writer === sessionId).length).toBeLessThanOrEqual(1)
          if (given.some((answer) => answer.outcome === 'hit')) expect(verifiedSinceAsk || !input.complete, describePath(path)).toBe(true)
        })
        const bySession = new Map<string, number>()
        for (const answer of answers) bySession.set(answer.sessionId, (bySession.get(answer.sessionId) ?? 0) + 1)
        // A session that asked again after releasing gets a second answer; never two for one ask.
        const asks = path.steps.filter((step) => step.event.type === 'entry.open').map((step) => (step.event as unknown as { request: CacheOpenRequest }).request.sessionId)
        for (const [sessionId, count] of bySession) expect(count, describePath(path)).toBeLessThanOrEqual(asks.filter((asked) => asked === sessionId).length)
      }
    }
  })
})
