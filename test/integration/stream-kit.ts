// Shared by the stream-server tests: a raw HTTP/1.1 client (the exact response head, byte for
// byte), token minting, an in-memory SessionRegistry, and multipart/byteranges parsing.
import { connect } from 'node:net'
import { mintStreamToken } from '../../src/services/auth/stream-token.js'
import type { ByteSource } from '../../src/services/media/byte-source.js'
import type { SessionEntry, SessionRegistry } from '../../src/services/sessions/registry.js'
import type { StreamSession } from '../../src/protocol/wire.js'

export const testSecret = 'c2VjcmV0LWZvci1zdHJlYW0tdGVzdHMtMzItYnl0ZXM'

export function tokenFor(scope: string, options: { secret?: string; expiresAtSeconds?: number } = {}): string {
  return mintStreamToken({ secret: options.secret ?? testSecret, scope, expiresAtSeconds: options.expiresAtSeconds ?? Math.floor(Date.now() / 1000) + 3600 })
}

export interface MapRegistry extends SessionRegistry {
  add(session: StreamSession, source: ByteSource): void
  remove(sessionId: string): void
}

export function mapRegistry(): MapRegistry {
  const entries = new Map<string, SessionEntry>()
  return {
    get: (sessionId) => entries.get(sessionId),
    add: (session, source) => {
      entries.set(session.sessionId, { session, source })
    },
    remove: (sessionId) => {
      entries.delete(sessionId)
    },
  }
}

export interface RawResponse {
  /** Status line and header lines exactly as received, without the blank line. */
  head: string
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** One request on its own connection (`Connection: close`); reads to EOF. */
export function rawRequest(origin: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const all = Buffer.concat(chunks)
      const split = all.indexOf('\r\n\r\n')
      if (split === -1) {
        reject(new Error(`no response head in ${JSON.stringify(all.toString('latin1').slice(0, 200))}`))
        return
      }
      const head = all.subarray(0, split).toString('latin1')
      const [statusLine, ...lines] = head.split('\r\n')
      const parsed: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ head, status: Number(statusLine!.split(' ')[1]), headers: parsed, body: all.subarray(split + 4) })
    })
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close']
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
  })
}

export interface Part {
  contentType: string | undefined
  contentRange: string | undefined
  data: Buffer
}

/** Parts of a multipart/byteranges body (RFC 9110 14.6). */
export function parseMultipart(contentType: string, body: Buffer): Part[] {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2]
  if (boundary === undefined) throw new Error(`no boundary in ${contentType}`)
  const delimiter = Buffer.from(`--${boundary}`, 'latin1')
  const parts: Part[] = []
  let at = body.indexOf(delimiter)
  while (at !== -1) {
    const afterDelimiter = at + delimiter.length
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString('latin1') === '--') break
    const headEnd = body.indexOf('\r\n\r\n', afterDelimiter)
    const headers: Record<string, string> = {}
    for (const line of body.subarray(afterDelimiter + 2, headEnd).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n', 'latin1'), delimiter]), headEnd + 4)
    parts.push({ contentType: headers['content-type'], contentRange: headers['content-range'], data: body.subarray(headEnd + 4, next) })
    at = next === -1 ? -1 : next + 2
  }
  return parts
}

/** Bytes 0..size-1 of a fixed pseudo-random sequence (same on every run). */
export function patternBytes(size: number, seed = 7): Buffer {
  const buffer = Buffer.alloc(size)
  let x = seed >>> 0 || 1
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    buffer[i] = x & 0xff
  }
  return buffer
}
