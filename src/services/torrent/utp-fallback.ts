import type { EventEmitter } from 'node:events'

// webtorrent (3.0.x, lib/torrent.js `addPeer` / `_addPeer` / `_drain`) connects to every IPv4
// address over uTP first when uTP is on, and only after RECONNECT_WAIT.length (3) more uTP
// attempts - each waiting the 5 s connect timeout, with 1 s / 5 s / 15 s backoff in between - does
// it try TCP: about 41 s before the first byte from a peer that does not speak uTP (aria2c, peers
// whose NAT drops UDP). The hook below keeps uTP first and gives it `fallbackMs` to connect; an
// attempt that has not connected by then is dropped and the address is tried over TCP at once.

/** The parts of webtorrent's outgoing Peer (lib/peer.js) the hook touches. */
interface WirePeer extends EventEmitter {
  type: string
  connected: boolean
  destroyed: boolean
  retries: number
  conn: EventEmitter | null
  startConnectTimeout(): void
  destroy(err?: Error): void
}

/** The parts of webtorrent's Torrent the hook touches. */
interface PeerSwarm {
  destroyed: boolean
  _peers: Map<string, unknown> | null
  _addPeer(peer: unknown, type: string, source: unknown): unknown
}

export interface UtpFallbackOptions {
  /** How long a uTP connect attempt gets before the address is tried over TCP. */
  fallbackMs: number
  /** A uTP attempt was dropped for TCP (debug logging). */
  onFallback?: (addr: string) => void
  /** webtorrent's internals do not have the expected shape: stock behaviour stays (log a warning). */
  onUnsupported: (reason: string) => void
}

/**
 * What the next outgoing attempt to an address does. No entry: uTP, cut after fallbackMs.
 * 'tcp': uTP did not connect but TCP did - straight to TCP. 'utp': TCP failed after uTP was cut
 * (a peer that may speak only uTP, slowly) - uTP with webtorrent's own, full connect timeout.
 */
type Next = 'tcp' | 'utp'

/**
 * Makes `torrent` (a webtorrent Torrent, uTP on) fall back from uTP to TCP within `fallbackMs`
 * instead of after four 5 s uTP timeouts. The only hook into webtorrent: the torrent's `_addPeer`
 * is wrapped (outgoing peers by address), and each outgoing peer's `startConnectTimeout` (called
 * by `_drain` right after it opened the connection) starts the fallback clock. If any of it does
 * not look like webtorrent 3.0, nothing is changed and `onUnsupported` says why.
 */
export function installUtpFallback(torrent: object, options: UtpFallbackOptions): void {
  const swarm = torrent as Partial<PeerSwarm>
  const original = swarm._addPeer
  if (typeof original !== 'function' || !(swarm._peers instanceof Map)) {
    options.onUnsupported('webtorrent Torrent has no _addPeer / _peers map')
    return
  }
  const next = new Map<string, Next>()
  let unsupported = false
  const giveUp = (reason: string) => {
    if (unsupported) return
    unsupported = true
    options.onUnsupported(reason)
  }

  const watch = (peer: WirePeer, addr: string, source: unknown, fallback: boolean) => {
    const conn = peer.conn
    if (!conn || typeof conn.once !== 'function') return giveUp('webtorrent Peer has no connection when its connect timeout starts')
    let connected = false
    const patient = peer.type === 'utpOutgoing' && next.get(addr) === 'utp'
    peer.once('connect', () => {
      connected = true
      if (peer.type === 'tcpOutgoing') next.set(addr, 'tcp')
    })
    conn.once('close', () => {
      if (connected) return
      if (peer.type === 'tcpOutgoing') {
        // TCP failed too: the next (webtorrent's backoff) attempt is uTP with its full timeout.
        if (fallback || next.get(addr) === 'tcp') next.set(addr, 'utp')
      } else if (patient && next.get(addr) === 'utp') {
        // Neither transport connected: start over (uTP with the short clock) next time.
        next.delete(addr)
      }
    })
    if (peer.type !== 'utpOutgoing' || patient) return
    const timer = setTimeout(() => {
      if (peer.connected || peer.destroyed || swarm.destroyed || swarm._peers?.get(addr) !== peer) return
      options.onFallback?.(addr)
      // Removes the peer from the swarm (and closes the uTP attempt): webtorrent's own reconnect
      // of it then finds the TCP peer under the same address and drops itself as a duplicate.
      peer.destroy(new Error(`uTP did not connect within ${options.fallbackMs} ms; trying TCP`))
      const tcp = add(addr, 'tcp', source, true)
      if (tcp) tcp.retries = peer.retries
    }, options.fallbackMs)
    timer.unref()
    peer.once('connect', () => clearTimeout(timer))
    conn.once('close', () => clearTimeout(timer))
  }

  const add = (peer: unknown, type: string, source: unknown, fallback = false): WirePeer | null => {
    const addr = typeof peer === 'string' && !unsupported ? peer : undefined
    const created = original.call(swarm, peer, addr && type === 'utp' && next.get(addr) === 'tcp' ? 'tcp' : type, source)
    if (!addr || !created) return created as WirePeer | null
    const candidate = created as Partial<WirePeer>
    if (
      typeof candidate.startConnectTimeout !== 'function' || typeof candidate.destroy !== 'function' ||
      typeof candidate.once !== 'function' || typeof candidate.type !== 'string' || typeof candidate.connected !== 'boolean'
    ) {
      giveUp('webtorrent Peer does not have the expected shape')
      return created as WirePeer
    }
    const outgoing = candidate as WirePeer
    // `_addPeer` ends with `_drain`, which usually opens the connection right there; a peer queued
    // behind maxConns opens it later, and then starts its connect timeout too.
    if (outgoing.conn) {
      watch(outgoing, addr, source, fallback)
    } else if (!outgoing.destroyed) {
      const startConnectTimeout = outgoing.startConnectTimeout
      outgoing.startConnectTimeout = function (this: WirePeer) {
        startConnectTimeout.call(this)
        if (!unsupported) watch(outgoing, addr, source, fallback)
      }
    }
    return outgoing
  }

  swarm._addPeer = (peer: unknown, type: string, source: unknown) => add(peer, type, source)
}
