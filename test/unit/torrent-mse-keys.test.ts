import { createDiffieHellman } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MseKeyPair } from '../../src/services/torrent/mse-keys.js'

// The engine's MSE key pairs (mse-keys.ts) replace Node's DiffieHellman over the MSE prime, which
// re-checked that prime for every connection. A peer using Node's (or any) DH over the same prime
// must arrive at the same shared secret, or an encrypted connection would never come up.

const PRIME_HEX = 'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A63A36210000000000090563'

describe('MSE key pairs', () => {
  it('agree on the shared secret with Node\'s Diffie-Hellman over the MSE prime, both ways', () => {
    for (let round = 0; round < 5; round++) {
      const ours = new MseKeyPair()
      const theirs = createDiffieHellman(PRIME_HEX, 'hex', 2)
      const theirPublic = theirs.generateKeys()
      const ourPublic = ours.generateKeys()
      expect(ourPublic.length).toBe(96)
      expect(ours.generateKeys().equals(ourPublic)).toBe(true)
      const secret = ours.computeSecret(theirPublic)
      expect(secret.length).toBe(96)
      expect(secret.equals(theirs.computeSecret(ourPublic))).toBe(true)
    }
  })

  it('gives every connection a key pair of its own', () => {
    expect(new MseKeyPair().generateKeys().equals(new MseKeyPair().generateKeys())).toBe(false)
  })

  it('refuses a degenerate public key instead of deriving a guessable secret', () => {
    const ours = new MseKeyPair()
    const prime = Buffer.from(PRIME_HEX, 'hex')
    const primeMinusOne = Buffer.from(prime)
    primeMinusOne[95]! -= 1
    for (const bad of [Buffer.alloc(96), Buffer.concat([Buffer.alloc(95), Buffer.from([1])]), primeMinusOne, prime]) {
      expect(() => ours.computeSecret(bad)).toThrow(/invalid Diffie-Hellman public key/)
    }
  })
})
