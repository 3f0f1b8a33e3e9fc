// The library index in the state dir (issue 16): what ffprobe said about each media file, keyed
// by (path, size, mtime), so a rescan probes only new or changed files, across restarts too.
// Files ffprobe rejected are kept (as `null`) so they are not probed again until they change.
// A corrupt file is set aside and the next scan starts cold: slower, nothing lost.
import { mkdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { libraryIndexFileName } from '../../config/defaults.js'
import type { LibraryItem } from '../../protocol/wire.js'
import type { Logger } from '../../log.js'
import { writeFileAtomic } from '../state/atomic-file.js'

/** An item's probed facts: everything but path, size, mtime and sidecar subtitles. */
export type ProbedFacts = Omit<LibraryItem, 'path' | 'size' | 'mtime'>

export interface IndexEntry {
  size: number
  mtime: number
  /** null: not media (ffprobe found no audio or video, or rejected the file). */
  facts: ProbedFacts | null
}

export interface LibraryIndexStore {
  load(): Promise<Map<string, IndexEntry>>
  save(entries: ReadonlyMap<string, IndexEntry>): Promise<void>
}

interface IndexFile {
  version: 1
  /** path -> [size, mtime, facts | null]: compact, 10,000 files are ~2 MB. */
  entries: Record<string, [number, number, ProbedFacts | null]>
}

export function createLibraryIndexStore(options: { stateDir: string; logger: Logger; fileName?: string }): LibraryIndexStore {
  const file = join(options.stateDir, options.fileName ?? libraryIndexFileName)
  return {
    async load() {
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') options.logger.warn({ err, file }, 'library index unreadable; the next scan probes every file')
        return new Map()
      }
      try {
        return parseIndex(text)
      } catch (err) {
        const aside = `${file}.corrupt-${Date.now()}`
        await rename(file, aside).catch(() => {})
        options.logger.warn({ err, file, movedTo: aside }, 'library index is corrupt; set aside, the next scan probes every file')
        return new Map()
      }
    },
    async save(entries) {
      const body: IndexFile = { version: 1, entries: {} }
      for (const [path, entry] of entries) body.entries[path] = [entry.size, entry.mtime, entry.facts]
      await mkdir(options.stateDir, { recursive: true, mode: 0o700 })
      await writeFileAtomic(file, JSON.stringify(body), { mode: 0o600 })
    },
  }
}

export function parseIndex(text: string): Map<string, IndexEntry> {
  const json = JSON.parse(text) as Partial<IndexFile>
  if (typeof json !== 'object' || json === null || json.version !== 1 || typeof json.entries !== 'object' || json.entries === null) {
    throw new Error('not a version 1 library index')
  }
  const entries = new Map<string, IndexEntry>()
  for (const [path, value] of Object.entries(json.entries)) {
    if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number' || (value[2] !== null && typeof value[2] !== 'object')) {
      throw new Error(`bad index entry for ${path}`)
    }
    entries.set(path, { size: value[0], mtime: value[1], facts: value[2] })
  }
  return entries
}
