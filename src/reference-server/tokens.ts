// Tokens the web server mints for players (protocol.md 2) and the player-facing readiness stream
// (protocol.md 4). The format itself lives in src/services/auth/stream-token.ts, shared with the
// agent's stream server, so the two sides cannot disagree.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { mintStreamToken } from '../services/auth/stream-token.js'

export function mintToken(secret: string, scope: string, ttlSeconds: number, nowSeconds: number): string {
  return mintStreamToken({ secret, scope, expiresAtSeconds: Math.floor(nowSeconds) + Math.floor(ttlSeconds) })
}

export const scopes = {
  stream: (sessionId: string) => `stream:${sessionId}`,
  hls: (sessionId: string) => `hls:${sessionId}`,
  /** protocol.md 2: lowercase hex sha256 of the `path` query value exactly as requested. */
  thumbnail: (path: string) => `thumb:${createHash('sha256').update(path, 'utf8').digest('hex')}`,
} as const

export interface SessionTokens {
  streamToken: string
  hlsToken: string
  /** Authenticates the player-facing readiness stream of this one session (query `token`). */
  playerToken: string
  expiresAtSeconds: number
}

export function mintSessionTokens(secret: string, sessionId: string, ttlSeconds: number, nowSeconds: number): SessionTokens {
  const expiresAtSeconds = Math.floor(nowSeconds) + Math.floor(ttlSeconds)
  return {
    streamToken: mintStreamToken({ secret, scope: scopes.stream(sessionId), expiresAtSeconds }),
    hlsToken: mintStreamToken({ secret, scope: scopes.hls(sessionId), expiresAtSeconds }),
    playerToken: randomBytes(24).toString('base64url'),
    expiresAtSeconds,
  }
}

export function playerTokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false
  const a = createHash('sha256').update(given, 'utf8').digest()
  const b = createHash('sha256').update(expected, 'utf8').digest()
  return timingSafeEqual(a, b)
}

export interface SessionPaths {
  /** Direct play on the agent's stream server (protocol.md 2). */
  stream: string
  /** HLS master playlist; the token sits in the path so playlist-relative URIs carry it. */
  hls: string
  /** Player readiness SSE on this server, player token included. */
  playerEvents: string
}

export function sessionPaths(sessionId: string, fileName: string, tokens: SessionTokens): SessionPaths {
  const id = encodeURIComponent(sessionId)
  return {
    stream: `/stream/${id}/${encodeURIComponent(fileName)}?token=${encodeURIComponent(tokens.streamToken)}`,
    hls: `/hls/${id}/${encodeURIComponent(tokens.hlsToken)}/master.m3u8`,
    playerEvents: `/api/stream-sessions/${id}/events?token=${encodeURIComponent(tokens.playerToken)}`,
  }
}

export function thumbnailPath(path: string, seconds: number, token: string, width?: number): string {
  const query = new URLSearchParams({ path, t: String(seconds) })
  if (width !== undefined) query.set('w', String(width))
  query.set('token', token)
  return `/thumbnail?${query.toString()}`
}
