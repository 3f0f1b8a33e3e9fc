// One frame at a timestamp as a single MJPEG image (contract 1.4, 4.2, 7, 8): input seek (`-ss`
// before `-i`, so ffmpeg jumps to the nearest keyframe instead of decoding from the start), one
// frame, optional scale, JPEG to a pipe. The process is killed by PID with SIGKILL after the
// timeout or when the request is abandoned.
import { spawn } from 'node:child_process'
import { thumbnailMaxBytes, thumbnailTimeoutMs } from '../../config/defaults.js'
import { ThumbnailError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { mediaToolEnv } from '../runtime/child-env.js'

export interface ThumbnailRequest {
  /** An absolute path already resolved and clamped by the caller. */
  input: string
  seconds: number
  /** Output width in pixels; height follows the aspect ratio (even). */
  width?: number
  signal?: AbortSignal
}

export interface Thumbnailer {
  /** A JPEG (SOI..EOI); rejects with ThumbnailError. */
  extract(request: ThumbnailRequest): Promise<Buffer>
}

export interface FfmpegThumbnailerOptions {
  ffmpegPath: string
  logger: Logger
  timeoutMs?: number
  maxBytes?: number
  /** Called with each ffmpeg PID (tests watch the process die). */
  onSpawn?: (pid: number) => void
}

// Container demuxers only. Without this list a library file that is really a playlist (HLS,
// concat, ffconcat, image sequences) would make ffmpeg read other files or URLs than the one
// that was clamped. With `-protocol_whitelist file` it can open nothing but local files.
const demuxers = [
  'mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm', 'avi', 'mpegts', 'mpeg', 'mpegvideo', 'flv', 'asf',
  'ogg', 'rm', 'm4v', 'h264', 'hevc', 'dv', 'mxf', 'wtv', 'nuv', 'ivf', 'yuv4mpegpipe',
].join(',')

export function thumbnailArgs(request: Pick<ThumbnailRequest, 'input' | 'seconds' | 'width'>): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error',
    '-protocol_whitelist', 'file', '-format_whitelist', demuxers,
    '-ss', request.seconds.toFixed(3),
    '-i', `file:${request.input}`,
    '-map', '0:V:0', '-an', '-sn', '-dn',
    ...(request.width === undefined ? [] : ['-vf', `scale=${request.width}:-2`]),
    '-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg', '-q:v', '3',
    'pipe:1',
  ]
}

function isJpeg(buffer: Buffer): boolean {
  return buffer.length >= 4 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[buffer.length - 2] === 0xff && buffer[buffer.length - 1] === 0xd9
}

export function createFfmpegThumbnailer(options: FfmpegThumbnailerOptions): Thumbnailer {
  const log = options.logger.child({ component: 'thumbnail' })
  const timeoutMs = options.timeoutMs ?? thumbnailTimeoutMs
  const maxBytes = options.maxBytes ?? thumbnailMaxBytes

  return {
    extract(request) {
      return new Promise<Buffer>((resolve, reject) => {
        if (request.signal?.aborted === true) {
          reject(new ThumbnailError('aborted', 'thumbnail request abandoned'))
          return
        }
        const child = spawn(options.ffmpegPath, thumbnailArgs(request), { stdio: ['ignore', 'pipe', 'pipe'], env: mediaToolEnv() })
        const pid = child.pid
        const chunks: Buffer[] = []
        let bytes = 0
        let stderr = ''
        let killedFor: 'timeout' | 'aborted' | 'too-large' | undefined

        const kill = (why: 'timeout' | 'aborted' | 'too-large'): void => {
          if (killedFor !== undefined || pid === undefined) return
          killedFor = why
          try {
            process.kill(pid, 'SIGKILL')
          } catch {
            // already gone
          }
        }
        const timer = setTimeout(() => kill('timeout'), timeoutMs)
        const onAbort = (): void => kill('aborted')
        request.signal?.addEventListener('abort', onAbort, { once: true })
        if (pid !== undefined) options.onSpawn?.(pid)

        child.stdout.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          if (bytes > maxBytes) kill('too-large')
          else chunks.push(chunk)
        })
        child.stderr.setEncoding('utf8')
        child.stderr.on('data', (text: string) => {
          if (stderr.length < 4096) stderr += text
        })
        child.on('error', (err) => {
          clearTimeout(timer)
          request.signal?.removeEventListener('abort', onAbort)
          reject(new ThumbnailError('failed', `cannot run ffmpeg: ${err.message}`, { cause: err }))
        })
        // 'close' comes after the process exited and its pipes drained.
        child.on('close', (code, signal) => {
          clearTimeout(timer)
          request.signal?.removeEventListener('abort', onAbort)
          const details = { pid, code, signal, seconds: request.seconds, stderr: stderr.trim().slice(0, 1000) }
          if (killedFor === 'timeout') {
            log.warn(details, 'thumbnail timed out; ffmpeg killed')
            reject(new ThumbnailError('timeout', `thumbnail took longer than ${timeoutMs} ms`, { details }))
            return
          }
          if (killedFor === 'aborted') {
            reject(new ThumbnailError('aborted', 'thumbnail request abandoned', { details }))
            return
          }
          if (killedFor === 'too-large') {
            reject(new ThumbnailError('failed', `thumbnail larger than ${maxBytes} bytes`, { details }))
            return
          }
          const image = Buffer.concat(chunks)
          if (isJpeg(image)) {
            resolve(image)
            return
          }
          log.debug(details, 'ffmpeg produced no frame')
          reject(new ThumbnailError(code === 0 ? 'no-frame' : 'failed', code === 0 ? 'no frame at that timestamp' : `ffmpeg exited with ${code ?? signal}: ${details.stderr}`, { details }))
        })
      })
    },
  }
}
