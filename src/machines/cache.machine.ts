// The `cache` child of the root (issue 11; contract 2.6; docs/hls-cache.md): loads the cache dir
// (reaping orphans) on every (re)start, then keeps one `cacheEntry:<key>` child per entry, routes
// each session's lookup, release and finished write to it, and keeps the total within budget by
// sending `entry.evict` to the least recently used evictable entries. Entries sit under this
// actor rather than under the root (like tasks under `tasks`): a restart by the root's supervisor
// rescans the dir and rebuilds exactly what is on disk, and /debug/actors shows them together.
import { assign, enqueueActions, fromPromise, setup, stopChild, type AnyActorRef } from 'xstate'
import { cacheEntryMachine, type CacheEntryChanged, type CacheOpenRequest } from './cache-entry.machine.js'
import { planEviction, type BudgetEntry } from './cache-budget.js'

export interface CacheInput {
  budgetBytes: number
  /** How often the hits/misses/bytes/entries line is logged (a day). */
  statsLogIntervalMs: number
}

export interface ScannedCacheEntry { key: string; bytes: number; lastUsedAt: number }

export interface CacheContext {
  budgetBytes: number
  statsLogIntervalMs: number
  /** Live entries (not being evicted) and what the budget needs of them. */
  index: Record<string, BudgetEntry>
  totalBytes: number
  /** Lookups that arrived while the dir was being loaded. */
  pending: Array<{ key: string; request: CacheOpenRequest }>
}

export type CacheEvent =
  | { type: 'cache.open'; key: string; request: CacheOpenRequest }
  | { type: 'cache.release'; key: string; sessionId: string }
  | { type: 'cache.written'; key: string; sessionId: string; payload: unknown }
  | { type: 'cache.clear' }
  | CacheEntryChanged
  | { type: `xstate.done.actor.${string}` }
  | { type: `xstate.error.actor.${string}`; error: unknown }

const entryPrefix = 'cacheEntry:'
export const cacheEntryActorId = (key: string) => `${entryPrefix}${key}`

type Children = Record<string, AnyActorRef | undefined>
const liveChild = (self: AnyActorRef, id: string) => {
  const child = (self.getSnapshot() as { children: Children }).children[id]
  return child !== undefined && child.getSnapshot().status === 'active' ? child : undefined
}

export const cacheMachine = setup({
  types: {
    context: {} as CacheContext,
    input: {} as CacheInput,
    events: {} as CacheEvent,
  },
  actors: {
    entry: cacheEntryMachine,
    /** Reaps orphans and lists the complete entries on disk. */
    scan: fromPromise<ScannedCacheEntry[], void>(async () => []),
  },
  actions: {
    logStats: (_, _params: { entries: number; bytes: number }) => {},
    logEntryCrash: (_, _params: { key: string; error: string }) => {},
    logScanFailed: (_, _params: { error: string }) => {},
    /** Routes a lookup to its entry, starting one for a key with nothing known on disk. */
    route: enqueueActions(({ self, enqueue }, params: { key: string; request: CacheOpenRequest }) => {
      const id = cacheEntryActorId(params.key)
      if (!liveChild(self, id)) {
        // An entry that has just ended (its done event still queued) is replaced by a fresh one.
        if ((self.getSnapshot() as { children: Children }).children[id]) enqueue(stopChild(id))
        enqueue.spawnChild('entry', { id, systemId: id, input: { key: params.key, complete: false, bytes: 0, lastUsedAt: params.request.at } })
      }
      enqueue.sendTo(id, { type: 'entry.open', request: params.request })
    }),
    /** LRU within budget; the chosen leave the index at once (their removal is under way). */
    evictOverBudget: enqueueActions(({ context, enqueue }) => {
      if (context.totalBytes <= context.budgetBytes) return
      const victims = planEviction(Object.values(context.index), context.budgetBytes, context.totalBytes)
      if (victims.length === 0) return
      const index = { ...context.index }
      let total = context.totalBytes
      for (const key of victims) {
        total -= index[key]!.bytes
        delete index[key]
        enqueue.sendTo(cacheEntryActorId(key), { type: 'entry.evict' })
      }
      enqueue.assign({ index, totalBytes: total })
    }),
  },
  delays: {
    statsLogInterval: ({ context }) => context.statsLogIntervalMs,
  },
}).createMachine({
  id: 'cache',
  description: 'The HLS segment cache: loads the dir, one cacheEntry:<key> child per entry, LRU eviction within size_gb',
  context: ({ input }) => ({ budgetBytes: input.budgetBytes, statsLogIntervalMs: input.statsLogIntervalMs, index: {}, totalBytes: 0, pending: [] }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'scan',
        src: 'scan',
        onDone: {
          target: 'running',
          actions: [
            enqueueActions(({ event, enqueue }) => {
              const index: Record<string, BudgetEntry> = {}
              let total = 0
              for (const found of event.output) {
                if (index[found.key]) continue
                index[found.key] = { key: found.key, bytes: found.bytes, lastUsedAt: found.lastUsedAt, evictable: true }
                total += found.bytes
                enqueue.spawnChild('entry', { id: cacheEntryActorId(found.key), systemId: cacheEntryActorId(found.key), input: { key: found.key, complete: true, bytes: found.bytes, lastUsedAt: found.lastUsedAt } })
              }
              enqueue.assign({ index, totalBytes: total })
            }),
            'evictOverBudget',
          ],
        },
        // The dir could not be read at all: run with an empty cache rather than not at all.
        onError: { target: 'running', actions: { type: 'logScanFailed', params: ({ event }) => ({ error: event.error instanceof Error ? event.error.message : String(event.error) }) } },
      },
      on: {
        'cache.open': { actions: assign({ pending: ({ context, event }) => [...context.pending, { key: event.key, request: event.request }] }) },
      },
    },
    running: {
      entry: enqueueActions(({ context, enqueue }) => {
        for (const item of context.pending) enqueue({ type: 'route', params: item })
        enqueue.assign({ pending: [] })
      }),
      initial: 'counting',
      states: {
        counting: {
          after: {
            statsLogInterval: {
              target: 'counting',
              reenter: true,
              actions: { type: 'logStats', params: ({ context }) => ({ entries: Object.keys(context.index).length, bytes: context.totalBytes }) },
            },
          },
        },
      },
      on: {
        'cache.open': { actions: { type: 'route', params: ({ event }) => ({ key: event.key, request: event.request }) } },
        'cache.release': { actions: enqueueActions(({ self, event, enqueue }) => {
          if (liveChild(self, cacheEntryActorId(event.key))) enqueue.sendTo(cacheEntryActorId(event.key), { type: 'entry.release', sessionId: event.sessionId })
        }) },
        'cache.written': { actions: enqueueActions(({ self, event, enqueue }) => {
          if (liveChild(self, cacheEntryActorId(event.key))) enqueue.sendTo(cacheEntryActorId(event.key), { type: 'entry.written', sessionId: event.sessionId, payload: event.payload })
        }) },
        // `cache clear`: every entry is asked; only idle ones go (pinned and writing never).
        'cache.clear': { actions: enqueueActions(({ context, enqueue }) => {
          for (const key of Object.keys(context.index)) enqueue.sendTo(cacheEntryActorId(key), { type: 'entry.evict' })
        }) },
        'cache.entryChanged': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const before = context.index[event.key]
              if (before && before.bytes === event.bytes && before.lastUsedAt === event.lastUsedAt && before.evictable === event.evictable) return
              enqueue.assign({
                index: { ...context.index, [event.key]: { key: event.key, bytes: event.bytes, lastUsedAt: event.lastUsedAt, evictable: event.evictable } },
                totalBytes: context.totalBytes - (before?.bytes ?? 0) + event.bytes,
              })
            }),
            'evictOverBudget',
          ],
        },
        'xstate.done.actor.*': { actions: enqueueActions(({ context, self, event, enqueue }) => {
          const id = event.type.slice('xstate.done.actor.'.length)
          if (!id.startsWith(entryPrefix) || liveChild(self, id)) return
          const key = id.slice(entryPrefix.length)
          enqueue(stopChild(id))
          const gone = context.index[key]
          if (!gone) return
          const index = { ...context.index }
          delete index[key]
          enqueue.assign({ index, totalBytes: context.totalBytes - gone.bytes })
        }) },
        // An entry actor that throws is a bug; the others go on, and the entry is rescanned at the next start.
        'xstate.error.actor.*': { actions: enqueueActions(({ context, self, event, enqueue }) => {
          const id = event.type.slice('xstate.error.actor.'.length)
          if (!id.startsWith(entryPrefix) || liveChild(self, id)) return
          const key = id.slice(entryPrefix.length)
          const error = (event as { error?: unknown }).error
          enqueue({ type: 'logEntryCrash', params: { key, error: error instanceof Error ? error.message : String(error) } })
          enqueue(stopChild(id))
          const gone = context.index[key]
          if (!gone) return
          const index = { ...context.index }
          delete index[key]
          enqueue.assign({ index, totalBytes: context.totalBytes - gone.bytes })
        }) },
      },
    },
  },
})
