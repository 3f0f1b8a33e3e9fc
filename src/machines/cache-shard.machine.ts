// A slice of the cache's entries (issue 11; docs/hls-cache.md "Where the entries live"): the
// `cache` actor keeps its `cacheEntry:<key>` actors in 256 `cacheShard:<xx>` children, by the
// key's first two hex characters. Why: XState copies a parent's `children` object on every
// spawn and stop, so one parent of 10,000 entries spends quadratic time (measured: 2.6 s for
// 1,500 entries, most of it in those copies); a shard holds a few dozen. The shard only spawns,
// forwards and stops; decisions (budget, LRU) stay with `cache`, state with each entry.
import { enqueueActions, sendParent, setup, stopChild, type AnyActorRef } from 'xstate'
import { cacheEntryMachine, type CacheEntryChanged, type CacheEntryEvent, type CacheEntryInput, type CacheOpenRequest } from './cache-entry.machine.js'

export type CacheShardEvent =
  /** Entries found complete on disk at load. */
  | { type: 'shard.load'; entries: CacheEntryInput[] }
  /** A lookup: the entry is started (nothing known on disk) when it has no live actor. */
  | { type: 'shard.open'; key: string; request: CacheOpenRequest }
  | { type: 'shard.forward'; key: string; event: CacheEntryEvent }
  | CacheEntryChanged
  | { type: `xstate.done.actor.${string}` }
  | { type: `xstate.error.actor.${string}`; error: unknown }

/** What a shard tells `cache` when an entry actor ended (evicted, invalid and gone, crashed). */
export interface CacheEntryGone { type: 'cache.entryGone'; key: string; error?: string }

const entryPrefix = 'cacheEntry:'
export const cacheEntryActorId = (key: string) => `${entryPrefix}${key}`
export const cacheShardActorId = (key: string) => `cacheShard:${key.slice(0, 2)}`

type Children = Record<string, AnyActorRef | undefined>
const childOf = (self: AnyActorRef, id: string) => (self.getSnapshot() as { children: Children }).children[id]
const liveChild = (self: AnyActorRef, id: string) => {
  const child = childOf(self, id)
  return child !== undefined && child.getSnapshot().status === 'active' ? child : undefined
}

export const cacheShardMachine = setup({
  types: { events: {} as CacheShardEvent },
  actors: { entry: cacheEntryMachine },
}).createMachine({
  id: 'cacheShard',
  description: 'A slice of the cache entries (by the key\'s first two hex characters): spawns, forwards to and stops cacheEntry:<key> actors',
  initial: 'running',
  states: {
    running: {
      on: {
        'shard.load': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            for (const input of event.entries) {
              const id = cacheEntryActorId(input.key)
              if (!childOf(self, id)) enqueue.spawnChild('entry', { id, systemId: id, input })
            }
          }),
        },
        'shard.open': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = cacheEntryActorId(event.key)
            if (!liveChild(self, id)) {
              // An entry that has just ended (its done event still queued) is replaced by a fresh one.
              if (childOf(self, id)) enqueue(stopChild(id))
              enqueue.spawnChild('entry', { id, systemId: id, input: { key: event.key, complete: false, bytes: 0, lastUsedAt: event.request.at } })
            }
            enqueue.sendTo(id, { type: 'entry.open', request: event.request })
          }),
        },
        'shard.forward': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = cacheEntryActorId(event.key)
            if (liveChild(self, id)) enqueue.sendTo(id, event.event)
          }),
        },
        'cache.entryChanged': { actions: sendParent(({ event }) => event) },
        'xstate.done.actor.*': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = event.type.slice('xstate.done.actor.'.length)
            if (!id.startsWith(entryPrefix) || liveChild(self, id)) return
            enqueue(stopChild(id))
            enqueue.sendParent({ type: 'cache.entryGone', key: id.slice(entryPrefix.length) } satisfies CacheEntryGone)
          }),
        },
        // An entry actor that throws is a bug; the others go on, and the entry is rescanned at the next start.
        'xstate.error.actor.*': {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = event.type.slice('xstate.error.actor.'.length)
            if (!id.startsWith(entryPrefix) || liveChild(self, id)) return
            const error = (event as { error?: unknown }).error
            enqueue(stopChild(id))
            enqueue.sendParent({ type: 'cache.entryGone', key: id.slice(entryPrefix.length), error: error instanceof Error ? error.message : String(error) } satisfies CacheEntryGone)
          }),
        },
      },
    },
  },
})
