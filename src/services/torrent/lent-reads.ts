import net from 'node:net'
import Peer from 'webtorrent/lib/peer.js'
import { torrentSocketReadBytes } from '../../config/defaults.js'
import { receiveLent, receiveOwned } from './wire-tuning.js'

// Socket reads into one buffer, for the engine's TCP peers in the clear (docs/torrents.md, CPU,
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
// Only TCP connections in the clear come from here (peer-network.ts): outgoing ones through
// `onread`, incoming ones from a server that hands them the buffer before they read
// (createServerLendingReads); uTP and the VPN's sockets are not net.Sockets. The direct feed does
// not pass webtorrent's download throttle: the engine never sets a download limit (webtorrent's
// `downloadLimit` stays -1); were one set, new outgoing connections would keep webtorrent's sockets.

const lentReads = Symbol('media-agent.lentReads')

interface LentReads {
  /** The wire's feed, once the peer has one; chunks before it are copied and kept. */
  deliver: ((chunk: Buffer) => void) | undefined
  early: Buffer[]
}

type LentSocket = net.Socket & { [lentReads]?: LentReads }

let shared: Buffer | undefined

/** Its own ArrayBuffer (allocUnsafe would take a small one from Node's pool): the wire tells lent memory by it. */
function sharedBuffer(): Buffer {
  shared ??= Buffer.allocUnsafeSlow(torrentSocketReadBytes)
  return shared
}

/** The read callback: the chunk on to the peer's wire, or copied and kept until the peer has one. */
function lentReadCallback(reads: LentReads): (bytes: number, buffer: Uint8Array) => boolean {
  return (bytes, buffer) => {
    const chunk = (buffer as Buffer).subarray(0, bytes)
    if (reads.deliver) reads.deliver(chunk)
    else reads.early.push(Buffer.from(chunk))
    return true
  }
}

/** `connect(options)` with its reads going into the shared buffer and on to the peer's wire. */
export function connectLendingReads(connect: (options: net.TcpNetConnectOpts) => net.Socket, options: net.TcpNetConnectOpts): net.Socket {
  const reads: LentReads = { deliver: undefined, early: [] }
  const socket = connect({ ...options, onread: { buffer: sharedBuffer(), callback: lentReadCallback(reads) } }) as LentSocket
  socket[lentReads] = reads
  return socket
}

/**
 * `createServer()` whose connections read into the shared buffer too. A net.Server takes no
 * `onread`, so each incoming socket is created paused (`pauseOnConnect`), given the buffer the
 * way net.Socket's constructor gives it for `onread` (its two internal fields, found on a probe
 * socket, and `useUserBuffer` on its handle) before anything reads from it, and resumed once the
 * server's other `connection` listeners (webtorrent's ConnPool) have made its peer. On a Node
 * whose sockets are not shaped so, a plain server (every read a buffer of its own).
 */
export function createServerLendingReads(createServer: (options?: net.ServerOpts) => net.Server): net.Server {
  const fields = onreadFields()
  if (!fields) return createServer()
  const server = createServer({ pauseOnConnect: true })
  server.prependListener('connection', (socket: LentSocket) => {
    const handle = (socket as unknown as { _handle?: { useUserBuffer?: (buffer: Uint8Array) => void } })._handle
    const slots = socket as unknown as Record<symbol, unknown>
    if (typeof handle?.useUserBuffer === 'function' && slots[fields.buffer] === null && slots[fields.callback] === null) {
      const reads: LentReads = { deliver: undefined, early: [] }
      const buffer = sharedBuffer()
      slots[fields.buffer] = buffer
      slots[fields.callback] = lentReadCallback(reads)
      handle.useUserBuffer(buffer)
      socket[lentReads] = reads
    }
    process.nextTick(() => socket.resume())
  })
  return server
}

let fieldsFound: { buffer: symbol; callback: symbol } | null | undefined

/** net.Socket's own fields for `onread`'s buffer and callback, as a socket made with them holds them. */
function onreadFields(): { buffer: symbol; callback: symbol } | null {
  if (fieldsFound !== undefined) return fieldsFound
  const buffer = Buffer.alloc(1)
  const callback = () => true
  const probe = new net.Socket({ onread: { buffer, callback } })
  const slots = probe as unknown as Record<symbol, unknown>
  const symbols = Object.getOwnPropertySymbols(probe)
  const bufferField = symbols.find((symbol) => slots[symbol] === buffer)
  const callbackField = symbols.find((symbol) => slots[symbol] === callback)
  probe.destroy()
  fieldsFound = bufferField && callbackField ? { buffer: bufferField, callback: callbackField } : null
  return fieldsFound
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
 * Replaces Peer#setThrottlePipes once per process: a socket made by connectLendingReads or
 * accepted by createServerLendingReads feeds its wire directly; every other peer keeps
 * webtorrent's pipes. Returns why nothing was changed
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
    const feed = (chunk: Buffer, receive: typeof receiveLent) => {
      this.emit('download', chunk.length)
      if (this.destroyed) return
      // A parser that throws on what a peer sent ends that peer, not the daemon: the read
      // callback runs straight from the socket, with nothing above it to catch.
      try {
        receive(wire, chunk)
      } catch (error) {
        this.destroy(error instanceof Error ? error : new Error(String(error)))
      }
    }
    reads.deliver = (chunk) => feed(chunk, receiveLent)
    for (const chunk of reads.early.splice(0)) feed(chunk, receiveOwned)
  }
  return true
}
