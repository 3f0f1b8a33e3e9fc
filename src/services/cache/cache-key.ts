import { createHash } from 'node:crypto'
import { resolve } from 'node:path'

// Cache keys (contract 2.6, protocol.md 7.1): the first 8 lowercase hex characters of sha256 over
// `<absolute path>|<quality>|<audioIndex>` for a local file, or `<cacheId>|<quality>|<audioIndex>`
// for a URL session (a debrid link: the torrent's info hash as sent, no path absolutisation).

export interface CacheKeyRequest {
  /** The session's source identity: a local path (in-progress torrent files too) or a URL. */
  source: string
  quality: string
  audioIndex: number
  cacheId?: string | undefined
}

export interface CacheIdentity {
  key: string
  /** What `entry.json` names as the source: the absolute path, or the cacheId (never a URL: credentials). */
  source: string
}

export const cacheKeyPattern = /^[0-9a-f]{8}$/

const isUrl = (source: string) => /^https?:\/\//i.test(source)

/** The entry a session reads or writes; undefined when it cannot be cached (a URL without a cacheId). */
export function cacheIdentity(request: CacheKeyRequest): CacheIdentity | undefined {
  let base: string
  if (isUrl(request.source)) {
    if (!request.cacheId) return undefined
    base = request.cacheId
  } else {
    if (!request.source) return undefined
    base = resolve(request.source)
  }
  const key = createHash('sha256').update(`${base}|${request.quality}|${request.audioIndex}`).digest('hex').slice(0, 8)
  return { key, source: base }
}
