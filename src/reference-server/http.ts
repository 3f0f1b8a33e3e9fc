// Small node:http helpers: bodies (gzip aware, size bounded) and the error shape of protocol.md 1.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { gunzip } from 'node:zlib'
import { promisify } from 'node:util'
import type { ServerErrorBody } from '../protocol/wire.js'

const gunzipAsync = promisify(gunzip)

/** An HTTP answer raised from deep inside a handler. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message)
  }
}

export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > maxBytes) throw new HttpError(413, 'too_large', `request body exceeds ${maxBytes} bytes`)
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  let body = await readRawBody(req, maxBytes)
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding === 'gzip') {
    try {
      body = await gunzipAsync(body, { maxOutputLength: maxBytes })
    } catch (err) {
      throw new HttpError(400, 'bad_request', `body is not valid gzip: ${(err as Error).message}`)
    }
  } else if (encoding !== 'identity') {
    throw new HttpError(415, 'unsupported_encoding', `unsupported Content-Encoding ${encoding}`)
  }
  if (body.length === 0) throw new HttpError(400, 'bad_request', 'empty body, JSON expected')
  try {
    return JSON.parse(body.toString('utf8')) as unknown
  } catch (err) {
    throw new HttpError(400, 'bad_request', `body is not JSON: ${(err as Error).message}`)
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers })
  res.end(text)
}

export function sendError(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, unknown> = {}): void {
  const body: ServerErrorBody & Record<string, unknown> = { error: code, message, ...extra }
  sendJson(res, status, body)
}

export function sendEmpty(res: ServerResponse, status = 204): void {
  res.writeHead(status, { 'cache-control': 'no-store' })
  res.end()
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers })
  res.end(text)
}

/** Resolves once a response is fully handed to the socket, or its connection is gone. */
export function responseFinished(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    res.once('finish', () => resolve())
    res.once('close', () => resolve())
  })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
