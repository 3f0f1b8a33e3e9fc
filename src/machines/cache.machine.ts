// The `cache` child of the root (issue 11; contract 2.6; docs/hls-cache.md): loads the cache dir
// (reaping orphans) on every (re)start, keeps one `cacheEntry:<key>` actor per entry (inside 256
// `cacheShard:<xx>` children, see cache-shard.machine.ts), routes each session's lookup, release
// and finished write to it, and keeps the total within budget by sending `entry.evict` to the
// least recently used evictable entries. Entries at load that the budget cannot hold are
// evicted before any actor is started for them. Entries sit under this actor rather than under
// the root (like tasks under `tasks`): a restart by the root's supervisor rescans the dir and
// rebuilds exactly what is on disk, and /debug/actors shows them together.
import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import type { CacheEntryChanged, CacheEntryEvent, CacheEntryInput, CacheOpenRequest } from './cache-entry.machine.js'
import { cacheShardActorId, cacheShardMachine, type CacheEntryGone } from './cache-shard.machine.js'
import { planEviction, type BudgetEntry } from './cache-budget.js'

export { cacheEntryActorId } from './cache-shard.machine.js'

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
  /** Entries found at load to keep (spawned) and to remove first (never spawned). */
  loaded: ScannedCacheEntry[]
  overBudget: string[]
  /** `cacheShard:<xx>` children started so far. */
  shards: string[]
}

export type CacheEvent =
  | { type: 'cache.open'; key: string; request: CacheOpenRequest }
  | { type: 'cache.release'; key: string; sessionId: string }
  | { type: 'cache.written'; key: string; sessionId: string; payload: unknown }
  | { type: 'cache.clear' }
  | CacheEntryChanged
  | CacheEntryGone
  | { type: `xstate.error.actor.${string}`; error: unknown }

type ShardEvent = { type: 'shard.open'; key: string; request: CacheOpenRequest } | { type: 'shard.forward'; key: string; event: CacheEntryEvent } | { type: 'shard.load'; entries: CacheEntryInput[] }
interface ShardEnqueue {
  spawnChild(src: 'shard', options: { id: string; systemId: string }): void
  sendTo(to: string, event: ShardEvent): void
  assign(values: { shards: string[] }): void
}

/**
 * Sends to an entry through its shard, starting the shard the first time. The shards started
 * are tracked in context (`self`'s snapshot is not updated within a macrostep): `started` is the
 * working copy of one action, assigned back when it grew.
 */
function toShard(enqueue: ShardEnqueue, started: Set<string>, key: string, event: ShardEvent): void {
  const id = cacheShardActorId(key)
  if (!started.has(id)) {
    started.add(id)
    enqueue.spawnChild('shard', { id, systemId: id })
    enqueue.assign({ shards: [...started] })
  }
  enqueue.sendTo(id, event)
}

export const cacheMachine = setup({
  types: {
    context: {} as CacheContext,
    input: {} as CacheInput,
    events: {} as CacheEvent,
  },
  actors: {
    shard: cacheShardMachine,
    /** Reaps orphans and lists the complete entries on disk. */
    scan: fromPromise<ScannedCacheEntry[], void>(async () => []),
    /** Removes entries the budget cannot hold at load (no actor was started for them). */
    removeMany: fromPromise<void, { keys: string[] }>(async () => {}),
  },
  actions: {
    logStats: (_, _params: { entries: number; bytes: number }) => {},
    logEntryCrash: (_, _params: { key: string; error: string }) => {},
    logScanFailed: (_, _params: { error: string }) => {},
    toShard: enqueueActions(({ context, enqueue }, params: { key: string; event: ShardEvent }) => toShard(enqueue as never, new Set(context.shards), params.key, params.event)),
    /** LRU within budget; the chosen leave the index at once (their removal is under way). */
    evictOverBudget: enqueueActions(({ context, enqueue }) => {
      if (context.totalBytes <= context.budgetBytes) return
      const victims = planEviction(Object.values(context.index), context.budgetBytes, context.totalBytes)
      if (victims.length === 0) return
      const index = { ...context.index }
      let total = context.totalBytes
      const started = new Set(context.shards)
      for (const key of victims) {
        total -= index[key]!.bytes
        delete index[key]
        toShard(enqueue as never, started, key, { type: 'shard.forward', key, event: { type: 'entry.evict' } })
      }
      enqueue.assign({ index, totalBytes: total })
    }),
  },
  delays: {
    statsLogInterval: ({ context }) => context.statsLogIntervalMs,
  },
}).createMachine({
  id: 'cache',
  description: 'The HLS segment cache: loads the dir, one cacheEntry:<key> actor per entry (in cacheShard:<xx> children), LRU eviction within size_gb',
  context: ({ input }) => ({ budgetBytes: input.budgetBytes, statsLogIntervalMs: input.statsLogIntervalMs, index: {}, totalBytes: 0, pending: [], loaded: [], overBudget: [], shards: [] }),
  initial: 'loading',
  on: {
    'cache.open': { actions: assign({ pending: ({ context, event }) => [...context.pending, { key: event.key, request: event.request }] }) },
  },
  states: {
    loading: {
      initial: 'scanning',
      states: {
        scanning: {
          invoke: {
            id: 'scan',
            src: 'scan',
            onDone: {
              target: 'trimming',
              actions: assign(({ context, event }) => {
                const seen = new Set<string>()
                const found = event.output.filter((entry) => !seen.has(entry.key) && seen.add(entry.key))
                const overBudget = planEviction(found.map((entry) => ({ ...entry, evictable: true })), context.budgetBytes)
                const dropped = new Set(overBudget)
                return { loaded: found.filter((entry) => !dropped.has(entry.key)), overBudget }
              }),
            },
            // The dir could not be read at all: run with an empty cache rather than not at all.
            onError: { target: '#cache.running', actions: { type: 'logScanFailed', params: ({ event }) => ({ error: event.error instanceof Error ? event.error.message : String(event.error) }) } },
          },
        },
        trimming: {
          invoke: {
            id: 'removeMany',
            src: 'removeMany',
            input: ({ context }) => ({ keys: context.overBudget }),
            onDone: '#cache.running',
            onError: '#cache.running',
          },
        },
      },
    },
    running: {
      entry: enqueueActions(({ context, enqueue }) => {
        const index: Record<string, BudgetEntry> = {}
        let total = 0
        const byShard = new Map<string, CacheEntryInput[]>()
        for (const found of context.loaded) {
          index[found.key] = { key: found.key, bytes: found.bytes, lastUsedAt: found.lastUsedAt, evictable: true }
          total += found.bytes
          const shard = cacheShardActorId(found.key)
          if (!byShard.has(shard)) byShard.set(shard, [])
          byShard.get(shard)!.push({ key: found.key, complete: true, bytes: found.bytes, lastUsedAt: found.lastUsedAt })
        }
        const started = new Set(context.shards)
        for (const entries of byShard.values()) toShard(enqueue as never, started, entries[0]!.key, { type: 'shard.load', entries })
        enqueue.assign({ index, totalBytes: total, loaded: [], overBudget: [] })
        for (const item of context.pending) enqueue.raise({ type: 'cache.open', key: item.key, request: item.request })
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
        'cache.open': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            // Counted from now on (not evictable until it says so), also an entry whose eviction this lookup interrupts.
            if (!context.index[event.key]) enqueue.assign({ index: { ...context.index, [event.key]: { key: event.key, bytes: 0, lastUsedAt: event.request.at, evictable: false } } })
            enqueue({ type: 'toShard', params: { key: event.key, event: { type: 'shard.open', key: event.key, request: event.request } } })
          }),
        },
        'cache.release': { actions: { type: 'toShard', params: ({ event }) => ({ key: event.key, event: { type: 'shard.forward' as const, key: event.key, event: { type: 'entry.release' as const, sessionId: event.sessionId } } }) } },
        'cache.written': { actions: { type: 'toShard', params: ({ event }) => ({ key: event.key, event: { type: 'shard.forward' as const, key: event.key, event: { type: 'entry.written' as const, sessionId: event.sessionId, payload: event.payload } } }) } },
        // `cache clear`: every entry is asked; only idle ones go (pinned and writing never).
        'cache.clear': {
          actions: enqueueActions(({ context, enqueue }) => {
            const started = new Set(context.shards)
            for (const key of Object.keys(context.index)) toShard(enqueue as never, started, key, { type: 'shard.forward', key, event: { type: 'entry.evict' } })
          }),
        },
        'cache.entryChanged': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const before = context.index[event.key]
              // Unknown and idle: a report from before this entry was chosen for eviction (stale).
              if (!before && event.evictable) return
              if (before && before.bytes === event.bytes && before.lastUsedAt === event.lastUsedAt && before.evictable === event.evictable) return
              enqueue.assign({
                index: { ...context.index, [event.key]: { key: event.key, bytes: event.bytes, lastUsedAt: event.lastUsedAt, evictable: event.evictable } },
                totalBytes: context.totalBytes - (before?.bytes ?? 0) + event.bytes,
              })
            }),
            'evictOverBudget',
          ],
        },
        'cache.entryGone': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (event.error !== undefined) enqueue({ type: 'logEntryCrash', params: { key: event.key, error: event.error } })
            const gone = context.index[event.key]
            if (!gone) return
            const index = { ...context.index }
            delete index[event.key]
            enqueue.assign({ index, totalBytes: context.totalBytes - gone.bytes })
          }),
        },
      },
    },
  },
})
