import { describe, expect, it } from 'vitest'
import { assign, createMachine, fromPromise, setup } from 'xstate'
import { allTransitions, describePath, internalEvents, shortestPaths, simplePaths, transitionsCoveredBy, uncoveredTransitions } from '../helpers/machine-paths.js'

// The path helpers of docs/statecharts.md, on a machine with what xstate/graph's test model
// refuses: invoke, after, a spawned child with a systemId, and a counter in context.
const fetcher = setup({
  types: { context: {} as { attempts: number } },
  actors: { load: fromPromise(async () => 'data') },
  guards: { canRetry: ({ context }) => context.attempts < 2 },
  delays: { backoff: 100 },
}).createMachine({
  id: 'fetcher',
  context: { attempts: 0 },
  initial: 'idle',
  states: {
    idle: { on: { fetch: 'loading', noop: {} } },
    loading: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      invoke: { id: 'load', src: 'load', onDone: 'done', onError: [{ target: 'waiting', guard: 'canRetry' }, { target: 'failed' }] },
    },
    waiting: { after: { backoff: 'loading' }, on: { cancel: 'idle' } },
    failed: { on: { fetch: { target: 'loading', actions: assign({ attempts: 0 }) } } },
    done: { type: 'final' },
  },
})

describe('machine paths', () => {
  it('derives the internal events (done, error, after) from the definition', () => {
    const types = internalEvents(fetcher).map((event) => event.type)
    expect(types).toEqual(expect.arrayContaining(['fetch', 'noop', 'cancel', 'xstate.done.actor.load', 'xstate.error.actor.load', 'xstate.after.backoff.fetcher.waiting']))
    expect(types.some((type) => type.includes('*'))).toBe(false)
  })

  it('shortest paths over the internal events take every transition, invoke and after included', () => {
    const paths = shortestPaths(fetcher, { events: internalEvents(fetcher) })
    expect(allTransitions(fetcher)).toHaveLength(8)
    expect(uncoveredTransitions(fetcher, paths)).toEqual([])
    expect(paths.map(describePath)).toContain('xstate.init -> fetch -> xstate.done.actor.load')
  })

  it('reports the transitions no path takes', () => {
    const onlyFetch = shortestPaths(fetcher, { events: [{ type: 'fetch' }, { type: 'xstate.done.actor.load' }] })
    const missing = uncoveredTransitions(fetcher, onlyFetch)
    expect(missing).toContain('fetcher.waiting --after backoff--> fetcher.loading')
    expect(missing).toContain('fetcher.loading --xstate.error.actor.load [canRetry] #1--> fetcher.waiting')
    expect(missing).not.toContain('fetcher.idle --fetch--> fetcher.loading')
  })

  it('one path per state without perTransition, and simple paths as well', () => {
    const events = internalEvents(fetcher)
    // The guard reads `attempts`, so it belongs in the vertex: with the value alone, `failed`
    // (reached on the second failure) would never be found.
    const serializeState = (s: { value: unknown; context: { attempts: number } }) => JSON.stringify([s.value, s.context.attempts])
    const perState = shortestPaths(fetcher, { events, perTransition: false, serializeState })
    expect(new Set(perState.map((path) => path.state.value))).toEqual(new Set(['done', 'failed', 'idle', 'loading', 'waiting']))
    const simple = simplePaths(fetcher, { events, perTransition: false, serializeState, toState: (s) => s.matches('failed') })
    expect(simple.length).toBeGreaterThan(0)
    for (const path of simple) expect(path.state.value).toBe('failed')
  })

  it('paths of a provided machine count for the plain definition', () => {
    const provided = fetcher.provide({ guards: { canRetry: () => false } })
    const paths = shortestPaths(provided, { events: internalEvents(fetcher) })
    const covered = transitionsCoveredBy(fetcher, paths)
    expect(covered).toContain('fetcher.loading --xstate.error.actor.load #2--> fetcher.failed')
    expect(covered).not.toContain('fetcher.loading --xstate.error.actor.load [canRetry] #1--> fetcher.waiting')
  })

  it('respawning a child with a systemId does not break the traversal', () => {
    const parent = setup({ actors: { worker: fromPromise(async () => {}) } }).createMachine({
      id: 'parent',
      initial: 'on',
      states: {
        on: {
          entry: ({ self }) => void self,
          invoke: { id: 'worker', systemId: 'worker', src: 'worker', onError: { target: 'on', reenter: true } },
          on: { off: 'off' },
        },
        off: { on: { on: 'on' } },
      },
    })
    const paths = shortestPaths(parent, { events: internalEvents(parent) })
    expect(uncoveredTransitions(parent, paths)).toEqual([])
  })

  it('stops offering events once the machine is done', () => {
    const paths = shortestPaths(fetcher, { events: internalEvents(fetcher) })
    for (const path of paths) {
      const doneAt = path.steps.findIndex((step) => step.state.status === 'done')
      if (doneAt >= 0) expect(doneAt).toBe(path.steps.length - 1)
    }
  })
})

it('an unbounded context fails fast at the traversal limit instead of hanging', () => {
  const counter = createMachine({ id: 'counter', context: { n: 0 }, on: { inc: { actions: assign({ n: ({ context }) => context.n + 1 }) } } })
  expect(() => shortestPaths(counter, { events: [{ type: 'inc' }], limit: 50 })).toThrow(/limit/)
})
