import type { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { torrentUtpListenerBufferBytes, torrentUtpListenerCloseWaitMs } from '../../config/defaults.js'
import type { Logger } from '../../log.js'

// utp-native runs a 20 ms libuv timer for every bound uTP socket (binding.cc,
// UTP_NAPI_TIMEOUT_INTERVAL), connections or not: webtorrent's uTP listener alone woke the
// daemon 50 times a second for as long as the engine was loaded, with every torrent dormant and
// no peer anywhere (3,000 of the seeding bench's 3,300 idle wake-ups a minute at 1,000 torrents).
// The listener is only worth that while a torrent is live. With none (all dormant, or none at
// all) it is closed, and opened again on the same port when one starts; dormant torrents stay
// reachable over TCP, whose listening socket has no timer, and a peer whose uTP attempt gets no
// answer tries TCP (libtorrent, webtorrent and Transmission all fall back). Outgoing uTP
// connections are sockets of their own (utp-native `connect`) and are not affected.

/** utp-native's socket, as conn-pool uses it for the listener. */
interface UtpServer extends EventEmitter {
  listen(port: number): void
  /** true: refuse incoming connections (libutp's firewall callback). */
  firewall?(refuse: boolean): void
  close(onclose?: () => void): void
  setSendBufferSize(bytes: number): number
  setRecvBufferSize(bytes: number): number
}

/** The parts of webtorrent 3's conn-pool (lib/conn-pool.js) this touches. */
interface ConnPool {
  utpServer?: UtpServer | null
  tcpServer: { address(): { port: number } | string | null } | null
  _client: unknown
  _onUTPConnectionBound?: (conn: unknown) => void
}

/** The parts of webtorrent's client this touches: its torrents, its pool and its events. */
export interface UtpClient extends EventEmitter {
  torrents: unknown[]
  listening: boolean
  destroyed?: boolean
  _connPool?: ConnPool | null
}

export interface UtpListenerOptions {
  log: Logger
  /** utp-native's `createServer` (the copy webtorrent loads); tests may pass their own. */
  createServer?: () => UtpServer
  /** How long a close may wait for the socket's last connections (defaults.torrentUtpListenerCloseWaitMs). */
  closeWaitMs?: number
}

/** The utp-native webtorrent itself loads (lib/utp.cjs), resolved from webtorrent's folder when first needed. */
const utpCreateServer = (): UtpServer => {
  const fromWebtorrent = createRequire(createRequire(import.meta.url).resolve('webtorrent'))
  return (fromWebtorrent('utp-native') as { createServer(): UtpServer }).createServer()
}

/**
 * Closes `client`'s uTP listener while it has no torrent and opens it again when it gets one.
 * Returns undefined when done, or why nothing was done (webtorrent not shaped as expected).
 */
export function parkUtpListenerWhileIdle(client: UtpClient, options: UtpListenerOptions): string | undefined {
  if (!Array.isArray(client.torrents) || !('_connPool' in client)) return 'webtorrent changed: its client has no torrents list or conn pool'
  const createServer = options.createServer ?? utpCreateServer
  const closeWaitMs = options.closeWaitMs ?? torrentUtpListenerCloseWaitMs
  const log = options.log
  /** Set once this closed the pool's listener (never open one where uTP was off). */
  let parked = false
  /** Opens and closes run one after another: a close must finish before the port is bound again. */
  let steps = Promise.resolve()

  const apply = async (): Promise<void> => {
    const pool = client._connPool
    if (!pool || pool._client === null || client.destroyed) return
    const wantOpen = client.torrents.length > 0
    if (!wantOpen && pool.utpServer) {
      const server = pool.utpServer
      pool.utpServer = null
      parked = true
      server.removeAllListeners('connection')
      server.removeAllListeners('listening')
      server.removeAllListeners('error')
      server.on('error', (err: Error) => log.debug({ err }, 'uTP listener error while closing'))
      // utp-native's close waits for the connections on the socket: take no new one, end any that
      // arrives meanwhile, and stop waiting after closeWaitMs (a reopen then finds the port taken
      // and this client goes on over TCP only).
      server.firewall?.(true)
      server.on('connection', (conn: { destroy?: () => void }) => conn.destroy?.())
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          log.warn({ waitedMs: closeWaitMs }, 'the uTP listener has not closed yet; not waiting for it')
          resolve()
        }, closeWaitMs)
        timer.unref()
        server.close(() => resolve())
      })
      clearTimeout(timer)
      log.debug({}, 'no live torrent: uTP listener closed')
      return
    }
    if (wantOpen && parked && !pool.utpServer) {
      const address = pool.tcpServer?.address()
      if (!address || typeof address === 'string') return
      const server = createServer()
      if (pool._onUTPConnectionBound) server.on('connection', pool._onUTPConnectionBound)
      server.on('error', (err: Error) => {
        // The port taken by someone else meanwhile: go on over TCP only, as webtorrent does.
        log.warn({ err, port: address.port }, 'uTP listener could not be opened again; peers reach this client over TCP')
        if (pool.utpServer === server) pool.utpServer = null
        parked = false
        server.close()
      })
      server.listen(address.port)
      server.setSendBufferSize(torrentUtpListenerBufferBytes)
      server.setRecvBufferSize(torrentUtpListenerBufferBytes)
      pool.utpServer = server
      parked = false
      log.debug({ port: address.port }, 'a torrent is live: uTP listener open again')
    }
  }
  const update = () => {
    // Before the pool listens, conn-pool is still about to create its listener: decide then.
    if (!client.listening) return
    steps = steps.then(apply).catch((err: unknown) => log.warn({ err }, 'could not open or close the uTP listener'))
  }
  client.on('add', update)
  client.on('remove', update)
  client.on('listening', update)
  client.once('close', () => {
    client.removeListener('add', update)
    client.removeListener('remove', update)
    client.removeListener('listening', update)
  })
  return undefined
}
