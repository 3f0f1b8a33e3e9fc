// UDP (RFC 768): the datagram codec with pseudo-header checksums, and the socket handed to
// callers (dgram-like: send, 'message', close). Ports are bound by the stack (netstack.ts).
import { EventEmitter } from 'node:events'
import { NetstackClosedError, NetstackInvalidArgumentError } from '../../errors.js'
import { foldChecksum, pseudoHeaderSum, sumWords } from './checksum.js'
import { IP_PROTO_UDP, formatIpv4Address, parseIpv4Address } from './ipv4.js'

export const UDP_HEADER_BYTES = 8

export interface UdpDatagram {
  srcPort: number
  dstPort: number
  payload: Uint8Array
}

export function parseUdp(data: Uint8Array, src: number, dst: number): UdpDatagram | undefined {
  if (data.length < UDP_HEADER_BYTES) return undefined
  const length = (data[4]! << 8) | data[5]!
  if (length < UDP_HEADER_BYTES || length > data.length) return undefined
  const checksum = (data[6]! << 8) | data[7]!
  // A zero checksum means the sender computed none (allowed over IPv4, RFC 768).
  if (checksum !== 0 && foldChecksum(sumWords(data, 0, length, pseudoHeaderSum(src, dst, IP_PROTO_UDP, length))) !== 0) return undefined
  return { srcPort: (data[0]! << 8) | data[1]!, dstPort: (data[2]! << 8) | data[3]!, payload: data.subarray(UDP_HEADER_BYTES, length) }
}

/** Writes header + payload at `out[offset..]` with the checksum; returns the bytes written. */
export function writeUdp(out: Uint8Array, offset: number, datagram: UdpDatagram, src: number, dst: number): number {
  const length = UDP_HEADER_BYTES + datagram.payload.length
  out[offset] = datagram.srcPort >>> 8
  out[offset + 1] = datagram.srcPort & 0xff
  out[offset + 2] = datagram.dstPort >>> 8
  out[offset + 3] = datagram.dstPort & 0xff
  out[offset + 4] = length >>> 8
  out[offset + 5] = length & 0xff
  out[offset + 6] = 0
  out[offset + 7] = 0
  out.set(datagram.payload, offset + UDP_HEADER_BYTES)
  let checksum = foldChecksum(sumWords(out, offset, offset + length, pseudoHeaderSum(src, dst, IP_PROTO_UDP, length)))
  if (checksum === 0) checksum = 0xffff // RFC 768: a computed zero is sent as all ones
  out[offset + 6] = checksum >>> 8
  out[offset + 7] = checksum & 0xff
  return length
}

export interface UdpRemoteInfo {
  address: string
  port: number
  family: 'IPv4'
  size: number
}

/** What a socket needs from the stack. */
export interface UdpHost {
  readonly localAddress: string
  readonly maxPayloadBytes: number
  sendUdp(srcPort: number, dst: number, dstPort: number, payload: Uint8Array): void
  release(port: number, socket: UdpSocket): void
}

export interface UdpSocketEvents {
  message: [message: Buffer, remote: UdpRemoteInfo]
  close: []
}

export class UdpSocket extends EventEmitter<UdpSocketEvents> {
  readonly port: number
  #host: UdpHost
  #closed = false

  constructor(host: UdpHost, port: number) {
    super()
    this.#host = host
    this.port = port
  }

  address(): { address: string; port: number; family: 'IPv4' } {
    return { address: this.#host.localAddress, port: this.port, family: 'IPv4' }
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Sends one datagram; it must fit the link MTU (the stack never fragments). */
  send(message: Uint8Array | string, port: number, address: string): void {
    if (this.#closed) throw new NetstackClosedError('UDP socket is closed')
    const payload = typeof message === 'string' ? Buffer.from(message) : message
    const dst = parseIpv4Address(address)
    if (dst === undefined) throw new NetstackInvalidArgumentError(`not an IPv4 address: ${address}`, { details: { address } })
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new NetstackInvalidArgumentError(`bad UDP port ${port}`, { details: { port } })
    if (payload.length > this.#host.maxPayloadBytes) {
      throw new NetstackInvalidArgumentError(`datagram of ${payload.length} bytes exceeds ${this.#host.maxPayloadBytes}`, { details: { size: payload.length } })
    }
    this.#host.sendUdp(this.port, dst, port, payload)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#host.release(this.port, this)
    this.emit('close')
  }

  /** Called by the stack for each datagram addressed to this port. */
  deliver(src: number, srcPort: number, payload: Uint8Array): void {
    if (this.#closed) return
    const message = Buffer.from(payload)
    this.emit('message', message, { address: formatIpv4Address(src), port: srcPort, family: 'IPv4', size: message.length })
  }
}
