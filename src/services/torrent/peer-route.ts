import type { PeerNetwork } from './peer-network.js'

// Which network the torrent engine's peer and tracker traffic takes (peer-network.ts). Apart from
// peer-network.ts because that module loads webtorrent, and the vpn part holds a route from
// start-up on an agent that may never download (docs/operations.md "Idle footprint").

/** The network the engine should use now: undefined is the clear (the engine's own sockets). */
export interface PeerNetworkRoute {
  current(): PeerNetwork | undefined
  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
}

export function createPeerNetworkRoute(): PeerNetworkRoute & { set(network: PeerNetwork | undefined): void } {
  let current: PeerNetwork | undefined
  const listeners = new Set<() => void>()
  return {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(network) {
      if (network === current) return
      current = network
      for (const listener of [...listeners]) listener()
    },
  }
}
