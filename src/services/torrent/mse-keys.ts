import { randomBytes } from 'node:crypto'
import Wire from 'bittorrent-protocol'

// Message stream encryption (MSE/PE, which webtorrent tries first on every outgoing connection)
// starts with a Diffie-Hellman exchange over one fixed 768-bit prime. bittorrent-protocol makes a
// `crypto.createDiffieHellman(prime)` per connection, and OpenSSL checks that prime anew each time:
// ~19 ms of CPU per connection (the key generation and the shared secret take ~1 ms), for a
// seedbox's dozens of peers and their reconnects. Here each connection gets its own key pair over
// the same prime, computed with BigInt, without re-checking a constant.

/** The MSE prime P (BEP 8's message stream encryption spec), generator 2. */
const PRIME = BigInt('0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A63A36210000000000090563')
const GENERATOR = 2n
const KEY_BYTES = 96
/** Private exponents of 256 bits (the spec asks for at least 128; more than 180 adds nothing). */
const PRIVATE_BYTES = 32

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n
  let b = base % modulus
  let e = exponent
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus
    b = (b * b) % modulus
    e >>= 1n
  }
  return result
}

const toBigInt = (bytes: Uint8Array): bigint => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`))
const toBytes = (value: bigint): Buffer => Buffer.from(value.toString(16).padStart(KEY_BYTES * 2, '0'), 'hex')

/** One side's key pair, shaped like the part of Node's DiffieHellman that MSE uses. */
export class MseKeyPair {
  readonly #private = toBigInt(randomBytes(PRIVATE_BYTES)) | 1n
  #public: Buffer | undefined

  /** The public key, 96 bytes big-endian (the same one on every call). */
  generateKeys(): Buffer {
    this.#public ??= toBytes(modPow(GENERATOR, this.#private, PRIME))
    return this.#public
  }

  /** The shared secret with the other side's public key, 96 bytes; a degenerate key is refused as Node's would be. */
  computeSecret(otherPublic: Uint8Array): Buffer {
    const y = toBigInt(otherPublic)
    if (y <= 1n || y >= PRIME - 1n) throw new Error('MSE: the peer sent an invalid Diffie-Hellman public key')
    return toBytes(modPow(y, this.#private, PRIME))
  }
}

let installed: true | string | undefined

/** Makes bittorrent-protocol's MSE take an MseKeyPair per connection; returns why not when it is shaped otherwise. */
export function installMseKeys(): string | undefined {
  installed ??= install()
  return typeof installed === 'string' ? installed : undefined
}

function install(): true | string {
  // The encryptor class is not exported: an outgoing wire with encryption on holds one.
  const probe = new (Wire as unknown as new (type: string, pe: number) => { _encryptor?: object; destroy(): void })('tcpOutgoing', 1)
  const proto = probe._encryptor ? Object.getPrototypeOf(probe._encryptor) as object : undefined
  probe.destroy()
  const dh = proto && Object.getOwnPropertyDescriptor(proto, 'dh')
  if (!proto || !dh?.get || typeof (proto as Record<string, unknown>).generateStepA1 !== 'function') return 'bittorrent-protocol has no MSE encryptor with a `dh` getter'
  Object.defineProperty(proto, 'dh', {
    configurable: true,
    get(this: { _dh: MseKeyPair | null }) {
      this._dh ??= new MseKeyPair()
      return this._dh
    },
  })
  return true
}
