import { describe, expect, it } from 'vitest'
import { internetChecksum } from '../../src/services/netstack/checksum.js'
import { seededRandom } from '../../src/services/netstack/clock.js'
import { IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP, parseIpv4, parseIpv4Address, writeIpv4Header } from '../../src/services/netstack/ipv4.js'
import type { NetLink } from '../../src/services/netstack/link.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { createNetStack } from '../../src/services/netstack/netstack.js'
import type { TcpSegment } from '../../src/services/netstack/tcp-segment.js'
import { TCP_ACK, TCP_RST, TCP_SYN, optionsLength, parseTcp, writeTcp } from '../../src/services/netstack/tcp-segment.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { parseUdp, writeUdp } from '../../src/services/netstack/udp.js'
import { collect, drive, pair, seededBytes, sha256, writeAll } from '../property/netstack-drive.js'

/** A stack on a link the test plays the other end of. */
function single() {
  const clock = new ManualClock(0)
  const out: Uint8Array[] = []
  let deliver: (packet: Uint8Array) => void = () => {}
  const link: NetLink = { mtu: 1420, send: (p) => out.push(Uint8Array.from(p)), onPacket: (h) => (deliver = h) }
  const stack = createNetStack({ link, localAddress: '10.0.0.1', clock, random: seededRandom(7) })
  return { clock, out, stack, deliver: (p: Uint8Array) => deliver(p) }
}

const PEER = parseIpv4Address('10.0.0.9')!
const LOCAL = parseIpv4Address('10.0.0.1')!

function udpPacket(payload: Uint8Array, dstPort: number, options: { zeroChecksum?: boolean; fragment?: number } = {}): Uint8Array {
  const packet = new Uint8Array(20 + 8 + payload.length)
  writeUdp(packet, 20, { srcPort: 4444, dstPort, payload }, PEER, LOCAL)
  if (options.zeroChecksum) packet[26] = packet[27] = 0
  writeIpv4Header(packet, { src: PEER, dst: LOCAL, protocol: IP_PROTO_UDP, ttl: 64, id: 1, payloadLength: packet.length - 20 })
  if (options.fragment !== undefined) {
    packet[6] = options.fragment >> 8
    packet[7] = options.fragment & 0xff
    packet[10] = packet[11] = 0
    const c = internetChecksum(packet, 0, 20)
    packet[10] = c >> 8
    packet[11] = c & 0xff
  }
  return packet
}

function icmpEcho(type: number, id: number, seq: number, data: Uint8Array): Uint8Array {
  const packet = new Uint8Array(20 + 8 + data.length)
  const icmp = packet.subarray(20)
  icmp[0] = type
  icmp[4] = id >> 8
  icmp[5] = id & 0xff
  icmp[6] = seq >> 8
  icmp[7] = seq & 0xff
  icmp.set(data, 8)
  const c = internetChecksum(icmp)
  icmp[2] = c >> 8
  icmp[3] = c & 0xff
  writeIpv4Header(packet, { src: PEER, dst: LOCAL, protocol: IP_PROTO_ICMP, ttl: 64, id: 2, payloadLength: icmp.length })
  return packet
}

describe('IPv4', () => {
  it('drops a packet whose header checksum is wrong, and counts it', () => {
    const { stack, deliver } = single()
    const socket = stack.createUdpSocket({ port: 53 })
    const messages: Buffer[] = []
    socket.on('message', (m) => messages.push(m))
    const packet = udpPacket(Buffer.from('hi'), 53)
    packet[10]! ^= 0xff
    deliver(packet)
    expect(messages).toEqual([])
    expect(stack.stats().ipDroppedChecksum).toBe(1)
    deliver(udpPacket(Buffer.from('hi'), 53))
    expect(messages.map(String)).toEqual(['hi'])
  })

  it('drops fragments (more-fragments flag or an offset) and counts them', () => {
    const { stack, deliver } = single()
    const socket = stack.createUdpSocket({ port: 53 })
    const messages: Buffer[] = []
    socket.on('message', (m) => messages.push(m))
    deliver(udpPacket(Buffer.from('a'), 53, { fragment: 0x2000 }))
    deliver(udpPacket(Buffer.from('b'), 53, { fragment: 0x0010 }))
    expect(messages).toEqual([])
    expect(stack.stats().ipDroppedFragment).toBe(2)
  })

  it('sends with DF set, TTL 64 and a valid header checksum', () => {
    const { stack, out } = single()
    stack.createUdpSocket().send(Buffer.from('x'), 9, '10.0.0.9')
    const packet = out[0]!
    expect(packet[6]! & 0x40).toBe(0x40)
    expect(packet[8]).toBe(64)
    expect(internetChecksum(packet, 0, 20)).toBe(0)
    expect(parseIpv4(packet).ok).toBe(true)
  })

  it('ignores packets addressed to someone else and garbage', () => {
    const { stack, deliver } = single()
    const packet = udpPacket(Buffer.from('x'), 53)
    writeIpv4Header(packet, { src: PEER, dst: parseIpv4Address('10.0.0.77')!, protocol: IP_PROTO_UDP, ttl: 64, id: 1, payloadLength: packet.length - 20 })
    deliver(packet)
    deliver(new Uint8Array([1, 2, 3]))
    expect(stack.stats().ipDroppedNotForUs + stack.stats().ipDroppedMalformed).toBeGreaterThanOrEqual(2)
  })
})

function tcpPacket(fields: Partial<TcpSegment> & { dstPort: number; flags: number }): Uint8Array {
  const segment: TcpSegment = { srcPort: 40000, seq: 777, ack: 0, window: 65535, options: {}, payload: new Uint8Array(0), ...fields }
  const packet = new Uint8Array(20 + 20 + optionsLength(segment.options) + segment.payload.length)
  writeTcp(packet, 20, segment, PEER, LOCAL)
  writeIpv4Header(packet, { src: PEER, dst: LOCAL, protocol: IP_PROTO_TCP, ttl: 64, id: 3, payloadLength: packet.length - 20 })
  return packet
}

function tcpOut(packet: Uint8Array): TcpSegment {
  const ip = parseIpv4(packet)
  if (!ip.ok) throw new Error('bad packet')
  return parseTcp(ip.packet.payload, ip.packet.src, ip.packet.dst)!
}

describe('TCP LISTEN and closed ports', () => {
  it('a SYN to a listening port is answered with SYN-ACK carrying MSS = MTU - 40', () => {
    const { stack, out, deliver } = single()
    stack.listen(6881, () => {})
    deliver(tcpPacket({ dstPort: 6881, flags: TCP_SYN, options: { mss: 1460, windowScale: 7, sackPermitted: true } }))
    const synAck = tcpOut(out[0]!)
    expect(synAck.flags).toBe(TCP_SYN | TCP_ACK)
    expect(synAck.ack).toBe(778)
    expect(synAck.options).toEqual({ mss: 1380, windowScale: 5, sackPermitted: true })
    expect(stack.stats().tcpConnections).toBe(1)
  })

  it('connections start from unpredictable ISNs and ephemeral ports (crypto by default)', () => {
    const out: Uint8Array[] = []
    const link: NetLink = { mtu: 1420, send: (p) => out.push(Uint8Array.from(p)), onPacket: () => {} }
    const stack = createNetStack({ link, localAddress: '10.0.0.1', clock: new ManualClock(0) })
    for (let i = 0; i < 8; i++) void stack.connect('10.0.0.9', 80).catch(() => {})
    return new Promise<void>((resolve) => setImmediate(() => {
      const syns = out.map(tcpOut)
      expect(syns).toHaveLength(8)
      expect(new Set(syns.map((s) => s.seq)).size).toBe(8)
      expect(new Set(syns.map((s) => s.srcPort)).size).toBe(8)
      for (const syn of syns) expect(syn.srcPort).toBeGreaterThanOrEqual(49152)
      stack.close()
      resolve()
    }))
  })

  it('a bare ACK to a listening port gets a RST at its acknowledgment number; a RST gets nothing', () => {
    const { stack, out, deliver } = single()
    stack.listen(6881, () => {})
    deliver(tcpPacket({ dstPort: 6881, flags: TCP_ACK, ack: 4242 }))
    expect(tcpOut(out[0]!)).toMatchObject({ flags: TCP_RST, seq: 4242 })
    deliver(tcpPacket({ dstPort: 6881, flags: TCP_RST }))
    expect(out).toHaveLength(1)
  })

  it('a SYN to a closed port is refused with RST-ACK acknowledging the SYN', () => {
    const { stack, out, deliver } = single()
    deliver(tcpPacket({ dstPort: 81, flags: TCP_SYN }))
    expect(tcpOut(out[0]!)).toMatchObject({ flags: TCP_RST | TCP_ACK, seq: 0, ack: 778 })
    expect(stack.stats().tcpResetsSent).toBe(1)
  })

  it('a segment with a bad TCP checksum is dropped and counted', () => {
    const { stack, out, deliver } = single()
    stack.listen(6881, () => {})
    const packet = tcpPacket({ dstPort: 6881, flags: TCP_SYN })
    packet[36]! ^= 0xff
    deliver(packet)
    expect(out).toHaveLength(0)
    expect(stack.stats().tcpDroppedMalformed).toBe(1)
  })
})

describe('ICMP', () => {
  it('answers an echo request with an echo reply carrying the same id, sequence and data', () => {
    const { stack, out, deliver } = single()
    deliver(icmpEcho(8, 0x1234, 7, Buffer.from('ping-data')))
    expect(out).toHaveLength(1)
    const reply = parseIpv4(out[0]!)
    if (!reply.ok) throw new Error('bad reply')
    const icmp = reply.packet.payload
    expect(icmp[0]).toBe(0)
    expect((icmp[4]! << 8) | icmp[5]!).toBe(0x1234)
    expect((icmp[6]! << 8) | icmp[7]!).toBe(7)
    expect(Buffer.from(icmp.subarray(8)).toString()).toBe('ping-data')
    expect(internetChecksum(icmp)).toBe(0)
    expect(reply.packet.dst).toBe(PEER)
    expect(stack.stats().icmpEchoReplied).toBe(1)
  })

  it('ping between two stacks resolves with the round-trip time', async () => {
    const { clock, a } = pair({ latencyMs: 7 })
    let rtt: number | undefined
    void a.ping('10.0.0.2').then((ms) => (rtt = ms))
    await drive(clock, () => rtt !== undefined, 1000)
    expect(rtt).toBe(14)
  })

  it('ping rejects when no reply comes in time', async () => {
    const { clock, a } = pair({ lossRate: 1 })
    let error: any
    void a.ping('10.0.0.2', 3000).catch((e) => (error = e))
    await drive(clock, () => error !== undefined, 10_000)
    expect(error.code).toBe('MA_ERR_NETSTACK_PING_TIMEOUT')
    expect(clock.now()).toBe(3000)
  })
})

describe('UDP', () => {
  it('carries datagrams both ways between two stacks from random ephemeral ports', async () => {
    const { clock, a, b } = pair()
    const server = b.createUdpSocket({ port: 6881 })
    server.on('message', (message, remote) => server.send(Buffer.concat([Buffer.from('echo:'), message]), remote.port, remote.address))
    const client = a.createUdpSocket()
    expect(client.port).toBeGreaterThanOrEqual(49152)
    expect(client.port).toBeLessThanOrEqual(65535)
    const got: Array<[string, string, number]> = []
    client.on('message', (m, r) => got.push([m.toString(), r.address, r.port]))
    client.send(Buffer.from('hello'), 6881, '10.0.0.2')
    await drive(clock, () => got.length === 1, 1000)
    expect(got).toEqual([['echo:hello', '10.0.0.2', 6881]])
  })

  it('drops a datagram with a bad checksum and accepts one with none', () => {
    const { stack, deliver } = single()
    const socket = stack.createUdpSocket({ port: 53 })
    const messages: string[] = []
    socket.on('message', (m) => messages.push(m.toString()))
    const bad = udpPacket(Buffer.from('bad'), 53)
    bad[28]! ^= 1
    deliver(bad)
    deliver(udpPacket(Buffer.from('none'), 53, { zeroChecksum: true }))
    expect(messages).toEqual(['none'])
    expect(stack.stats().udpDroppedMalformed).toBe(1)
  })

  it('sends checksummed datagrams', () => {
    const { stack, out } = single()
    stack.createUdpSocket({ port: 1000 }).send(Buffer.from('abc'), 9, '10.0.0.9')
    const ip = parseIpv4(out[0]!)
    if (!ip.ok) throw new Error('bad packet')
    expect(parseUdp(ip.packet.payload, LOCAL, PEER)?.payload).toEqual(new Uint8Array(Buffer.from('abc')))
  })

  it('refuses a datagram larger than the MTU allows and a port bound twice', () => {
    const { stack } = single()
    const socket = stack.createUdpSocket({ port: 1000 })
    expect(() => socket.send(new Uint8Array(1393), 9, '10.0.0.9')).toThrow(expect.objectContaining({ code: 'MA_ERR_NETSTACK_INVALID_ARGUMENT' }))
    expect(() => socket.send(new Uint8Array(1392), 9, '10.0.0.9')).not.toThrow()
    expect(() => stack.createUdpSocket({ port: 1000 })).toThrow(expect.objectContaining({ code: 'MA_ERR_NETSTACK_ADDRESS_IN_USE' }))
    socket.close()
    expect(() => socket.send(new Uint8Array(1), 9, '10.0.0.9')).toThrow(expect.objectContaining({ code: 'MA_ERR_NETSTACK_CLOSED' }))
    expect(() => stack.createUdpSocket({ port: 1000 })).not.toThrow()
  })
})

/** A DNS server on stack b answering `answers` (name -> address); undefined means NXDOMAIN. */
function dnsServer(b: ReturnType<typeof pair>['b'], answers: Record<string, string | undefined>, options: { ignoreFirst?: number } = {}) {
  const socket = b.createUdpSocket({ port: 53 })
  let ignored = 0
  const queries: string[] = []
  socket.on('message', (query, remote) => {
    let offset = 12
    const labels: string[] = []
    while (query[offset]) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]!).toString())
      offset += 1 + query[offset]!
    }
    const name = labels.join('.')
    queries.push(name)
    if (ignored < (options.ignoreFirst ?? 0)) {
      ignored++
      return
    }
    const question = query.subarray(12, offset + 5)
    const address = answers[name]
    const header = Buffer.from([query[0]!, query[1]!, 0x81, address ? 0x80 : 0x83, 0, 1, 0, address ? 2 : 0, 0, 0, 0, 0])
    const records: Buffer[] = []
    if (address) {
      // A CNAME to the question name (pointer 0xc00c), then the A record of that target.
      records.push(Buffer.from([0xc0, 0x0c, 0, 5, 0, 1, 0, 0, 0, 60, 0, 2, 0xc0, 0x0c]))
      records.push(Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...address.split('.').map(Number)]))
    }
    socket.send(Buffer.concat([header, question, ...records]), remote.port, remote.address)
  })
  return { queries }
}

describe('DNS through the stack', () => {
  it('resolves an A record from the configured server, following the compressed answer', async () => {
    const { clock, a, b } = pair({}, { dnsServers: ['10.0.0.2'] })
    dnsServer(b, { 'tracker.example.org': '93.184.216.34' })
    let address: string | undefined
    void a.resolve('tracker.example.org').then((x) => (address = x))
    await drive(clock, () => address !== undefined, 1000)
    expect(address).toBe('93.184.216.34')
    expect(a.stats().udpSockets).toBe(0)
  })

  it('retries after the per-try timeout when the first query goes unanswered', async () => {
    const { clock, a, b } = pair({}, { dnsServers: ['10.0.0.2'] })
    const server = dnsServer(b, { 'tracker.example.org': '1.2.3.4' }, { ignoreFirst: 1 })
    let address: string | undefined
    void a.resolve('tracker.example.org').then((x) => (address = x))
    await drive(clock, () => address !== undefined, 10_000)
    expect(address).toBe('1.2.3.4')
    expect(server.queries).toHaveLength(2)
    expect(clock.now()).toBeGreaterThanOrEqual(2000)
  })

  it('fails at once on NXDOMAIN and after all tries when nobody answers', async () => {
    const { clock, a, b } = pair({}, { dnsServers: ['10.0.0.2'] })
    dnsServer(b, {})
    let error: any
    void a.resolve('nope.example').catch((e) => (error = e))
    await drive(clock, () => error !== undefined, 1000)
    expect(error).toMatchObject({ code: 'MA_ERR_DNS_RESOLVE', retryable: false })

    const silent = pair({}, { dnsServers: ['10.0.0.2'] })
    let error2: any
    void silent.a.resolve('x.example').catch((e) => (error2 = e))
    await drive(silent.clock, () => error2 !== undefined, 60_000)
    expect(error2).toMatchObject({ code: 'MA_ERR_DNS_RESOLVE', retryable: true })
    expect(silent.clock.now()).toBe(6000)
  })

  it('returns an IPv4 literal without asking anyone', async () => {
    const { a } = pair()
    await expect(a.resolve('10.1.2.3')).resolves.toBe('10.1.2.3')
  })
})

describe('TCP through the stack', () => {
  async function connected(link: Parameters<typeof pair>[0] = {}, options: { allowHalfOpen?: boolean } = {}) {
    const p = pair(link, { dnsServers: ['10.0.0.2'] })
    let server: TcpSocket | undefined
    p.b.listen(7000, (socket) => (server = socket), options)
    let client: TcpSocket | undefined
    void p.a.connect('10.0.0.2', 7000).then((socket) => (client = socket))
    await drive(p.clock, () => client !== undefined && server !== undefined, 10_000)
    return { ...p, client: client!, server: server! }
  }

  it('connecting to a port nobody listens on is refused with a RST', async () => {
    const { clock, a } = pair()
    let error: any
    void a.connect('10.0.0.2', 9).catch((e) => (error = e))
    await drive(clock, () => error !== undefined, 10_000)
    expect(error.code).toBe('MA_ERR_TCP_REFUSED')
  })

  it('a connect that nobody answers times out after timeoutMs', async () => {
    const { clock, a } = pair({ lossRate: 1 })
    let error: any
    void a.connect('10.0.0.2', 80, { timeoutMs: 5000 }).catch((e) => (error = e))
    await drive(clock, () => error !== undefined, 10_000)
    expect(error.code).toBe('MA_ERR_TCP_TIMEOUT')
    expect(clock.now()).toBe(5000)
  })

  it('an aborted connect rejects with the signal reason and resets the attempt', async () => {
    const { clock, a } = pair({ lossRate: 1 })
    const controller = new AbortController()
    let error: any
    void a.connect('10.0.0.2', 80, { signal: controller.signal }).catch((e) => (error = e))
    await drive(clock, () => a.stats().tcpConnections === 1, 1000)
    controller.abort(new Error('gave up'))
    await drive(clock, () => error !== undefined, 1000)
    expect(error.message).toBe('gave up')
    expect(a.stats().tcpConnections).toBe(0)
  })

  it('connect resolves a host name through the tunnel DNS', async () => {
    const p = pair({}, { dnsServers: ['10.0.0.2'] })
    dnsServer(p.b, { 'peer.example': '10.0.0.2' })
    let accepted = false
    p.b.listen(7000, () => (accepted = true))
    let client: TcpSocket | undefined
    void p.a.connect('peer.example', 7000).then((socket) => (client = socket))
    await drive(p.clock, () => client !== undefined && accepted, 10_000)
    expect(client!.remoteAddress).toBe('10.0.0.2')
    expect(client!.remotePort).toBe(7000)
    expect(client!.localPort).toBeGreaterThanOrEqual(49152)
  })

  it('half-close: end() sends a FIN while the socket keeps reading the answer', async () => {
    const { clock, client, server } = await connected({}, { allowHalfOpen: true })
    const request = collect(server)
    const response = collect(client)
    client.end('GET / HTTP/1.0\r\n\r\n')
    await drive(clock, () => request.done, 10_000)
    expect(request.bytes).toBe(18)
    await drive(clock, () => client.tcpState === 'FIN_WAIT_2', 10_000)
    server.end('HTTP/1.0 200 OK\r\n\r\nbody')
    await drive(clock, () => response.done, 10_000)
    expect(response.bytes).toBe(23)
  })

  it('without allowHalfOpen the peer FIN ends our side too, like node:net', async () => {
    const { clock, client, server } = await connected()
    const atServer = collect(server)
    client.end()
    await drive(clock, () => atServer.done && client.tcpState === 'TIME_WAIT', 10_000)
    expect(server.writableEnded).toBe(true)
  })

  it('a reader that stops reading closes the window; the writer waits, then everything arrives intact', async () => {
    const { clock, client, server, linkB } = await connected()
    const windows: number[] = []
    linkB.tap = (p) => {
      const ip = parseIpv4(p)
      if (ip.ok) windows.push(parseTcp(ip.packet.payload, ip.packet.src, ip.packet.dst)!.window)
    }
    server.pause()
    const data = seededBytes(3 * 1024 * 1024, 9)
    let written = false
    void writeAll(client, data).then(() => (written = true))
    await drive(clock, () => windows.includes(0), 60_000)
    // Paused reader: the receive buffer (1 MiB) plus the stream's high-water mark, no more.
    clock.advance(5000)
    await new Promise((r) => setImmediate(r))
    expect(written).toBe(false)
    const received = collect(server)
    server.resume()
    await drive(clock, () => received.done, 600_000)
    expect(received.hash()).toBe(sha256(data))
  })

  it('destroying a socket resets the connection and the peer sees a reset error', async () => {
    const { clock, client, server } = await connected()
    const peer = collect(server)
    client.destroy()
    await drive(clock, () => peer.done, 10_000)
    expect(peer.error).toMatchObject({ code: 'MA_ERR_TCP_RESET' })
  })

  it('both sides ending and the streams finishing leaves no connection behind after TIME_WAIT', async () => {
    const { clock, a, b, client, server } = await connected()
    const fromServer = collect(client)
    const fromClient = collect(server)
    client.end('bye')
    server.end('bye too')
    await drive(clock, () => fromServer.done && fromClient.done && client.destroyed && server.destroyed, 10_000)
    expect(a.stats().tcpConnections + b.stats().tcpConnections).toBeGreaterThan(0) // TIME_WAIT
    clock.advance(61_000) // 2 MSL after the last FIN was acknowledged
    expect(a.stats().tcpConnections + b.stats().tcpConnections).toBe(0)
  })

  it('listening twice on one port is refused; closing the stack ends its sockets', async () => {
    const { a, b, client } = await connected()
    expect(() => b.listen(7000, () => {})).toThrow(expect.objectContaining({ code: 'MA_ERR_NETSTACK_ADDRESS_IN_USE' }))
    const closed = new Promise((resolve) => client.on('close', resolve))
    client.on('error', () => {})
    a.close()
    await closed
    await expect(a.connect('10.0.0.2', 7000)).rejects.toMatchObject({ code: 'MA_ERR_NETSTACK_CLOSED' })
  })
})
