// Shared set-up for WireGuard unit tests: two devices on an in-memory network with a manual clock.
import { silentLogger } from '../../src/log.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import { createWireGuardDevice, type WireGuardDevice, type WireGuardEvent, type WireGuardLimits } from '../../src/services/wireguard/device.js'
import { createMemoryNetwork, type MemoryNetwork } from '../../src/services/wireguard/memory-udp.js'
import type { WgUdpSocket } from '../../src/services/wireguard/udp.js'

/** Deterministic byte source (sfc32) for keys, indices and jitter. */
export function seededRandom(seed: number): (n: number) => Uint8Array {
  let a = seed >>> 0, b = 0x9e3779b9, c = 0x243f6a88, d = 0xb7e15162
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0
    const t = (a + b + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  for (let i = 0; i < 16; i++) next()
  return (n) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = next() & 0xff
    return out
  }
}

export function ipv4(src: string, dst: string, payload: Uint8Array = new Uint8Array(8), protocol = 17): Uint8Array {
  const packet = new Uint8Array(20 + payload.length)
  packet[0] = 0x45
  const length = packet.length
  packet[2] = length >> 8
  packet[3] = length & 0xff
  packet[8] = 64
  packet[9] = protocol
  packet.set(src.split('.').map(Number), 12)
  packet.set(dst.split('.').map(Number), 16)
  packet.set(payload, 20)
  return packet
}

export interface Side {
  device: WireGuardDevice
  events: WireGuardEvent[]
  received: Uint8Array[]
  socket: ReturnType<MemoryNetwork['socket']>
  publicKey: string
}

export interface Pair {
  clock: ManualClock
  net: MemoryNetwork
  a: Side
  b: Side
  aAddress: { address: string; port: number }
  bAddress: { address: string; port: number }
}

export interface PairOptions {
  seed?: number
  persistentKeepalive?: number
  presharedKey?: boolean
  bAllowedForA?: string
  limits?: Partial<WireGuardLimits>
  /** Stands between a device and its in-memory socket (a host firewall that refuses sends, ...). */
  wrapSocket?: (side: 'a' | 'b', socket: WgUdpSocket) => WgUdpSocket
}

export async function createPair(options: PairOptions = {}): Promise<Pair> {
  const random = seededRandom(options.seed ?? 1)
  const clock = new ManualClock(1_000_000)
  const net = createMemoryNetwork(clock, 1)
  const privA = random(32)
  const privB = random(32)
  const psk = options.presharedKey ? `PresharedKey = ${encodeKey(random(32))}\n` : ''
  const aConfig = `[Interface]\nPrivateKey = ${encodeKey(privA)}\nAddress = 10.9.0.1/32\nListenPort = 51000\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(privB))}\n${psk}Endpoint = 192.0.2.2:51820\nAllowedIPs = 10.9.0.0/24\n${options.persistentKeepalive ? `PersistentKeepalive = ${options.persistentKeepalive}\n` : ''}`
  const bConfig = `[Interface]\nPrivateKey = ${encodeKey(privB)}\nAddress = 10.9.0.2/32\nListenPort = 51820\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(privA))}\n${psk}AllowedIPs = ${options.bAllowedForA ?? '10.9.0.1/32'}\n`
  const make = async (config: string, address: string, seed: number): Promise<Side> => {
    const socket = net.socket(address)
    const udp = options.wrapSocket?.(address === '192.0.2.1' ? 'a' : 'b', socket) ?? socket
    const device = createWireGuardDevice({ config, udp, clock, logger: silentLogger(), random: seededRandom(seed), limits: options.limits })
    const side: Side = { device, events: [], received: [], socket, publicKey: device.publicKey }
    device.onEvent((e) => side.events.push(e))
    device.onIp((p) => side.received.push(new Uint8Array(p)))
    await device.start()
    return side
  }
  const a = await make(aConfig, '192.0.2.1', (options.seed ?? 1) + 100)
  const b = await make(bConfig, '192.0.2.2', (options.seed ?? 1) + 200)
  return { clock, net, a, b, aAddress: { address: '192.0.2.1', port: 51000 }, bAddress: { address: '192.0.2.2', port: 51820 } }
}

export function count(side: Side, type: WireGuardEvent['type']): number {
  return side.events.filter((e) => e.type === type).length
}
