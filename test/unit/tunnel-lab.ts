// Our tunnel against a "VPN server" made of a second WireGuard device and a second netstack, on
// the in-memory UDP network of the WireGuard tests, in simulated time. Shared by the tunnel
// service's tests and the torrent network inside the tunnel.
import { silentLogger } from '../../src/log.js'
import { createNetStack, seededRandom as seededUint32 } from '../../src/services/netstack/index.js'
import { createTunnel } from '../../src/services/tunnel/index.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import { createWireGuardDevice } from '../../src/services/wireguard/device.js'
import { wireGuardLink } from '../../src/services/wireguard/link.js'
import { createMemoryNetwork } from '../../src/services/wireguard/memory-udp.js'
import { seededRandom } from './wireguard-harness.js'

export const SERVER = '10.64.0.1'
export const CLIENT = '10.64.0.2'

/** Answers every A query with SERVER (minimal DNS responder on the server's netstack). */
export function dnsAnswer(query: Uint8Array): Uint8Array {
  let o = 12
  while (query[o] !== 0) o += query[o]! + 1
  o += 5
  const head = Buffer.from(query.subarray(0, o))
  head[2] = 0x81
  head[3] = 0x80
  head.writeUInt16BE(1, 6)
  return Buffer.concat([head, Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 64, 0, 1])])
}

export interface TunnelLabOptions {
  /** The client's `[Interface]` lines after its PrivateKey (Address, DNS, MTU, ...). */
  clientInterface?: string
  /** How long `run` advances simulated time at most. */
  runMaxMs?: number
}

export async function startTunnelLab(options: TunnelLabOptions = {}) {
  const clock = new ManualClock(1_000_000)
  const net = createMemoryNetwork(clock, 5)
  const random = seededRandom(7)
  const clientKey = random(32)
  const serverKey = random(32)
  const server = createWireGuardDevice({
    config: `[Interface]\nPrivateKey = ${encodeKey(serverKey)}\nListenPort = 51820\nAddress = ${SERVER}/24\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(clientKey))}\nAllowedIPs = ${CLIENT}/32\n`,
    udp: net.socket('192.0.2.1'), clock, logger: silentLogger(), random: seededRandom(8),
  })
  await server.start()
  const serverStack = createNetStack({ link: wireGuardLink(server), localAddress: SERVER, clock, random: seededUint32(9) })
  const dns = serverStack.createUdpSocket({ port: 53 })
  dns.on('message', (message, remote) => dns.send(dnsAnswer(message), remote.port, remote.address))
  const clientInterface = options.clientInterface ?? `Address = ${CLIENT}/32\nDNS = ${SERVER}\n`
  const configText = `[Interface]\nPrivateKey = ${encodeKey(clientKey)}\n${clientInterface}\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(serverKey))}\nEndpoint = 192.0.2.1:51820\nAllowedIPs = 0.0.0.0/0\n`
  const tunnel = await createTunnel({ configText, logger: silentLogger(), clock, udp: net.socket('198.51.100.7'), randomBytes: seededRandom(10), randomUint32: seededUint32(11) })
  const runMaxMs = options.runMaxMs ?? 120_000
  /** Advances simulated time in small steps until the promise settles. */
  async function run<T>(promise: Promise<T>, maxMs = runMaxMs): Promise<T> {
    let settled = false
    const result = promise.finally(() => (settled = true))
    result.catch(() => undefined)
    for (let t = 0; t < maxMs && !settled; t += 5) {
      clock.advance(5)
      await new Promise((r) => setImmediate(r))
    }
    return result
  }
  return { clock, net, server, serverStack, tunnel, run }
}
