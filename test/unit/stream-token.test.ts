import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { mintStreamToken, verifyStreamToken } from '../../src/services/auth/stream-token.js'

const secret = 'c2VjcmV0LXNpZ25pbmcta2V5LTMyLWJ5dGVzLWxvbmc'
const now = 1_800_000_000

describe('stream tokens', () => {
  it('a minted token has the v1.<exp>.<base64url HMAC> shape of protocol.md 2', () => {
    const token = mintStreamToken({ secret, scope: 'hls:abc', expiresAtSeconds: now + 60 })
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`v1.${now + 60}.hls:abc`).digest('base64url')
    expect(token).toBe(`v1.${now + 60}.${expected}`)
    expect(token).not.toContain('=')
  })

  it('a token verifies for its own scope and secret before it expires', () => {
    const token = mintStreamToken({ secret, scope: 'stream:s1', expiresAtSeconds: now + 10 })
    expect(verifyStreamToken({ secret, token, scope: 'stream:s1', nowSeconds: now })).toBe(true)
  })

  it('a token for another scope or made with another secret is refused', () => {
    const token = mintStreamToken({ secret, scope: 'stream:s1', expiresAtSeconds: now + 10 })
    expect(verifyStreamToken({ secret, token, scope: 'stream:s2', nowSeconds: now })).toBe(false)
    expect(verifyStreamToken({ secret, token, scope: 'hls:s1', nowSeconds: now })).toBe(false)
    expect(verifyStreamToken({ secret: `${secret}x`, token, scope: 'stream:s1', nowSeconds: now })).toBe(false)
  })

  it('an expired token is still accepted within 60 s of skew and refused after', () => {
    const token = mintStreamToken({ secret, scope: 'thumb:ab', expiresAtSeconds: now })
    expect(verifyStreamToken({ secret, token, scope: 'thumb:ab', nowSeconds: now + 60 })).toBe(true)
    expect(verifyStreamToken({ secret, token, scope: 'thumb:ab', nowSeconds: now + 61 })).toBe(false)
    expect(verifyStreamToken({ secret, token, scope: 'thumb:ab', nowSeconds: now + 5, skewSeconds: 0 })).toBe(false)
  })

  it('the secret is used as its UTF-8 text, not base64-decoded', () => {
    const token = mintStreamToken({ secret: 'päss', scope: 's', expiresAtSeconds: now })
    const expected = createHmac('sha256', Buffer.from('päss', 'utf8')).update(`v1.${now}.s`).digest('base64url')
    expect(token.split('.')[2]).toBe(expected)
  })

  it('an expiry spelled with a leading zero is refused although it names the same second', () => {
    const token = mintStreamToken({ secret, scope: 's', expiresAtSeconds: now })
    const [, exp, sig] = token.split('.')
    expect(verifyStreamToken({ secret, token: `v1.0${exp}.${sig}`, scope: 's', nowSeconds: now })).toBe(false)
  })

  it('a signature differing only in the unused low bits of its last character is refused', () => {
    const token = mintStreamToken({ secret, scope: 's', expiresAtSeconds: now })
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = token.at(-1)!
    const index = alphabet.indexOf(last)
    const sibling = alphabet[index ^ 1]!
    const twin = `${token.slice(0, -1)}${sibling}`
    expect(Buffer.from(twin.split('.')[2]!, 'base64url')).toEqual(Buffer.from(token.split('.')[2]!, 'base64url'))
    expect(verifyStreamToken({ secret, token: twin, scope: 's', nowSeconds: now })).toBe(false)
  })

  it('garbage and wrong types are refused without throwing', () => {
    for (const token of ['', 'v1', 'v1..', 'v2.1.abc', `v1.${now}.`, 'v1.-1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '....']) {
      expect(verifyStreamToken({ secret, token, scope: 's', nowSeconds: now })).toBe(false)
    }
    expect(verifyStreamToken({ secret, token: undefined as unknown as string, scope: 's', nowSeconds: now })).toBe(false)
  })

  it('minting with a negative or fractional expiry is a programming error', () => {
    expect(() => mintStreamToken({ secret, scope: 's', expiresAtSeconds: -1 })).toThrow(RangeError)
    expect(() => mintStreamToken({ secret, scope: 's', expiresAtSeconds: 1.5 })).toThrow(RangeError)
  })
})
