// `/thumbnail?path=<abs>&t=<seconds>&w=<width?>&token=T`, scope `thumb:<hex sha256(path)>` over
// the `path` value exactly as requested (protocol.md 2). Order: token (else the usual 404), then
// t and w (400), then the clamp (404), then a slot (503 + Retry-After), then ffmpeg.
import { createHash } from 'node:crypto'
import {
  thumbnailMaxSeekSeconds,
  thumbnailMaxWidth,
  thumbnailMinWidth,
  thumbnailRetryAfterSeconds,
} from '../../config/defaults.js'
import { ThumbnailError } from '../../errors.js'
import type { Thumbnailer } from '../../services/ffmpeg/thumbnail.js'
import type { RouteContext } from './context.js'
import type { JobQueue } from './job-queue.js'
import { resolveClampedFile } from './path-clamp.js'
import { singleParam } from './request-target.js'
import { commonHeaders, sendNotFound, sendStatus } from './responses.js'

export interface ThumbnailRouteOptions {
  thumbnailer: Thumbnailer
  queue: JobQueue
  /** Library paths and the downloads dir, read per request (the config may change). */
  allowedRoots: () => readonly string[]
  retryAfterSeconds?: number
}

export function thumbScope(path: string): string {
  return `thumb:${createHash('sha256').update(path, 'utf8').digest('hex')}`
}

const secondsPattern = /^\d{1,7}(\.\d{1,6})?$/
const widthPattern = /^\d{1,5}$/

/** Seconds from `t`, or undefined when malformed or out of bounds. */
export function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !secondsPattern.test(value)) return undefined
  const seconds = Number(value)
  return seconds <= thumbnailMaxSeekSeconds ? seconds : undefined
}

/** Width from `w`: absent is fine (null = source width), malformed or out of bounds is not. */
export function parseWidth(value: string | undefined): number | null | undefined {
  if (value === undefined) return null
  if (!widthPattern.test(value)) return undefined
  const width = Number(value)
  return width >= thumbnailMinWidth && width <= thumbnailMaxWidth ? width : undefined
}

export function createThumbnailRoute(options: ThumbnailRouteOptions) {
  const retryAfter = String(options.retryAfterSeconds ?? thumbnailRetryAfterSeconds)
  return async function thumbnailRoute(context: RouteContext): Promise<void> {
    const { req, res, target, signal, log } = context
    if (req.method !== 'GET' || target.segments.length !== 1) return sendNotFound(req, res)
    const path = singleParam(target.query, 'path')
    if (path === undefined || !context.verifyToken(singleParam(target.query, 'token'), thumbScope(path))) return sendNotFound(req, res)

    const seconds = parseSeconds(singleParam(target.query, 't'))
    const width = parseWidth(target.query.getAll('w').length > 1 ? 'x' : singleParam(target.query, 'w'))
    if (seconds === undefined || width === undefined) {
      return sendStatus(req, res, 400, `Bad Request: t must be seconds (0-${thumbnailMaxSeekSeconds}), w an integer width (${thumbnailMinWidth}-${thumbnailMaxWidth})`)
    }
    const input = await resolveClampedFile(path, options.allowedRoots())
    if (input === undefined) return sendNotFound(req, res)

    const slot = options.queue.acquire(signal)
    if (slot === undefined) {
      log.debug({ running: options.queue.running, waiting: options.queue.waiting }, 'thumbnail queue full')
      return sendStatus(req, res, 503, 'Service Unavailable: too many thumbnails in progress', { 'retry-after': retryAfter })
    }
    let release: () => void
    try {
      release = await slot
    } catch {
      return // the player left while waiting
    }
    try {
      const image = await options.thumbnailer.extract({ input, seconds, ...(width === null ? {} : { width }), signal })
      res.writeHead(200, {
        ...commonHeaders,
        'content-type': 'image/jpeg',
        'content-length': String(image.length),
        'cache-control': 'private, max-age=3600',
      })
      res.end(image)
    } catch (err) {
      if (!(err instanceof ThumbnailError)) throw err
      if (err.reason === 'aborted') return
      if (err.reason === 'timeout') return sendStatus(req, res, 504, 'Gateway Timeout: thumbnail took too long')
      if (err.reason === 'no-frame') return sendStatus(req, res, 422, 'Unprocessable Content: no frame at that timestamp')
      log.warn({ err }, 'thumbnail failed')
      return sendStatus(req, res, 500, 'Internal Server Error: thumbnail failed')
    } finally {
      release()
    }
  }
}
