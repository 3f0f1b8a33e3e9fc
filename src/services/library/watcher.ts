// Watches the library folders for changes (issue 16; protocol.md 7.6 `[library] watch`).
//
// One non-recursive fs.watch (inotify) per folder the last scan walked, updated after every
// scan: Node's `recursive: true` on Linux walks the whole tree synchronously when it starts
// (half a second on the event loop for 10,000 files), which would stall the stream server. A new
// folder shows as a change in its parent; the scan it triggers walks it and it is watched next.
//
// Network and FUSE mounts do not deliver remote changes through inotify, and a watch can fail
// (the inotify watch limit): such roots are reported unreliable and the library actor rescans
// them every `rescan_minutes` instead.
import { watch, type FSWatcher } from 'node:fs'
import { readFile, realpath } from 'node:fs/promises'
import { sep } from 'node:path'
import type { Logger } from '../../log.js'

export interface LibraryWatcher {
  /** Watch exactly these folders from now on (in batches, giving the event loop back between them). */
  update(dirs: readonly string[]): Promise<void>
  close(): void
  watched(): number
}

export interface WatcherOptions {
  roots: readonly string[]
  logger: Logger
  onChange(path: string): void
  onUnreliable(root: string, reason: string): void
  /** /proc/self/mountinfo (tests point elsewhere). */
  mountInfoPath?: string
  /** Watches added between two yields to the event loop (each is an inotify_add_watch). */
  batch?: number
}

/** File systems whose changes inotify does not see (made on another host, or in user space). */
export function isUnwatchableFsType(type: string): boolean {
  return /^(nfs4?|cifs|smb3?|smbfs|9p|afs|ceph|glusterfs|lustre|gpfs|davfs|fuse(\..*)?|fuseblk|sshfs)$/.test(type)
}

/** mount point -> fs type, from /proc/self/mountinfo (field 5 the mount point, after " - " the type). */
export function parseMountInfo(text: string): Map<string, string> {
  const mounts = new Map<string, string>()
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ')
    if (left === undefined || right === undefined) continue
    const mountPoint = left.split(' ')[4]
    const type = right.split(' ')[0]
    if (mountPoint === undefined || type === undefined) continue
    mounts.set(mountPoint.replace(/\\(\d{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))), type)
  }
  return mounts
}

/** The fs type of the mount holding `path` (the longest mount point that is a prefix). */
export function fsTypeOf(path: string, mounts: ReadonlyMap<string, string>): string | undefined {
  let best: string | undefined
  for (const mountPoint of mounts.keys()) {
    const inside = mountPoint === '/' || path === mountPoint || path.startsWith(`${mountPoint}${sep}`)
    if (inside && (best === undefined || mountPoint.length > best.length)) best = mountPoint
  }
  return best === undefined ? undefined : mounts.get(best)
}

export function createLibraryWatcher(options: WatcherOptions): LibraryWatcher {
  const log = options.logger
  const watchers = new Map<string, FSWatcher>()
  const unreliable = new Set<string>()
  let closed = false
  const rootOf = (dir: string) => options.roots.find((root) => dir === root || dir.startsWith(`${root}${sep}`)) ?? dir

  const giveUp = (root: string, reason: string) => {
    if (unreliable.has(root)) return
    unreliable.add(root)
    for (const [dir, watcher] of watchers) {
      if (rootOf(dir) !== root) continue
      watcher.close()
      watchers.delete(dir)
    }
    log.warn({ root, reason }, 'library folder cannot be watched reliably; it is rescanned periodically ([library] rescan_minutes)')
    options.onUnreliable(root, reason)
  }

  // Which roots live on a network or FUSE mount: known only asynchronously, checked once.
  void (async () => {
    let mounts: Map<string, string>
    try {
      mounts = parseMountInfo(await readFile(options.mountInfoPath ?? '/proc/self/mountinfo', 'utf8'))
    } catch {
      return // not Linux: every root is watched as it is
    }
    for (const root of options.roots) {
      const real = await realpath(root).catch(() => root)
      const type = fsTypeOf(real, mounts)
      if (!closed && type !== undefined && isUnwatchableFsType(type)) giveUp(root, `${type} mount`)
    }
  })()

  return {
    watched: () => watchers.size,
    async update(dirs) {
      if (closed) return
      const wanted = new Set(dirs.filter((dir) => !unreliable.has(rootOf(dir))))
      for (const [dir, watcher] of watchers) {
        if (wanted.has(dir)) continue
        watcher.close()
        watchers.delete(dir)
      }
      let added = 0
      for (const dir of wanted) {
        if (closed) return
        if (watchers.has(dir)) continue
        // Tens of thousands of folders would otherwise hold the event loop (and the stream server).
        if (++added % (options.batch ?? 256) === 0) await new Promise((resolve) => setImmediate(resolve))
        const root = rootOf(dir)
        if (unreliable.has(root)) continue
        try {
          const watcher = watch(dir, { persistent: false }, (_event, name) => options.onChange(name ? `${dir}${sep}${String(name)}` : dir))
          watcher.on('error', (err: NodeJS.ErrnoException) => {
            // The folder went away (its parent's watch reports that) or the watch broke.
            watcher.close()
            watchers.delete(dir)
            if (err.code !== 'ENOENT' && err.code !== 'EPERM') giveUp(root, `${err.code ?? 'error'}: ${err.message}`)
          })
          watchers.set(dir, watcher)
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code
          // ENOENT: gone since the scan, the next scan sees it. ENOSPC: the inotify watch limit.
          if (code !== 'ENOENT') giveUp(root, `${code ?? 'error'}: ${(err as Error).message}`)
        }
      }
    },
    close() {
      closed = true
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}
