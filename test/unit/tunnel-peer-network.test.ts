// The torrent engine's network inside the tunnel (src/services/vpn/tunnel-peer-network.ts) in
// simulated time: our tunnel against a "VPN server" made of a second WireGuard device and a
// second netstack on the in-memory UDP network (as test/unit/tunnel.test.ts). Checked: nothing
// leaves while the gate is closed, then a peer connection, an inbound peer on the forwarded
// port, a UDP announce by host name and an HTTP announce through the tracker dispatcher.
import { once } from 'node:events'
import type { Duplex } from 'node:stream'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { CLIENT, SERVER, startTunnelLab } from './tunnel-lab.js'
import { silentLogger } from '../../src/log.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { TunnelPeerNetwork } from '../../src/services/vpn/tunnel-peer-network.js'

async function setup() {
  const { tunnel, serverStack, server, run } = await startTunnelLab({ runMaxMs: 60_000 })
  const network = new TunnelPeerNetwork({ peerPort: 51413, logger: silentLogger() })
  const close = async () => {
    await network.close()
    await tunnel.close()
    serverStack.close()
    await server.close()
  }
  /** Runs simulated time until `check` holds. */
  const until = (check: () => boolean) => run(new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (!check()) return
      clearInterval(timer)
      resolve()
    }, 1)
  }))
  return { tunnel, network, serverStack, server, run, until, close }
}

describe('the torrent network inside the tunnel', () => {
  it('sends nothing while the gate is closed, then connects a peer through the tunnel once it opens', async () => {
    const s = await setup()
    try {
      const accepted: TcpSocket[] = []
      s.serverStack.listen(6881, (socket) => {
        socket.on('error', () => {}) // reset when the test closes everything
        accepted.push(socket)
      })
      s.network.setTunnel(s.tunnel)
      const socket = s.network.connect(SERVER, 6881)
      socket.on('error', () => {})
      let connected = false
      socket.once('connect', () => (connected = true))
      socket.write('hello')
      await s.run(new Promise((r) => setTimeout(r, 50)), 2_000)
      expect(connected).toBe(false)
      expect(s.tunnel.stats().wireguard.peers[0]!.txBytes, 'no packet while the gate is closed').toBe(0)
      expect(s.network.isOpen()).toBe(false)

      s.network.setOpen(true)
      await s.run(once(socket, 'connect'))
      await s.until(() => accepted.length > 0)
      const got = s.run(once(accepted[0]!, 'data'))
      expect(String((await got)[0])).toBe('hello')
      expect(s.network.counters.peerConnections).toBe(1)
      socket.destroy()
    } finally {
      await s.close()
    }
  })

  it('takes inbound peers on the forwarded port of the tunnel address', async () => {
    const s = await setup()
    try {
      s.network.setTunnel(s.tunnel)
      s.network.setOpen(true)
      const server = s.network.createServer()
      const incoming: Duplex[] = []
      server.on('connection', (socket: Duplex) => {
        socket.on('error', () => {})
        incoming.push(socket)
      })
      server.listen(0)
      expect(server.address()).toMatchObject({ port: 51413, address: CLIENT })
      // The tunnel needs a session before the server side can reach us.
      await s.run(s.tunnel.ping(SERVER))
      const from = await s.run(s.serverStack.connect(CLIENT, 51413))
      from.on('error', () => {})
      await s.until(() => incoming.length > 0)
      expect((incoming[0] as unknown as { remoteAddress: string }).remoteAddress).toBe(SERVER)
      expect(s.network.counters.inboundConnections).toBe(1)
      from.destroy()
      server.close()
    } finally {
      await s.close()
    }
  })

  it('sends a UDP announce to a tracker named by host, resolved through the tunnel, with the port as bittorrent-tracker passes it', async () => {
    const s = await setup()
    try {
      const tracker = s.serverStack.createUdpSocket({ port: 6969 })
      tracker.on('message', (message, remote) => tracker.send(Buffer.concat([Buffer.from('re:'), message]), remote.port, remote.address))
      s.network.setTunnel(s.tunnel)
      const udp = s.network.createUdpSocket()
      const answer = new Promise<Buffer>((resolve) => udp.on('message', (message: Buffer) => resolve(message)))
      udp.send(Buffer.from('xxconnectxx'), 2, 7, '6969' as unknown as number, 'tracker.example.org')
      await s.run(new Promise((r) => setTimeout(r, 20)), 1_000)
      expect(s.network.counters.udpDatagrams, 'held while the gate is closed').toBe(0)
      s.network.setOpen(true)
      expect(String(await s.run(answer))).toBe('re:connect')
      udp.close()
    } finally {
      await s.close()
    }
  })

  it('sends an HTTP announce through the tracker dispatcher, the host name resolved by the tunnel', async () => {
    const s = await setup()
    try {
      s.serverStack.listen(80, (socket) => {
        socket.on('error', () => {})
        socket.once('data', (head: Buffer) => {
          const path = /^GET (\S+)/.exec(String(head))?.[1] ?? ''
          const body = `d8:intervali1800e4:path${path.length}:${path}e`
          socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`)
        })
      })
      s.network.setTunnel(s.tunnel)
      s.network.setOpen(true)
      const response = await s.run(request('http://tracker.example.org/announce?info_hash=x', { dispatcher: s.network.trackerDispatcher }))
      expect(response.statusCode).toBe(200)
      expect(await s.run(response.body.text())).toBe('d8:intervali1800e4:path21:/announce?info_hash=xe')
      expect(s.network.counters.trackerConnections).toBe(1)
    } finally {
      await s.close()
    }
  })
})
