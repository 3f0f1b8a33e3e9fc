// What `GET /api/cache` answers and `media-agent cache status --json` prints (protocol.md 7.1):
// shared by the cache part and the CLI, which must not import the machines behind it.
export interface CacheStatus {
  enabled: boolean
  dir: string
  budgetBytes: number
  /** Every file of every complete entry: the budget's measure. */
  sizeBytes: number
  entries: number
  /** Entries a session plays (or its writer still serves). */
  pinned: number
  hits: number
  misses: number
}

/** `POST /api/cache/clear`: the status after the removals, and how many entries went. */
export interface CacheClearReply extends CacheStatus {
  removed: number
}
