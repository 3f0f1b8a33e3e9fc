import type net from 'node:net'
import Peer from 'webtorrent/lib/peer.js'
import { torrentSocketReadBytes } from '../../config/defaults.js'
import { receiveLent } from './wire-tuning.js'

// Socket reads into one buffer, for the engine's outgoing TCP peers (docs/torrents.md, CPU,
// "Socket reads into one buffer"). A net.Socket allocates a fresh 64 KiB buffer for every read
// and hands it on as a chunk; at 300 MiB/s that is ~5,000 ArrayBuffers a second, which only a
// scavenge frees once the last view of each dies, and which start most of a download's full
// garbage collections (external memory). With `onread` (net.connect's option) the socket reads
// into a buffer given once and calls back with how much it read, emitting no `data`: here one
// buffer for every such socket, which is safe because reads and their callbacks run one at a
// time on the event loop and the callback parses the bytes before it returns (wire-tuning.ts
// receiveLent copies out whatever a parser could keep, and what is left unparsed).
//
// Webtorrent pipes a peer's socket through two stream stages (the download throttle and a byte
// counter) into its wire (Peer#setThrottlePipes); a socket made here is fed to its wire from the
// read callback instead, counting the bytes the same way; the rest of the pipeline is webtorrent's.
// Only outgoing TCP connections in the clear come from here (peer-network.ts): incoming ones
// come from a net.Server, which takes no `onread`, and uTP and the VPN's sockets are not
// net.Sockets. A client with a download limit keeps webtorrent's sockets: the direct feed does not
// pass the throttle (the engine sets no limit).

const lentReads = Symbol('media-agent.lentReads')

interface LentReads {
  /** The wire's feed, once the peer has one; chunks before it are copied and kept. */
  deliver: ((chunk: Buffer) => void) | undefined
  early: Buffer[]
}

type LentSocket = net.Socket & { [lentReads]?: LentReads }

let shared: Buffer | undefined

/** `connect(options)` with its reads going into the shared buffer and on to the peer's wire. */
export function connectLendingReads(connect: (options: net.TcpNetConnectOpts) => net.Socket, options: net.TcpNetConnectOpts): net.Socket {
  // Its own ArrayBuffer (allocUnsafe would take a small one from Node's pool): the wire tells
  // lent memory by it.
  shared ??= Buffer.allocUnsafeSlow(torrentSocketReadBytes)
  const reads: LentReads = { deliver: undefined, early: [] }
  const socket = connect({
    ...options,
    onread: {
      buffer: shared,
      callback(bytes: number, buffer: Uint8Array): boolean {
        const chunk = (buffer as Buffer).subarray(0, bytes)
        if (reads.deliver) reads.deliver(chunk)
        else reads.early.push(Buffer.from(chunk))
        return true
      },
    },
  }) as LentSocket
  socket[lentReads] = reads
  return socket
}

interface PeerInternals {
  conn: LentSocket | null
  wire: unknown
  destroyed: boolean
  emit(event: string, ...args: unknown[]): boolean
  destroy(error?: Error): void
}

let installed: true | string | undefined

/**
 * Replaces Peer#setThrottlePipes once per process: a socket made by connectLendingReads feeds
 * its wire directly; every other peer keeps webtorrent's pipes. Returns why nothing was changed
 * when webtorrent is not shaped as expected, else undefined.
 */
export function installLentReads(): string | undefined {
  if (installed === undefined) installed = install()
  return typeof installed === 'string' ? installed : undefined
}

/** Whether a socket made now would be fed by the replacement (peer-network.ts asks before lending). */
export function lentReadsInstalled(): boolean {
  return installed === true
}

function install(): true | string {
  const proto = (Peer as unknown as { prototype: Record<string, unknown> }).prototype
  const stock = proto.setThrottlePipes as ((this: PeerInternals) => void) | undefined
  if (typeof stock !== 'function') return 'webtorrent Peer has no setThrottlePipes()'
  proto.setThrottlePipes = function setPipesLendingReads(this: PeerInternals) {
    // webtorrent's pipeline as it is: its upload half carries the wire's messages, and the whole
    // chain still ends and fails together with the socket. Its download half receives nothing
    // from a socket that reads into the shared buffer: that socket feeds the wire from here.
    stock.call(this)
    const reads = this.conn?.[lentReads]
    if (!reads) return
    const wire = this.wire
    const feed = (chunk: Buffer, lent: boolean) => {
      this.emit('download', chunk.length)
      if (this.destroyed) return
      // A parser that throws on what a peer sent ends that peer, not the daemon: the read
      // callback runs straight from the socket, with nothing above it to catch.
      try {
        receiveLent(wire, chunk, lent)
      } catch (error) {
        this.destroy(error instanceof Error ? error : new Error(String(error)))
      }
    }
    reads.deliver = (chunk) => feed(chunk, true)
    for (const chunk of reads.early.splice(0)) feed(chunk, false)
  }
  return true
}
