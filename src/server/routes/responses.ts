// The fixed answers of the stream server. Every miss (bad, expired or mis-scoped token, unknown
// session, missing file, a path outside the roots, a wrong method, an unknown route) gets the
// same 404, byte for byte (contract 5.2, protocol.md 2): a fixed header list, a fixed body, and
// no Date header (node's Date would differ between two misses a second apart). Connection and
// Keep-Alive, which node adds, depend only on the request's own Connection header.
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Headers on every answer: tokens live in URLs, so a wildcard origin shares no credential. */
export const commonHeaders: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Accept-Ranges, Content-Length, Content-Range, ETag, Last-Modified',
  'x-content-type-options': 'nosniff',
}

const notFoundBody = Buffer.from('Not Found\n', 'utf8')
const notFoundHeaders: [string, string][] = [
  ['Content-Type', 'text/plain; charset=utf-8'],
  ['Content-Length', String(notFoundBody.length)],
  ['Cache-Control', 'no-store'],
  ['Access-Control-Allow-Origin', '*'],
  ['X-Content-Type-Options', 'nosniff'],
]

export function sendNotFound(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name)
  res.sendDate = false
  res.writeHead(404, 'Not Found', notFoundHeaders.flat())
  res.end(req.method === 'HEAD' ? undefined : notFoundBody)
}

/** A short plain-text answer for the statuses that follow a valid token (400, 416, 502, 503...). */
export function sendStatus(req: IncomingMessage, res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = Buffer.from(`${text}\n`, 'utf8')
  res.writeHead(status, {
    ...commonHeaders,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...extra,
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}
