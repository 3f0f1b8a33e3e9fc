// ffprobe for HLS sessions, with a cache (contract 7 ffprobe rows, 8 "probe cache"): a local file
// is keyed by its absolute path, mtime and size, a URL source by its CacheID (the torrent info
// hash) or, without one, the URL itself; an entry lives `probeCacheTtlMs` (30 min). ffprobe
// missing is an actionable FfmpegNotFoundError; ffprobe failing surfaces its own stderr.
import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { probeCacheTtlMs, probeTimeoutMs, urlSourceRwTimeoutUs } from '../../config/defaults.js'
import { FfmpegNotFoundError, ProbeFailedError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { resolveFfmpegBinary } from './binaries.js'
import { isUrlSource } from './hls-args.js'

export interface ProbedVideo {
  codec: string
  width: number
  height: number
  sampleAspectRatio: number
  frameRate: number | undefined
  pixelFormat: string | undefined
}

export interface ProbedAudio {
  /** Index among the audio streams (`0:a:<index>`). */
  index: number
  codec: string
  channels: number | undefined
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

export interface ProbeService {
  /** Probes `source` (absolute path or URL); `cacheId` keys URL sources (contract 2.3 CacheID). */
  probe(source: string, options?: { cacheId?: string; signal?: AbortSignal }): Promise<{ result: ProbeResult; cacheHit: boolean }>
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
  const cache = new Map<string, { result: ProbeResult; expiresAt: number }>()

  const sweep = (): void => {
    const at = now()
    for (const [key, entry] of cache) if (entry.expiresAt <= at) cache.delete(key)
  }

  return {
    size() {
      sweep()
      return cache.size
    },
    async probe(source, probeOptions = {}) {
      const key = await cacheKey(source, probeOptions.cacheId)
      sweep()
      const cached = cache.get(key)
      if (cached) return { result: cached.result, cacheHit: true }
      const ffprobe = options.ffprobePath ?? resolveFfmpegBinary('ffprobe')
      const result = await runFfprobe(ffprobe, source, options.timeoutMs ?? probeTimeoutMs, probeOptions.signal)
      cache.set(key, { result, expiresAt: now() + ttlMs })
      log.debug({ key, durationSeconds: result.durationSeconds }, 'probed')
      return { result, cacheHit: false }
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

function runFfprobe(ffprobe: string, source: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, ffprobeArgs(source), { stdio: ['ignore', 'pipe', 'pipe'] })
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
        const result = parseProbe(JSON.parse(Buffer.concat(stdout).toString('utf8')) as FfprobeJson)
        finish(() => resolve(result))
      } catch (err) {
        finish(() => reject(err instanceof ProbeFailedError ? err : new ProbeFailedError(`ffprobe output for ${redact(source)} is unusable: ${String(err)}`, { cause: err })))
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

export function parseProbe(json: FfprobeJson): ProbeResult {
  const streams = json.streams ?? []
  const video = streams.find((stream) => stream.codec_type === 'video' && !(stream.disposition?.attached_pic))
  if (!video || !video.width || !video.height) throw new ProbeFailedError('the source has no video stream')
  const duration = Number(json.format?.duration ?? video.duration)
  if (!Number.isFinite(duration) || duration <= 0) throw new ProbeFailedError('the source has no known duration')
  const audio = streams.filter((stream) => stream.codec_type === 'audio').map((stream, index) => ({
    index,
    codec: stream.codec_name ?? 'unknown',
    channels: stream.channels,
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
    durationSeconds: duration,
    formatName: json.format?.format_name ?? 'unknown',
    video: {
      codec: video.codec_name ?? 'unknown',
      width: video.width,
      height: video.height,
      sampleAspectRatio: ratio(video.sample_aspect_ratio) ?? 1,
      frameRate: ratio(video.avg_frame_rate) ?? ratio(video.r_frame_rate),
      pixelFormat: video.pix_fmt,
    },
    audio,
    subtitles,
  }
}
