// Walks the library roots (issue 16): every regular file is counted, files with a media or
// sidecar extension are stat'ed (size, mtime). Unreadable files and folders, broken symlinks,
// folders that vanish mid-walk and symlink loops are skipped and counted, never fatal.
//
// Symlinks are followed, but a folder is walked once: the real tree first, then the symlinked
// folders in name order, each only if its real path was not walked yet. That keeps the listed
// paths the same from one scan to the next whatever order readdir returns, and a link to an
// ancestor (a loop) ends at once.
//
// fs calls go through the thread pool with at most `fsConcurrency` in flight, so a scan never
// takes every libuv thread from the stream server's reads.
import type { Dirent, Stats } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { fileKindOf, type FileKind } from './media-kinds.js'

export interface WalkedFile {
  root: string
  path: string
  kind: FileKind
  size: number
  /** Integer milliseconds since the epoch. */
  mtime: number
}

export type SkipKind = 'unreadable' | 'brokenSymlink' | 'vanished' | 'symlinkLoop' | 'notMedia' | 'probeFailed'

export const skipKinds: readonly SkipKind[] = ['unreadable', 'brokenSymlink', 'vanished', 'symlinkLoop', 'notMedia', 'probeFailed']

export class SkipTally {
  readonly counts: Record<SkipKind, number> = { unreadable: 0, brokenSymlink: 0, vanished: 0, symlinkLoop: 0, notMedia: 0, probeFailed: 0 }
  readonly examples: Record<SkipKind, string[]> = { unreadable: [], brokenSymlink: [], vanished: [], symlinkLoop: [], notMedia: [], probeFailed: [] }
  constructor(private readonly maxExamples: number) {}

  add(kind: SkipKind, path: string): void {
    this.counts[kind]++
    if (this.examples[kind].length < this.maxExamples) this.examples[kind].push(path)
  }

  /** Entries skipped that could hold media: unreadable files and folders, broken links, rejects (not loops or vanished paths). */
  files(): number {
    return this.counts.unreadable + this.counts.brokenSymlink + this.counts.notMedia + this.counts.probeFailed
  }
}

export interface WalkOptions {
  fsConcurrency: number
  /** Gives the event loop back every so many entries. */
  yieldEvery: number
  skips: SkipTally
  /** Called with the running count of files seen. */
  onProgress?: (filesSeen: number) => void
  signal?: AbortSignal
}

export interface WalkResult {
  files: WalkedFile[]
  /** Regular files seen (media or not). */
  seen: number
  /** Every folder walked, as listed under its root (the watcher watches these). */
  dirs: string[]
}

interface PendingDir {
  root: string
  /** The path as listed under the root (through any symlinks). */
  path: string
  /** Its real path, for loop detection. */
  real: string
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Runs `task` over `items` with at most `limit` in flight, in order of `items`. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}

export async function walkRoots(roots: readonly string[], options: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = []
  const walked = new Set<string>()
  const dirs: string[] = []
  let seen = 0
  let sinceYield = 0
  const tick = async (count = 1) => {
    sinceYield += count
    if (sinceYield >= options.yieldEvery) {
      sinceYield = 0
      options.onProgress?.(seen)
      await yieldNow()
    }
  }

  for (const root of roots) {
    let real: string
    try {
      real = await realpath(root)
      if (!(await stat(real)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
    } catch (err) {
      options.skips.add(errorKind(err) ?? 'vanished', root)
      continue
    }
    const stack: PendingDir[] = [{ root, path: root, real }]
    const links: PendingDir[] = []
    // The real tree depth-first; symlinked folders once it is done (see the header).
    while (stack.length > 0 || links.length > 0) {
      if (options.signal?.aborted) throw options.signal.reason
      let dir = stack.pop()
      if (!dir) {
        links.sort((a, b) => (a.path < b.path ? 1 : a.path > b.path ? -1 : 0))
        dir = links.pop()!
        if (walked.has(dir.real)) continue
      }
      if (walked.has(dir.real)) continue
      walked.add(dir.real)
      dirs.push(dir.path)
      let entries: Dirent[]
      try {
        entries = await readdir(dir.path, { withFileTypes: true })
      } catch (err) {
        options.skips.add(errorKind(err) ?? 'unreadable', dir.path)
        continue
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      const toStat: { path: string; kind: FileKind; link: boolean }[] = []
      const linkNames: string[] = []
      for (const entry of entries) {
        const path = join(dir.path, entry.name)
        if (entry.isDirectory()) {
          stack.push({ root: dir.root, path, real: join(dir.real, entry.name) })
        } else if (entry.isFile()) {
          seen++
          const kind = fileKindOf(entry.name)
          if (kind !== undefined) toStat.push({ path, kind, link: false })
        } else if (entry.isSymbolicLink()) {
          linkNames.push(entry.name)
        }
      }
      await tick(entries.length)
      // Symlinks: stat follows them; a broken one or a loop is skipped, a folder waits its turn.
      await mapLimit(linkNames, options.fsConcurrency, async (name) => {
        const path = join(dir.path, name)
        let info: Stats
        try {
          info = await stat(path)
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code
          options.skips.add(code === 'ENOENT' ? 'brokenSymlink' : code === 'ELOOP' ? 'symlinkLoop' : errorKind(err) ?? 'unreadable', path)
          return
        }
        if (info.isDirectory()) {
          let target: string
          try {
            target = await realpath(path)
          } catch (err) {
            options.skips.add(errorKind(err) ?? 'brokenSymlink', path)
            return
          }
          // A link to a folder that contains it: following it would never end.
          if (dir.real === target || dir.real.startsWith(target.endsWith(sep) ? target : `${target}${sep}`)) {
            options.skips.add('symlinkLoop', path)
            return
          }
          links.push({ root: dir.root, path, real: target })
        } else if (info.isFile()) {
          seen++
          const kind = fileKindOf(name)
          if (kind !== undefined) files.push({ root: dir.root, path, kind, size: info.size, mtime: Math.trunc(info.mtimeMs) })
        }
      })
      const stats = await mapLimit(toStat, options.fsConcurrency, async (file) => {
        try {
          return await stat(file.path)
        } catch (err) {
          options.skips.add(errorKind(err) ?? 'unreadable', file.path)
          return undefined
        }
      })
      toStat.forEach((file, index) => {
        const info = stats[index]
        if (info?.isFile()) files.push({ root: dir.root, path: file.path, kind: file.kind, size: info.size, mtime: Math.trunc(info.mtimeMs) })
      })
    }
  }
  options.onProgress?.(seen)
  return { files, seen, dirs }
}

function errorKind(err: unknown): SkipKind | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'vanished'
  if (code === 'EACCES' || code === 'EPERM' || code === 'EIO') return 'unreadable'
  if (code === 'ELOOP') return 'symlinkLoop'
  return undefined
}
