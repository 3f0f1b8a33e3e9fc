// An in-memory UDP network on an injected clock: sockets are addressed "ip:port", delivery takes
// `latencyMs` of clock time, and a filter can drop, record or rewrite datagrams. For unit tests of
// the device (and of the netstack above it) without real sockets.
import type { WgClock } from './clock.js'
import type { UdpAddress, WgUdpSocket } from './udp.js'

export interface MemoryDatagram {
  data: Uint8Array
  from: UdpAddress
  to: UdpAddress
}

export interface MemoryNetwork {
  socket(address: string): WgUdpSocket & { readonly local: UdpAddress | undefined; moveTo(address: string, port?: number): void }
  /** Return false to drop; may also record. */
  filter: ((d: MemoryDatagram) => boolean) | undefined
  readonly delivered: MemoryDatagram[]
  /** Injects a datagram as if it came from `from`. */
  inject(data: Uint8Array, from: UdpAddress, to: UdpAddress): void
}

export function createMemoryNetwork(clock: WgClock, latencyMs = 1): MemoryNetwork {
  const bound = new Map<string, (data: Uint8Array, from: UdpAddress) => void>()
  let nextPort = 40000
  const net: MemoryNetwork = {
    filter: undefined,
    delivered: [],
    inject(data, from, to) {
      const copy = new Uint8Array(data)
      const d: MemoryDatagram = { data: copy, from, to }
      if (net.filter !== undefined && !net.filter(d)) return
      clock.setTimeout(() => {
        const handler = bound.get(`${to.address}:${to.port}`)
        if (handler === undefined) return
        net.delivered.push(d)
        handler(copy, from)
      }, latencyMs)
    },
    socket(address) {
      let local: UdpAddress | undefined
      let handler: ((data: Uint8Array, from: UdpAddress) => void) | undefined
      const deliver = (data: Uint8Array, from: UdpAddress): void => handler?.(data, from)
      return {
        get local() {
          return local
        },
        async bind(port) {
          local = { address, port: port === undefined || port === 0 ? nextPort++ : port }
          bound.set(`${local.address}:${local.port}`, deliver)
          return local
        },
        moveTo(newAddress, port) {
          if (local !== undefined) bound.delete(`${local.address}:${local.port}`)
          local = { address: newAddress, port: port ?? local?.port ?? nextPort++ }
          bound.set(`${local.address}:${local.port}`, deliver)
        },
        send(data, port, to) {
          if (local === undefined) return
          net.inject(data, local, { address: to, port })
        },
        onMessage(h) {
          handler = h
        },
        async close() {
          if (local !== undefined) bound.delete(`${local.address}:${local.port}`)
          local = undefined
        },
      }
    },
  }
  return net
}
