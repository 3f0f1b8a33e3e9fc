// Shared by bench/hls.ts and bench/browser.ts (bench.mjs skips files starting with `_`): bare
// ffmpeg timed from spawn until the files it writes exist, and the median.
import { spawn } from 'node:child_process'
import { existsSync, watch } from 'node:fs'
import { join } from 'node:path'

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Resolves when every file exists (inotify + 2 ms poll: the best any watcher could do). */
export function whenFilesExist(dir: string, names: string[]): Promise<void> {
  return new Promise((resolve) => {
    const check = () => names.every((name) => existsSync(join(dir, name)))
    const timer = setInterval(() => {
      if (check()) done()
    }, 2)
    const done = () => {
      clearInterval(timer)
      watcher.close()
      resolve()
    }
    const watcher = watch(dir, () => {
      if (check()) done()
    })
  })
}

/** Milliseconds from spawning `ffmpeg args` until every file of `names` exists in `dir`; then it is killed. */
export async function bareFfmpeg(args: string[], dir: string, names: string[]): Promise<number> {
  const started = performance.now()
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'ignore'] })
  await whenFilesExist(dir, names)
  const elapsed = performance.now() - started
  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('close', resolve))
  return elapsed
}
