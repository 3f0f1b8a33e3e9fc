// The userspace IPv4 stack over one NetLink (the WireGuard device, or an in-memory link in tests):
// IPv4 demultiplexing, ICMP echo, UDP sockets, TCP connections and listeners, and DNS through
// the tunnel's resolver. One local IPv4 address; no routing (everything goes out the link).
import type { AgentError } from '../../errors.js'
import {
  NetstackAddressInUseError, NetstackClosedError, NetstackInvalidArgumentError, NetstackPingTimeoutError, TcpTimeoutError,
} from '../../errors.js'
import * as defaults from '../../config/defaults.js'
import type { Logger } from '../../log.js'
import { silentLogger } from '../../log.js'
import { internetChecksum } from './checksum.js'
import type { NetClock, RandomUint32 } from './clock.js'
import { cryptoRandomUint32, systemClock } from './clock.js'
import { resolveA } from './dns.js'
import {
  IPV4_HEADER_BYTES, IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP, formatIpv4Address, parseIpv4, parseIpv4Address, writeIpv4Header,
} from './ipv4.js'
import type { NetLink } from './link.js'
import type { CongestionControlFactory } from './tcp-congestion.js'
import { newReno } from './tcp-congestion.js'
import type { TcpConnectionHandler, TcpSettings } from './tcp-connection.js'
import { TcpConnection } from './tcp-connection.js'
import type { TcpSegment } from './tcp-segment.js'
import { TCP_ACK, TCP_HEADER_BYTES, TCP_RST, TCP_SYN, optionsLength, parseTcp, segmentLength, writeTcp } from './tcp-segment.js'
import { TcpSocket } from './tcp-socket.js'
import type { UdpHost } from './udp.js'
import { UDP_HEADER_BYTES, UdpSocket, parseUdp, writeUdp } from './udp.js'

export interface NetStackOptions {
  link: NetLink
  /** The tunnel address of this host, e.g. the WireGuard interface address. */
  localAddress: string
  clock?: NetClock
  random?: RandomUint32
  logger?: Logger
  /** Resolvers reached through the link (the WireGuard config's DNS = line). */
  dnsServers?: readonly string[]
  tcp?: Partial<TcpSettings>
  congestionControl?: CongestionControlFactory
  dnsQueryTimeoutMs?: number
  dnsQueryAttempts?: number
  listenBacklog?: number
}

export interface ConnectOptions {
  /** Gives up (and resets the attempt) after this long; default: the SYN retries run out. */
  timeoutMs?: number
  signal?: AbortSignal
  /** As in node:net: false (default) ends our side when the peer's FIN arrives. */
  allowHalfOpen?: boolean
}

export interface ListenOptions {
  /** As in node:net: false (default) ends our side when the peer's FIN arrives. */
  allowHalfOpen?: boolean
}

export interface TcpListener {
  readonly port: number
  close(): void
}

export interface NetStackStats {
  ipReceived: number
  ipSent: number
  ipDroppedMalformed: number
  ipDroppedChecksum: number
  ipDroppedFragment: number
  ipDroppedNotForUs: number
  ipDroppedProtocol: number
  icmpEchoReplied: number
  tcpDroppedMalformed: number
  tcpResetsSent: number
  udpDroppedMalformed: number
  udpDroppedNoSocket: number
  receiveErrors: number
  sendErrors: number
  /** Segments sent again (fast retransmit, partial ACKs, SACK holes, timeouts). */
  tcpSegmentsRetransmitted: number
  /** Recoveries started (by RACK with a SACK peer, by 3 duplicate ACKs without). */
  tcpFastRetransmits: number
  /** Recoveries undone: every resend came back as a D-SACK or was ACKed too soon (reordering). */
  tcpSpuriousRetransmits: number
  tcpTimeouts: number
  tcpSackRecoveries: number
  /** Tail loss probes sent (RFC 8985 7). */
  tcpTailLossProbes: number
  /** Segments RACK marked lost (RFC 8985 6). */
  tcpRackLost: number
  tcpConnections: number
  udpSockets: number
}

export interface NetStack {
  readonly localAddress: string
  readonly mtu: number
  connect(host: string, port: number, options?: ConnectOptions): Promise<TcpSocket>
  listen(port: number, onConnection: (socket: TcpSocket) => void, options?: ListenOptions): TcpListener
  createUdpSocket(options?: { port?: number }): UdpSocket
  resolve(name: string): Promise<string>
  /** ICMP echo; resolves with the round-trip time in ms. */
  ping(address: string, timeoutMs?: number): Promise<number>
  stats(): NetStackStats
  close(): void
}

export function tcpSettingsFromDefaults(overrides: Partial<TcpSettings> = {}, congestionControl: CongestionControlFactory = newReno): TcpSettings {
  return {
    receiveBufferBytes: defaults.tcpReceiveBufferBytes,
    sendBufferBytes: defaults.tcpSendBufferBytes,
    delayedAckMs: defaults.tcpDelayedAckMs,
    initialRtoMs: defaults.tcpInitialRtoMs,
    minRtoMs: defaults.tcpMinRtoMs,
    maxRtoMs: defaults.tcpMaxRtoMs,
    persistMaxMs: defaults.tcpPersistMaxMs,
    timeWaitMs: defaults.tcpTimeWaitMs,
    maxRetransmits: defaults.tcpMaxRetransmits,
    synRetries: defaults.tcpSynRetries,
    defaultMss: defaults.tcpDefaultMss,
    tlpMinMs: defaults.tcpTlpMinMs,
    tlpDelayedAckMs: defaults.tcpTlpDelayedAckMs,
    congestionControl,
    ...overrides,
  }
}

export function createNetStack(options: NetStackOptions): NetStack {
  const local = parseIpv4Address(options.localAddress)
  if (local === undefined) throw new NetstackInvalidArgumentError(`not an IPv4 address: ${options.localAddress}`)
  const localAddress = formatIpv4Address(local)
  const { link } = options
  const clock = options.clock ?? systemClock
  const random = options.random ?? cryptoRandomUint32
  const log = options.logger ?? silentLogger()
  const settings = tcpSettingsFromDefaults(options.tcp, options.congestionControl)
  const mtu = link.mtu
  const mss = mtu - IPV4_HEADER_BYTES - TCP_HEADER_BYTES
  if (mss < 64) throw new NetstackInvalidArgumentError(`link MTU ${mtu} is too small`)
  const backlog = options.listenBacklog ?? defaults.tcpListenBacklog
  const counters = {
    ipReceived: 0, ipSent: 0, ipDroppedMalformed: 0, ipDroppedChecksum: 0, ipDroppedFragment: 0, ipDroppedNotForUs: 0,
    ipDroppedProtocol: 0, icmpEchoReplied: 0, tcpDroppedMalformed: 0, tcpResetsSent: 0, udpDroppedMalformed: 0,
    udpDroppedNoSocket: 0, receiveErrors: 0, sendErrors: 0,
    tcpSegmentsRetransmitted: 0, tcpSpuriousRetransmits: 0, tcpFastRetransmits: 0, tcpTimeouts: 0, tcpSackRecoveries: 0, tcpTailLossProbes: 0, tcpRackLost: 0,
  }
  const connections = new Map<string, { conn: TcpConnection; socket?: TcpSocket }>()
  interface ListenerEntry { port: number; onConnection: (socket: TcpSocket) => void; embryonic: number; closed: boolean; allowHalfOpen: boolean }
  const listeners = new Map<number, ListenerEntry>()
  const udpSockets = new Map<number, UdpSocket>()
  const pings = new Map<number, { resolve: (rtt: number) => void; sentAt: number }>()
  let ipId = random() & 0xffff
  let pingSeq = 0
  const pingId = random() & 0xffff
  let closed = false

  const key = (remote: number, remotePort: number, localPort: number) => `${remote}:${remotePort}:${localPort}`

  function sendIp(dst: number, protocol: number, body: Uint8Array): void {
    writeIpv4Header(body, { src: local!, dst, protocol, ttl: defaults.netstackIpTtl, id: ipId, payloadLength: body.length - IPV4_HEADER_BYTES })
    ipId = (ipId + 1) & 0xffff
    counters.ipSent++
    try {
      link.send(body)
    } catch (err) {
      // A tunnel that is down fails every packet: log the first and then every 1000th.
      if (counters.sendErrors++ % 1000 === 0) log.warn({ err, sendErrors: counters.sendErrors }, 'link send failed')
    }
  }

  function sendTcp(dst: number, segment: TcpSegment): void {
    if (closed && !(segment.flags & TCP_RST)) return
    const length = TCP_HEADER_BYTES + optionsLength(segment.options) + segment.payload.length
    const packet = new Uint8Array(IPV4_HEADER_BYTES + length)
    writeTcp(packet, IPV4_HEADER_BYTES, segment, local!, dst)
    sendIp(dst, IP_PROTO_TCP, packet)
  }

  // ---- TCP ----------------------------------------------------------------------------------

  function pickPort(inUse: (port: number) => boolean): number | undefined {
    const min = defaults.netstackEphemeralPortMin
    const span = defaults.netstackEphemeralPortMax - min + 1
    for (let i = 0; i < 64; i++) {
      const port = min + (random() % span)
      if (!inUse(port)) return port
    }
    const start = random() % span
    for (let i = 0; i < span; i++) {
      const port = min + ((start + i) % span)
      if (!inUse(port)) return port
    }
    return undefined
  }

  function track(remote: number, entryKey: string, allowHalfOpen: boolean, build: (handler: TcpConnectionHandler) => TcpConnection, hooks: {
    established(entry: { conn: TcpConnection; socket?: TcpSocket }): void
    failed(error: AgentError | undefined): void
  }) {
    const entry: { conn: TcpConnection; socket?: TcpSocket } = { conn: undefined as unknown as TcpConnection }
    const handler: TcpConnectionHandler = {
      established() {
        entry.socket = new TcpSocket(entry.conn, {
          localAddress, localPort: entry.conn.endpoint.localPort, remoteAddress: formatIpv4Address(remote), remotePort: entry.conn.endpoint.remotePort, allowHalfOpen,
        })
        hooks.established(entry)
      },
      readable: () => entry.socket?.onConnectionReadable(),
      writable: () => entry.socket?.onConnectionWritable(),
      closed(error) {
        if (connections.get(entryKey) === entry) connections.delete(entryKey)
        if (entry.socket) entry.socket.onConnectionClosed(error)
        else hooks.failed(error)
      },
    }
    connections.set(entryKey, entry)
    entry.conn = build(handler)
    return entry
  }

  function connect(host: string, port: number, connectOptions: ConnectOptions = {}): Promise<TcpSocket> {
    return (async () => {
      checkOpen()
      checkPort(port)
      const address = await resolve(host)
      checkOpen()
      connectOptions.signal?.throwIfAborted()
      const remote = parseIpv4Address(address)!
      const localPort = pickPort((p) => connections.has(key(remote, port, p)) || listeners.has(p))
      if (localPort === undefined) throw new NetstackAddressInUseError('no free ephemeral port')
      return await new Promise<TcpSocket>((resolvePromise, reject) => {
        let timer: unknown
        const onAbort = () => {
          entry.conn.abort()
        }
        const cleanup = () => {
          if (timer !== undefined) clock.clearTimeout(timer)
          connectOptions.signal?.removeEventListener('abort', onAbort)
        }
        let timedOut = false
        const entry = track(remote, key(remote, port, localPort), connectOptions.allowHalfOpen ?? false, (handler) => TcpConnection.connect({
          endpoint: { localPort, remotePort: port }, clock, random, mss, settings, handler, counters, output: (segment) => sendTcp(remote, segment),
        }), {
          established(e) {
            cleanup()
            resolvePromise(e.socket!)
          },
          failed(error) {
            cleanup()
            if (error) reject(error)
            else if (timedOut) reject(new TcpTimeoutError(`connect to ${address}:${port} timed out`, { details: { address, port } }))
            else if (connectOptions.signal?.aborted) reject(connectOptions.signal.reason ?? new NetstackClosedError('connect aborted'))
            else reject(new NetstackClosedError('network stack closed'))
          },
        })
        if (connectOptions.timeoutMs !== undefined) {
          timer = clock.setTimeout(() => {
            timedOut = true
            entry.conn.abort()
          }, connectOptions.timeoutMs)
        }
        if (connectOptions.signal) {
          if (connectOptions.signal.aborted) onAbort()
          else connectOptions.signal.addEventListener('abort', onAbort, { once: true })
        }
      })
    })()
  }

  function listen(port: number, onConnection: (socket: TcpSocket) => void, listenOptions: ListenOptions = {}): TcpListener {
    checkOpen()
    checkPort(port)
    if (listeners.has(port)) throw new NetstackAddressInUseError(`TCP port ${port} is already listened on`, { details: { port } })
    const entry: ListenerEntry = { port, onConnection, embryonic: 0, closed: false, allowHalfOpen: listenOptions.allowHalfOpen ?? false }
    listeners.set(port, entry)
    return {
      port,
      close() {
        entry.closed = true
        if (listeners.get(port) === entry) listeners.delete(port)
      },
    }
  }

  function acceptSyn(listener: ListenerEntry, src: number, segment: TcpSegment): void {
    if (listener.embryonic >= backlog) return // SYN flood or slow peers: drop, the peer retries
    listener.embryonic++
    let counted = true
    const release = () => {
      if (counted) listener.embryonic--
      counted = false
    }
    track(src, key(src, segment.srcPort, segment.dstPort), listener.allowHalfOpen, (handler) => TcpConnection.accept({
      endpoint: { localPort: segment.dstPort, remotePort: segment.srcPort }, clock, random, mss, settings, handler, counters,
      output: (out) => sendTcp(src, out),
    }, segment), {
      established(entry) {
        release()
        if (listener.closed) entry.conn.abort()
        else listener.onConnection(entry.socket!)
      },
      failed: release,
    })
  }

  function receiveTcp(src: number, body: Uint8Array): void {
    const segment = parseTcp(body, src, local!)
    if (!segment) {
      counters.tcpDroppedMalformed++
      return
    }
    const entry = connections.get(key(src, segment.srcPort, segment.dstPort))
    if (entry) {
      entry.conn.input(segment)
      return
    }
    if (segment.flags & TCP_RST) return
    const listener = listeners.get(segment.dstPort)
    if (listener && segment.flags & TCP_SYN && !(segment.flags & TCP_ACK)) {
      acceptSyn(listener, src, segment)
      return
    }
    // No connection: answer with a RST (RFC 9293 3.10.7.1).
    counters.tcpResetsSent++
    const reset: TcpSegment = segment.flags & TCP_ACK
      ? { srcPort: segment.dstPort, dstPort: segment.srcPort, seq: segment.ack, ack: 0, flags: TCP_RST, window: 0, options: {}, payload: new Uint8Array(0) }
      : { srcPort: segment.dstPort, dstPort: segment.srcPort, seq: 0, ack: (segment.seq + segmentLength(segment)) >>> 0, flags: TCP_RST | TCP_ACK, window: 0, options: {}, payload: new Uint8Array(0) }
    sendTcp(src, reset)
  }

  // ---- UDP ----------------------------------------------------------------------------------

  const udpHost: UdpHost = {
    localAddress,
    maxPayloadBytes: mtu - IPV4_HEADER_BYTES - UDP_HEADER_BYTES,
    sendUdp(srcPort, dst, dstPort, payload) {
      if (closed) throw new NetstackClosedError('network stack closed')
      const packet = new Uint8Array(IPV4_HEADER_BYTES + UDP_HEADER_BYTES + payload.length)
      writeUdp(packet, IPV4_HEADER_BYTES, { srcPort, dstPort, payload }, local!, dst)
      sendIp(dst, IP_PROTO_UDP, packet)
    },
    release(port, socket) {
      if (udpSockets.get(port) === socket) udpSockets.delete(port)
    },
  }

  function createUdpSocket(socketOptions: { port?: number } = {}): UdpSocket {
    checkOpen()
    let port = socketOptions.port
    if (port !== undefined) {
      checkPort(port)
      if (udpSockets.has(port)) throw new NetstackAddressInUseError(`UDP port ${port} is already bound`, { details: { port } })
    } else {
      port = pickPort((p) => udpSockets.has(p))
      if (port === undefined) throw new NetstackAddressInUseError('no free ephemeral UDP port')
    }
    const socket = new UdpSocket(udpHost, port)
    udpSockets.set(port, socket)
    return socket
  }

  function receiveUdp(src: number, body: Uint8Array): void {
    const datagram = parseUdp(body, src, local!)
    if (!datagram) {
      counters.udpDroppedMalformed++
      return
    }
    const socket = udpSockets.get(datagram.dstPort)
    if (!socket) {
      counters.udpDroppedNoSocket++
      return
    }
    socket.deliver(src, datagram.srcPort, datagram.payload)
  }

  // ---- ICMP ---------------------------------------------------------------------------------

  function receiveIcmp(src: number, body: Uint8Array): void {
    if (body.length < 8 || internetChecksum(body) !== 0) {
      counters.ipDroppedMalformed++
      return
    }
    const type = body[0]!
    if (type === 8 && body[1] === 0) {
      const packet = new Uint8Array(IPV4_HEADER_BYTES + body.length)
      packet.set(body, IPV4_HEADER_BYTES)
      packet[IPV4_HEADER_BYTES] = 0
      packet[IPV4_HEADER_BYTES + 2] = 0
      packet[IPV4_HEADER_BYTES + 3] = 0
      const checksum = internetChecksum(packet, IPV4_HEADER_BYTES)
      packet[IPV4_HEADER_BYTES + 2] = checksum >>> 8
      packet[IPV4_HEADER_BYTES + 3] = checksum & 0xff
      counters.icmpEchoReplied++
      sendIp(src, IP_PROTO_ICMP, packet)
    } else if (type === 0 && ((body[4]! << 8) | body[5]!) === pingId) {
      const seq = (body[6]! << 8) | body[7]!
      const waiter = pings.get(seq)
      if (waiter) {
        pings.delete(seq)
        waiter.resolve(clock.now() - waiter.sentAt)
      }
    }
  }

  function ping(address: string, timeoutMs = defaults.netstackPingTimeoutMs): Promise<number> {
    return new Promise((resolvePromise, reject) => {
      checkOpen()
      const dst = parseIpv4Address(address)
      if (dst === undefined) throw new NetstackInvalidArgumentError(`not an IPv4 address: ${address}`)
      const seq = pingSeq
      pingSeq = (pingSeq + 1) & 0xffff
      const packet = new Uint8Array(IPV4_HEADER_BYTES + 16)
      const icmp = packet.subarray(IPV4_HEADER_BYTES)
      icmp[0] = 8
      icmp[4] = pingId >>> 8
      icmp[5] = pingId & 0xff
      icmp[6] = seq >>> 8
      icmp[7] = seq & 0xff
      const checksum = internetChecksum(icmp)
      icmp[2] = checksum >>> 8
      icmp[3] = checksum & 0xff
      const timer = clock.setTimeout(() => {
        pings.delete(seq)
        reject(new NetstackPingTimeoutError(`no echo reply from ${address}`, { details: { address } }))
      }, timeoutMs)
      pings.set(seq, { sentAt: clock.now(), resolve: (rtt) => { clock.clearTimeout(timer); resolvePromise(rtt) } })
      sendIp(dst, IP_PROTO_ICMP, packet)
    })
  }

  // ---- receive path -------------------------------------------------------------------------

  function receive(packet: Uint8Array): void {
    if (closed) return
    counters.ipReceived++
    try {
      const parsed = parseIpv4(packet)
      if (!parsed.ok) {
        if (parsed.reason === 'checksum') counters.ipDroppedChecksum++
        else if (parsed.reason === 'fragment') counters.ipDroppedFragment++
        else counters.ipDroppedMalformed++
        return
      }
      const { src, dst, protocol, payload } = parsed.packet
      if (dst !== local) {
        counters.ipDroppedNotForUs++
        return
      }
      if (protocol === IP_PROTO_TCP) receiveTcp(src, payload)
      else if (protocol === IP_PROTO_UDP) receiveUdp(src, payload)
      else if (protocol === IP_PROTO_ICMP) receiveIcmp(src, payload)
      else counters.ipDroppedProtocol++
    } catch (err) {
      // A bug in a handler must not take the link's receive loop down with it.
      counters.receiveErrors++
      log.error({ err }, 'netstack receive path failed')
    }
  }

  link.onPacket(receive)

  // ---- lifecycle ----------------------------------------------------------------------------

  function checkOpen(): void {
    if (closed) throw new NetstackClosedError('network stack closed')
  }

  function checkPort(port: number): void {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new NetstackInvalidArgumentError(`bad port ${port}`, { details: { port } })
  }

  function resolve(name: string): Promise<string> {
    if (closed) return Promise.reject(new NetstackClosedError('network stack closed'))
    return resolveA({
      servers: options.dnsServers ?? [],
      clock,
      random,
      createSocket: () => createUdpSocket(),
      timeoutMs: options.dnsQueryTimeoutMs ?? defaults.netstackDnsQueryTimeoutMs,
      attempts: options.dnsQueryAttempts ?? defaults.netstackDnsQueryAttempts,
    }, name)
  }

  function close(): void {
    if (closed) return
    for (const listener of listeners.values()) listener.closed = true
    listeners.clear()
    for (const entry of [...connections.values()]) {
      entry.conn.abort()
      entry.socket?.destroy(new NetstackClosedError('network stack closed'))
    }
    connections.clear()
    closed = true
    for (const socket of [...udpSockets.values()]) socket.close()
    pings.clear()
    log.debug('netstack closed')
  }

  return {
    localAddress,
    mtu,
    connect,
    listen,
    createUdpSocket,
    resolve,
    ping,
    stats: () => ({ ...counters, tcpConnections: connections.size, udpSockets: udpSockets.size }),
    close,
  }
}
