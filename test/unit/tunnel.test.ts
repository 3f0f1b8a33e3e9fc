// The tunnel service in simulated time: our tunnel against a "VPN server" made of a second
// WireGuard device and a second netstack, on the in-memory UDP network of the WireGuard tests.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createNetStack, seededRandom as seededUint32 } from '../../src/services/netstack/index.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { createTunnel, type TunnelEvent } from '../../src/services/tunnel/index.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import { createWireGuardDevice } from '../../src/services/wireguard/device.js'
import { wireGuardLink } from '../../src/services/wireguard/link.js'
import { createMemoryNetwork } from '../../src/services/wireguard/memory-udp.js'
import { seededRandom } from './wireguard-harness.js'

const SERVER = '10.64.0.1'
const CLIENT = '10.64.0.2'

/** Answers every A query with SERVER (minimal DNS responder on the server's netstack). */
function dnsAnswer(query: Uint8Array): Uint8Array {
  let o = 12
  while (query[o] !== 0) o += query[o]! + 1
  o += 5
  const head = Buffer.from(query.subarray(0, o))
  head[2] = 0x81
  head[3] = 0x80
  head.writeUInt16BE(1, 6)
  return Buffer.concat([head, Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 64, 0, 1])])
}

async function setup(options: { configExtra?: string } = {}) {
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
  const configText = `[Interface]\nPrivateKey = ${encodeKey(clientKey)}\nAddress = ${CLIENT}/32, fd00::2/128\nDNS = ${SERVER}, fd00::1, example.lan\nMTU = 1380\n${options.configExtra ?? ''}\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(serverKey))}\nEndpoint = 192.0.2.1:51820\nAllowedIPs = 0.0.0.0/0\n`
  const tunnel = await createTunnel({ configText, logger: silentLogger(), clock, udp: net.socket('198.51.100.7'), randomBytes: seededRandom(10), randomUint32: seededUint32(11) })
  const events: TunnelEvent[] = []
  tunnel.onEvent((e) => events.push(e))
  /** Advances simulated time in small steps until the promise settles. */
  async function run<T>(promise: Promise<T>, maxMs = 120_000): Promise<T> {
    let settled = false
    const result = promise.finally(() => (settled = true))
    result.catch(() => undefined)
    for (let t = 0; t < maxMs && !settled; t += 5) {
      clock.advance(5)
      await new Promise((r) => setImmediate(r))
    }
    return result
  }
  return { clock, net, server, serverStack, tunnel, events, run }
}

function readAll(socket: TcpSocket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks)))
    socket.on('error', reject)
  })
}

describe('tunnel', () => {
  it('takes Address, DNS and MTU from the config: IPv4 address, IPv4 DNS servers, MTU as the link size', async () => {
    const { tunnel } = await setup()
    expect(tunnel.localAddress).toBe(CLIENT)
    expect(tunnel.dnsServers).toEqual([SERVER])
    expect(tunnel.mtu).toBe(1380)
    expect(tunnel.status).toBe('connecting')
    await tunnel.close()
  })

  it('connects by host name through the tunnel DNS, moves data both ways and reports the handshake', async () => {
    const { tunnel, serverStack, events, run } = await setup()
    const payload = Buffer.alloc(300_000, 7)
    serverStack.listen(8080, (socket) => {
      const hash = createHash('sha256')
      socket.on('data', (c: Buffer) => hash.update(c))
      socket.on('end', () => socket.end(`${hash.digest('hex')}\n`))
    })
    const socket = await run(tunnel.connect('files.example', 8080))
    expect(socket.remoteAddress).toBe(SERVER)
    expect(tunnel.status).toBe('up')
    expect(events).toContainEqual(expect.objectContaining({ type: 'handshake-ok', role: 'initiator', restored: true }))
    const answer = readAll(socket)
    socket.end(payload)
    expect((await run(answer)).toString().trim()).toBe(createHash('sha256').update(payload).digest('hex'))
    expect(tunnel.stats().handshakes).toBe(1)
    await tunnel.close()
  })

  it('accepts inbound connections on a listened port and carries UDP datagrams', async () => {
    const { tunnel, serverStack, run } = await setup()
    const accepted: string[] = []
    tunnel.listen(51413, (socket) => {
      socket.on('data', (c: Buffer) => accepted.push(c.toString()))
      socket.end('welcome')
    })
    await run(tunnel.ping(SERVER)) // the handshake: the server learns our endpoint
    const inbound = await run(serverStack.connect(CLIENT, 51413))
    const reply = readAll(inbound)
    inbound.end('hello')
    expect((await run(reply)).toString()).toBe('welcome')
    expect(accepted.join('')).toBe('hello')

    const echo = serverStack.createUdpSocket({ port: 6881 })
    echo.on('message', (m, r) => echo.send(Buffer.concat([Buffer.from('echo:'), m]), r.port, r.address))
    const udp = tunnel.createUdpSocket()
    const got = new Promise<string>((resolve) => udp.on('message', (m) => resolve(Buffer.from(m).toString())))
    udp.send(Buffer.from('ping'), 6881, SERVER)
    expect(await run(got)).toBe('echo:ping')
    await tunnel.close()
  })

  it('reports a lost handshake when the server stops answering, and a restored one when it is back', async () => {
    const { tunnel, net, events, run, clock } = await setup()
    await run(tunnel.ping(SERVER))
    net.filter = () => false // the server vanishes
    // Traffic keeps the device trying: a ping a second. After 15 s without an answer it starts
    // handshakes, 5 s apart; the fourth unanswered one reports the loss.
    const lost = new Promise<void>((resolve) => tunnel.onEvent((e) => e.type === 'handshake-lost' && resolve()))
    let done = false
    void lost.then(() => (done = true))
    for (let i = 0; i < 120 && !done; i++) {
      tunnel.ping(SERVER, 900).catch(() => undefined)
      await run(new Promise((r) => clock.setTimeout(() => r(undefined), 1000)))
    }
    expect(done).toBe(true)
    expect(tunnel.status).toBe('down')
    expect(events.find((e) => e.type === 'handshake-lost')).toMatchObject({ reason: 'unanswered' })
    net.filter = undefined
    const up = tunnel.waitUntilUp(60_000)
    for (let i = 0; i < 30 && tunnel.status !== 'up'; i++) {
      tunnel.ping(SERVER, 900).catch(() => undefined)
      await run(new Promise((r) => clock.setTimeout(() => r(undefined), 1000)))
    }
    await run(up)
    expect(tunnel.status).toBe('up')
    expect(events.filter((e) => e.type === 'handshake-ok').at(-1)).toMatchObject({ restored: true })
    await tunnel.close()
  }, 60_000)

  it('close() resets connections, is idempotent, and later calls fail with MA_ERR_TUNNEL_CLOSED', async () => {
    const { tunnel, serverStack, run, events } = await setup()
    serverStack.listen(9000, () => undefined)
    const socket = await run(tunnel.connect(SERVER, 9000))
    socket.on('error', () => undefined)
    const closedWith = new Promise<unknown>((resolve) => socket.on('close', () => resolve(socket.errored)))
    await Promise.all([tunnel.close(), tunnel.close()])
    expect(await closedWith).toMatchObject({ code: 'MA_ERR_NETSTACK_CLOSED' })
    expect(tunnel.status).toBe('closed')
    expect(events.filter((e) => e.type === 'closed')).toHaveLength(1)
    await expect(tunnel.connect(SERVER, 9000)).rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CLOSED' })
    await expect(tunnel.resolve('x.example')).rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CLOSED' })
    expect(() => tunnel.createUdpSocket()).toThrow(expect.objectContaining({ code: 'MA_ERR_TUNNEL_CLOSED' }))
    expect(() => tunnel.listen(1, () => undefined)).toThrow(expect.objectContaining({ code: 'MA_ERR_TUNNEL_CLOSED' }))
    await expect(tunnel.waitUntilUp()).rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CLOSED' })
  })

  it('rejects configs the tunnel cannot use with typed errors', async () => {
    const key = encodeKey(seededRandom(1)(32))
    const peer = `[Peer]\nPublicKey = ${encodeKey(publicKeyOf(seededRandom(2)(32)))}\nAllowedIPs = 0.0.0.0/0\n`
    await expect(createTunnel({ configText: `[Interface]\nPrivateKey = ${key}\nAddress = fd00::2/128\n\n${peer}Endpoint = 192.0.2.1:51820\n`, logger: silentLogger() }))
      .rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CONFIG' })
    await expect(createTunnel({ configText: `[Interface]\nPrivateKey = ${key}\nAddress = 10.0.0.2/32\n\n${peer}`, logger: silentLogger() }))
      .rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CONFIG' })
    await expect(createTunnel({ configText: `[Interface]\nPrivateKey = nope\n`, logger: silentLogger() }))
      .rejects.toMatchObject({ code: 'MA_ERR_WG_CONFIG' })
    await expect(createTunnel({ logger: silentLogger() })).rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CONFIG' })
  })
})
