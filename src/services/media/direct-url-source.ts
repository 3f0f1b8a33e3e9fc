// Direct play of a debrid direct link (contract 1.3, 2.1, 4.2): one HEAD when the session is
// registered (size and validators), then a fresh ranged GET for every response body the stream
// server writes: nothing upstream for a HEAD to us, a new GET on every seek, and the GET aborted
// as soon as the player goes away.
import { extname } from 'node:path'
import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import {
  directUrlBodyTimeoutMs,
  directUrlHeadersTimeoutMs,
  directUrlHeadTimeoutMs,
  directUrlMaxRedirections,
} from '../../config/defaults.js'
import { DirectUrlUnsupportedError, UpstreamError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { parseHttpDate } from './http-date.js'
import type { ByteRange, ByteSource, OpenByteSource } from './byte-source.js'

export interface DirectUrlSourceOptions {
  url: string
  logger: Logger
  /** Where requests go; defaults to undici's global dispatcher (Node's trust store). */
  dispatcher?: Dispatcher
  /**
   * Extra trust anchors (PEM) for the upstream's TLS; builds a private undici Agent with
   * `connect: { ca }`. Used by tests with a self-signed upstream; production leaves it unset.
   */
  ca?: string | Buffer | (string | Buffer)[]
  signal?: AbortSignal
  headTimeoutMs?: number
  headersTimeoutMs?: number
  bodyTimeoutMs?: number
  maxRedirections?: number
}

export interface DirectUrlSource extends ByteSource {
  readonly size: number
  /** Releases the private Agent when `ca` was given; the session's end calls it. */
  dispose(): Promise<void>
}

// Containers a browser cannot direct-play as mp4; a link naming one is an HLS job, not ours.
const otherVideoExtensions = new Set([
  '.mkv', '.mk3d', '.webm', '.avi', '.mov', '.qt', '.ts', '.m2ts', '.mts', '.wmv', '.asf', '.flv', '.mpg',
  '.mpeg', '.vob', '.ogv', '.ogm', '.3gp', '.3g2', '.divx', '.rm', '.rmvb', '.iso', '.m3u8', '.mpd',
])
const mp4Types = new Set(['video/mp4', 'video/x-m4v', 'video/m4v', 'application/mp4'])

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Why a direct link is not direct-playable, or undefined when it is (mp4, m4v, or no extension). */
export function directUrlRejection(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'DirectURL is not a valid URL'
  }
  if (parsed.protocol !== 'https:') return `DirectURL must be https, got ${parsed.protocol}`
  const last = parsed.pathname.split('/').pop() ?? ''
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {
    // a malformed escape is still a name; judge it as written
  }
  const ext = extname(name).toLowerCase()
  if (otherVideoExtensions.has(ext)) return `DirectURL names a ${ext} file; direct play serves mp4/m4v only (use PlayMethod hls)`
  return undefined
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}/...`
  } catch {
    return '(invalid url)'
  }
}

/** Validates the link and makes the one HEAD; throws DirectUrlUnsupportedError or UpstreamError. */
export async function createDirectUrlSource(options: DirectUrlSourceOptions): Promise<DirectUrlSource> {
  const { url } = options
  const log = options.logger.child({ component: 'direct-url-source' })
  const rejection = directUrlRejection(url)
  if (rejection !== undefined) throw new DirectUrlUnsupportedError(rejection, { details: { url: redactUrl(url) } })

  // undici loads with the first direct-URL session, not with the agent (docs/operations.md "Idle footprint").
  const { Agent, getGlobalDispatcher, interceptors, request } = await import('undici')
  const ownAgent = options.ca === undefined ? undefined : new Agent({ connect: { ca: options.ca } })
  const base = options.dispatcher ?? ownAgent ?? getGlobalDispatcher()
  const dispatcher = base.compose(interceptors.redirect({ maxRedirections: options.maxRedirections ?? directUrlMaxRedirections }))
  const headersTimeout = options.headersTimeoutMs ?? directUrlHeadersTimeoutMs
  const bodyTimeout = options.bodyTimeoutMs ?? directUrlBodyTimeoutMs
  const dispose = async (): Promise<void> => {
    await ownAgent?.close().catch(() => undefined)
  }

  let size: number
  let etag: string | undefined
  let lastModified: Date | undefined
  try {
    const headSignal = AbortSignal.any([
      AbortSignal.timeout(options.headTimeoutMs ?? directUrlHeadTimeoutMs),
      ...(options.signal === undefined ? [] : [options.signal]),
    ])
    const head = await request(url, { method: 'HEAD', dispatcher, signal: headSignal, headersTimeout, headers: { 'accept-encoding': 'identity' } })
    await head.body.dump()
    if (head.statusCode < 200 || head.statusCode > 299) {
      throw new UpstreamError(`debrid HEAD answered ${head.statusCode}`, { details: { status: head.statusCode, url: redactUrl(url) } })
    }
    const type = (header(head.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type.startsWith('video/') && !mp4Types.has(type)) {
      throw new DirectUrlUnsupportedError(`the debrid host serves ${type}; direct play serves mp4/m4v only (use PlayMethod hls)`, { details: { url: redactUrl(url), contentType: type } })
    }
    const length = header(head.headers, 'content-length')
    if (length === undefined || !/^\d{1,16}$/.test(length) || !Number.isSafeInteger(Number(length))) {
      throw new UpstreamError('debrid HEAD gave no usable Content-Length', { details: { contentLength: length, url: redactUrl(url) } })
    }
    size = Number(length)
    const upstreamEtag = header(head.headers, 'etag')
    etag = upstreamEtag !== undefined && upstreamEtag.startsWith('"') ? upstreamEtag : undefined
    lastModified = parseHttpDate(header(head.headers, 'last-modified'))
  } catch (err) {
    await dispose()
    if (err instanceof UpstreamError || err instanceof DirectUrlUnsupportedError) throw err
    throw new UpstreamError(`debrid HEAD failed: ${(err as Error).message}`, { cause: err, details: { url: redactUrl(url) } })
  }
  log.debug({ size, url: redactUrl(url) }, 'direct link registered')

  const read = async (range: ByteRange, signal: AbortSignal): Promise<Readable> => {
    let response: Dispatcher.ResponseData
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher,
        signal,
        headersTimeout,
        bodyTimeout,
        headers: { range: `bytes=${range.start}-${range.end}`, 'accept-encoding': 'identity' },
      })
    } catch (err) {
      throw new UpstreamError(`debrid GET failed: ${(err as Error).message}`, { cause: err, details: { url: redactUrl(url) } })
    }
    const { statusCode, headers, body } = response
    const whole = range.start === 0 && range.end === size - 1
    const expectedRange = `bytes ${range.start}-${range.end}/${size}`
    const ok = statusCode === 206 ? header(headers, 'content-range') === expectedRange : statusCode === 200 && whole && header(headers, 'content-length') === String(size)
    if (!ok) {
      body.destroy()
      throw new UpstreamError(`debrid GET answered ${statusCode} ${header(headers, 'content-range') ?? ''} for ${expectedRange}`, {
        details: { status: statusCode, contentRange: header(headers, 'content-range'), expected: expectedRange, url: redactUrl(url) },
      })
    }
    return body
  }

  return {
    label: `url:${redactUrl(url)}`,
    size,
    dispose,
    open(): Promise<OpenByteSource> {
      return Promise.resolve({
        size,
        // Contract 4.2: video/mp4 whatever the link's name says.
        contentType: 'video/mp4',
        ...(etag === undefined ? {} : { etag }),
        ...(lastModified === undefined ? {} : { lastModified }),
        read,
        close: () => Promise.resolve(),
      })
    },
  }
}
