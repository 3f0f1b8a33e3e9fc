// A small UDP relay for tests, standing in for `tc netem`: one client side, one upstream target;
// seeded randomness drops, delays and (through unequal delays) reorders datagrams both ways.
import { createSocket, type Socket } from 'node:dgram'

export interface UdpRelayOptions {
  listenAddress: string
  target: { address: string; port: number }
  /** Probability 0..1 of dropping a datagram (each direction). */
  lossRate?: number
  /** Drop the first N datagrams from the client (deterministic loss of e.g. the first initiation). */
  dropFirstFromClient?: number
  /** Extra delay per datagram, uniformly in [min, max] ms; unequal delays reorder. */
  delayMs?: [number, number]
  seed?: number
  /** Sees every datagram as it arrives (before loss and delay), e.g. to collect fuzz seeds. */
  tap?: (data: Buffer, fromClient: boolean) => void
}

export interface UdpRelay {
  readonly port: number
  readonly stats: { forwarded: number; dropped: number }
  close(): Promise<void>
}

const RELAY_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function bind(socket: Socket, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(0, address, () => {
      socket.off('error', reject)
      // Large buffers like the tunnel's own (wgUdpSocketBufferBytes): with the kernel's default
      // 208 KiB the relay dropped bursts while its event loop was busy, on top of the loss it was
      // asked for (131 resends in 64 MiB at "0 %" loss).
      for (const set of [(n: number) => socket.setRecvBufferSize(n), (n: number) => socket.setSendBufferSize(n)]) {
        try {
          set(RELAY_SOCKET_BUFFER_BYTES)
        } catch {
          // capped or refused: the kernel default stays
        }
      }
      resolve(socket.address().port)
    })
  })
}

export async function startUdpRelay(options: UdpRelayOptions): Promise<UdpRelay> {
  const rand = mulberry32(options.seed ?? 1)
  const lossRate = options.lossRate ?? 0
  const [minDelay, maxDelay] = options.delayMs ?? [0, 0]
  let dropFirst = options.dropFirstFromClient ?? 0
  const stats = { forwarded: 0, dropped: 0 }
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const front = createSocket('udp4')
  const back = createSocket('udp4')
  let client: { address: string; port: number } | undefined
  let closed = false

  const forward = (socket: Socket, data: Buffer, to: { address: string; port: number }, fromClient: boolean): void => {
    if (fromClient && dropFirst > 0) {
      dropFirst--
      stats.dropped++
      return
    }
    if (rand() < lossRate) {
      stats.dropped++
      return
    }
    const delay = minDelay + rand() * (maxDelay - minDelay)
    const send = (): void => {
      if (closed) return
      stats.forwarded++
      socket.send(data, to.port, to.address)
    }
    if (delay <= 0) return send()
    const timer = setTimeout(() => {
      timers.delete(timer)
      send()
    }, delay)
    timers.add(timer)
  }

  front.on('message', (data, rinfo) => {
    client = { address: rinfo.address, port: rinfo.port }
    options.tap?.(data, true)
    forward(back, data, options.target, true)
  })
  back.on('message', (data) => {
    options.tap?.(data, false)
    if (client !== undefined) forward(front, data, client, false)
  })
  front.on('error', () => undefined)
  back.on('error', () => undefined)
  const port = await bind(front, options.listenAddress)
  await bind(back, options.listenAddress)
  return {
    port,
    stats,
    async close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      await Promise.all([new Promise<void>((r) => front.close(() => r())), new Promise<void>((r) => back.close(() => r()))])
    },
  }
}
