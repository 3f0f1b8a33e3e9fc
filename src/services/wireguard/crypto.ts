// Cryptographic primitives of WireGuard (whitepaper section 5.4): BLAKE2s HASH/HMAC/KDF, keyed
// BLAKE2s-128 MAC, ChaCha20-Poly1305 AEAD, XChaCha20-Poly1305 (cookies) and X25519.
// node:crypto covers everything except keyed 16-byte BLAKE2s and XChaCha20-Poly1305, which come
// from @noble/hashes and @noble/ciphers.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  diffieHellman,
  type KeyObject,
} from 'node:crypto'
import { blake2s } from '@noble/hashes/blake2.js'
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'

export const KEY_BYTES = 32
export const HASH_BYTES = 32
export const TAG_BYTES = 16
export const MAC_BYTES = 16

const PKCS8_X25519_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex')
const SPKI_X25519_PREFIX = Buffer.from('302a300506032b656e032100', 'hex')
const EMPTY = new Uint8Array(0)
const ZERO_PAD = Buffer.alloc(16)

export function hash(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('blake2s256')
  for (const part of parts) h.update(part)
  return h.digest()
}

export function hmac(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = createHmac('blake2s256', key)
  for (const part of parts) h.update(part)
  return h.digest()
}

const ONE = Uint8Array.of(1)
const TWO = Uint8Array.of(2)
const THREE = Uint8Array.of(3)

/** KDF_n of the whitepaper (HKDF with HMAC-BLAKE2s); returns n 32-byte outputs. */
export function kdf(n: 1 | 2 | 3, key: Uint8Array, input: Uint8Array = EMPTY): Uint8Array[] {
  const prk = hmac(key, input)
  const t1 = hmac(prk, ONE)
  if (n === 1) return [t1]
  const t2 = hmac(prk, t1, TWO)
  if (n === 2) return [t1, t2]
  const t3 = hmac(prk, t2, THREE)
  return [t1, t2, t3]
}

/** MAC(key, input) = Keyed-BLAKE2s(key, input), 16 bytes (MAC1/MAC2 and cookies). */
export function mac(key: Uint8Array, input: Uint8Array): Uint8Array {
  return blake2s(input, { key, dkLen: MAC_BYTES })
}

function nonce96(counter: number, out: Buffer): Buffer {
  out.writeUInt32LE(0, 0)
  out.writeUInt32LE(counter >>> 0, 4)
  out.writeUInt32LE(Math.floor(counter / 0x1_0000_0000), 8)
  return out
}

const handshakeNonce = Buffer.alloc(12)

/** AEAD(key, counter, plain, ad): ChaCha20-Poly1305, output = ciphertext || tag. */
export function aeadEncrypt(key: Uint8Array | KeyObject, counter: number, plain: Uint8Array, ad: Uint8Array): Uint8Array {
  const cipher = createCipheriv('chacha20-poly1305', key, nonce96(counter, handshakeNonce), { authTagLength: TAG_BYTES })
  if (ad.length > 0) cipher.setAAD(ad, { plaintextLength: plain.length })
  const body = cipher.update(plain)
  cipher.final()
  return Buffer.concat([body, cipher.getAuthTag()])
}

/** Opens `sealed` (ciphertext || tag); returns undefined when authentication fails. */
export function aeadDecrypt(key: Uint8Array | KeyObject, counter: number, sealed: Uint8Array, ad: Uint8Array): Uint8Array | undefined {
  if (sealed.length < TAG_BYTES) return undefined
  try {
    const decipher = createDecipheriv('chacha20-poly1305', key, nonce96(counter, handshakeNonce), { authTagLength: TAG_BYTES })
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
    if (ad.length > 0) decipher.setAAD(ad, { plaintextLength: sealed.length - TAG_BYTES })
    const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES))
    decipher.final()
    return body
  } catch {
    return undefined
  }
}

/**
 * Transport-data AEAD with a fixed key, written straight into caller-owned buffers: the hot path.
 * A new cipher object per packet is unavoidable with node:crypto (one nonce per object); the
 * key is imported once as a KeyObject and the nonce buffer is reused.
 */
export class TransportCipher {
  private readonly key: KeyObject
  private readonly nonce = Buffer.alloc(12)

  constructor(rawKey: Uint8Array) {
    this.key = createSecretKey(rawKey)
  }

  /**
   * Encrypts `plain` followed by `padding` zero bytes into `out` at `offset`; returns the bytes
   * written (plain.length + padding + 16). Padding is fed from a shared zero buffer, so the
   * packet is never copied just to pad it.
   */
  seal(counter: number, plain: Uint8Array, out: Buffer, offset: number, padding = 0): number {
    const cipher = createCipheriv('chacha20-poly1305', this.key, nonce96(counter, this.nonce), { authTagLength: TAG_BYTES })
    let at = offset + cipher.update(plain).copy(out, offset)
    if (padding > 0) at += cipher.update(ZERO_PAD.subarray(0, padding)).copy(out, at)
    at += cipher.final().copy(out, at)
    at += cipher.getAuthTag().copy(out, at)
    return at - offset
  }

  /** Returns the plaintext, or undefined when authentication fails. */
  open(counter: number, sealed: Uint8Array): Buffer | undefined {
    if (sealed.length < TAG_BYTES) return undefined
    try {
      const decipher = createDecipheriv('chacha20-poly1305', this.key, nonce96(counter, this.nonce), { authTagLength: TAG_BYTES })
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
      const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES))
      decipher.final()
      return body
    } catch {
      return undefined
    }
  }
}

export function xaeadEncrypt(key: Uint8Array, nonce: Uint8Array, plain: Uint8Array, ad: Uint8Array): Uint8Array {
  return xchacha20poly1305(key, nonce, ad).encrypt(plain)
}

export function xaeadDecrypt(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array, ad: Uint8Array): Uint8Array | undefined {
  try {
    return xchacha20poly1305(key, nonce, ad).decrypt(sealed)
  } catch {
    return undefined
  }
}

/** An X25519 private key imported once, with its public half. */
export interface StaticKey {
  readonly privateKey: KeyObject
  readonly publicKey: Uint8Array
}

export function importPrivateKey(raw: Uint8Array): StaticKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_X25519_PREFIX, raw]), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  return { privateKey, publicKey: new Uint8Array(spki.subarray(SPKI_X25519_PREFIX.length)) }
}

export function importPublicKey(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_X25519_PREFIX, raw]), format: 'der', type: 'spki' })
}

export function publicKeyOf(rawPrivate: Uint8Array): Uint8Array {
  return importPrivateKey(rawPrivate).publicKey
}

/** DH(private, public); undefined when the result is unusable (low-order point, all zero). */
export function dh(privateKey: KeyObject, publicKey: KeyObject | Uint8Array): Uint8Array | undefined {
  try {
    const pub = publicKey instanceof Uint8Array ? importPublicKey(publicKey) : publicKey
    const shared = diffieHellman({ privateKey, publicKey: pub })
    let acc = 0
    for (const byte of shared) acc |= byte
    return acc === 0 ? undefined : shared
  } catch {
    return undefined
  }
}

export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let acc = 0
  for (let i = 0; i < a.length; i++) acc |= a[i]! ^ b[i]!
  return acc === 0
}

export function zero(buffer: Uint8Array | undefined): void {
  buffer?.fill(0)
}
