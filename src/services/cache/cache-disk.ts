import { link, lstat, mkdir, readdir, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { writeFileAtomic } from '../state/atomic-file.js'
import { agentVersion } from '../../version.js'
import { cacheKeyPattern } from './cache-key.js'
import type { SegmentStoreOutput } from '../hls/segment-store.js'
import { acquireWriterLock, lockHeld, type WriterLock } from './writer-lock.js'
import { completeMarker, entryMetaFile, verifyEntry, type EntryMeta, type VerifyResult } from './verify-entry.js'

// The cache directory on disk (protocol.md 7.1): `<dir>/<key>/` holds `master.m3u8`,
// `index.m3u8`, `init.mp4`, `seg-<N>.m4s`, `sub-<k>.m3u8` / `sub-<k>.vtt`, `entry.json` and,
// written last, `.complete`. `<dir>/<key>.lock` is the writer lock (writer-lock.ts). Every
// destructive step (preparing, evicting, invalidating, reaping) holds that lock, so a second
// daemon on the same dir never removes an entry another process is writing.
//
// A writing session's ffmpeg runs write into `<key>/run-<n>/`; the commit hard-links each
// segment's closed file into the entry (same filesystem, no copy, and a later rename by ffmpeg
// in the run directory cannot touch the entry's link), writes the playlists and entry.json, then
// `.complete` atomically. The run directories go when the writer ends (tidy).

export interface ScannedEntry { key: string; bytes: number; lastUsedAt: number }

/** A session's finished output (its `sub-<k>.vtt` already in the entry), and what the entry is of. */
export interface CommitPayload extends SegmentStoreOutput {
  source: string
  quality: string
  audioIndex: number
}

export interface CacheDisk {
  readonly dir: string
  entryDir(key: string): string
  /** Reaps orphans (no marker and no live writer, temp files, stale locks); lists complete entries. */
  scan(): Promise<ScannedEntry[]>
  /** Takes the writer lock and gives an empty entry directory; false while another writer holds it. */
  prepare(key: string): Promise<boolean>
  /** Writes the entry's files, entry.json and `.complete`; answers the entry's bytes. Cleans up on failure. */
  commit(key: string, payload: CommitPayload): Promise<{ bytes: number }>
  /** The writer ended after its commit: remove its run directories, drop the lock. */
  tidy(key: string): Promise<void>
  /** Removes the entry under the lock; false when a live writer elsewhere holds it. */
  remove(key: string): Promise<boolean>
  verify(key: string, source: string): Promise<VerifyResult>
  /** Marks a HIT for LRU across restarts (the marker's mtime). */
  touch(key: string, atMs: number): Promise<void>
}

const runDir = /^run-\d+$/
const tempFile = /(\.tmp|\.part)$/

export interface CacheDiskOptions {
  /** Injected for tests of a full disk (ENOSPC); default node:fs/promises writeFile. */
  writeFile?: typeof writeFile
}

export function createCacheDisk(dir: string, options: CacheDiskOptions = {}): CacheDisk {
  const held = new Map<string, WriterLock>()
  const write = options.writeFile ?? writeFile
  const entryDir = (key: string) => join(dir, key)
  const lockPath = (key: string) => join(dir, `${key}.lock`)

  const lock = async (key: string): Promise<boolean> => {
    if (held.has(key)) return true
    await mkdir(dir, { recursive: true })
    const taken = await acquireWriterLock(lockPath(key))
    if (!taken) return false
    held.set(key, taken)
    return true
  }
  const unlock = async (key: string) => {
    const taken = held.get(key)
    held.delete(key)
    await taken?.release()
  }
  /** Renames first so the key is free at once, then removes at leisure. */
  const trash = async (path: string) => {
    const aside = join(dir, `.trash-${randomBytes(6).toString('hex')}`)
    try {
      await rename(path, aside)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    await rm(aside, { recursive: true, force: true })
  }
  const filesBytes = async (path: string, names: string[]) => {
    let bytes = 0
    for (const name of names) {
      const info = await lstat(join(path, name)).catch(() => undefined)
      if (info?.isFile()) bytes += info.size
    }
    return bytes
  }

  return {
    dir,
    entryDir,
    async scan() {
      await mkdir(dir, { recursive: true })
      const found: ScannedEntry[] = []
      const names = await readdir(dir)
      for (const name of names) {
        const path = join(dir, name)
        if (name.startsWith('.trash-')) {
          await rm(path, { recursive: true, force: true })
          continue
        }
        if (name.endsWith('.lock') || name.endsWith('.lock.break')) {
          // A lock with no entry and no live holder is what a killed writer leaves.
          const key = name.slice(0, name.indexOf('.'))
          if (!names.includes(key) && !(await lockHeld(path))) await unlink(path).catch(() => {})
          continue
        }
        if (!cacheKeyPattern.test(name)) continue
        if (!(await stat(path).catch(() => undefined))?.isDirectory()) continue
        // A live writer (this daemon's or another's on the same dir) keeps its entry as it is.
        if (!(await lock(name))) continue
        try {
          const marker = await stat(join(path, completeMarker)).catch(() => undefined)
          if (!marker) {
            await trash(path)
            continue
          }
          const inside = await readdir(path)
          for (const item of inside) {
            if (runDir.test(item) || tempFile.test(item)) await rm(join(path, item), { recursive: true, force: true })
          }
          const kept = inside.filter((item) => !runDir.test(item) && !tempFile.test(item))
          found.push({ key: name, bytes: await filesBytes(path, kept), lastUsedAt: marker.mtimeMs })
        } finally {
          await unlock(name)
        }
      }
      return found
    },
    async prepare(key) {
      if (!(await lock(key))) return false
      try {
        // Another daemon on this directory may have completed the entry since this one's scan,
        // and may be serving it as a HIT: a complete entry is never removed to be written again
        // (the session transcodes uncached; the entry is found at this daemon's next start).
        if (await stat(join(entryDir(key), completeMarker)).catch(() => undefined)) {
          await unlock(key)
          return false
        }
        await rm(entryDir(key), { recursive: true, force: true })
        await mkdir(entryDir(key), { recursive: true })
        return true
      } catch (err) {
        await unlock(key)
        throw err
      }
    },
    async commit(key, payload) {
      const path = entryDir(key)
      const made: string[] = []
      try {
        const place = async (from: string, name: string) => {
          await rm(join(path, name), { force: true })
          made.push(name)
          await link(from, join(path, name))
        }
        await place(payload.initPath, 'init.mp4')
        for (const [index, from] of payload.segmentPaths.entries()) await place(from, `seg-${index}.m4s`)
        const text = async (name: string, body: string) => {
          made.push(name)
          await write(join(path, name), body)
        }
        await text('master.m3u8', payload.master)
        await text('index.m3u8', payload.index)
        for (const subtitle of payload.subtitles) await text(`sub-${subtitle.index}.m3u8`, subtitle.playlist)
        const names = (await readdir(path)).filter((name) => !runDir.test(name) && !tempFile.test(name) && name !== entryMetaFile && name !== completeMarker)
        const meta: EntryMeta = {
          source: payload.source,
          quality: payload.quality,
          audioIndex: payload.audioIndex,
          durationSeconds: payload.durationSeconds,
          segmentSeconds: 2,
          segments: payload.segmentPaths.length,
          bytes: await filesBytes(path, names),
          agentVersion,
          ...(payload.frameRate === undefined ? {} : { frameRate: payload.frameRate }),
          subtitles: payload.subtitles.map((subtitle) => subtitle.index),
        }
        const metaText = JSON.stringify(meta)
        made.push(entryMetaFile)
        await writeFileAtomic(join(path, entryMetaFile), metaText)
        // Last, and atomically: its presence is the only proof of a complete entry.
        made.push(completeMarker)
        await writeFileAtomic(join(path, completeMarker), '')
        return { bytes: meta.bytes + Buffer.byteLength(metaText) }
      } catch (err) {
        // A full disk (or any failure): the entry is abandoned. What the commit made goes now; the
        // runs the session still plays from go when it ends.
        await Promise.all(made.map((name) => rm(join(path, name), { force: true }).catch(() => {})))
        throw err
      }
    },
    async tidy(key) {
      const path = entryDir(key)
      const inside = await readdir(path).catch(() => [] as string[])
      for (const item of inside) if (runDir.test(item) || tempFile.test(item)) await rm(join(path, item), { recursive: true, force: true })
      await unlock(key)
    },
    async remove(key) {
      if (!(await lock(key))) return false
      try {
        await trash(entryDir(key))
        return true
      } finally {
        await unlock(key)
      }
    },
    verify: (key, source) => verifyEntry(entryDir(key), source),
    async touch(key, atMs) {
      const at = new Date(atMs)
      await utimes(join(entryDir(key), completeMarker), at, at).catch(() => {})
    },
  }
}
