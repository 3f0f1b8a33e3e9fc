import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mintStreamToken, verifyStreamToken } from '../../src/services/auth/stream-token.js'

const secretArb = fc.string({ minLength: 1, maxLength: 64, unit: 'binary' })
const scopeArb = fc.string({ maxLength: 80, unit: 'binary' })
const expiryArb = fc.integer({ min: 0, max: 4_000_000_000 })
const tokenChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.v'

describe('stream tokens (properties)', () => {
  it('every minted token verifies for its scope at any time up to expiry plus skew', () => {
    fc.assert(
      fc.property(secretArb, scopeArb, expiryArb, fc.integer({ min: -1_000_000, max: 60 }), (secret, scope, expiresAtSeconds, offset) => {
        const token = mintStreamToken({ secret, scope, expiresAtSeconds })
        expect(verifyStreamToken({ secret, token, scope, nowSeconds: expiresAtSeconds + offset })).toBe(true)
      }),
    )
  })

  it('any single-character change, insertion or deletion makes a token fail', () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: fc.constantFrom(...tokenChars) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(...tokenChars) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), char: fc.constant('') }),
    )
    fc.assert(
      fc.property(secretArb, scopeArb, expiryArb, mutation, (secret, scope, expiresAtSeconds, change) => {
        const token = mintStreamToken({ secret, scope, expiresAtSeconds })
        const at = change.at % (token.length + (change.kind === 'insert' ? 1 : 0))
        let mutated: string
        if (change.kind === 'replace') mutated = token.slice(0, at) + change.char + token.slice(at + 1)
        else if (change.kind === 'insert') mutated = token.slice(0, at) + change.char + token.slice(at)
        else mutated = token.slice(0, at) + token.slice(at + 1)
        fc.pre(mutated !== token)
        expect(verifyStreamToken({ secret, token: mutated, scope, nowSeconds: expiresAtSeconds })).toBe(false)
      }),
    )
  })

  it('verification never throws and refuses arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), secretArb, scopeArb, fc.integer(), (token, secret, scope, nowSeconds) => {
        expect(() => verifyStreamToken({ secret, token, scope, nowSeconds })).not.toThrow()
        expect(verifyStreamToken({ secret, token, scope, nowSeconds })).toBe(false)
      }),
    )
  })
})
