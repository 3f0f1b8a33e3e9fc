// Writes one GET/HEAD answer for a ByteSource: validators, conditional requests, Range/If-Range,
// single and multipart/byteranges bodies. A single range of a source with positional reads (a
// local file) is written by send-positional.ts; other bodies flow through stream.pipeline. Either
// way a slow player slows the file reads (or the upstream socket, or the torrent) and a closed
// socket stops them at once.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { isRecyclableBody, type ByteRange, type OpenByteSource } from '../../services/media/byte-source.js'
import { formatHttpDate } from '../../services/media/http-date.js'
import { evaluatePreconditions } from './conditional.js'
import { decideRange } from './range.js'
import { commonHeaders, sendStatus } from './responses.js'
import { sendPositional } from './send-positional.js'

export interface SendSourceOptions {
  maxRanges: number
  signal: AbortSignal
  /** Called once when body bytes are about to flow (a GET with a non-empty range or full body). */
  onBody?: () => void
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function validatorHeaders(source: OpenByteSource): Record<string, string> {
  const headers: Record<string, string> = {}
  if (source.etag !== undefined) headers.etag = source.etag
  if (source.lastModified !== undefined) headers['last-modified'] = formatHttpDate(source.lastModified)
  return headers
}

/** Resolves when the answer is written or the client went away; rejects only before any header. */
export async function sendSource(req: IncomingMessage, res: ServerResponse, source: OpenByteSource, options: SendSourceOptions): Promise<void> {
  const { signal } = options
  const method = req.method ?? 'GET'
  const validators = validatorHeaders(source)
  const base = { ...commonHeaders, 'cache-control': 'private', ...validators }

  const precondition = evaluatePreconditions(method, {
    ifMatch: headerValue(req, 'if-match'),
    ifNoneMatch: headerValue(req, 'if-none-match'),
    ifModifiedSince: headerValue(req, 'if-modified-since'),
    ifUnmodifiedSince: headerValue(req, 'if-unmodified-since'),
  }, source)
  if (precondition === 'not-modified') {
    res.writeHead(304, base)
    res.end()
    return
  }
  if (precondition === 'failed') {
    sendStatus(req, res, 412, 'Precondition Failed')
    return
  }

  const { size, contentType } = source
  const decision = decideRange({
    range: headerValue(req, 'range'),
    ifRange: headerValue(req, 'if-range'),
    size,
    etag: source.etag,
    lastModified: source.lastModified,
    maxRanges: options.maxRanges,
  })
  const head = method === 'HEAD'

  if (decision.kind === 'unsatisfiable') {
    sendStatus(req, res, 416, 'Range Not Satisfiable', { 'content-range': `bytes */${size}` })
    return
  }

  if (decision.kind === 'full' || decision.ranges.length === 1) {
    const range: ByteRange = decision.kind === 'full' ? { start: 0, end: size - 1 } : decision.ranges[0]!
    const length = range.end - range.start + 1
    const headers: Record<string, string> = { ...base, 'accept-ranges': 'bytes', 'content-type': contentType, 'content-length': String(length) }
    if (decision.kind === 'partial') headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
    const status = decision.kind === 'partial' ? 206 : 200
    if (head || length === 0) {
      res.writeHead(status, headers)
      res.end()
      return
    }
    const readAt = source.readAt
    if (readAt !== undefined && source.waitsForData !== true) {
      await sendPositional(res, readAt.bind(source), range, () => {
        res.writeHead(status, headers)
        options.onBody?.()
      })
      return
    }
    // Opened before the head is written: an upstream failure can still become a 502.
    const body = await source.read(range, signal)
    res.writeHead(status, headers)
    options.onBody?.()
    // The head goes out now, not with the first bytes, when those may be minutes away (a torrent
    // piece); otherwise it rides in the first body packet.
    if (source.waitsForData === true) res.flushHeaders()
    // pipeline resolves on the response's `finish`: every byte has reached the kernel, so the
    // body's read buffers can serve the next request.
    if (await pipeOut(body, res) && isRecyclableBody(body)) body.recycle()
    return
  }

  const boundary = randomBytes(12).toString('hex')
  const parts = decision.ranges.map((range) => ({
    range,
    head: Buffer.from(`\r\n--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: bytes ${range.start}-${range.end}/${size}\r\n\r\n`, 'latin1'),
  }))
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')
  const length = parts.reduce((sum, part) => sum + part.head.length + part.range.end - part.range.start + 1, tail.length)
  const headers = { ...base, 'accept-ranges': 'bytes', 'content-type': `multipart/byteranges; boundary=${boundary}`, 'content-length': String(length) }
  if (head) {
    res.writeHead(206, headers)
    res.end()
    return
  }
  const first = await source.read(parts[0]!.range, signal)
  res.writeHead(206, headers)
  options.onBody?.()
  if (source.waitsForData === true) res.flushHeaders()
  async function* multipart(): AsyncGenerator<Buffer> {
    for (const [index, part] of parts.entries()) {
      yield part.head
      // Later parts open only when the earlier ones are written: one upstream GET at a time.
      const stream = index === 0 ? first : await source.read(part.range, signal)
      try {
        for await (const chunk of stream) yield chunk as Buffer
      } finally {
        stream.destroy()
      }
    }
    yield tail
  }
  await pipeOut(Readable.from(multipart(), { objectMode: false }), res, first)
}

/** True when the whole body was written. */
async function pipeOut(body: Readable, res: ServerResponse, alsoDestroy?: Readable): Promise<boolean> {
  try {
    await pipeline(body, res)
    return true
  } catch {
    // The player closed the connection or the source failed mid-body; either way the socket is
    // gone or cut, and the player's next Range request starts over.
    alsoDestroy?.destroy()
    if (!res.destroyed) res.destroy()
    return false
  }
}
