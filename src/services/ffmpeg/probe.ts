// ffprobe for HLS sessions, with a cache (contract 7 ffprobe rows, 8 "probe cache"): a local file
// is keyed by its absolute path, mtime and size, a URL source by its CacheID (the torrent info
// hash) or, without one, the URL itself; an entry lives `probeCacheTtlMs` (30 min). ffprobe
// missing is an actionable FfmpegNotFoundError; ffprobe failing surfaces its own stderr.
import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { stat } from 'node:fs/promises'
import { probeCacheTtlMs, probeTimeoutMs, urlSourceRwTimeoutUs } from '../../config/defaults.js'
import { FfmpegNotFoundError, ProbeFailedError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { resolveFfmpegBinary } from './binaries.js'
import { isUrlSource } from './hls-args.js'
import { mediaToolEnv } from '../runtime/child-env.js'

export interface ProbedVideo {
  codec: string
  width: number
  height: number
  sampleAspectRatio: number
  frameRate: number | undefined
  /**
   * The rate ffmpeg encodes the source at (its constant-frame-rate output: av_guess_frame_rate,
   * r_frame_rate unless that is implausible); differs from `frameRate` (the average) for a
   * variable-frame-rate source. A seek-run's timeline counts frames at this rate (hls-args.ts).
   */
  encodeFrameRate?: number | undefined
  pixelFormat: string | undefined
}

export interface ProbedAudio {
  /** Index among the audio streams (`0:a:<index>`). */
  index: number
  codec: string
  channels: number | undefined
  /** Hz; a seek-run's timeline shift counts the AAC priming in samples (hls-args.ts). */
  sampleRate?: number | undefined
  language: string | undefined
}

export interface ProbedSubtitle {
  /** Index among the subtitle streams (`0:s:<index>`). */
  index: number
  codec: string
  language: string | undefined
  title: string | undefined
  /** Text tracks (SubRip, ASS, mov_text, WebVTT) can become WebVTT; bitmap tracks cannot. */
  text: boolean
}

export interface ProbeResult {
  durationSeconds: number
  formatName: string
  video: ProbedVideo
  audio: ProbedAudio[]
  subtitles: ProbedSubtitle[]
}

/**
 * What ffprobe says about any media file, video or audio only (library scans, issue 16); the
 * HLS engine's ProbeResult is the same facts for a source that must have video and a duration.
 */
export interface MediaInfo {
  durationSeconds: number | undefined
  formatName: string
  video: ProbedVideo | undefined
  audio: ProbedAudio[]
  subtitles: ProbedSubtitle[]
}

export interface ProbeOptions {
  cacheId?: string
  signal?: AbortSignal
  /**
   * A background probe (library scan): ffprobe runs at `niceness` so that an HLS session's
   * ffmpeg and ffprobe never wait on it for CPU.
   */
  niceness?: number
}

export interface ProbeService {
  /** Probes `source` (absolute path or URL); `cacheId` keys URL sources (contract 2.3 CacheID). */
  probe(source: string, options?: ProbeOptions): Promise<{ result: ProbeResult; cacheHit: boolean }>
  /** The same probe and cache, without requiring a video stream (a library item may be audio). */
  inspect(source: string, options?: ProbeOptions): Promise<{ info: MediaInfo; cacheHit: boolean }>
  /** Entries currently cached (tests, diagnostics). */
  size(): number
}

export interface ProbeServiceOptions {
  /** Resolved ffprobe; undefined resolves it at first use (so a missing ffprobe fails the session, not the daemon). */
  ffprobePath: string | undefined
  logger: Logger
  now?: () => number
  ttlMs?: number
  timeoutMs?: number
}

const textSubtitleCodecs = new Set(['subrip', 'srt', 'ass', 'ssa', 'mov_text', 'webvtt', 'text'])

export function createProbeService(options: ProbeServiceOptions): ProbeService {
  const log = options.logger
  const now = options.now ?? Date.now
  const ttlMs = options.ttlMs ?? probeCacheTtlMs
  const cache = new Map<string, { info: MediaInfo; expiresAt: number }>()
  let resolvedFfprobe: string | undefined

  // Entries are only ever appended with `now() + ttl`, so the map is in expiry order: the sweep
  // stops at the first live entry (a library scan makes thousands of entries; a full pass per
  // probe would cost O(n^2)).
  const sweep = (): void => {
    const at = now()
    for (const [key, entry] of cache) {
      if (entry.expiresAt > at) break
      cache.delete(key)
    }
  }

  const inspect = async (source: string, probeOptions: ProbeOptions = {}): Promise<{ info: MediaInfo; cacheHit: boolean }> => {
    const key = await cacheKey(source, probeOptions.cacheId)
    sweep()
    const cached = cache.get(key)
    if (cached) return { info: cached.info, cacheHit: true }
    // Resolved on the first probe and kept: a PATH walk per probe sat on every HLS session's way
    // to its first segment and on every file of a library scan. One that vanished later fails
    // its spawn with the same advice (notFound) and is looked up again on the next probe.
    resolvedFfprobe ??= options.ffprobePath ?? resolveFfmpegBinary('ffprobe')
    const ffprobe = resolvedFfprobe
    const json = await runFfprobe(ffprobe, source, options.timeoutMs ?? probeTimeoutMs, probeOptions.signal, probeOptions.niceness).catch((err: unknown) => {
      if (err instanceof FfmpegNotFoundError && options.ffprobePath === undefined) resolvedFfprobe = undefined
      throw err
    })
    let info: MediaInfo
    try {
      info = parseMediaInfo(json)
    } catch (err) {
      throw new ProbeFailedError(`ffprobe output for ${redact(source)} is unusable: ${String(err)}`, { cause: err })
    }
    cache.delete(key)
    cache.set(key, { info, expiresAt: now() + ttlMs })
    log.debug({ key, durationSeconds: info.durationSeconds }, 'probed')
    return { info, cacheHit: false }
  }

  return {
    size() {
      sweep()
      return cache.size
    },
    inspect,
    async probe(source, probeOptions = {}) {
      const { info, cacheHit } = await inspect(source, probeOptions)
      return { result: toProbeResult(info), cacheHit }
    },
  }
}

/** `file|<path>|<mtimeMs>|<size>` or `url|<cacheId or URL>`. */
export async function cacheKey(source: string, cacheId?: string): Promise<string> {
  if (isUrlSource(source)) return `url|${cacheId ?? source}`
  let info
  try {
    info = await stat(source)
  } catch (err) {
    throw new ProbeFailedError(`cannot read the source ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err, details: { source } })
  }
  return `file|${source}|${info.mtimeMs}|${info.size}`
}

export function ffprobeArgs(source: string): string[] {
  const args = ['-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams']
  if (isUrlSource(source)) args.push('-rw_timeout', String(urlSourceRwTimeoutUs))
  args.push('-i', source)
  return args
}

function runFfprobe(ffprobe: string, source: string, timeoutMs: number, signal: AbortSignal | undefined, niceness: number | undefined): Promise<FfprobeJson> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, ffprobeArgs(source), { stdio: ['ignore', 'pipe', 'pipe'], env: mediaToolEnv() })
    if (niceness !== undefined && child.pid !== undefined) {
      // Right after spawn, before ffprobe has opened its input: nearly all of its CPU time runs
      // niced. EPERM (a lower niceness than ours) cannot happen when raising it; ESRCH means it is gone.
      try {
        setPriority(child.pid, niceness)
      } catch { /* exited already */ }
    }
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let settled = false
    const finish = (fn: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      fn()
    }
    const kill = (): void => {
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(child.pid, 'SIGKILL')
        } catch { /* already gone */ }
      }
    }
    const onAbort = (): void => {
      kill()
      finish(() => reject(new ProbeFailedError(`ffprobe of ${redact(source)} was aborted`, { details: { source: redact(source) } })))
    }
    const timer = setTimeout(() => {
      kill()
      finish(() => reject(new ProbeFailedError(`ffprobe of ${redact(source)} did not finish within ${timeoutMs} ms`, { details: { source: redact(source) } })))
    }, timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.once('error', (err: NodeJS.ErrnoException) => {
      finish(() => reject(err.code === 'ENOENT' || err.code === 'EACCES' ? notFound(ffprobe, err) : err))
    })
    child.once('close', (code) => {
      const errText = Buffer.concat(stderr).toString('utf8').trim()
      if (code !== 0) {
        finish(() => reject(new ProbeFailedError(`ffprobe failed on ${redact(source)}: ${errText || `exit code ${String(code)}`}`, { details: { source: redact(source), exitCode: code, stderr: errText } })))
        return
      }
      try {
        const json = JSON.parse(Buffer.concat(stdout).toString('utf8')) as FfprobeJson
        finish(() => resolve(json))
      } catch (err) {
        finish(() => reject(new ProbeFailedError(`ffprobe output for ${redact(source)} is unusable: ${String(err)}`, { cause: err })))
      }
    })
  })
}

/** The same advice as resolveFfmpegBinary (container-aware), for a binary that vanished after resolution. */
function notFound(path: string, cause: NodeJS.ErrnoException): FfmpegNotFoundError {
  try {
    resolveFfmpegBinary('ffprobe', { env: { PATH: '' } })
  } catch (err) {
    if (err instanceof FfmpegNotFoundError) {
      return new FfmpegNotFoundError(`ffprobe could not be started at ${path} (${cause.code ?? 'error'}). ${err.message}`, { cause, details: { path, ...err.details } })
    }
  }
  return new FfmpegNotFoundError(`ffprobe could not be started at ${path} (${cause.code ?? 'error'})`, { cause })
}

/** Query strings of debrid links may hold credentials: logs and errors keep origin and path only. */
export function redact(source: string): string {
  if (!isUrlSource(source)) return source
  try {
    const url = new URL(source)
    return `${url.origin}${url.pathname}${url.search === '' ? '' : '?…'}`
  } catch {
    return '<url>'
  }
}

export interface FfprobeStream {
  index: number
  codec_type?: string
  codec_name?: string
  width?: number
  height?: number
  sample_aspect_ratio?: string
  avg_frame_rate?: string
  r_frame_rate?: string
  pix_fmt?: string
  channels?: number
  sample_rate?: string
  duration?: string
  tags?: Record<string, string>
  disposition?: Record<string, number>
}
export interface FfprobeJson {
  streams?: FfprobeStream[]
  format?: { duration?: string; format_name?: string }
}

function ratio(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const [a, b] = value.split(/[:/]/).map(Number)
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return undefined
  return a / b
}

/**
 * av_guess_frame_rate() of ffmpeg 5.1 (libavformat/utils.c), which sets the rate of ffmpeg's
 * constant-frame-rate output: r_frame_rate, or the average when r_frame_rate is implausibly high
 * (over 210 with an average under 70). Its interlaced-codec rule (ticks_per_frame) needs what
 * ffprobe does not print and is left out.
 */
function encodeFrameRate(video: FfprobeStream): number | undefined {
  const real = ratio(video.r_frame_rate)
  const average = ratio(video.avg_frame_rate)
  if (real !== undefined && average !== undefined && average < 70 && real > 210) return average
  return real ?? average
}

export function parseProbe(json: FfprobeJson): ProbeResult {
  return toProbeResult(parseMediaInfo(json))
}

/** What an HLS session needs on top of MediaInfo: a video stream and a known duration. */
export function toProbeResult(info: MediaInfo): ProbeResult {
  if (!info.video) throw new ProbeFailedError('the source has no video stream')
  if (info.durationSeconds === undefined) throw new ProbeFailedError('the source has no known duration')
  return { durationSeconds: info.durationSeconds, formatName: info.formatName, video: info.video, audio: info.audio, subtitles: info.subtitles }
}

/** Every fact ffprobe gave; nothing is required (an audio file has no video, a stream no duration). */
export function parseMediaInfo(json: FfprobeJson): MediaInfo {
  const streams = Array.isArray(json.streams) ? json.streams : []
  const video = streams.find((stream) => stream.codec_type === 'video' && !(stream.disposition?.attached_pic) && Boolean(stream.width) && Boolean(stream.height))
  const duration = Number(json.format?.duration ?? video?.duration)
  const audio = streams.filter((stream) => stream.codec_type === 'audio').map((stream, index) => ({
    index,
    codec: stream.codec_name ?? 'unknown',
    channels: stream.channels,
    ...(Number(stream.sample_rate) > 0 ? { sampleRate: Number(stream.sample_rate) } : {}),
    language: stream.tags?.language,
  }))
  const subtitles = streams.filter((stream) => stream.codec_type === 'subtitle').map((stream, index) => ({
    index,
    codec: stream.codec_name ?? 'unknown',
    language: stream.tags?.language,
    title: stream.tags?.title,
    text: textSubtitleCodecs.has(stream.codec_name ?? ''),
  }))
  return {
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : undefined,
    formatName: json.format?.format_name ?? 'unknown',
    video: video && video.width && video.height
      ? {
          codec: video.codec_name ?? 'unknown',
          width: video.width,
          height: video.height,
          sampleAspectRatio: ratio(video.sample_aspect_ratio) ?? 1,
          frameRate: ratio(video.avg_frame_rate) ?? ratio(video.r_frame_rate),
          encodeFrameRate: encodeFrameRate(video),
          pixelFormat: video.pix_fmt,
        }
      : undefined,
    audio,
    subtitles,
  }
}
