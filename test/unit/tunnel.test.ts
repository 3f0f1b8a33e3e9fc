// The tunnel service in simulated time: our tunnel against a "VPN server" made of a second
// WireGuard device and a second netstack, on the in-memory UDP network of the WireGuard tests.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CLIENT, SERVER, startTunnelLab } from './tunnel-lab.js'
import { silentLogger } from '../../src/log.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { createTunnel, type TunnelEvent } from '../../src/services/tunnel/index.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import { seededRandom } from './wireguard-harness.js'

async function setup(options: { configExtra?: string } = {}) {
  const lab = await startTunnelLab({ clientInterface: `Address = ${CLIENT}/32, fd00::2/128\nDNS = ${SERVER}, fd00::1, example.lan\nMTU = 1380\n${options.configExtra ?? ''}` })
  const events: TunnelEvent[] = []
  lab.tunnel.onEvent((e) => events.push(e))
  return { ...lab, events }
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
