import { open, readdir, rename, mkdir, unlink } from 'node:fs/promises'
import { dirname, basename, join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'

// Crash-safe replacement of a small file: write a temp file in the same directory, fsync it,
// rename it over the target, then fsync the directory so the rename itself is durable. A reader
// sees either the old content or the new one, never a torn file, whatever moment the process dies.
//
// A process killed mid-write leaves its temp file behind; removeStaleTemps clears them. The temp
// name (`.<target>.<pid>.<8 hex>.tmp`) is this module's own, so only this module parses it.

const tempName = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/

/** Temp files of this process's writes under way: never stale, whatever their name says. */
const inFlight = new Set<string>()

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  const key = resolve(temp)
  inFlight.add(key)
  try {
    await write(temp, path, data, options.mode ?? 0o644)
  } finally {
    inFlight.delete(key)
  }
  await syncDirectory(dir)
}

async function write(temp: string, path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const handle = await open(temp, 'wx', mode)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => {})
    await unlink(temp).catch(() => {})
    throw error
  }
  await handle.close()
  try {
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
}

/**
 * Removes the temp files that writes killed mid-way left in `dir` (of targets whose name `target`
 * accepts; all by default), and returns how many. A temp of a write this process has under way is
 * kept, even when its pid is that of a killed earlier process (a container's daemon is often
 * pid 1 every time); a directory is written by one process (the daemon owns its state dir).
 */
export async function removeStaleTemps(dir: string, target: (name: string) => boolean = () => true): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  let removed = 0
  for (const name of names) {
    const of = tempName.exec(name)?.[1]
    if (of === undefined || !target(of) || inFlight.has(resolve(dir, name))) continue
    await unlink(join(dir, name)).then(() => removed++, () => {})
  }
  return removed
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } catch {
    // Some filesystems (and Windows) refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle.close()
  }
}
