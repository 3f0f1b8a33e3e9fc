// Where a session's HLS output lives. The persistent segment cache of contract 2.6 (keys, the
// `.complete` marker, LRU, pinning, integrity on HIT) is another issue; it plugs in here by
// implementing SegmentStore with `cacheHit: true` for a complete entry. This file is the plain
// one: a fresh directory per session under the work dir, removed when the session ends.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'

export interface SegmentStoreEntry {
  /** Directory ffmpeg's runs write under (`run-<n>/`). */
  dir: string
  /** True when the entry already holds the whole session (a cache HIT: ready at once). */
  cacheHit: boolean
  /** The session ended: unpin (cache) or remove (plain). */
  release(): Promise<void>
}

export interface SegmentStore {
  open(request: { sessionId: string; source: string; quality: string; audioIndex: number; cacheId?: string | undefined }): Promise<SegmentStoreEntry>
}

export function createDirectorySegmentStore(workDir: string): SegmentStore {
  return {
    async open({ sessionId }) {
      const base = join(workDir, 'hls-sessions')
      await mkdir(base, { recursive: true })
      const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
      const dir = await mkdtemp(join(base, `${safe}-`))
      return {
        dir,
        cacheHit: false,
        release: () => rm(dir, { recursive: true, force: true }),
      }
    },
  }
}
