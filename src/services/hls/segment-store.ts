// Where a session's HLS output lives. The persistent segment cache of contract 2.6
// (src/system/cache-part.ts, docs/hls-cache.md) implements SegmentStore: `cacheHit: true` for a
// verified complete entry (the engine serves its files and is ready at once), or an entry to
// write into, with `commit` for the finished output. This file is the plain one: a fresh
// directory per session under the work dir, removed when the session ends.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'

export interface SegmentStoreEntry {
  /** Directory ffmpeg's runs write under (`run-<n>/`). */
  dir: string
  /** True when the entry already holds the whole session (a cache HIT: ready at once). */
  cacheHit: boolean
  /** The session ended: unpin (cache) or remove (plain). */
  release(): Promise<void>
  /**
   * Present when the session transcodes into a cache entry: called once, when every segment and
   * subtitle rendition of the whole duration is closed, with where they are.
   */
  commit?(output: SegmentStoreOutput): void
}

/** A session's finished output, handed to the cache (which links the files into its entry). */
export interface SegmentStoreOutput {
  durationSeconds: number
  /** undefined when the probe could not tell (the segment count is then from the duration alone). */
  frameRate: number | undefined
  /** Closed file of seg-<i>, for every i. */
  segmentPaths: string[]
  initPath: string
  master: string
  index: string
  subtitles: Array<{ index: number; playlist: string }>
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
