// The token format of protocol.md section 2, shared by the agent's stream server (verify) and the
// reference web server (mint): `v1.<expUnixSeconds>.<base64url(HMAC-SHA256(secret, "v1.<exp>.<scope>"))>`.
// The HMAC key is the UTF-8 bytes of the secret string exactly as sent, never a decoded form.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { streamTokenSkewSeconds } from '../../config/defaults.js'

export interface MintStreamTokenInput {
  secret: string
  scope: string
  /** Unix seconds after which the token is no longer valid (plus the allowed skew). */
  expiresAtSeconds: number
}

export interface VerifyStreamTokenInput {
  secret: string
  token: string
  scope: string
  nowSeconds: number
  /** Clock skew tolerated past the expiry; protocol.md fixes 60 s. */
  skewSeconds?: number
}

const version = 'v1'
// Canonical decimal only: a leading zero or a sign would be a second spelling of the same expiry.
const canonicalExpiry = /^(0|[1-9][0-9]{0,14})$/
// 32 HMAC bytes are 43 base64url characters without padding.
const signaturePattern = /^[A-Za-z0-9_-]{43}$/

/** The base64url signature text for an expiry (canonical decimal) and a scope. */
export function signStreamToken(secret: string, expiry: string, scope: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${version}.${expiry}.${scope}`, 'utf8').digest('base64url')
}

/** The expiry and signature texts of a well-formed token, or undefined. Never throws. */
export function parseStreamToken(token: unknown): { expiry: string; signature: string } | undefined {
  if (typeof token !== 'string') return undefined
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  const [prefix, expiry, signature] = parts as [string, string, string]
  if (prefix !== version || !canonicalExpiry.test(expiry) || !signaturePattern.test(signature)) return undefined
  return { expiry, signature }
}

/**
 * Constant-time comparison of base64url texts, not decoded bytes: the last character has two
 * unused bits, and a decoder would accept four spellings of one signature.
 */
export function signaturesEqual(expected: Buffer, given: string): boolean {
  const givenBytes = Buffer.from(given, 'utf8')
  return expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes)
}

/** Whether a token of this expiry is still valid at `nowSeconds`, with the allowed skew. */
export function streamTokenUnexpired(expiry: string, nowSeconds: number, skewSeconds = streamTokenSkewSeconds): boolean {
  return Number(expiry) + skewSeconds >= nowSeconds
}

export function mintStreamToken({ secret, scope, expiresAtSeconds }: MintStreamTokenInput): string {
  if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds < 0) {
    throw new RangeError(`expiresAtSeconds must be a non-negative integer, got ${String(expiresAtSeconds)}`)
  }
  const expiry = String(expiresAtSeconds)
  return `${version}.${expiry}.${signStreamToken(secret, expiry, scope)}`
}

/**
 * True only for a well-formed, unexpired token minted for exactly this scope with this secret.
 * Never throws: a stream server answers every bad token with the same 404.
 */
export function verifyStreamToken({ secret, token, scope, nowSeconds, skewSeconds = streamTokenSkewSeconds }: VerifyStreamTokenInput): boolean {
  try {
    if (typeof secret !== 'string' || typeof scope !== 'string') return false
    const parsed = parseStreamToken(token)
    if (parsed === undefined) return false
    if (!signaturesEqual(Buffer.from(signStreamToken(secret, parsed.expiry, scope), 'utf8'), parsed.signature)) return false
    return streamTokenUnexpired(parsed.expiry, nowSeconds, skewSeconds)
  } catch {
    return false
  }
}
