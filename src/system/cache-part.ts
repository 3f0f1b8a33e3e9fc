import { randomUUID } from 'node:crypto'
import { fromPromise, type AnyActorRef } from 'xstate'
import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import { timing } from '../config/schema.js'
import { hlsCacheBytesPerGb, hlsCacheClearWaitMs } from '../config/defaults.js'
import { cacheMachine, type CacheInput } from '../machines/cache.machine.js'
import { cacheEntryMachine, type CacheOutcome, type VerifyOutcome } from '../machines/cache-entry.machine.js'
import { cacheShardMachine } from '../machines/cache-shard.machine.js'
import { cacheIdentity } from '../services/cache/cache-key.js'
import { createCacheDisk, type CacheDisk, type CommitPayload } from '../services/cache/cache-disk.js'
import { createDirectorySegmentStore, type SegmentStore, type SegmentStoreEntry } from '../services/hls/segment-store.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { CacheStatus } from '../services/cache/cache-status.js'

// The persistent HLS segment cache as a part of the agent (issue 11, docs/hls-cache.md): the
// `cache` child of the root with its `cacheEntry:<key>` children, the SegmentStore the HLS engine
// opens every session through, the hit/miss counters and the admin routes behind
// `media-agent cache status|clear`. `enabled = false`: no actor, no store (the engine's plain
// session directories), nothing read or written in the cache dir.

export type { CacheStatus } from '../services/cache/cache-status.js'

export interface CachePartOptions {
  config: Pick<AgentConfig, 'downloads' | 'testing'>
  logger: Logger
  now?: () => number
  /** Every lookup's result, for a metrics registry (`media_agent_cache_hits_total` / `_misses_total`). */
  onLookup?: (hit: boolean) => void
  /** Tests: a disk with an injected fault. */
  disk?: CacheDisk
}

interface EntrySnapshot { status: string; matches(value: string): boolean; context: { pins: string[]; bytes: number } }

export function createCachePart(options: CachePartOptions) {
  const { config } = options
  const settings = config.downloads.hlsCache
  const log = options.logger.child({ component: 'hls-cache' })
  const now = options.now ?? Date.now
  const budgetBytes = Math.floor(settings.sizeGb * hlsCacheBytesPerGb)
  const disk = options.disk ?? createCacheDisk(settings.dir)
  // Sessions that may not use the cache (a URL without a cacheId, a bypass) get the plain directory.
  const plain = createDirectorySegmentStore(settings.dir)
  const counters = { hits: 0, misses: 0 }
  const pending = new Map<string, (outcome: CacheOutcome) => void>()
  /** Keys of lookups still unanswered (kept past a timeout, to release a late HIT or write). */
  const requestKeys = new Map<string, string>()
  let cacheActor: () => AnyActorRef | undefined = () => undefined

  const lookup = (hit: boolean) => {
    if (hit) counters.hits++
    else counters.misses++
    try {
      options.onLookup?.(hit)
    } catch (err) {
      log.warn({ err }, 'cache lookup hook threw')
    }
  }

  const entryLogic = cacheEntryMachine.provide({
    actors: {
      acquire: fromPromise(async ({ input }: { input: { key: string } }) => disk.prepare(input.key)),
      commit: fromPromise(async ({ input }: { input: { key: string; payload: unknown } }) => disk.commit(input.key, input.payload as CommitPayload)),
      verify: fromPromise(async ({ input }: { input: { key: string; source: string } }): Promise<VerifyOutcome> => {
        const result = await disk.verify(input.key, input.source)
        if (!result.ok) return result
        await disk.touch(input.key, now())
        return { ok: true, source: input.source }
      }),
      tidy: fromPromise(async ({ input }: { input: { key: string } }) => disk.tidy(input.key)),
      remove: fromPromise(async ({ input }: { input: { key: string } }) => disk.remove(input.key)),
    },
    actions: {
      answer: (_, params) => {
        for (const request of params.requests) {
          const resolve = pending.get(request.requestId)
          if (resolve) {
            pending.delete(request.requestId)
            resolve(params.outcome)
          } else if (params.outcome === 'hit' || params.outcome === 'write') {
            // The session gave up waiting (lookup timeout) and went uncached: let the entry go.
            const key = requestKeys.get(request.requestId)
            requestKeys.delete(request.requestId)
            if (key !== undefined) queueMicrotask(() => cacheActor()?.send({ type: 'cache.release', key, sessionId: request.sessionId }))
          }
        }
      },
      logInvalid: (_, params) => log.warn(params, `hls cache entry ${params.key} is invalid: ${params.reason}; it is removed and re-encoded`),
    },
  })

  const logic = cacheMachine.provide({
    actors: {
      shard: cacheShardMachine.provide({ actors: { entry: entryLogic } }),
      scan: fromPromise(async () => disk.scan()),
      removeMany: fromPromise(async ({ input }: { input: { keys: string[] } }) => {
        for (const key of input.keys) await disk.remove(key)
        if (input.keys.length > 0) log.info({ entries: input.keys.length }, 'hls cache over its budget at start: least recently used entries removed')
      }),
    },
    actions: {
      logStats: (_, params) => log.info({ hits: counters.hits, misses: counters.misses, bytes: params.bytes, entries: params.entries }, `hls cache: ${counters.hits} hits, ${counters.misses} misses, ${params.bytes} bytes in ${params.entries} entries`),
      logEntryCrash: (_, params) => log.error(params, 'cache entry actor failed; the entry is rescanned at the next start'),
      logScanFailed: (_, params) => log.error(params, 'the cache dir could not be read; running with an empty cache'),
    },
  })
  const input: CacheInput = { budgetBytes, statsLogIntervalMs: timing(config, 'hlsCacheStatsLogIntervalMs') }

  const entryActors = (): EntrySnapshot[] => cacheEntryRefs(cacheActor()).map((child) => child.getSnapshot() as EntrySnapshot).filter((snapshot) => snapshot.status === 'active')

  const status = (): CacheStatus => {
    const complete = settings.enabled ? entryActors().filter((snapshot) => snapshot.matches('complete')) : []
    return {
      enabled: settings.enabled,
      dir: settings.dir,
      budgetBytes,
      sizeBytes: complete.reduce((sum, snapshot) => sum + snapshot.context.bytes, 0),
      entries: complete.length,
      pinned: complete.filter((snapshot) => snapshot.context.pins.length > 0).length,
      hits: counters.hits,
      misses: counters.misses,
    }
  }

  const store: SegmentStore = {
    async open(request) {
      const identity = cacheIdentity(request)
      const actor = cacheActor()
      if (!identity || !actor) return plain.open(request)
      const { key } = identity
      const requestId = randomUUID()
      requestKeys.set(requestId, key)
      const outcome = await new Promise<CacheOutcome>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(requestId)
          log.warn({ key, sessionId: request.sessionId }, 'hls cache did not answer in time; the session transcodes uncached')
          resolve('bypass')
        }, timing(config, 'hlsCacheLookupTimeoutMs'))
        pending.set(requestId, (value) => {
          clearTimeout(timer)
          requestKeys.delete(requestId)
          resolve(value)
        })
        actor.send({ type: 'cache.open', key, request: { requestId, sessionId: request.sessionId, source: identity.source, at: now() } })
      })
      lookup(outcome === 'hit')
      log.debug({ key, sessionId: request.sessionId, outcome }, `hls cache ${outcome === 'hit' ? 'HIT' : 'MISS'} (${outcome})`)
      if (outcome !== 'hit' && outcome !== 'write') return plain.open(request)
      let released = false
      const entry: SegmentStoreEntry = {
        dir: disk.entryDir(key),
        cacheHit: outcome === 'hit',
        async release() {
          if (released) return
          released = true
          cacheActor()?.send({ type: 'cache.release', key, sessionId: request.sessionId })
        },
      }
      if (outcome === 'write') {
        entry.commit = (output) => {
          const payload: CommitPayload = { ...output, source: identity.source, quality: request.quality, audioIndex: request.audioIndex }
          cacheActor()?.send({ type: 'cache.written', key, sessionId: request.sessionId, payload })
        }
      }
      return entry
    },
  }

  const waitForRemovals = async () => {
    const deadline = Date.now() + hlsCacheClearWaitMs
    while (Date.now() < deadline && entryActors().some((snapshot) => snapshot.matches('evicting'))) await new Promise((resolve) => setTimeout(resolve, 20))
  }

  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/cache', handle: () => ({ status: 200, json: status() }) },
    {
      method: 'POST',
      path: '/api/cache/clear',
      handle: async () => {
        const before = status()
        if (settings.enabled) {
          cacheActor()?.send({ type: 'cache.clear' })
          await waitForRemovals()
        }
        const after = status()
        return { status: 200, json: { ...after, removed: Math.max(0, before.entries - after.entries) } }
      },
    },
  ]

  return {
    enabled: settings.enabled,
    logic,
    input,
    /** undefined when the cache is off: the engine keeps its plain session directories. */
    store: settings.enabled ? store : undefined,
    adminRoutes,
    status,
    /** Called once the root exists: how to reach the `cache` actor. */
    attach(get: () => AnyActorRef | undefined) {
      cacheActor = get
    },
  }
}

export type CachePart = ReturnType<typeof createCachePart>

type Children = Record<string, AnyActorRef | undefined>
const childrenOf = (actor: AnyActorRef | undefined): Array<[string, AnyActorRef]> =>
  Object.entries((actor?.getSnapshot() as { children?: Children } | undefined)?.children ?? {}).filter((pair): pair is [string, AnyActorRef] => pair[1] !== undefined)

/** Every `cacheEntry:<key>` actor of a `cache` actor (they live in its `cacheShard:<xx>` children). */
export function cacheEntryRefs(cache: AnyActorRef | undefined): AnyActorRef[] {
  return childrenOf(cache)
    .filter(([id]) => id.startsWith('cacheShard:'))
    .flatMap(([, shard]) => childrenOf(shard).filter(([id]) => id.startsWith('cacheEntry:')).map(([, entry]) => entry))
}
