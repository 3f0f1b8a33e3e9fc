import type { TaskProgress } from '../machines/task.machine.js'
import type { TorrentStats } from '../services/torrent/engine.js'

// How a running task samples its torrent's stats (docs/torrents.md, Idle). webtorrent emits no
// event for progress, speed or uploaded bytes, so a task polls while something can change. A
// torrent without peers changes nothing: once it has no peers and two samples in a row are the
// same (speeds decayed to 0), the poll stops and the task wakes nothing. It starts again when the
// engine reports something - a peer connecting, metadata, ready, done - so an idle seedbox of
// N torrents has no timer per torrent.

/**
 * The poll's timer: the shape of ManualClock (src/services/clock/manual-clock.ts, which tests
 * use) and of xstate's SimulatedClock. One timeout at a time, armed again after each sample.
 */
export interface PollTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const realTimers: PollTimers = {
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms)
    handle.unref?.()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

export interface ProgressPollOptions {
  intervalMs: number
  /** The engine's stats of the torrent (undefined while it is not running). */
  read: () => TorrentStats | undefined
  /** A sample that differs from the last one sent. */
  send: (progress: TaskProgress) => void
  timers?: PollTimers
}

export interface ProgressPoll {
  /** Samples now and keeps polling until the torrent is idle (call on every engine event). */
  wake(): void
  /** Whether a timer is armed (tests and /debug). */
  readonly polling: boolean
  stop(): void
}

export function createProgressPoll(options: ProgressPollOptions): ProgressPoll {
  const timers = options.timers ?? realTimers
  let handle: unknown
  let last: string | undefined
  let stopped = false
  const sample = (): boolean => {
    const stats = options.read()
    if (!stats) return false
    const progress = toProgress(stats)
    const key = JSON.stringify(progress)
    const unchanged = key === last
    if (!unchanged) {
      last = key
      options.send(progress)
    }
    return unchanged && stats.peers === 0
  }
  const arm = () => {
    handle = timers.setTimeout(tick, options.intervalMs)
  }
  const tick = () => {
    handle = undefined
    // A send may wake the poll (and arm it) from inside the sample.
    if (sample()) disarm()
    else if (handle === undefined && !stopped) arm()
  }
  const disarm = () => {
    if (handle === undefined) return
    timers.clearTimeout(handle)
    handle = undefined
  }
  return {
    wake() {
      if (stopped) return
      sample()
      if (handle === undefined) arm()
    },
    get polling() {
      return handle !== undefined
    },
    stop() {
      stopped = true
      disarm()
    },
  }
}

export function toProgress(stats: TorrentStats): TaskProgress {
  return {
    name: stats.name,
    hasMetadata: stats.hasMetadata,
    ready: stats.ready,
    done: stats.done,
    progress: stats.progress,
    size: stats.size,
    downloaded: stats.downloaded,
    uploaded: stats.uploaded,
    downloadSpeed: stats.downloadSpeed,
    uploadSpeed: stats.uploadSpeed,
    peers: stats.peers,
    etaSeconds: stats.etaSeconds,
    files: stats.files.map((f) => ({ path: f.path, size: f.size, progress: f.progress })),
  }
}
