// The in-process VPN tunnel (issue 7): one wg-quick config in, a small socket API out. It glues
// the userspace WireGuard device (src/services/wireguard) to the userspace TCP/IP stack
// (src/services/netstack) on the config's Address, DNS and MTU:
//
//   connect / listen / createUdpSocket / resolve ──► netstack ──wireGuardLink──► device ──UDP──► peer
//
// Nothing here needs root, a TUN device or a kernel module. The VPN actor (contract 1.6) fetches
// the config and hands the torrent engine `tunnel.connect` and `tunnel.createUdpSocket`.
import * as defaults from '../../config/defaults.js'
import { NetstackClosedError, TunnelClosedError, TunnelConfigError, TunnelDownError } from '../../errors.js'
import type { AgentError } from '../../errors.js'
import type { Logger } from '../../log.js'
import type { ConnectOptions, ListenOptions, NetStack, NetStackStats, TcpListener } from '../netstack/netstack.js'
import { createNetStack } from '../netstack/netstack.js'
import type { RandomUint32 } from '../netstack/clock.js'
import type { CongestionControlFactory } from '../netstack/tcp-congestion.js'
import type { TcpSettings } from '../netstack/tcp-connection.js'
import type { TcpSocket } from '../netstack/tcp-socket.js'
import type { UdpSocket } from '../netstack/udp.js'
import { systemClock, type WgClock } from '../wireguard/clock.js'
import { formatIp, parseIp, parseWgConfig, type WgConfig } from '../wireguard/config.js'
import type { WireGuardDevice, WireGuardEvent, WireGuardLimits, WireGuardStats } from '../wireguard/device.js'
import { createWireGuardDevice } from '../wireguard/device.js'
import { wireGuardLink } from '../wireguard/link.js'
import { createNodeUdpSocket, type WgUdpSocket } from '../wireguard/udp.js'

export interface TunnelOptions {
  /** wg-quick text (as served by GET /api/internal/agent/vpn-config); or pass `config`. */
  configText?: string
  /** An already parsed config; wins over `configText`. */
  config?: WgConfig
  /** A child logger (`logger.child({ component: 'tunnel' })`). */
  logger: Logger
  /** One clock drives WireGuard timers and TCP timers (real by default; ManualClock in tests). */
  clock?: WgClock
  /** The outer UDP socket (node:dgram by default, udp6 when the first endpoint is IPv6). */
  udp?: WgUdpSocket
  /** Local address for the outer UDP socket (default: all interfaces). */
  bindAddress?: string
  /** Resolves Endpoint host names (outside the tunnel; node:dns by default). */
  resolveEndpoint?: (host: string) => Promise<string>
  /** Overrides of the TCP settings; the tunnel's defaults use a larger receive window. */
  tcp?: Partial<TcpSettings>
  congestionControl?: CongestionControlFactory
  /** WireGuard protocol limits (tests shrink them). */
  limits?: Partial<WireGuardLimits>
  /**
   * One ACK per event-loop turn for in-order bulk data instead of one per two segments (default:
   * on with the real clock, off with an injected one, whose tests expect exact segments).
   */
  ackBatching?: boolean
  /** Random bytes for WireGuard, random uint32 for the netstack (tests make them deterministic). */
  randomBytes?: (n: number) => Uint8Array
  randomUint32?: RandomUint32
}

export type TunnelStatus = 'connecting' | 'up' | 'down' | 'closed'

export type TunnelEvent =
  /** A handshake completed; `restored` when the tunnel was not up before (first or after a loss). */
  | { type: 'handshake-ok'; peer: string; role: 'initiator' | 'responder'; restored: boolean }
  /**
   * The tunnel stopped working: `unanswered` after several initiations in a row got no response
   * (about 15 s; the device keeps trying), `handshake-timeout` when the device gave up (90 s of
   * retries with no traffic asking for more), `keys-zeroed` when the session expired unused.
   */
  | { type: 'handshake-lost'; peer: string; reason: 'unanswered' | 'handshake-timeout' | 'keys-zeroed'; error?: AgentError }
  | { type: 'endpoint-changed'; peer: string; endpoint: { address: string; port: number } }
  | { type: 'closed' }

export interface TunnelStats {
  status: TunnelStatus
  localAddress: string
  listenPort: number | undefined
  handshakes: number
  lastHandshakeAt: number | undefined
  wireguard: WireGuardStats
  netstack: NetStackStats
}

export interface Tunnel {
  /** The tunnel address (the config's first IPv4 Address). */
  readonly localAddress: string
  /** IPv4 DNS servers from the config, reached through the tunnel. */
  readonly dnsServers: readonly string[]
  /** Largest inner IP packet (the config's MTU, default 1420). */
  readonly mtu: number
  /** Our WireGuard public key (base64). */
  readonly publicKey: string
  readonly status: TunnelStatus
  /** A TCP stream through the tunnel; `host` may be a name (resolved by the tunnel's DNS). */
  connect(host: string, port: number, options?: ConnectOptions): Promise<TcpSocket>
  /** Inbound TCP on the tunnel address (a port forwarded by the VPN provider). */
  listen(port: number, onConnection: (socket: TcpSocket) => void, options?: ListenOptions): TcpListener
  /** A UDP socket on the tunnel address (random port, or `port`). */
  createUdpSocket(options?: { port?: number }): UdpSocket
  /** An A record through the tunnel's DNS server; IPv4 literals come back as they are. */
  resolve(name: string): Promise<string>
  /** ICMP echo through the tunnel; the round-trip time in ms. */
  ping(address: string, timeoutMs?: number): Promise<number>
  stats(): TunnelStats
  /** Subscribes to tunnel events; returns the unsubscribe function. */
  onEvent(handler: (event: TunnelEvent) => void): () => void
  /** Resolves at the next completed handshake (at once when up); rejects on timeout or close. */
  waitUntilUp(timeoutMs?: number): Promise<void>
  /** Resets every connection, stops the device and closes the UDP socket. Idempotent. */
  close(): Promise<void>
}

/** Runs queued callbacks once per event-loop turn, after I/O (the ACK batcher of TcpSettings.deferAck). */
function endOfTurnBatcher(): (flush: () => void) => void {
  let queue: Array<() => void> = []
  let scheduled = false
  const run = (): void => {
    scheduled = false
    const batch = queue
    queue = []
    for (const flush of batch) flush()
  }
  return (flush) => {
    queue.push(flush)
    if (!scheduled) {
      scheduled = true
      setImmediate(run)
    }
  }
}

/** Validates what the tunnel needs beyond what parseWgConfig checks. */
function tunnelParameters(config: WgConfig): { localAddress: string; dnsServers: string[] } {
  const v4 = config.addresses.find((a) => a.family === 4)
  if (v4 === undefined) {
    throw new TunnelConfigError('the WireGuard config has no IPv4 Address (the tunnel stack speaks IPv4 only)', {
      details: { addresses: config.addresses.map((a) => a.text) },
    })
  }
  if (config.peers.length === 0) throw new TunnelConfigError('the WireGuard config has no [Peer]')
  if (!config.peers.some((p) => p.endpoint !== undefined)) {
    throw new TunnelConfigError('no [Peer] in the WireGuard config has an Endpoint: the tunnel cannot reach its server')
  }
  // DNS = may also hold search domains and IPv6 servers; the stack resolves over IPv4.
  const dnsServers = config.dns.filter((entry) => parseIp(entry)?.family === 4)
  return { localAddress: formatIp(v4.bytes), dnsServers }
}

export async function createTunnel(options: TunnelOptions): Promise<Tunnel> {
  let config: WgConfig
  if (options.config !== undefined) config = options.config
  else if (options.configText !== undefined) config = parseWgConfig(options.configText)
  else throw new TunnelConfigError('createTunnel needs configText or config')
  const { localAddress, dnsServers } = tunnelParameters(config)
  const log = options.logger
  const clock = options.clock ?? systemClock
  const firstEndpoint = config.peers.find((p) => p.endpoint !== undefined)?.endpoint
  const udp = options.udp ?? createNodeUdpSocket(firstEndpoint !== undefined && firstEndpoint.host.includes(':') ? 'udp6' : 'udp4')

  const device: WireGuardDevice = createWireGuardDevice({
    config,
    udp,
    clock,
    logger: log.child({ component: 'wireguard' }),
    ...(options.randomBytes ? { random: options.randomBytes } : {}),
    ...(options.resolveEndpoint ? { resolve: options.resolveEndpoint } : {}),
    ...(options.bindAddress !== undefined ? { bindAddress: options.bindAddress } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  })

  let status: TunnelStatus = 'connecting'
  let handshakes = 0
  let unansweredInitiations = 0
  let lastHandshakeAt: number | undefined
  const handlers = new Set<(event: TunnelEvent) => void>()
  const emit = (event: TunnelEvent): void => {
    for (const handler of [...handlers]) {
      try {
        handler(event)
      } catch (err) {
        log.warn({ err, event: event.type }, 'tunnel event handler threw')
      }
    }
  }

  device.onEvent((event: WireGuardEvent) => {
    if (status === 'closed') return
    switch (event.type) {
      case 'handshake-complete': {
        const restored = status !== 'up'
        status = 'up'
        handshakes++
        unansweredInitiations = 0
        lastHandshakeAt = clock.now()
        if (restored) log.info({ peer: event.peer, role: event.role }, 'tunnel up')
        emit({ type: 'handshake-ok', peer: event.peer, role: event.role, restored })
        break
      }
      case 'handshake-timeout':
      case 'keys-zeroed': {
        // keys-zeroed after a quiet spell is normal (no traffic for 9 minutes); the next packet
        // starts a handshake again. Either way the tunnel is not up until one completes.
        if (status === 'up' || event.type === 'handshake-timeout') {
          status = 'down'
          const error = event.type === 'handshake-timeout' ? event.error : undefined
          if (event.type === 'handshake-timeout') log.warn({ peer: event.peer, err: error }, 'tunnel handshake lost')
          emit({ type: 'handshake-lost', peer: event.peer, reason: event.type, ...(error ? { error } : {}) })
        }
        break
      }
      case 'handshake-initiated':
        // A rekey normally completes at its first initiation; several in a row unanswered mean
        // the server is gone (or restarted without our session) while the device keeps trying.
        if (++unansweredInitiations >= defaults.tunnelHandshakeLostInitiations && status === 'up') {
          status = 'down'
          log.warn({ peer: event.peer, initiations: unansweredInitiations }, 'tunnel handshake unanswered')
          emit({ type: 'handshake-lost', peer: event.peer, reason: 'unanswered' })
        }
        break
      case 'endpoint-changed':
        emit({ type: 'endpoint-changed', peer: event.peer, endpoint: event.endpoint })
        break
      default:
        break
    }
  })

  try {
    await device.start()
  } catch (err) {
    await device.close().catch(() => undefined) // nothing may stay bound or scheduled
    throw err
  }

  let stack: NetStack
  try {
    stack = createNetStack({
      link: wireGuardLink(device),
      localAddress,
      dnsServers,
      clock,
      logger: log.child({ component: 'netstack' }),
      tcp: {
        receiveBufferBytes: defaults.tunnelTcpReceiveBufferBytes,
        sendBufferBytes: defaults.tunnelTcpSendBufferBytes,
        ...((options.ackBatching ?? options.clock === undefined) ? { deferAck: endOfTurnBatcher() } : {}),
        ...options.tcp,
      },
      ...(options.congestionControl ? { congestionControl: options.congestionControl } : {}),
      ...(options.randomUint32 ? { random: options.randomUint32 } : {}),
    })
  } catch (err) {
    await device.close()
    throw err
  }

  log.info({ localAddress, dnsServers, mtu: device.mtu, listenPort: device.stats().listenPort }, 'tunnel started')

  let closing: Promise<void> | undefined
  const closedError = (what: string) => new TunnelClosedError(`the tunnel is closed (${what})`)
  /** NetstackClosedError while the tunnel is closed reads better as the tunnel's own error. */
  const translate = (err: unknown, what: string): unknown => (status === 'closed' && err instanceof NetstackClosedError ? closedError(what) : err)

  const tunnel: Tunnel = {
    localAddress,
    dnsServers,
    mtu: device.mtu,
    publicKey: device.publicKey,
    get status() {
      return status
    },
    async connect(host, port, connectOptions) {
      if (status === 'closed') throw closedError('connect')
      try {
        return await stack.connect(host, port, connectOptions)
      } catch (err) {
        throw translate(err, 'connect')
      }
    },
    listen(port, onConnection, listenOptions) {
      if (status === 'closed') throw closedError('listen')
      return stack.listen(port, onConnection, listenOptions)
    },
    createUdpSocket(socketOptions) {
      if (status === 'closed') throw closedError('createUdpSocket')
      return stack.createUdpSocket(socketOptions)
    },
    async resolve(name) {
      if (status === 'closed') throw closedError('resolve')
      try {
        return await stack.resolve(name)
      } catch (err) {
        throw translate(err, 'resolve')
      }
    },
    async ping(address, timeoutMs) {
      if (status === 'closed') throw closedError('ping')
      return stack.ping(address, timeoutMs)
    },
    stats() {
      const wireguard = device.stats()
      return { status, localAddress, listenPort: wireguard.listenPort, handshakes, lastHandshakeAt, wireguard, netstack: stack.stats() }
    },
    onEvent(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    waitUntilUp(timeoutMs = defaults.tunnelWaitUntilUpMs) {
      if (status === 'up') return Promise.resolve()
      if (status === 'closed') return Promise.reject(closedError('waitUntilUp'))
      return new Promise<void>((resolve, reject) => {
        const timer = clock.setTimeout(() => {
          off()
          reject(new TunnelDownError(`no WireGuard handshake completed within ${timeoutMs} ms`, { details: { timeoutMs } }))
        }, timeoutMs)
        const off = tunnel.onEvent((event) => {
          if (event.type === 'handshake-ok') {
            off()
            clock.clearTimeout(timer)
            resolve()
          } else if (event.type === 'closed') {
            off()
            clock.clearTimeout(timer)
            reject(closedError('waitUntilUp'))
          }
        })
      })
    },
    close() {
      closing ??= (async () => {
        status = 'closed'
        stack.close()
        try {
          await device.close()
        } catch (err) {
          log.warn({ err }, 'closing the WireGuard device failed')
        }
        emit({ type: 'closed' })
        handlers.clear()
        log.info('tunnel closed')
      })()
      return closing
    },
  }
  return tunnel
}
