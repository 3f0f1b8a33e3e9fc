import { hlsEncoderDelayProbeTimeoutMs } from '../../config/defaults.js'
import { startWatchedProcess } from '../hls/process.js'
import { buildEncoderDelayProbeArgs, type HlsEncoder } from './hls-args.js'

// An encoder's reorder delay in frames (docs/hls.md "One timeline for every run"): how far before
// the first frame's time its first packet's decode time lies. A seek-run needs it to put its
// segments on the timeline of a run from 0 (runFromZeroShiftSeconds() in hls-args.ts). It is
// measured, not assumed: the hardware encoders' B-frame defaults differ by driver and version, and
// only the encoder itself tells. One short encode (12 frames, a session's own options, about
// 0.1 s for libx264) per ffmpeg and encoder for the life of the process, started with a session's
// first run, so a seek finds it known.

/** -(first packet's dts) in frames from `framecrc` output (the first frame's pts is 0); 0 when not negative. */
export function parseEncoderDelayFrames(framecrc: string): number | undefined {
  for (const line of framecrc.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue
    const fields = line.split(',').map((field) => field.trim())
    const dts = Number(fields[1])
    if (fields.length < 3 || !Number.isInteger(dts)) return undefined
    return Math.max(0, -dts)
  }
  return undefined
}

/** Runs the probe's ffmpeg; `signal` ends it at once (the engine stopping). */
export type EncoderDelayRunner = (ffmpegPath: string, args: string[], signal?: AbortSignal) => Promise<string>

/**
 * The probe's ffmpeg runs under the HLS runs' watchdog (hls/process.ts), so it ends with the
 * daemon however the daemon ends, and a deadline or an abort kills its process group by PID: a
 * hardware encoder that hangs in its driver must not hold a seek, or outlive the agent.
 */
export function watchedEncoderDelayRunner(timeoutMs = hlsEncoderDelayProbeTimeoutMs): EncoderDelayRunner {
  return async (ffmpegPath, args, signal) => {
    const proc = startWatchedProcess(ffmpegPath, args, { captureStdout: true, tailLines: 4 })
    let ended: string | undefined
    const end = (why: string) => {
      ended ??= why
      proc.kill()
    }
    const timer = setTimeout(() => end(`did not finish within ${timeoutMs} ms; killed`), timeoutMs)
    const onAbort = () => end('stopped with the engine')
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted) onAbort()
    try {
      const result = await proc.exited
      if (ended !== undefined) throw new Error(`the encoder delay probe ${ended}`)
      if (result.code !== 0) throw new Error(`the encoder delay probe exited with ${result.signal ?? `code ${String(result.code)}`}: ${result.stderrTail.join('; ') || 'no output'}`)
      return result.stdout ?? ''
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}

const measured = new Map<string, Promise<number>>()
const known = new Map<string, number>()
const keyOf = (ffmpegPath: string, encoder: HlsEncoder) => `${ffmpegPath}\0${encoder}`

/** The delay, measured once per ffmpeg and encoder; rejects when the probe fails (the caller decides). */
export function encoderDelayFrames(ffmpegPath: string, encoder: HlsEncoder, options: { run?: EncoderDelayRunner; signal?: AbortSignal } = {}): Promise<number> {
  const key = keyOf(ffmpegPath, encoder)
  let pending = measured.get(key)
  if (!pending) {
    const run = options.run ?? watchedEncoderDelayRunner()
    pending = run(ffmpegPath, buildEncoderDelayProbeArgs(encoder), options.signal).then((text) => {
      const frames = parseEncoderDelayFrames(text)
      if (frames === undefined) throw new Error(`no packet in the ${encoder} delay probe's output`)
      known.set(key, frames)
      return frames
    })
    // A failed probe is not cached: the next session tries again.
    pending.catch(() => measured.delete(key))
    measured.set(key, pending)
  }
  return pending
}

/** The delay if already measured (synchronous, for building a run's argv). */
export function knownEncoderDelayFrames(ffmpegPath: string, encoder: HlsEncoder): number | undefined {
  return known.get(keyOf(ffmpegPath, encoder))
}
