// The small UDP socket interface the WireGuard device sends through, and its node:dgram
// implementation. Tests substitute an in-memory network or a relay.
import { createSocket, type Socket } from 'node:dgram'
import { wgUdpSocketBufferBytes } from '../../config/defaults.js'
import { WireGuardSocketError } from '../../errors.js'

export interface UdpAddress {
  readonly address: string
  readonly port: number
}

export interface WgUdpSocket {
  /** Binds (port 0 or undefined = any free port); resolves with the bound address. */
  bind(port?: number, address?: string): Promise<UdpAddress>
  /**
   * May throw a local failure (EPERM from a host firewall, ENETUNREACH): the device counts the
   * datagram as lost on the way and its timers go on (device.ts sendRaw).
   */
  send(data: Uint8Array, port: number, address: string): void
  /** Local send failures a socket learns of after send() returned (node:dgram reports them in a callback). */
  onSendError?(handler: (err: Error, to: UdpAddress | undefined) => void): void
  onMessage(handler: (data: Uint8Array, from: UdpAddress) => void): void
  close(): Promise<void>
}

/**
 * `bufferBytes` sizes the kernel's socket buffers: at tunnel rates the default (~208 KiB) drops
 * datagrams whenever the event loop is busy for a few milliseconds, and every drop is a TCP loss
 * inside the tunnel. The kernel caps the value at net.core.rmem_max / wmem_max.
 */
export function createNodeUdpSocket(type: 'udp4' | 'udp6' = 'udp4', bufferBytes = wgUdpSocketBufferBytes): WgUdpSocket {
  let socket: Socket | undefined
  let handler: ((data: Uint8Array, from: UdpAddress) => void) | undefined
  let sendErrorHandler: ((err: Error, to: UdpAddress | undefined) => void) | undefined
  // Without a callback node:dgram drops a send's error (EPERM from a firewall included) without a
  // word; one callback for every send (not a closure per datagram) lets the device count them.
  const sent = (err: Error | null): void => {
    if (!err) return
    const at = err as Error & { address?: string; port?: number }
    sendErrorHandler?.(err, at.address !== undefined && at.port !== undefined ? { address: at.address, port: at.port } : undefined)
  }
  return {
    bind(port = 0, address) {
      return new Promise((resolve, reject) => {
        const s = createSocket({ type, reuseAddr: false })
        socket = s
        s.once('error', (err) => reject(new WireGuardSocketError(`WireGuard UDP socket could not bind: ${err.message}`, { cause: err })))
        s.on('message', (msg, rinfo) => handler?.(msg, { address: rinfo.address, port: rinfo.port }))
        s.bind(port, address, () => {
          s.removeAllListeners('error')
          s.on('error', () => undefined) // send errors (ICMP unreachable) are not fatal for UDP
          for (const set of [(n: number) => s.setRecvBufferSize(n), (n: number) => s.setSendBufferSize(n)]) {
            try {
              if (bufferBytes > 0) set(bufferBytes)
            } catch {
              // not allowed or not supported: keep the kernel's default
            }
          }
          const a = s.address()
          resolve({ address: a.address, port: a.port })
        })
      })
    },
    send(data, port, address) {
      socket?.send(data, port, address, sent)
    },
    onSendError(h) {
      sendErrorHandler = h
    },
    onMessage(h) {
      handler = h
    },
    close() {
      return new Promise((resolve) => {
        if (socket === undefined) return resolve()
        const s = socket
        socket = undefined
        try {
          s.close(() => resolve())
        } catch {
          resolve()
        }
      })
    },
  }
}
