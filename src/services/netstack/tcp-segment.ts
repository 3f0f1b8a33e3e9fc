// TCP header codec (RFC 9293 3.1) with the options this stack speaks: MSS (RFC 9293 3.7.1),
// window scale (RFC 7323 2), SACK-permitted and SACK (RFC 2018). Timestamps are not sent and are
// skipped on receive.
import { foldChecksum, pseudoHeaderSum, sumWords } from './checksum.js'
import { IP_PROTO_TCP } from './ipv4.js'

export const TCP_FIN = 0x01
export const TCP_SYN = 0x02
export const TCP_RST = 0x04
export const TCP_PSH = 0x08
export const TCP_ACK = 0x10
export const TCP_URG = 0x20
export const TCP_HEADER_BYTES = 20

export interface TcpOptions {
  mss?: number
  windowScale?: number
  sackPermitted?: boolean
  /** [left, right) edges of received blocks, most recent first. */
  sack?: Array<[number, number]>
}

export interface TcpSegment {
  srcPort: number
  dstPort: number
  seq: number
  ack: number
  flags: number
  /** The raw 16-bit window field (unscaled). */
  window: number
  options: TcpOptions
  payload: Uint8Array
}

/** Sequence space the segment occupies: data plus one each for SYN and FIN. */
export function segmentLength(segment: Pick<TcpSegment, 'flags' | 'payload'>): number {
  return segment.payload.length + (segment.flags & TCP_SYN ? 1 : 0) + (segment.flags & TCP_FIN ? 1 : 0)
}

export function optionsLength(options: TcpOptions): number {
  let n = 0
  if (options.mss !== undefined) n += 4
  if (options.windowScale !== undefined) n += 4 // NOP + 3
  if (options.sackPermitted) n += 4 // NOP NOP + 2
  if (options.sack && options.sack.length > 0) n += 4 + 8 * options.sack.length // NOP NOP + 2 + 8n
  return n
}

/** Parses a TCP segment; verifies the checksum against the IPv4 pseudo-header when src/dst are given. */
export function parseTcp(data: Uint8Array, src: number, dst: number): TcpSegment | undefined {
  if (data.length < TCP_HEADER_BYTES) return undefined
  const headerBytes = (data[12]! >> 4) * 4
  if (headerBytes < TCP_HEADER_BYTES || headerBytes > data.length) return undefined
  const sum = sumWords(data, 0, data.length, pseudoHeaderSum(src, dst, IP_PROTO_TCP, data.length))
  if (foldChecksum(sum) !== 0) return undefined
  const options: TcpOptions = {}
  let i = TCP_HEADER_BYTES
  while (i < headerBytes) {
    const kind = data[i]!
    if (kind === 0) break
    if (kind === 1) {
      i++
      continue
    }
    if (i + 1 >= headerBytes) return undefined
    const len = data[i + 1]!
    if (len < 2 || i + len > headerBytes) return undefined
    if (kind === 2 && len === 4) options.mss = (data[i + 2]! << 8) | data[i + 3]!
    else if (kind === 3 && len === 3) options.windowScale = data[i + 2]!
    else if (kind === 4 && len === 2) options.sackPermitted = true
    else if (kind === 5 && len >= 10 && (len - 2) % 8 === 0) {
      const blocks: Array<[number, number]> = []
      for (let j = i + 2; j < i + len; j += 8) blocks.push([readU32(data, j), readU32(data, j + 4)])
      options.sack = blocks
    }
    i += len
  }
  return {
    srcPort: (data[0]! << 8) | data[1]!,
    dstPort: (data[2]! << 8) | data[3]!,
    seq: readU32(data, 4),
    ack: readU32(data, 8),
    flags: data[13]! & 0x3f,
    window: (data[14]! << 8) | data[15]!,
    options,
    payload: data.subarray(headerBytes),
  }
}

/** Writes the segment at `out[offset..]` with its checksum; returns the bytes written. */
export function writeTcp(out: Uint8Array, offset: number, segment: TcpSegment, src: number, dst: number): number {
  const optLen = optionsLength(segment.options)
  const headerBytes = TCP_HEADER_BYTES + optLen
  const total = headerBytes + segment.payload.length
  const o = offset
  out[o] = segment.srcPort >>> 8
  out[o + 1] = segment.srcPort & 0xff
  out[o + 2] = segment.dstPort >>> 8
  out[o + 3] = segment.dstPort & 0xff
  writeU32(out, o + 4, segment.seq)
  writeU32(out, o + 8, segment.ack)
  out[o + 12] = (headerBytes / 4) << 4
  out[o + 13] = segment.flags
  out[o + 14] = segment.window >>> 8
  out[o + 15] = segment.window & 0xff
  out[o + 16] = 0
  out[o + 17] = 0
  out[o + 18] = 0
  out[o + 19] = 0
  let i = o + TCP_HEADER_BYTES
  const { mss, windowScale, sackPermitted, sack } = segment.options
  if (mss !== undefined) {
    out[i++] = 2
    out[i++] = 4
    out[i++] = mss >>> 8
    out[i++] = mss & 0xff
  }
  if (windowScale !== undefined) {
    out[i++] = 1
    out[i++] = 3
    out[i++] = 3
    out[i++] = windowScale
  }
  if (sackPermitted) {
    out[i++] = 1
    out[i++] = 1
    out[i++] = 4
    out[i++] = 2
  }
  if (sack && sack.length > 0) {
    out[i++] = 1
    out[i++] = 1
    out[i++] = 5
    out[i++] = 2 + 8 * sack.length
    for (const [left, right] of sack) {
      writeU32(out, i, left)
      writeU32(out, i + 4, right)
      i += 8
    }
  }
  out.set(segment.payload, i)
  const checksum = foldChecksum(sumWords(out, o, o + total, pseudoHeaderSum(src, dst, IP_PROTO_TCP, total)))
  out[o + 16] = checksum >>> 8
  out[o + 17] = checksum & 0xff
  return total
}

export function readU32(data: Uint8Array, i: number): number {
  return ((data[i]! << 24) | (data[i + 1]! << 16) | (data[i + 2]! << 8) | data[i + 3]!) >>> 0
}

export function writeU32(out: Uint8Array, i: number, value: number): void {
  out[i] = value >>> 24
  out[i + 1] = (value >>> 16) & 0xff
  out[i + 2] = (value >>> 8) & 0xff
  out[i + 3] = value & 0xff
}
