import { open, readFile, unlink } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'

// One writer per cache key, across processes (contract 2.6 "one writer lock per key"): an
// exclusive file `<dir>/<key>.lock` created with O_CREAT|O_EXCL holding the writer's PID, its
// start time (from /proc, so a reused PID does not keep a dead writer's lock alive) and a random
// token. A lock whose holder is dead is broken under a second exclusive file (`.break`), so two
// processes that both find it stale cannot both take it over. A second daemon on the same cache
// dir honours the same file: that is the whole cross-process protocol.

export interface LockHolder {
  pid: number
  startTime: string | undefined
  token: string
}

export interface WriterLock {
  readonly path: string
  release(): Promise<void>
}

/** The kernel's start time of a process (field 22 of /proc/<pid>/stat); undefined off Linux. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

export async function isAlive(holder: Pick<LockHolder, 'pid' | 'startTime'>): Promise<boolean> {
  try {
    process.kill(holder.pid, 0)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (holder.startTime === undefined) return true
  const now = await processStartTime(holder.pid)
  return now === undefined || now === holder.startTime
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return { pid: -1, startTime: undefined, token: '' }
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : undefined, token: parsed.token }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    // Torn or foreign content: a writer writes its record right after creating the file, so
    // only a writer that died in between leaves this; treat it as dead.
    return { pid: -1, startTime: undefined, token: '' }
  }
}

let ownStartTime: Promise<string | undefined> | undefined

async function createExclusive(path: string): Promise<LockHolder | undefined> {
  ownStartTime ??= processStartTime(process.pid)
  const holder: LockHolder = { pid: process.pid, startTime: await ownStartTime, token: randomBytes(8).toString('hex') }
  let handle
  try {
    handle = await open(path, 'wx', 0o600)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined
    throw err
  }
  try {
    await handle.writeFile(JSON.stringify(holder))
  } finally {
    await handle.close()
  }
  return holder
}

/** Removes the lock only if it still holds the record we judged dead. */
async function breakIfStale(path: string, stale: LockHolder): Promise<void> {
  const breaker = `${path}.break`
  const mine = await createExclusive(breaker)
  if (!mine) {
    const other = await readHolder(breaker)
    // A breaker that died mid-break: remove its file; the next attempt breaks again.
    if (other && !(await isAlive(other))) await unlink(breaker).catch(() => {})
    return
  }
  try {
    const now = await readHolder(path)
    if (now && now.token === stale.token && now.pid === stale.pid) await unlink(path).catch(() => {})
  } finally {
    await unlink(breaker).catch(() => {})
  }
}

/** Takes the writer lock, or answers undefined while a live process (this one included) holds it. */
export async function acquireWriterLock(path: string): Promise<WriterLock | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await createExclusive(path)
    if (holder) {
      let released = false
      return {
        path,
        async release() {
          if (released) return
          released = true
          const now = await readHolder(path)
          if (now?.token === holder.token) await unlink(path).catch(() => {})
        },
      }
    }
    const current = await readHolder(path)
    if (current === undefined) continue
    if (await isAlive(current)) return undefined
    await breakIfStale(path, current)
  }
  return undefined
}

/** Whether a live process holds the lock at `path` (startup reaping spares its entry). */
export async function lockHeld(path: string): Promise<boolean> {
  const holder = await readHolder(path)
  return holder !== undefined && (await isAlive(holder))
}
