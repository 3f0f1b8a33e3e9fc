// The torrent engine's PeerNetwork inside the WireGuard tunnel (contract 1.6, docs/vpn.md): peer
// connections out and in, HTTP/HTTPS tracker announces (DNS through the tunnel) and UDP
// announces, all over the in-process tunnel's TCP/IP stack. One object lives as long as the VPN
// is wanted; the tunnel behind it comes and goes (set by the vpn actor's `tunnel` actor).
//
// Nothing here ever opens a socket of the host: with no tunnel, or with the gate closed (the
// tunnel not up), a connection, an announce or a datagram waits for the gate. A connection left
// waiting is ended by its owner's own timeout (webtorrent's connect timeout, the tracker's
// request timeout), never moved to the clear.
import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { Duplex } from 'node:stream'
import type { Agent, Dispatcher } from 'undici'
import * as defaults from '../../config/defaults.js'
import { TunnelClosedError } from '../../errors.js'
import type { Logger } from '../../log.js'
import type { TcpListener } from '../netstack/netstack.js'
import type { UdpSocket } from '../netstack/udp.js'
import type { PeerNetwork, PeerServer, PeerUdpSocket } from '../torrent/peer-network.js'
import type { Tunnel } from '../tunnel/index.js'

/** What went where: `vpn status` shows it, the integration test checks it. */
export interface TunnelTrafficCounters {
  peerConnections: number
  inboundConnections: number
  trackerConnections: number
  udpDatagrams: number
}

export interface TunnelPeerNetworkOptions {
  peerPort: number
  logger: Logger
  connectTimeoutMs?: number
}

// undici loads when the engine first asks for the tracker dispatcher (a synchronous getter, hence
// require): one object exists from start-up while the VPN may never be used (docs/operations.md).
const requireModule = createRequire(import.meta.url)

export class TunnelPeerNetwork implements PeerNetwork {
  readonly name = 'wireguard'
  readonly peerPort: number
  readonly counters: TunnelTrafficCounters = { peerConnections: 0, inboundConnections: 0, trackerConnections: 0, udpDatagrams: 0 }
  #trackerDispatcher: Agent | undefined
  readonly #log: Logger
  readonly #connectTimeoutMs: number
  readonly #events = new EventEmitter()
  readonly #servers = new Set<TunnelPeerServer>()
  #tunnel: Tunnel | undefined
  #open = false
  #closed = false

  constructor(options: TunnelPeerNetworkOptions) {
    this.peerPort = options.peerPort
    this.#log = options.logger
    this.#connectTimeoutMs = options.connectTimeoutMs ?? defaults.vpnPeerConnectTimeoutMs
    this.#events.setMaxListeners(0)
  }

  get trackerDispatcher(): Dispatcher {
    if (this.#trackerDispatcher !== undefined) return this.#trackerDispatcher
    const { Agent } = requireModule('undici') as typeof import('undici')
    // One connection per announce, as the engine's clear dispatcher (engine.ts says why); every
    // connection through the tunnel, TLS on top for HTTPS, the host name resolved by the tunnel's DNS.
    this.#trackerDispatcher = new Agent({
      pipelining: 0,
      connect: (opts, callback) => {
        const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80)
        this.counters.trackerConnections++
        const socket = this.connect(opts.hostname, port)
        const fail = (err: Error) => callback(err, null)
        if (opts.protocol !== 'https:') {
          socket.once('error', fail)
          socket.once('connect', () => {
            socket.off('error', fail)
            callback(null, socket as never)
          })
          return
        }
        // node:tls loads with the first HTTPS announce through the tunnel, not with the VPN part:
        // an idle daemon never pays its ~6 MiB (docs/operations.md "Idle footprint").
        const tls = process.getBuiltinModule('node:tls').connect({ socket, servername: opts.servername ?? opts.hostname, ALPNProtocols: ['http/1.1'] })
        tls.once('error', fail)
        tls.once('secureConnect', () => {
          tls.off('error', fail)
          callback(null, tls)
        })
      },
    })
    return this.#trackerDispatcher
  }

  /** The tunnel to use now (undefined while none: everything waits). Listeners move to it. */
  setTunnel(tunnel: Tunnel | undefined): void {
    if (tunnel === this.#tunnel) return
    this.#tunnel = tunnel
    for (const server of this.#servers) server.relisten()
    this.#events.emit('gate')
  }

  get tunnel(): Tunnel | undefined {
    return this.#tunnel
  }

  /** Opens or closes the gate (the vpn actor: open exactly while up). */
  setOpen(open: boolean): void {
    if (open === this.#open) return
    this.#open = open
    this.#log.debug({ open }, open ? 'peer traffic may use the tunnel' : 'peer traffic waits for the tunnel')
    this.#events.emit('open', open)
    this.#events.emit('gate')
  }

  isOpen(): boolean {
    return this.#open && this.#tunnel !== undefined
  }

  onOpenChange(listener: (open: boolean) => void): () => void {
    this.#events.on('open', listener)
    return () => this.#events.off('open', listener)
  }

  /** Resolves with the tunnel once the gate is open; rejects when the network is closed or `signal` aborts. */
  whenOpen(signal?: AbortSignal): Promise<Tunnel> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.#closed) return finish(new TunnelClosedError('the VPN peer network is closed'))
        if (signal?.aborted) return finish(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
        if (this.#open && this.#tunnel) return finish(undefined, this.#tunnel)
      }
      const finish = (err: Error | undefined, tunnel?: Tunnel) => {
        this.#events.off('gate', check)
        signal?.removeEventListener('abort', check)
        if (err) reject(err)
        else resolve(tunnel!)
      }
      this.#events.on('gate', check)
      signal?.addEventListener('abort', check)
      check()
    })
  }

  connect(host: string, port: number): Duplex {
    this.counters.peerConnections++
    const socket = new TunnelSocket(host, port)
    const abort = new AbortController()
    socket.once('close', () => abort.abort(new Error('socket closed')))
    this.whenOpen(abort.signal)
      .then((tunnel) => tunnel.connect(host, port, { timeoutMs: this.#connectTimeoutMs, signal: abort.signal }))
      .then((inner) => socket.attach(inner), (err: Error) => socket.destroy(err))
    return socket
  }

  createServer(): PeerServer {
    const server = new TunnelPeerServer(this, (socket) => {
      this.counters.inboundConnections++
      return socket
    })
    this.#servers.add(server)
    server.once('close', () => this.#servers.delete(server))
    return server
  }

  createUdpSocket(): PeerUdpSocket {
    return new TunnelUdpSocket(this, () => this.counters.udpDatagrams++)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#open = false
    this.#events.emit('open', false)
    this.#events.emit('gate')
    for (const server of [...this.#servers]) server.close()
    await this.#trackerDispatcher?.destroy().catch(() => undefined)
  }
}

/**
 * A net.Socket look-alike handed to webtorrent (and undici) at once; the tunnel connection is
 * attached when it exists. Until then writes are held and nothing is sent anywhere.
 */
class TunnelSocket extends Duplex {
  remoteAddress: string | undefined
  remotePort: number
  remoteFamily = 'IPv4'
  localAddress: string | undefined
  localPort: number | undefined
  connecting = true
  #inner: Duplex | undefined
  #pending: { chunk: Buffer; callback: (err?: Error | null) => void } | undefined
  #pendingFinal: ((err?: Error | null) => void) | undefined

  constructor(host: string, port: number) {
    super({ allowHalfOpen: false })
    this.remoteAddress = host
    this.remotePort = port
  }

  attach(inner: Duplex & { remoteAddress?: string; localAddress?: string; localPort?: number }): void {
    if (this.destroyed) {
      inner.destroy()
      return
    }
    this.#inner = inner
    this.connecting = false
    this.remoteAddress = inner.remoteAddress ?? this.remoteAddress
    this.localAddress = inner.localAddress
    this.localPort = inner.localPort
    inner.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) inner.pause()
    })
    inner.on('end', () => this.push(null))
    inner.on('error', (err: Error) => this.destroy(err))
    inner.on('close', () => this.destroy())
    const pending = this.#pending
    this.#pending = undefined
    if (pending) inner.write(pending.chunk, pending.callback)
    if (this.#pendingFinal) inner.end(this.#pendingFinal)
    this.emit('connect')
    this.emit('ready')
  }

  override _read(): void {
    this.#inner?.resume()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    if (this.#inner) this.#inner.write(chunk, callback)
    else this.#pending = { chunk, callback }
  }

  override _final(callback: (err?: Error | null) => void): void {
    if (this.#inner) this.#inner.end(callback)
    else this.#pendingFinal = callback
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.#inner?.destroy()
    callback(err)
  }

  // net.Socket methods webtorrent and undici call; the tunnel's TCP has its own timers.
  setTimeout(_ms: number, _callback?: () => void): this {
    return this
  }

  setNoDelay(_noDelay?: boolean): this {
    return this
  }

  setKeepAlive(_enable?: boolean, _delay?: number): this {
    return this
  }

  ref(): this {
    return this
  }

  unref(): this {
    return this
  }
}

/** webtorrent's ConnPool listener on the tunnel address; follows the network to a new tunnel. */
class TunnelPeerServer extends EventEmitter implements PeerServer {
  #port: number | undefined
  #listener: TcpListener | undefined
  #listenedOn: Tunnel | undefined
  #closed = false

  constructor(
    private readonly network: TunnelPeerNetwork,
    private readonly accept: (socket: Duplex) => Duplex,
  ) {
    super()
  }

  listen(port: number, callback?: () => void): this {
    this.#port = port || this.network.peerPort
    this.relisten()
    queueMicrotask(() => {
      this.emit('listening')
      callback?.()
    })
    return this
  }

  relisten(): void {
    if (this.#closed || this.#port === undefined) return
    const tunnel = this.network.tunnel
    if (tunnel === this.#listenedOn) return
    this.#listener?.close()
    this.#listener = undefined
    this.#listenedOn = tunnel
    if (!tunnel) return
    try {
      this.#listener = tunnel.listen(this.#port, (socket) => this.emit('connection', this.accept(socket)))
    } catch (err) {
      this.emit('error', err)
    }
  }

  address(): { port: number; family: string; address: string } | null {
    if (this.#port === undefined) return null
    return { port: this.#port, family: 'IPv4', address: this.network.tunnel?.localAddress ?? '0.0.0.0' }
  }

  close(callback?: (err?: Error) => void): this {
    if (!this.#closed) {
      this.#closed = true
      this.#listener?.close()
      this.#listener = undefined
      queueMicrotask(() => this.emit('close'))
    }
    if (callback) queueMicrotask(() => callback())
    return this
  }
}

/** bittorrent-tracker's UDP socket: datagrams wait for the gate, host names resolve through the tunnel. */
class TunnelUdpSocket extends EventEmitter implements PeerUdpSocket {
  #inner: UdpSocket | undefined
  #innerTunnel: Tunnel | undefined
  #closed = false
  readonly #abort = new AbortController()

  constructor(
    private readonly network: TunnelPeerNetwork,
    private readonly counted: () => void,
  ) {
    super()
  }

  send(message: Uint8Array, offset: number, length: number, port: number, host: string): void {
    const payload = Buffer.from(message.subarray(offset, offset + length))
    this.network
      .whenOpen(this.#abort.signal)
      .then(async (tunnel) => {
        const address = await tunnel.resolve(host)
        if (this.#closed) return
        // bittorrent-tracker passes the port as the URL's string.
        this.#socketOn(tunnel).send(payload, Number(port), address)
        this.counted()
      })
      .catch((err: Error) => {
        if (!this.#closed) this.emit('error', err)
      })
  }

  #socketOn(tunnel: Tunnel): UdpSocket {
    if (this.#inner && this.#innerTunnel === tunnel && !this.#inner.closed) return this.#inner
    this.#inner?.close()
    const inner = tunnel.createUdpSocket()
    inner.on('message', (message, remote) => this.emit('message', message, remote))
    this.#inner = inner
    this.#innerTunnel = tunnel
    return inner
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#abort.abort(new Error('UDP socket closed'))
    this.#inner?.close()
    queueMicrotask(() => this.emit('close'))
  }
}
