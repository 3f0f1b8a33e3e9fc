import { describe, expect, it } from 'vitest'
import { createStreamTokenVerifier } from '../../src/services/auth/stream-token-verifier.js'
import { mintStreamToken, verifyStreamToken } from '../../src/services/auth/stream-token.js'

const secret = 'c2VjcmV0LXNpZ25pbmcta2V5LTMyLWJ5dGVzLWxvbmc'
const now = 1_800_000_000

// The stream server's verifier remembers tokens that verified; its answers must stay exactly
// verifyStreamToken's, however often a token comes back.
describe('the remembering stream token verifier', () => {
  it('answers as verifyStreamToken on the first and on every later request', () => {
    const verify = createStreamTokenVerifier()
    const token = mintStreamToken({ secret, scope: 'stream:s1', expiresAtSeconds: now + 10 })
    for (let i = 0; i < 3; i++) {
      expect(verify({ secret, token, scope: 'stream:s1', nowSeconds: now })).toBe(true)
      expect(verify({ secret, token, scope: 'stream:s2', nowSeconds: now })).toBe(false)
      expect(verify({ secret: `${secret}x`, token, scope: 'stream:s1', nowSeconds: now })).toBe(false)
    }
  })

  it('still checks the expiry (60 s skew) of a remembered token on every request', () => {
    const verify = createStreamTokenVerifier()
    const token = mintStreamToken({ secret, scope: 'stream:s1', expiresAtSeconds: now })
    expect(verify({ secret, token, scope: 'stream:s1', nowSeconds: now })).toBe(true)
    expect(verify({ secret, token, scope: 'stream:s1', nowSeconds: now + 60 })).toBe(true)
    expect(verify({ secret, token, scope: 'stream:s1', nowSeconds: now + 61 })).toBe(false)
    expect(verify({ secret, token, scope: 'stream:s1', nowSeconds: now + 61 })).toBe(false)
  })

  it('refuses a remembered token once the secret changes, and a twin signature always', () => {
    const verify = createStreamTokenVerifier()
    const token = mintStreamToken({ secret, scope: 's', expiresAtSeconds: now + 10 })
    expect(verify({ secret, token, scope: 's', nowSeconds: now })).toBe(true)
    expect(verify({ secret: 'rotated', token, scope: 's', nowSeconds: now })).toBe(false)
    const fresh = mintStreamToken({ secret: 'rotated', scope: 's', expiresAtSeconds: now + 10 })
    expect(verify({ secret: 'rotated', token: fresh, scope: 's', nowSeconds: now })).toBe(true)
    expect(verify({ secret: 'rotated', token, scope: 's', nowSeconds: now })).toBe(false)
    // The last character's unused low bits: same decoded bytes, another text.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const twin = `${fresh.slice(0, -1)}${alphabet[alphabet.indexOf(fresh.at(-1)!) ^ 1]!}`
    expect(verify({ secret: 'rotated', token: twin, scope: 's', nowSeconds: now })).toBe(false)
  })

  it('agrees with verifyStreamToken on garbage, and keeps at most its bound of tokens', () => {
    const verify = createStreamTokenVerifier(4)
    for (const token of ['', 'v1', 'v1..', 'v2.1.abc', `v1.${now}.`, 'v1.-1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '....', `v1.0${now}.${'a'.repeat(43)}`]) {
      expect(verify({ secret, token, scope: 's', nowSeconds: now })).toBe(verifyStreamToken({ secret, token, scope: 's', nowSeconds: now }))
    }
    expect(verify({ secret, token: undefined as unknown as string, scope: 's', nowSeconds: now })).toBe(false)
    const tokens = Array.from({ length: 10 }, (_, i) => mintStreamToken({ secret, scope: `stream:${i}`, expiresAtSeconds: now + 10 }))
    for (const [i, token] of tokens.entries()) expect(verify({ secret, token, scope: `stream:${i}`, nowSeconds: now })).toBe(true)
    // Evicted or not, every one still verifies.
    for (const [i, token] of tokens.entries()) expect(verify({ secret, token, scope: `stream:${i}`, nowSeconds: now })).toBe(true)
  })
})
