// Where the torrent engine's peer and tracker traffic goes (contract 1.6, docs/vpn.md). The
// engine itself knows only `PeerNetwork`; the one implementation outside the clear is the VPN's
// (src/services/vpn/tunnel-peer-network.ts). This file is the only place that reaches into
// webtorrent 3 and bittorrent-tracker 11 to route them, so a change of either shows up here.
//
// webtorrent and bittorrent-tracker take no socket factories: they call `net.connect`,
// `net.createServer` and `dgram.createSocket` of the Node modules directly. Two hooks, both keyed
// by the webtorrent client so that nothing else in the process is touched:
//
// - `net` / `dgram` are wrapped once (the original behaviour unless a routing scope is open):
//   inside `withinNetwork(network, fn)` - a synchronous scope - they hand out the network's
//   sockets. The engine opens that scope around `new WebTorrent()` (its ConnPool creates the
//   peer listener there), and the hooks below open it for the client they belong to.
// - `Torrent.prototype._drain` (every outgoing peer connection, lib/torrent.js) and
//   `UDPTracker.prototype._request` (every UDP announce and scrape, also those from its interval
//   timer) open the scope of their client's network, found through a WeakMap (torrents) and the
//   tracker client's `proxyOpts` (the object the engine passes as webtorrent's
//   `tracker.proxyOpts`, tagged with the network).
//
// HTTP(S) announces need no hook: bittorrent-tracker hands `proxyOpts.httpAgent/httpsAgent` to
// fetch as its undici dispatcher, and the network supplies one that connects through it.
// Web seeds (plain fetch) are untouched and stay in the clear, as the contract wants.
//
// In the clear, the same wrappers make webtorrent's TCP peer sockets read into the engine's one
// shared buffer (lent-reads.ts): the outgoing ones inside the `_drain` hook (unless the client
// limits its download rate), the listener's inside `withinClearLending` around `new WebTorrent()`.
import dgram from 'node:dgram'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import { dirname, join } from 'node:path'
import type { Duplex } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { EventEmitter } from 'node:events'
import type { Dispatcher } from 'undici'
import Torrent from 'webtorrent/lib/torrent.js'
import { connectLendingReads, createServerLendingReads, lentReadsInstalled } from './lent-reads.js'

/** The listener webtorrent's ConnPool uses (`net.Server` as far as it goes). */
export interface PeerServer extends EventEmitter {
  listen(port: number, callback?: () => void): this
  address(): { port: number; family: string; address: string } | null
  close(callback?: (err?: Error) => void): this
}

/** The datagram socket bittorrent-tracker's UDP client uses (`dgram.Socket` as far as it goes). */
export interface PeerUdpSocket extends EventEmitter {
  send(message: Uint8Array, offset: number, length: number, port: number, host: string): void
  close(): void
}

export interface PeerNetwork {
  /** For logs and `vpn status`. */
  readonly name: string
  /** The port the engine listens on in this network (the one the provider forwards). */
  readonly peerPort: number
  /** An outgoing TCP connection; emits `connect` once through (webtorrent's Peer expects net.Socket events). */
  connect(host: string, port: number): Duplex
  createServer(): PeerServer
  createUdpSocket(): PeerUdpSocket
  /** undici dispatcher for HTTP and HTTPS announces. */
  readonly trackerDispatcher: Dispatcher
  /** False while the tunnel is not up: torrents are paused (no new connection starts). */
  isOpen(): boolean
  /** Returns the unsubscribe function. */
  onOpenChange(listener: (open: boolean) => void): () => void
}

// ---- the routing scope ----------------------------------------------------------------------

let scope: PeerNetwork | undefined
/** Inside a clear `_drain` that lends reads: `net.connect` makes a socket of lent-reads.ts; inside `withinClearLending`, `net.createServer()` a server of it. */
let lendingReads = false
let netWrapped = false

type Fn = (...args: unknown[]) => unknown

function wrapNodeModules(): void {
  if (netWrapped) return
  netWrapped = true
  const netModule = net as unknown as Record<string, Fn>
  const dgramModule = dgram as unknown as Record<string, Fn>
  const connect = netModule.connect!
  const createConnection = netModule.createConnection!
  const createServer = netModule.createServer!
  const createSocket = dgramModule.createSocket!
  const routed = (original: Fn, route: (network: PeerNetwork, args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      return scope ? route(scope, args) : original.apply(this, args)
    }
  const connectArgs = (network: PeerNetwork, args: unknown[]) => {
    const [first, second] = args
    if (typeof first === 'object' && first !== null) {
      const { host, port } = first as { host?: string; port?: number | string }
      return network.connect(host ?? 'localhost', Number(port))
    }
    return network.connect(typeof second === 'string' ? second : 'localhost', Number(first))
  }
  const routedConnect = routed(connect, connectArgs)
  netModule.connect = function (this: unknown, ...args: unknown[]) {
    const [options] = args
    if (!scope && lendingReads && args.length === 1 && typeof options === 'object' && options !== null) {
      return connectLendingReads((lending) => connect.call(net, lending) as net.Socket, options as net.TcpNetConnectOpts)
    }
    return routedConnect.apply(this, args)
  }
  netModule.createConnection = routed(createConnection, connectArgs)
  const routedCreateServer = routed(createServer, (network) => network.createServer())
  netModule.createServer = function (this: unknown, ...args: unknown[]) {
    if (!scope && lendingReads && args.length === 0) return createServerLendingReads((options) => createServer.call(net, options) as net.Server)
    return routedCreateServer.apply(this, args)
  }
  dgramModule.createSocket = routed(createSocket, (network) => network.createUdpSocket())
}

/**
 * Runs `run` with webtorrent's and bittorrent-tracker's `net`/`dgram` calls going to `network`.
 * Synchronous only: the scope is closed when `run` returns.
 */
export function withinNetwork<T>(network: PeerNetwork | undefined, run: () => T): T {
  if (!network) return run()
  wrapNodeModules()
  const previous = scope
  scope = network
  try {
    return run()
  } finally {
    scope = previous
  }
}

/**
 * Runs `run` in the clear with the peer sockets it makes - a listener's (`net.createServer()`)
 * or an outgoing one's (`net.connect(options)`) - reading into the shared buffer
 * (lent-reads.ts); as it is when lent reads are not installed. Synchronous only.
 */
export function withinClearLending<T>(run: () => T): T {
  if (!lentReadsInstalled()) return run()
  wrapNodeModules()
  const previous = lendingReads
  lendingReads = true
  try {
    return run()
  } finally {
    lendingReads = previous
  }
}

// ---- the per-client hooks -------------------------------------------------------------------

/** The key on the `tracker.proxyOpts` object that names its client's network. */
const networkKey = Symbol.for('media-agent.peerNetwork')
const clientNetworks = new WeakMap<object, PeerNetwork>()

interface TorrentLike {
  client?: { throttleGroups?: { down?: { getEnabled?(): boolean } } }
  _drain(): void
}

interface UdpTrackerLike {
  client?: { _proxyOpts?: Record<symbol, PeerNetwork | undefined> }
  _request(opts: unknown): void
}

/** Why the hooks could not be installed (webtorrent changed): routing then refuses to start a client. */
let hooksError: Error | undefined

/** Where bittorrent-tracker sits for webtorrent (its `exports` hide lib/, so it is found on disk). */
function udpTrackerUrl(): string {
  return trackerModuleUrl(join('lib', 'client', 'udp-tracker.js'))
}

/** A module of the bittorrent-tracker copy webtorrent uses (the dormant announcer's one-shot client: dormant-announcer.ts). */
export function trackerModuleUrl(file: string): string {
  const require = createRequire(import.meta.url)
  const webtorrentDir = dirname(require.resolve('webtorrent'))
  const discoveryDir = packageDir('torrent-discovery', join(webtorrentDir, 'index.js'))
  const trackerDir = packageDir('bittorrent-tracker', join(discoveryDir, 'index.js'))
  return pathToFileURL(join(trackerDir, file)).href
}

function packageDir(name: string, fromFile: string): string {
  for (const dir of createRequire(fromFile).resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, 'package.json'))) return join(dir, name)
  }
  throw new Error(`${name} is not installed next to ${fromFile}`)
}

async function installHooks(): Promise<void> {
  {
    const torrentProto = (Torrent as unknown as { prototype: TorrentLike }).prototype
    const drain = torrentProto._drain
    if (typeof drain !== 'function') throw new Error('webtorrent Torrent has no _drain: peer connections cannot be routed')
    torrentProto._drain = function (this: TorrentLike) {
      const network = this.client ? clientNetworks.get(this.client) : undefined
      if (network || !lendsReads(this.client)) return withinNetwork(network, () => drain.call(this))
      return withinClearLending(() => drain.call(this))
    }
    const { default: UDPTracker } = (await import(udpTrackerUrl())) as { default: { prototype: UdpTrackerLike } }
    const request = UDPTracker.prototype._request
    if (typeof request !== 'function') throw new Error('bittorrent-tracker UDPTracker has no _request: UDP announces cannot be routed')
    UDPTracker.prototype._request = function (this: UdpTrackerLike, opts: unknown) {
      const client = this.client
      const proxyOpts = client?._proxyOpts
      const network = proxyOpts?.[networkKey]
      // bittorrent-tracker 11 clones `proxyOpts.socksProxy` with JSON whenever proxyOpts is set:
      // without a SOCKS proxy that is JSON.parse("undefined"), an exception thrown out of the
      // announce loop (any UDP tracker, clear or not). Its only synchronous read of proxyOpts is
      // that one, so the object is hidden for the call when it holds no SOCKS proxy.
      if (!client || !proxyOpts || 'socksProxy' in proxyOpts) return withinNetwork(network, () => request.call(this, opts))
      client._proxyOpts = undefined
      try {
        return withinNetwork(network, () => request.call(this, opts))
      } finally {
        client._proxyOpts = proxyOpts
      }
    }
  }
}

/** A client in the clear whose outgoing sockets may read into the shared buffer: their reads skip its download throttle, so not while a limit is on. */
function lendsReads(client: TorrentLike['client']): boolean {
  return client !== undefined && client.throttleGroups?.down?.getEnabled?.() === false
}

// Installed when the engine module loads, before any client exists: a tracker announces from
// inside its constructor, so a hook installed later could miss the first announce.
await installHooks().catch((err: unknown) => {
  hooksError = err instanceof Error ? err : new Error(String(err))
})

/** Throws when webtorrent's internals were not what the hooks expect (never route half-way). */
export function assertPeerNetworkHooks(): void {
  if (hooksError) throw hooksError
}

/** Routes the outgoing peer connections of every torrent of `client` (a webtorrent client). */
export function routeClient(client: object, network: PeerNetwork): void {
  clientNetworks.set(client, network)
}

/** webtorrent's `tracker.proxyOpts` for a client in `network`: its dispatcher, tagged for the UDP hook. */
export function trackerProxyOpts(network: PeerNetwork): Record<string | symbol, unknown> {
  return { httpAgent: network.trackerDispatcher, httpsAgent: network.trackerDispatcher, [networkKey]: network }
}

// The route lives in peer-route.ts: the vpn part holds one from start-up without loading webtorrent.
export { createPeerNetworkRoute, type PeerNetworkRoute } from './peer-route.js'
