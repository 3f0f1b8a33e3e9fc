// verifyStreamToken with its HMAC remembered: a player sends one token with every seek for hours,
// and the HMAC (a fresh keyed hash and three buffers) was a visible part of a small range answer.
// Only tokens that verified are remembered, keyed by the exact token and scope, so a hit needs a
// valid token (a guess always pays the full HMAC, and timing tells a guesser nothing about
// sessions). Every request still compares its signature in constant time against the expected
// one and still checks the expiry (60 s skew): the answer is verifyStreamToken's, request for
// request. A new secret misses the cache.
import { streamTokenCacheEntries, streamTokenSkewSeconds } from '../../config/defaults.js'
import { parseStreamToken, signaturesEqual, signStreamToken, streamTokenUnexpired, type VerifyStreamTokenInput } from './stream-token.js'

export type StreamTokenVerifier = (input: VerifyStreamTokenInput) => boolean

interface Remembered {
  secret: string
  /** The expected signature's base64url text as bytes. */
  expected: Buffer
}

export function createStreamTokenVerifier(maxEntries = streamTokenCacheEntries): StreamTokenVerifier {
  // Insertion order is age order: the first key is the one dropped when full.
  const remembered = new Map<string, Remembered>()

  return function verify({ secret, token, scope, nowSeconds, skewSeconds = streamTokenSkewSeconds }: VerifyStreamTokenInput): boolean {
    try {
      if (typeof secret !== 'string' || typeof scope !== 'string') return false
      const parsed = parseStreamToken(token)
      if (parsed === undefined) return false
      // A well-formed token has no space, so the key names one (token, scope) pair.
      const key = `${token} ${scope}`
      const known = remembered.get(key)
      const hit = known !== undefined && known.secret === secret
      const expected = hit ? known.expected : Buffer.from(signStreamToken(secret, parsed.expiry, scope), 'utf8')
      if (!signaturesEqual(expected, parsed.signature)) return false
      if (!streamTokenUnexpired(parsed.expiry, nowSeconds, skewSeconds)) {
        remembered.delete(key)
        return false
      }
      if (!hit) {
        remembered.delete(key)
        if (remembered.size >= maxEntries) remembered.delete(remembered.keys().next().value!)
        remembered.set(key, { secret, expected })
      }
      return true
    } catch {
      return false
    }
  }
}
