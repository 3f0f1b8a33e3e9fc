// One HLS cache entry (issue 11; contract 2.6, 3 cache rows; protocol.md 7.1; docs/hls-cache.md).
// Pure: the disk work (writer lock + empty directory, commit, verify, tidy, remove) is done by
// named actors bound in src/system/cache-part.ts; answers to a session's lookup go out through
// the named action `answer`. The parent `cache` actor keeps the budget and sends `entry.evict`.
//
//   absent -> acquiring -> writing -> committing -> complete.pinned (the writer still plays)
//   complete: idle <-> verifying (every HIT) <-> pinned (while any session plays) ; tidying (writer left)
//   complete.idle -> evicting -> evicted ; verifying -> invalid -> acquiring (the session re-encodes)
//   writing / abandoned (commit failed, e.g. disk full) -> discarding -> gone
import { assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate'

export interface CacheOpenRequest {
  requestId: string
  sessionId: string
  /** The source entry.json must name (absolute path or cacheId); another one is a key collision. */
  source: string
  /** When the session asked (ms): the entry's last use, for LRU. */
  at: number
}

/** hit: serve the entry; write: transcode into it; bypass: transcode uncached; collision: another source's entry. */
export type CacheOutcome = 'hit' | 'write' | 'bypass' | 'collision'

export interface CacheEntryInput {
  key: string
  /** Found complete on disk at startup (else: nothing there yet). */
  complete: boolean
  bytes: number
  lastUsedAt: number
}

export type VerifyOutcome = { ok: true; source: string } | { ok: false; collision: true; source: string } | { ok: false; collision: false; reason: string }

export interface CacheEntryContext {
  key: string
  bytes: number
  lastUsedAt: number
  /** Sessions playing the entry (the writer too, from its start). */
  pins: string[]
  /** The session transcoding into the entry, until its run directories are tidied. */
  writer: string | undefined
  /** Lookups waiting for the lock, a verification or a removal. */
  waiting: CacheOpenRequest[]
  /** What the writer handed over to commit (file paths, playlists): opaque here. */
  payload: unknown
  /** Found complete on disk when the actor started. */
  foundOnDisk: boolean
}

export type CacheEntryEvent =
  | { type: 'entry.open'; request: CacheOpenRequest }
  | { type: 'entry.release'; sessionId: string }
  | { type: 'entry.written'; sessionId: string; payload: unknown }
  | { type: 'entry.evict' }

/** What the entry tells its parent whenever its size or evictability changes. */
export interface CacheEntryChanged { type: 'cache.entryChanged'; key: string; bytes: number; lastUsedAt: number; evictable: boolean }

const without = (list: string[], item: string) => list.filter((entry) => entry !== item)

export const cacheEntryMachine = setup({
  types: {
    context: {} as CacheEntryContext,
    events: {} as CacheEntryEvent,
    input: {} as CacheEntryInput,
  },
  actors: {
    // Bound in src/system/cache-part.ts; these placeholders fix the types.
    acquire: fromPromise<boolean, { key: string }>(async () => false),
    commit: fromPromise<{ bytes: number }, { key: string; payload: unknown }>(async () => {
      throw new Error('commit is not bound')
    }),
    verify: fromPromise<VerifyOutcome, { key: string; source: string }>(async () => ({ ok: false, collision: false, reason: 'verify is not bound' })),
    tidy: fromPromise<void, { key: string }>(async () => {}),
    remove: fromPromise<boolean, { key: string }>(async () => false),
  },
  guards: {
    foundComplete: ({ context }) => context.foundOnDisk,
    isWriter: ({ context, event }) => 'sessionId' in event && event.sessionId === context.writer,
    writerLeft: ({ context }) => context.writer !== undefined && !context.pins.includes(context.writer),
    hasPins: ({ context }) => context.pins.length > 0,
    hasWaiting: ({ context }) => context.waiting.length > 0,
    outputTrue: ({ event }) => (event as { output?: unknown }).output === true,
    removedWithWaiting: ({ context, event }) => (event as { output?: unknown }).output === true && context.waiting.length > 0,
    verifiedOk: ({ event }) => ((event as { output?: VerifyOutcome }).output)?.ok === true,
    verifiedCollision: ({ event }) => {
      const output = (event as { output?: VerifyOutcome }).output
      return output?.ok === false && output.collision
    },
  },
  actions: {
    answer: (_, _params: { requests: CacheOpenRequest[]; outcome: CacheOutcome }) => {},
    logInvalid: (_, _params: { key: string; reason: string }) => {},
    report: sendParent(({ context }, params: { evictable: boolean }): CacheEntryChanged => ({
      type: 'cache.entryChanged', key: context.key, bytes: context.bytes, lastUsedAt: context.lastUsedAt, evictable: params.evictable,
    })),
    queue: assign({ waiting: ({ context, event }) => (event.type === 'entry.open' ? [...context.waiting, event.request] : context.waiting) }),
    unpin: assign({ pins: ({ context, event }) => (event.type === 'entry.release' ? without(context.pins, event.sessionId) : context.pins) }),
    clearWaiting: assign({ waiting: [] }),
  },
}).createMachine({
  id: 'cacheEntry',
  description: 'One HLS segment cache entry: writing -> complete (idle | pinned, verified on every HIT) -> evicted | invalid',
  context: ({ input }) => ({
    key: input.key,
    bytes: input.complete ? input.bytes : 0,
    lastUsedAt: input.lastUsedAt,
    pins: [],
    writer: undefined,
    waiting: [],
    payload: undefined,
    foundOnDisk: input.complete,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'foundComplete', target: 'complete' }, { target: 'absent' }],
    },
    absent: {
      on: { 'entry.open': { target: 'acquiring', actions: 'queue' } },
    },
    acquiring: {
      invoke: {
        id: 'acquire',
        src: 'acquire',
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          {
            guard: 'outputTrue',
            target: 'writing',
            // The first asker writes; anyone else with the same key transcodes uncached.
            actions: enqueueActions(({ context, enqueue }) => {
              const [first, ...rest] = context.waiting
              if (!first) return
              enqueue.assign({ writer: first.sessionId, pins: [first.sessionId], waiting: [], bytes: 0, lastUsedAt: first.at, payload: undefined })
              enqueue({ type: 'answer', params: { requests: [first], outcome: 'write' } })
              if (rest.length > 0) enqueue({ type: 'answer', params: { requests: rest, outcome: 'bypass' } })
            }),
          },
          // Another process writes this key: its writer lock stands.
          { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
        ],
        onError: { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
      },
      on: { 'entry.open': { actions: 'queue' } },
    },
    writing: {
      entry: { type: 'report', params: { evictable: false } },
      on: {
        'entry.open': { actions: { type: 'answer', params: ({ event }) => ({ requests: [event.request], outcome: 'bypass' as const }) } },
        'entry.written': { guard: 'isWriter', target: 'committing', actions: assign({ payload: ({ event }) => event.payload }) },
        // The writer stopped before the last segment: no `.complete`, the entry goes.
        'entry.release': { guard: 'isWriter', target: 'discarding', actions: 'unpin' },
      },
    },
    committing: {
      invoke: {
        id: 'commit',
        src: 'commit',
        input: ({ context }) => ({ key: context.key, payload: context.payload }),
        onDone: { target: 'complete', actions: assign({ bytes: ({ event }) => event.output.bytes, payload: undefined }) },
        onError: {
          target: 'abandoned',
          actions: [
            assign({ payload: undefined }),
            { type: 'logInvalid', params: ({ context, event }) => ({ key: context.key, reason: `commit failed: ${event.error instanceof Error ? event.error.message : String(event.error)}` }) },
          ],
        },
      },
      on: {
        'entry.open': { actions: { type: 'answer', params: ({ event }) => ({ requests: [event.request], outcome: 'bypass' as const }) } },
        'entry.release': { actions: 'unpin' },
      },
    },
    // The commit failed (a full disk): the session goes on uncached from its runs; the entry goes when it ends.
    abandoned: {
      always: { guard: 'writerLeft', target: 'discarding' },
      on: {
        'entry.open': { actions: { type: 'answer', params: ({ event }) => ({ requests: [event.request], outcome: 'bypass' as const }) } },
        'entry.release': { actions: 'unpin' },
      },
    },
    discarding: {
      invoke: { id: 'discard', src: 'remove', input: ({ context }) => ({ key: context.key }), onDone: 'gone', onError: 'gone' },
      on: { 'entry.open': { actions: { type: 'answer', params: ({ event }) => ({ requests: [event.request], outcome: 'bypass' as const }) } } },
    },
    gone: { type: 'final' },
    complete: {
      initial: 'settle',
      on: { 'entry.release': { actions: 'unpin' } },
      states: {
        // Where a complete entry goes after any step: tidy a departed writer, serve the queue, or rest.
        settle: {
          always: [
            { guard: 'writerLeft', target: 'tidying' },
            { guard: 'hasWaiting', target: 'verifying' },
            { guard: 'hasPins', target: 'pinned' },
            { target: 'idle' },
          ],
        },
        idle: {
          entry: { type: 'report', params: { evictable: true } },
          on: {
            'entry.open': { target: 'verifying', actions: 'queue' },
            'entry.evict': { target: '#cacheEntry.evicting' },
          },
        },
        pinned: {
          entry: { type: 'report', params: { evictable: false } },
          on: {
            'entry.open': { target: 'verifying', actions: 'queue' },
            'entry.release': { target: 'settle', actions: 'unpin' },
          },
        },
        // VerifyComplete on every HIT, before it is served.
        verifying: {
          invoke: {
            id: 'verify',
            src: 'verify',
            input: ({ context }) => ({ key: context.key, source: context.waiting[0]!.source }),
            onDone: [
              {
                guard: 'verifiedOk',
                target: 'settle',
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const output = event.output as { ok: true; source: string }
                  const hits = context.waiting.filter((request) => request.source === output.source)
                  enqueue({ type: 'answer', params: { requests: hits, outcome: 'hit' } })
                  const others = context.waiting.filter((request) => !hits.includes(request))
                  if (others.length > 0) enqueue({ type: 'answer', params: { requests: others, outcome: 'collision' } })
                  enqueue.assign({
                    pins: [...context.pins, ...hits.map((request) => request.sessionId)],
                    lastUsedAt: Math.max(context.lastUsedAt, ...hits.map((request) => request.at)),
                    waiting: [],
                  })
                }),
              },
              {
                // A key collision: the entry is another source's; it stays, the asker goes uncached.
                guard: 'verifiedCollision',
                target: 'settle',
                actions: enqueueActions(({ context, enqueue }) => {
                  enqueue({ type: 'answer', params: { requests: context.waiting, outcome: 'collision' } })
                  enqueue.assign({ waiting: [] })
                }),
              },
              {
                target: '#cacheEntry.invalid',
                actions: { type: 'logInvalid', params: ({ context, event }) => ({ key: context.key, reason: (event.output as { reason?: string }).reason ?? 'verification failed' }) },
              },
            ],
            onError: {
              target: '#cacheEntry.invalid',
              actions: { type: 'logInvalid', params: ({ context, event }) => ({ key: context.key, reason: event.error instanceof Error ? event.error.message : String(event.error) }) },
            },
          },
          on: { 'entry.open': { actions: 'queue' } },
        },
        // The writer ended after its commit: its run directories go and the lock is dropped.
        tidying: {
          invoke: {
            id: 'tidy',
            src: 'tidy',
            input: ({ context }) => ({ key: context.key }),
            onDone: { target: 'settle', actions: assign({ writer: undefined }) },
            onError: { target: 'settle', actions: assign({ writer: undefined }) },
          },
          on: { 'entry.open': { actions: 'queue' } },
        },
      },
    },
    // Failed VerifyComplete: removed, and the session that asked re-encodes into a fresh entry.
    invalid: {
      entry: [{ type: 'report', params: { evictable: false } }, assign({ pins: [], bytes: 0 })],
      invoke: {
        id: 'removeInvalid',
        src: 'remove',
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          { guard: 'removedWithWaiting', target: 'acquiring' },
          // Not removed (a live writer elsewhere took the key): whoever asked transcodes uncached.
          { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
        ],
        onError: { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
      },
      on: { 'entry.open': { actions: 'queue' } },
    },
    evicting: {
      invoke: {
        id: 'evict',
        src: 'remove',
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          { guard: 'removedWithWaiting', target: 'acquiring' },
          { guard: 'outputTrue', target: 'evicted' },
          { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
        ],
        onError: { target: 'gone', actions: [{ type: 'answer', params: ({ context }) => ({ requests: context.waiting, outcome: 'bypass' as const }) }, 'clearWaiting'] },
      },
      on: { 'entry.open': { actions: 'queue' } },
    },
    evicted: { type: 'final' },
  },
})
