// WireGuard message framing (whitepaper 5.4) and the MAC1/MAC2 + cookie machinery (5.4.4, 5.4.7).
import { wgCookieRefreshTimeMs } from '../../config/defaults.js'
import { constantTimeEqual, hash, mac, MAC_BYTES, xaeadDecrypt, xaeadEncrypt } from './crypto.js'

export const MESSAGE_INITIATION = 1
export const MESSAGE_RESPONSE = 2
export const MESSAGE_COOKIE_REPLY = 3
export const MESSAGE_TRANSPORT = 4

export const INITIATION_BYTES = 148
export const RESPONSE_BYTES = 92
export const COOKIE_REPLY_BYTES = 64
export const TRANSPORT_HEADER_BYTES = 16
export const TRANSPORT_MIN_BYTES = 32 // header + Poly1305 tag (a keepalive)

/** Overhead per transport packet: header + tag. */
export const TRANSPORT_OVERHEAD_BYTES = TRANSPORT_HEADER_BYTES + 16

const LABEL_MAC1 = new TextEncoder().encode('mac1----')
const LABEL_COOKIE = new TextEncoder().encode('cookie--')

export function messageType(packet: Uint8Array): number {
  // type (1 byte) + three reserved zero bytes, read as one little-endian word
  if (packet.length < 4) return 0
  if (packet[1] !== 0 || packet[2] !== 0 || packet[3] !== 0) return 0
  return packet[0]!
}

export function readU32(packet: Uint8Array, offset: number): number {
  return (packet[offset]! | (packet[offset + 1]! << 8) | (packet[offset + 2]! << 16) | (packet[offset + 3]! << 24)) >>> 0
}

export function writeU32(packet: Uint8Array, offset: number, value: number): void {
  packet[offset] = value & 0xff
  packet[offset + 1] = (value >>> 8) & 0xff
  packet[offset + 2] = (value >>> 16) & 0xff
  packet[offset + 3] = (value >>> 24) & 0xff
}

/** Transport counter (64-bit LE) as a number; values of 2^53 and above read as Infinity (rejected). */
export function readCounter(packet: Uint8Array, offset: number): number {
  const lo = readU32(packet, offset)
  const hi = readU32(packet, offset + 4)
  if (hi >= 0x20_0000) return Number.POSITIVE_INFINITY
  return hi * 0x1_0000_0000 + lo
}

export function writeCounter(packet: Uint8Array, offset: number, value: number): void {
  writeU32(packet, offset, value >>> 0)
  writeU32(packet, offset + 4, Math.floor(value / 0x1_0000_0000))
}

/** Bytes that identify a UDP source for cookies: address text + port. */
export function sourceBytes(address: string, port: number): Uint8Array {
  const text = new TextEncoder().encode(address)
  const out = new Uint8Array(text.length + 2)
  out.set(text)
  out[text.length] = port >> 8
  out[text.length + 1] = port & 0xff
  return out
}

/**
 * The receiving side of MACs: checks MAC1 (always) and MAC2 (under load) of handshake messages
 * addressed to our static key, and makes cookie replies.
 */
export class CookieChecker {
  private readonly mac1Key: Uint8Array
  private readonly cookieKey: Uint8Array
  private secret: Uint8Array
  private secretSetAt: number

  constructor(localPublic: Uint8Array, private readonly random: (n: number) => Uint8Array, private readonly now: () => number) {
    this.mac1Key = hash(LABEL_MAC1, localPublic)
    this.cookieKey = hash(LABEL_COOKIE, localPublic)
    this.secret = random(32)
    this.secretSetAt = now()
  }

  checkMac1(msg: Uint8Array): boolean {
    const end = msg.length - 2 * MAC_BYTES
    return constantTimeEqual(mac(this.mac1Key, msg.subarray(0, end)), msg.subarray(end, end + MAC_BYTES))
  }

  private cookieFor(source: Uint8Array): Uint8Array {
    if (this.now() - this.secretSetAt >= wgCookieRefreshTimeMs) {
      this.secret = this.random(32)
      this.secretSetAt = this.now()
    }
    return mac(this.secret, source)
  }

  checkMac2(msg: Uint8Array, source: Uint8Array): boolean {
    const end = msg.length - MAC_BYTES
    return constantTimeEqual(mac(this.cookieFor(source), msg.subarray(0, end)), msg.subarray(end))
  }

  /** A cookie reply to `msg` (whose sender index is `receiverIndex`) for `source`. */
  createReply(msg: Uint8Array, receiverIndex: number, source: Uint8Array): Uint8Array {
    const out = new Uint8Array(COOKIE_REPLY_BYTES)
    out[0] = MESSAGE_COOKIE_REPLY
    writeU32(out, 4, receiverIndex)
    const nonce = this.random(24)
    out.set(nonce, 8)
    const mac1 = msg.subarray(msg.length - 2 * MAC_BYTES, msg.length - MAC_BYTES)
    out.set(xaeadEncrypt(this.cookieKey, nonce, this.cookieFor(source), mac1), 32)
    return out
  }
}

/** The sending side of MACs for one peer: MAC1 always, MAC2 with a fresh cookie from that peer. */
export class CookieGenerator {
  private readonly mac1Key: Uint8Array
  private readonly cookieKey: Uint8Array
  private cookie: Uint8Array | undefined
  private cookieAt = 0
  private lastMac1: Uint8Array | undefined

  constructor(peerPublic: Uint8Array, private readonly now: () => number) {
    this.mac1Key = hash(LABEL_MAC1, peerPublic)
    this.cookieKey = hash(LABEL_COOKIE, peerPublic)
  }

  /** Fills the last 32 bytes (mac1, mac2) of a handshake message in place. */
  addMacs(msg: Uint8Array): void {
    const mac1At = msg.length - 2 * MAC_BYTES
    const mac1 = mac(this.mac1Key, msg.subarray(0, mac1At))
    msg.set(mac1, mac1At)
    this.lastMac1 = mac1
    const mac2At = msg.length - MAC_BYTES
    if (this.cookie !== undefined && this.now() - this.cookieAt < wgCookieRefreshTimeMs) {
      msg.set(mac(this.cookie, msg.subarray(0, mac2At)), mac2At)
    } else {
      msg.fill(0, mac2At)
    }
  }

  /** Stores the cookie of a reply to our last handshake message; false when it does not open. */
  consumeReply(reply: Uint8Array): boolean {
    if (reply.length !== COOKIE_REPLY_BYTES || this.lastMac1 === undefined) return false
    const cookie = xaeadDecrypt(this.cookieKey, reply.subarray(8, 32), reply.subarray(32), this.lastMac1)
    if (cookie === undefined) return false
    this.cookie = cookie
    this.cookieAt = this.now()
    return true
  }

  hasFreshCookie(): boolean {
    return this.cookie !== undefined && this.now() - this.cookieAt < wgCookieRefreshTimeMs
  }
}
