// IPv4 header codec (RFC 791) with header checksums. No options are sent; received options are
// skipped. Fragments are never reassembled: the stack sends with DF and drops what arrives
// fragmented (counted), which is what a WireGuard path with a known MTU makes safe.
import { internetChecksum } from './checksum.js'

export const IP_PROTO_ICMP = 1
export const IP_PROTO_TCP = 6
export const IP_PROTO_UDP = 17
export const IPV4_HEADER_BYTES = 20

export interface Ipv4Packet {
  src: number
  dst: number
  protocol: number
  ttl: number
  /** The transport bytes (a view into the received packet). */
  payload: Uint8Array
}

export type Ipv4ParseResult =
  | { ok: true; packet: Ipv4Packet }
  | { ok: false; reason: 'short' | 'version' | 'header-length' | 'total-length' | 'checksum' | 'fragment' }

export function parseIpv4Address(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    value = value * 256 + n
  }
  return value >>> 0
}

export function formatIpv4Address(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`
}

export function parseIpv4(data: Uint8Array): Ipv4ParseResult {
  if (data.length < IPV4_HEADER_BYTES) return { ok: false, reason: 'short' }
  if (data[0]! >> 4 !== 4) return { ok: false, reason: 'version' }
  const headerBytes = (data[0]! & 0x0f) * 4
  if (headerBytes < IPV4_HEADER_BYTES || headerBytes > data.length) return { ok: false, reason: 'header-length' }
  const totalLength = (data[2]! << 8) | data[3]!
  // Links may pad (Ethernet minimums, WireGuard's 16-byte padding): trust the header length.
  if (totalLength < headerBytes || totalLength > data.length) return { ok: false, reason: 'total-length' }
  if (internetChecksum(data, 0, headerBytes) !== 0) return { ok: false, reason: 'checksum' }
  const flagsFragment = (data[6]! << 8) | data[7]!
  const moreFragments = (flagsFragment & 0x2000) !== 0
  const fragmentOffset = flagsFragment & 0x1fff
  if (moreFragments || fragmentOffset !== 0) return { ok: false, reason: 'fragment' }
  const src = ((data[12]! << 24) | (data[13]! << 16) | (data[14]! << 8) | data[15]!) >>> 0
  const dst = ((data[16]! << 24) | (data[17]! << 16) | (data[18]! << 8) | data[19]!) >>> 0
  return {
    ok: true,
    packet: { src, dst, protocol: data[9]!, ttl: data[8]!, payload: data.subarray(headerBytes, totalLength) },
  }
}

/** Writes a 20-byte header (DF set, no options) in front of `payloadLength` bytes already in place. */
export function writeIpv4Header(
  out: Uint8Array,
  fields: { src: number; dst: number; protocol: number; ttl: number; id: number; payloadLength: number },
): void {
  const total = IPV4_HEADER_BYTES + fields.payloadLength
  out[0] = 0x45
  out[1] = 0
  out[2] = total >>> 8
  out[3] = total & 0xff
  out[4] = (fields.id >>> 8) & 0xff
  out[5] = fields.id & 0xff
  out[6] = 0x40 // DF: the stack never fragments (RFC 791, RFC 1191)
  out[7] = 0
  out[8] = fields.ttl
  out[9] = fields.protocol
  out[10] = 0
  out[11] = 0
  out[12] = fields.src >>> 24
  out[13] = (fields.src >>> 16) & 0xff
  out[14] = (fields.src >>> 8) & 0xff
  out[15] = fields.src & 0xff
  out[16] = fields.dst >>> 24
  out[17] = (fields.dst >>> 16) & 0xff
  out[18] = (fields.dst >>> 8) & 0xff
  out[19] = fields.dst & 0xff
  const checksum = internetChecksum(out, 0, IPV4_HEADER_BYTES)
  out[10] = checksum >>> 8
  out[11] = checksum & 0xff
}
