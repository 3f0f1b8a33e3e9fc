import { EventEmitter, once } from 'node:events'
import { readFile } from 'node:fs/promises'
import type { TaskProgress } from '../../machines/task.machine.js'
import { join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import WebTorrent, { type AddOptions, type Torrent } from 'webtorrent'
import parseTorrent, { type ParsedTorrent } from 'parse-torrent'
import { Agent, type Dispatcher } from 'undici'
import * as defaults from '../../config/defaults.js'
import { AgentError, TorrentDiskFullError, TorrentEngineError, TorrentNotFoundError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { parseTorrentFile, resolveTorrentSource, torrentFilePath, type ResolvedSource } from './source.js'
import { installUtpFallback } from './utp-fallback.js'
import { FilePool, deleteTorrentFiles, fileStoreFor, noDataOnDisk, storeFilePaths } from './file-store.js'
import { readTorrentFile } from './read-stream.js'
import { PieceMaps, type PieceMap } from './piece-map.js'
import { installWireTuning } from './wire-tuning.js'
import { installLentReads } from './lent-reads.js'
import { installMseKeys } from './mse-keys.js'
import { installPiecePool } from './piece-pool.js'
import { jitterAnnounces, parkIdleTimers } from './idle-timers.js'
import { parkUtpListenerWhileIdle, type UtpClient } from './utp-listener.js'
import type { DueTimers } from './due-queue.js'
import { trackerAnnounceOnce, type AnnounceOnce } from './dormant-announcer.js'
import { dormantStats, infoHashHashOf } from './dormancy.js'
import { DormantLifecycle, type DormantEntry } from './dormant-lifecycle.js'
import { assertPeerNetworkHooks, routeClient, trackerProxyOpts, withinClearLending, withinNetwork, type PeerNetwork, type PeerNetworkRoute } from './peer-network.js'

export type { ResolvedSource } from './source.js'

export interface TorrentEngineOptions {
  downloadDir: string
  logger: Logger
  dht?: boolean
  lsd?: boolean
  pex?: boolean
  utp?: boolean
  /**
   * With uTP on: how long an outgoing uTP attempt gets before the address is tried over TCP
   * (docs/torrents.md, Peer connections). 0 leaves webtorrent's own fallback (about 41 s).
   */
  utpFallbackMs?: number
  natUpnp?: boolean
  natPmp?: boolean
  /** 0 picks a free port. */
  torrentPort?: number
  maxConns?: number
  /** Replaces every torrent's tracker list (tests point it at a loopback tracker). */
  announce?: string[]
  torrentFileMaxBytes?: number
  fetchTimeoutMs?: number
  stopTimeoutMs?: number
  /** First wait before asking a tracker again that has not answered (doubles up to the max). */
  announceRetryMinMs?: number
  announceRetryMaxMs?: number
  /** Each tracker's re-announce period is shortened by a random fraction up to this (idle-timers.ts). */
  announceJitter?: number
  dispatcher?: Dispatcher
  /** An abstract-chunk-store constructor instead of the file store (tests inject faults here; no piece maps then). */
  store?: unknown
  /** Where verified-piece maps are kept (`torrents/<infohash>.pieces.json`); without it every start verifies. */
  stateDir?: string
  pieceMapWriteIntervalMs?: number
  maxOpenFiles?: number
  /** The file store's largest single write (defaults.torrentStoreWriteSliceBytes; the bench compares). */
  writeSliceBytes?: number
  /**
   * Where peer and tracker traffic goes (the VPN's tunnel, docs/vpn.md); the clear when absent
   * or when it names no network. A change restarts the client in the new network.
   */
  route?: PeerNetworkRoute
  /** false leaves webtorrent's own wire and piece code (wire-tuning.ts; the bench compares). Default on. */
  wireTuning?: boolean
  /** false allocates every piece's buffer afresh (piece-pool.ts; process-wide once on, the bench compares). Default on with wireTuning. */
  piecePool?: boolean
  /**
   * A complete seeding torrent without peers for this long keeps only its metadata (dormancy.ts,
   * docs/torrents.md Dormant torrents); 0 or less: never. Needs piece maps (stateDir).
   */
  idleGraceMs?: number
  /** The first announce of a torrent gone (or restored) dormant comes at a random time within this. */
  dormantFirstAnnounceSpreadMs?: number
  /** Tests: the clock of the idle grace and of the dormant announces, and the announce itself. */
  dormancyTimers?: DueTimers
  dormantAnnounce?: AnnounceOnce
  /**
   * The dormant torrents' announces in flight have all ended: what they allocated is free (the
   * memory settler trims); with `firstAnnouncesDone`, a dormant wave's first announces are all
   * over and their garbage fills the heap (the settler compacts; dormant-announcer.ts).
   */
  onAnnouncesIdle?: (info: { firstAnnouncesDone: boolean }) => void
}

export interface StartTorrentInput {
  infoHash: string
  /** Saved .torrent bytes: the torrent starts without any tracker or magnet lookup. */
  torrentFile?: Uint8Array
  magnetURI?: string
}

export interface TorrentFileStats {
  /** Absolute path on disk. */
  path: string
  size: number
  downloaded: number
  progress: number
}

/** The engine's view of one torrent: the task machine's TaskProgress, plus the info hash and byte counts per file. */
export interface TorrentStats extends Omit<TaskProgress, 'files'> {
  infoHash: string
  files: TorrentFileStats[]
}

export type TorrentEngineEvent =
  /** `saved`: the torrent started from .torrent bytes it was handed or read back (nothing new to keep). */
  | { type: 'metadata'; infoHash: string; name: string; size: number; files: { path: string; size: number }[]; torrentFile: Uint8Array; saved?: boolean }
  | { type: 'ready'; infoHash: string }
  | { type: 'done'; infoHash: string }
  /** A peer connected: stats can change again (a task's progress poll wakes, task-progress-poll.ts). */
  | { type: 'peer'; infoHash: string }
  /** The torrent went dormant (only its metadata kept) or woke (a live webtorrent torrent again). */
  | { type: 'dormant'; infoHash: string; dormant: boolean }
  | { type: 'error'; infoHash: string; error: AgentError }

export type TorrentEngineListener = (event: TorrentEngineEvent) => void

export interface ReadRange {
  start?: number
  /** Inclusive. */
  end?: number
}

export interface TorrentEngine {
  /** Parses a magnet or info hash, or fetches a .torrent over HTTP(S); typed errors for bad input. */
  resolveSource(source: string, options?: { signal?: AbortSignal }): Promise<ResolvedSource>
  /** Starts (or joins) the torrent and subscribes to its facts; idempotent per info hash. Returns an unsubscribe. */
  start(input: StartTorrentInput, listener: TorrentEngineListener): () => void
  /**
   * Subscribes to the facts of a torrent the engine holds, without starting it (a parked task
   * waits so for its dormant torrent's wake; task-shard.machine.ts). Undefined when it holds none.
   */
  listen?(infoHash: string, listener: TorrentEngineListener): (() => void) | undefined
  /** Stops all traffic of the torrent, keeping its files, metadata and verified-piece map. */
  pause(infoHash: string): Promise<void>
  /** Starts a paused torrent again with its earlier input and listeners. */
  resume(infoHash: string): Promise<void>
  /** Forgets the verified pieces; a running torrent hashes all its data again (resolves once verified), a stopped one at its next start. */
  recheck(infoHash: string): Promise<void>
  /** Forgets the torrent; with deleteFiles its files go too (torrentFile names them when it is not loaded). */
  remove(infoHash: string, options: { deleteFiles: boolean; torrentFile?: Uint8Array }): Promise<void>
  stats(infoHash: string): TorrentStats | undefined
  /**
   * A byte range of one file while it may still be downloading: the stream waits for the pieces
   * it needs and makes them the torrent's most urgent ones.
   */
  createReadStream(infoHash: string, fileIndex: number, range?: ReadRange): Readable
  /** The peer port, once listening. */
  listening(): Promise<{ port: number }>
  /** How many torrents are live and dormant (docs/torrents.md, Dormant torrents). */
  dormancy?(): EngineDormancyStatus
  close(): Promise<void>
}

interface Entry extends DormantEntry {
  input: StartTorrentInput
  listeners: Set<TorrentEngineListener>
  bitfield?: Uint8Array
  /** Serialises start/stop/remove of one torrent. */
  chain: Promise<void>
}

/** What the engine holds (the torrents status, /debug). */
export interface EngineDormancyStatus {
  live: number
  dormant: number
  announces: number
}

export class WebTorrentEngine implements TorrentEngine {
  readonly #options: TorrentEngineOptions
  readonly #log: Logger
  #client: WebTorrent
  /** The network the current client was made for (undefined: the clear). */
  #network: PeerNetwork | undefined
  #unsubscribe: () => void = () => {}
  /** Serialises network switches. */
  #switching: Promise<void> = Promise.resolve()
  /** Between stopping the old client and making the new one: launches wait for the switch to make them. */
  #replacing = false
  readonly #entries = new Map<string, Entry>()
  readonly #signals = new EventEmitter()
  /**
   * Tracker announces go through fetch; without this dispatcher they would share the global,
   * keep-alive pool. Trackers like opentracker answer HTTP/1.1 without `Connection: close` and
   * then close the connection: an announce sent in that gap (another torrent's, a moment after
   * a response) lands on the dying socket and fails with "other side closed", and webtorrent
   * does not announce again for the tracker's whole interval (30 min) - a seeder invisible to
   * peers, a leecher without peers. One connection per announce removes the race.
   */
  readonly #trackerDispatcher = new Agent({ pipelining: 0 })
  #closed = false
  #utpFallbackUnsupported = false
  /** The file store's descriptors, shared by every torrent (file-store.ts). */
  readonly #files: FilePool
  readonly #store: unknown
  readonly #pieceMaps: PieceMaps | undefined
  /** Warnings about a reshaped webtorrent, logged once each. */
  readonly #warned = new Set<string>()
  /** Idle seeding torrents going dormant and waking (dormant-lifecycle.ts). */
  readonly #dormancy: DormantLifecycle<Entry>
  /**
   * Torrents started with `skipVerify` (their map names every piece) that webtorrent has not yet
   * called done: complete from the start, though webtorrent marks the pieces only after its
   * 'metadata'. With its `ready` before its `done` check, a task sampling its stats on those events
   * (task-progress-poll.ts) saw progress 0, then "all pieces, not done", and went from seeding to
   * downloading and back at every such start (and every wake).
   */
  readonly #completeFromMap = new WeakSet<Torrent>()
  /** Every torrent's info hash by its MSE hash (what an encrypted handshake names it by). */
  readonly #byHashHash = new Map<string, string>()

  constructor(options: TorrentEngineOptions) {
    this.#options = options
    this.#log = options.logger
    this.#signals.setMaxListeners(0)
    this.#files = new FilePool({ maxOpen: options.maxOpenFiles ?? defaults.torrentStoreMaxOpenFiles, writeSliceBytes: options.writeSliceBytes })
    this.#store = options.store ?? fileStoreFor(this.#files)
    // Only the engine's own store says when bytes are durable, which a map needs (piece-map.ts).
    if (options.stateDir && !options.store) {
      this.#pieceMaps = new PieceMaps({ stateDir: options.stateDir, pool: this.#files, logger: this.#log, writeIntervalMs: options.pieceMapWriteIntervalMs })
    }
    if (options.wireTuning !== false) {
      const untuned = installWireTuning()
      this.#warnOnce(untuned, 'webtorrent changed: its wire and piece code stay untuned (more CPU per GiB)')
      // Lent reads parse with the tuned wire's rules (what may keep a view of a read).
      if (!untuned) this.#warnOnce(installLentReads(), 'webtorrent changed: peer sockets allocate a buffer per read (more GC per GiB)')
    }
    if (options.wireTuning !== false) this.#warnOnce(installMseKeys(), 'bittorrent-protocol changed: each encrypted connection checks the MSE prime again (~20 ms CPU)')
    if (options.wireTuning !== false && options.piecePool !== false) this.#warnOnce(installPiecePool({
      maxFreePerLength: defaults.torrentPiecePoolMaxFreePerLength, maxFreeBytes: defaults.torrentPiecePoolMaxFreeBytes, idleEmptyMs: defaults.torrentPiecePoolIdleEmptyMs,
    }), 'immediate-chunk-store changed: piece buffers are not reused (more GC per GiB)')
    const grace = options.idleGraceMs ?? defaults.torrentIdleGraceMs
    const pieceMaps = this.#pieceMaps
    this.#dormancy = new DormantLifecycle<Entry>({
      // Dormancy needs piece maps: a wake trusts the map instead of hashing.
      idleGraceMs: pieceMaps && Number.isFinite(grace) && grace > 0 ? grace : 0,
      timers: options.dormancyTimers,
      host: {
        entry: (infoHash) => this.#entries.get(infoHash),
        enqueue: (entry, step) => this.#enqueue(entry, step),
        halt: (entry) => this.#halt(entry, { keepUploads: true }),
        launchLive: (infoHash, launch) => this.#launch(infoHash, { live: true, wake: launch?.wake }),
        whenReady: (infoHash) => this.#whenReady(infoHash),
        emit: (entry, event) => this.#emit(entry, event),
        closed: () => this.#closed,
        busy: () => this.#closed || this.#replacing,
        networkOpen: () => !this.#network || this.#network.isOpen(),
        mapComplete: (infoHash, torrent, root) => pieceMaps ? pieceMaps.complete(infoHash, torrent, root) : Promise.resolve(false),
        savedTorrentPath: (infoHash) => this.#savedTorrentPath(infoHash),
        liveTorrent: (client, infoHash) => {
          const torrent = this.#entries.get(infoHash)?.torrent
          // Only a torrent of the client asking (not one being made in a client that replaced it).
          return torrent && !torrent.destroyed && (torrent as unknown as { client?: unknown }).client === client ? torrent : undefined
        },
        infoHashOfHash: (infoHashHash) => this.#byHashHash.get(infoHashHash),
        log: this.#log,
      },
      firstSpreadMs: options.dormantFirstAnnounceSpreadMs ?? defaults.torrentDormantFirstAnnounceSpreadMs,
      defaultIntervalMs: defaults.torrentDormantAnnounceIntervalMs,
      jitter: options.announceJitter ?? defaults.torrentAnnounceJitter,
      retryMinMs: options.announceRetryMinMs ?? defaults.torrentAnnounceRetryMinMs,
      retryMaxMs: options.announceRetryMaxMs ?? defaults.torrentAnnounceRetryMaxMs,
      announceOnce: options.dormantAnnounce ?? trackerAnnounceOnce({
        peerId: () => this.#client.peerId,
        port: () => this.#client.address()?.port ?? this.#client.torrentPort,
        proxyOpts: () => (this.#network ? trackerProxyOpts(this.#network) : { httpAgent: this.#trackerDispatcher, httpsAgent: this.#trackerDispatcher }),
        dht: () => this.#client.dht || undefined,
        timeoutMs: defaults.torrentDormantAnnounceTimeoutMs,
        onDhtError: (err, infoHash) => this.#log.debug({ err, infoHash }, 'dormant torrent DHT announce failed'),
      }),
      onAnnouncesIdle: options.onAnnouncesIdle,
    })
    this.#network = options.route?.current()
    this.#client = this.#createClient(this.#network)
    if (options.route) {
      const route = options.route
      this.#unsubscribe = route.subscribe(() => {
        this.#switching = this.#switching.then(() => this.#switchNetwork(route.current()))
      })
    }
  }

  #createClient(network: PeerNetwork | undefined): WebTorrent {
    const options = this.#options
    if (network) assertPeerNetworkHooks()
    // In a routed network (the VPN) every way of finding or reaching peers outside it is off:
    // DHT, LSD and PEX-only discovery, uTP (UDP sockets of its own) and NAT-PMP/UPnP.
    // In the clear its peer listener's connections read into the engine's shared buffer (lent-reads.ts).
    const within = network ? <T>(run: () => T) => withinNetwork(network, run) : withinClearLending
    const client = within(() => new WebTorrent({
      // `wrtc: false`: no WebSocket (WebRTC-signalling) trackers, which would be handed the
      // dispatcher as a socket agent; WebRTC is a removed feature anyway (docs/torrents.md).
      tracker: {
        wrtc: false,
        proxyOpts: network ? trackerProxyOpts(network) : { httpAgent: this.#trackerDispatcher, httpsAgent: this.#trackerDispatcher },
      },
      dht: network ? false : options.dht ?? defaults.torrentDht,
      lsd: network ? false : options.lsd ?? defaults.torrentLsd,
      utPex: network ? false : options.pex ?? defaults.torrentPex,
      utp: network ? false : options.utp ?? defaults.torrentUtp,
      natUpnp: network ? false : options.natUpnp ?? defaults.torrentNatUpnp,
      natPmp: network ? false : options.natPmp ?? defaults.torrentNatPmp,
      torrentPort: network ? network.peerPort : options.torrentPort ?? defaults.torrentPort,
      maxConns: options.maxConns ?? defaults.torrentMaxConns,
    }))
    // Torrent errors reach here only when a torrent has no 'error' listener; keep the process up.
    client.on('error', (err: Error) => this.#log.error({ err }, 'torrent client error'))
    // A peer's handshake for a dormant torrent wakes it instead of being refused; without the
    // hook a dormant torrent could not be reached by peers, so none goes dormant.
    this.#warnOnce(this.#dormancy.hookClient(client), 'webtorrent changed: idle torrents stay live (no dormant torrents)')
    // utp-native's listener wakes the process every 20 ms: closed while no torrent is live (utp-listener.ts).
    if (!network && (options.utp ?? defaults.torrentUtp)) {
      this.#warnOnce(parkUtpListenerWhileIdle(client as unknown as UtpClient, { log: this.#log }), 'webtorrent changed: its uTP listener stays open while idle')
    }
    if (network) {
      routeClient(client, network)
      const off = network.onOpenChange((open) => this.#gate(client, open))
      client.once('close', off)
    }
    return client
  }

  /** While the network is closed (the tunnel not up) torrents start no connection; they wait, never go to the clear. */
  #gate(client: WebTorrent, open: boolean): void {
    for (const torrent of client.torrents) {
      if (torrent.destroyed) continue
      if (open) torrent.resume()
      else torrent.pause()
    }
  }

  /** Stops every torrent (keeping its verified pieces), replaces the client, starts them again. */
  async #switchNetwork(network: PeerNetwork | undefined): Promise<void> {
    if (this.#closed || network === this.#network) return
    this.#log.info({ network: network?.name ?? 'clear' }, 'torrent traffic moves to another network; restarting the torrent client')
    this.#network = network
    this.#replacing = true
    const entries = [...this.#entries.entries()]
    await Promise.all(entries.map(([, entry]) => this.#enqueue(entry, () => this.#halt(entry, { keepUploads: true }))))
    const old = this.#client
    await withTimeout(new Promise<void>((done) => old.destroy(() => done())), this.#options.stopTimeoutMs ?? defaults.torrentStopTimeoutMs)
    if (this.#closed) return
    try {
      this.#client = this.#createClient(network)
    } catch (err) {
      // Routing is impossible (webtorrent changed under the hooks): torrents wait, never go to the clear.
      this.#log.error({ err, network: network?.name }, 'torrent traffic cannot be routed into the new network; torrents stay stopped')
      return
    }
    this.#replacing = false
    for (const [infoHash, entry] of entries) {
      if (!entry.paused && this.#entries.get(infoHash) === entry) void this.#enqueue(entry, () => this.#launch(infoHash))
    }
  }

  resolveSource(source: string, options: { signal?: AbortSignal } = {}): Promise<ResolvedSource> {
    return resolveTorrentSource(source, {
      torrentFileMaxBytes: this.#options.torrentFileMaxBytes,
      fetchTimeoutMs: this.#options.fetchTimeoutMs,
      dispatcher: this.#options.dispatcher,
      signal: options.signal,
    })
  }

  start(input: StartTorrentInput, listener: TorrentEngineListener): () => void {
    const infoHash = input.infoHash.toLowerCase()
    let entry = this.#entries.get(infoHash)
    if (!entry) {
      // The .torrent bytes live in entry.torrentFile (dropped while dormant), not in the input.
      entry = { input: { infoHash, magnetURI: input.magnetURI }, listeners: new Set(), torrent: null, paused: false, chain: Promise.resolve(), uploadedCarry: 0, streams: 0 }
      this.#entries.set(infoHash, entry)
      if (/^[0-9a-f]{40}$/.test(infoHash)) this.#byHashHash.set(infoHashHashOf(infoHash), infoHash)
    }
    if (input.torrentFile && !entry.torrentFile && !entry.dormant) entry.torrentFile = input.torrentFile
    if (input.magnetURI && !entry.input.magnetURI) entry.input.magnetURI = input.magnetURI
    entry.paused = false
    this.#enqueue(entry, () => this.#launch(infoHash))
    return this.#subscribe(entry, listener)
  }

  listen(infoHash: string, listener: TorrentEngineListener): (() => void) | undefined {
    const entry = this.#entries.get(infoHash.toLowerCase())
    return entry ? this.#subscribe(entry, listener) : undefined
  }

  #subscribe(entry: Entry, listener: TorrentEngineListener): () => void {
    entry.listeners.add(listener)
    return () => {
      entry.listeners.delete(listener)
    }
  }

  pause(infoHash: string): Promise<void> {
    const entry = this.#entries.get(infoHash.toLowerCase())
    if (!entry) return Promise.resolve()
    entry.paused = true
    return this.#enqueue(entry, () => this.#halt(entry))
  }

  resume(infoHash: string): Promise<void> {
    const key = infoHash.toLowerCase()
    const entry = this.#entries.get(key)
    if (!entry) return Promise.reject(new TorrentNotFoundError(`no torrent ${key} to resume`))
    entry.paused = false
    return this.#enqueue(entry, () => this.#launch(key))
  }

  async recheck(infoHash: string): Promise<void> {
    const key = infoHash.toLowerCase()
    const entry = this.#entries.get(key)
    const forget = async () => {
      if (entry) entry.bitfield = undefined
      await this.#pieceMaps?.forget(key)
    }
    if (!entry) return forget()
    // Behind a pause's stop in the queue: its last map write must land before the map is dropped.
    if (entry.paused) return this.#enqueue(entry, forget)
    await this.#enqueue(entry, async () => {
      await this.#halt(entry, { discardMap: true })
      await forget()
      await this.#launch(key)
    })
    await this.#whenReady(key)
  }

  async remove(infoHash: string, options: { deleteFiles: boolean; torrentFile?: Uint8Array }): Promise<void> {
    const key = infoHash.toLowerCase()
    const entry = this.#entries.get(key)
    let torrentFile = options.torrentFile
    if (entry) {
      entry.paused = true
      await this.#enqueue(entry, () => this.#halt(entry, { discardMap: true }))
      torrentFile = entry.torrentFile ?? torrentFile
      entry.listeners.clear()
      if (this.#entries.get(key) === entry) {
        this.#entries.delete(key)
        this.#byHashHash.delete(infoHashHashOf(key))
      }
    }
    await this.#pieceMaps?.forget(key)
    this.#signals.emit(`gone:${key}`)
    if (options.deleteFiles && torrentFile) await deleteTorrentFiles(this.#options.downloadDir, torrentFile)
  }

  stats(infoHash: string): TorrentStats | undefined {
    const entry = this.#entries.get(infoHash.toLowerCase())
    if (entry?.dormant) return dormantStats(entry.dormant, entry.uploadedCarry)
    const torrent = entry?.torrent
    if (!entry || !torrent || torrent.destroyed) return undefined
    const hasMetadata = torrent.files.length > 0 && Boolean(torrent.bitfield)
    // webtorrent says `ready` (every piece checked) and only then checks `done`: a sample taken on
    // `ready` must not see a complete torrent as not done (see #completeFromMap).
    const complete = !torrent.done && (this.#completeFromMap.has(torrent) || (torrent.ready && everyPiece(torrent)))
    const eta = torrent.timeRemaining
    return {
      infoHash: torrent.infoHash,
      name: torrent.name ?? '',
      hasMetadata,
      ready: torrent.ready,
      done: complete || torrent.done,
      progress: hasMetadata ? (complete ? 1 : torrent.progress) : 0,
      size: hasMetadata ? torrent.length : 0,
      downloaded: hasMetadata ? (complete ? torrent.length : torrent.downloaded) : 0,
      uploaded: entry.uploadedCarry + torrent.uploaded,
      downloadSpeed: Math.round(torrent.downloadSpeed),
      uploadSpeed: Math.round(torrent.uploadSpeed),
      peers: torrent.numPeers,
      etaSeconds: complete || torrent.done ? 0 : Number.isFinite(eta) ? Math.round(eta / 1000) : null,
      files: hasMetadata
        ? torrent.files.map((file) => ({
            path: torrentFilePath(torrent.path, file.path),
            size: file.length,
            downloaded: complete ? file.length : file.downloaded,
            progress: complete || file.length === 0 ? 1 : file.progress,
          }))
        : [],
    }
  }

  createReadStream(infoHash: string, fileIndex: number, range: ReadRange = {}): Readable {
    const key = infoHash.toLowerCase()
    const stream = readTorrentFile(() => this.#whenReady(key, { wake: true }), key, fileIndex, range)
    // A torrent being read from does not go dormant under its reader.
    const entry = this.#entries.get(key)
    if (entry) stream.once('close', this.#dormancy.readerOpened(entry))
    return stream
  }

  /** How many torrents are live and dormant (the torrents status, /debug). */
  dormancy(): EngineDormancyStatus {
    let live = 0
    let dormant = 0
    for (const entry of this.#entries.values()) {
      if (entry.dormant) dormant++
      else if (entry.torrent && !entry.torrent.destroyed) live++
    }
    return { live, dormant, announces: this.#dormancy.announces }
  }

  async listening(): Promise<{ port: number }> {
    if (!this.#client.listening) await once(this.#client, 'listening')
    return { port: this.#client.address()?.port ?? this.#client.torrentPort }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#unsubscribe()
    await this.#switching
    for (const entry of this.#entries.values()) entry.listeners.clear()
    // Each torrent stops on its own so its last verified-piece map is written.
    await Promise.allSettled([...this.#entries.values()].map((entry) => this.#enqueue(entry, () => this.#halt(entry))))
    for (const key of this.#entries.keys()) this.#signals.emit(`gone:${key}`)
    this.#dormancy.close()
    await withTimeout(
      new Promise<void>((done) => this.#client.destroy(() => done())),
      this.#options.stopTimeoutMs ?? defaults.torrentStopTimeoutMs,
    )
    await this.#trackerDispatcher.destroy().catch(() => {})
    await this.#files.closeAll()
  }

  #enqueue(entry: Entry, step: () => Promise<void>): Promise<void> {
    const next = entry.chain.then(step, step)
    entry.chain = next.catch((err: unknown) => this.#log.warn({ err }, 'torrent engine step failed'))
    return next
  }

  /**
   * Starts the torrent: dormant when its map says complete (unless `live`), else a webtorrent
   * torrent. `wake`: a dormant torrent made live for a peer or a reader (dormant-lifecycle.ts).
   */
  async #launch(infoHash: string, options: { live?: boolean; wake?: boolean } = {}): Promise<void> {
    const entry = this.#entries.get(infoHash)
    if (!entry || entry.paused || this.#closed || this.#replacing || (entry.torrent && !entry.torrent.destroyed)) return
    if (entry.dormant && !options.live) return
    let parsed: ParsedTorrent
    let torrentFile: Uint8Array | undefined
    let saved = false
    try {
      // A dormant torrent's .torrent was dropped from memory: it is read back from the state dir.
      torrentFile = entry.torrentFile ?? (entry.torrentFileSaved ? await readFile(this.#savedTorrentPath(infoHash)) : undefined)
      saved = torrentFile !== undefined
      parsed = torrentFile
        ? await parseTorrentFile(torrentFile, `saved metadata of ${infoHash}`)
        : await parseTorrent(entry.input.magnetURI ?? `magnet:?xt=urn:btih:${infoHash}`)
    } catch (err) {
      this.#emit(entry, { type: 'error', infoHash, error: err instanceof AgentError ? err : new TorrentEngineError((err as Error).message, { cause: err }) })
      return
    }
    if (this.#options.announce) parsed.announce = [...this.#options.announce]
    // No per-torrent piece cache: verification fills webtorrent's (20 pieces) and nothing empties it.
    const addOptions: AddOptions = { path: resolve(this.#options.downloadDir), store: this.#store, storeCacheSlots: 0 }
    // With maps the map decides (a mismatch hashes all); without, the bitfield of the last stop here.
    if (!this.#pieceMaps && entry.bitfield) addOptions.bitfield = entry.bitfield
    let resumedFrom: PieceMap | undefined
    if (this.#pieceMaps) {
      // Complete and unchanged, and nobody asking for it: straight to dormant, no webtorrent object (a restart).
      if (!options.live && this.#dormancy.enabled && parsed.pieces && parsed.files
        && await this.#pieceMaps.complete(infoHash, { pieces: parsed.pieces.length, files: parsed.files }, addOptions.path!)) {
        if (entry.paused || this.#closed || this.#replacing) return
        await this.#dormancy.restore(entry, parsed, addOptions.path!, torrentFile)
        return
      }
      const resume = await this.#pieceMaps.startOptions(infoHash, parsed, addOptions.path!)
      Object.assign(addOptions, resume.add)
      resumedFrom = resume.matched
      if (entry.paused || this.#closed || this.#replacing) return
    }
    // Not one byte of the torrent on disk (a new download): nothing to verify. Without a startup
    // bitfield webtorrent would read every piece of files that are not there (1,024 reads of a
    // 1 MiB buffer each for 1 GiB, every one failing) before requesting the first block.
    const layout = parsed as { pieces?: unknown[]; files?: { path: string }[] }
    if (!this.#options.store && !addOptions.skipVerify && !addOptions.bitfield && layout.pieces?.length && layout.files?.length) {
      if (await noDataOnDisk(storeFilePaths(addOptions.path!, layout.files))) addOptions.bitfield = new Uint8Array(Math.ceil(layout.pieces.length / 8))
      if (entry.paused || this.#closed || this.#replacing) return
    }
    // A wake whose map still matches changes nothing the task knows: it heard metadata, ready and
    // done when the torrent was started (or restored dormant) from this same .torrent and map.
    // Told again, each task re-assigned its files, wrote tasks.json and sampled its stats three
    // times per wake (docs/torrents.md, Dormant torrents, Waking).
    const quiet = options.wake === true && addOptions.skipVerify === true
    this.#dormancy.forget(entry)
    const network = this.#network
    const torrent = withinNetwork(network, () => this.#client.add(parsed, addOptions))
    entry.torrent = torrent
    // webtorrent's duplicate check (its only '_infoHash' listener) scans every torrent of the
    // client: O(torrents) per start, 7 % of the wakes after a restart of 1,000. The engine holds
    // one entry per info hash and adds a torrent only while that entry has no live one.
    const duplicateCheck = torrent.listeners('_infoHash')
    if (duplicateCheck.length === 1) torrent.removeListener('_infoHash', duplicateCheck[0] as () => void)
    // Every piece is verified (the map matched): until webtorrent says done, its figures lag.
    if (addOptions.skipVerify) {
      this.#completeFromMap.add(torrent)
      torrent.once('done', () => this.#completeFromMap.delete(torrent))
    }
    this.#pieceMaps?.track(torrent, infoHash, addOptions.path!, resumedFrom)
    if (network && !network.isOpen()) torrent.pause()
    this.#fallBackFromUtp(torrent, infoHash)
    this.#retryAnnounces(torrent, infoHash)
    this.#warnOnce(parkIdleTimers(torrent), 'webtorrent changed: idle torrents keep their timers')
    torrent.on('metadata', () => {
      entry.torrentFile = torrent.torrentFile
      if (quiet) return
      this.#emit(entry, {
        type: 'metadata',
        infoHash,
        name: torrent.name,
        size: torrent.length,
        files: torrent.files.map((file) => ({ path: torrentFilePath(torrent.path, file.path), size: file.length })),
        torrentFile: torrent.torrentFile,
        saved,
      })
    })
    torrent.on('ready', () => {
      this.#signals.emit(`ready:${infoHash}`, torrent)
      if (!quiet) this.#emit(entry, { type: 'ready', infoHash })
    })
    torrent.on('done', () => {
      if (!quiet) this.#emit(entry, { type: 'done', infoHash })
    })
    torrent.on('wire', () => this.#emit(entry, { type: 'peer', infoHash }))
    // Idle (complete, no peers, no reader) for the grace: dormant.
    this.#dormancy.watch(entry, torrent)
    torrent.on('warning', (err: Error) => this.#log.debug({ err, infoHash }, 'torrent warning'))
    torrent.on('error', (err: Error) => {
      if (entry.torrent === torrent) entry.torrent = null
      this.#signals.emit(`gone:${infoHash}`)
      this.#emit(entry, { type: 'error', infoHash, error: toTorrentError(err, torrent.name || infoHash, this.#options.downloadDir) })
    })
  }

  /** Stops the torrent; with `discardMap` (recheck, remove) its piece map is dropped rather than written and synced first. */
  async #halt(entry: Entry, options: { discardMap?: boolean; keepUploads?: boolean } = {}): Promise<void> {
    this.#dormancy.forget(entry)
    const torrent = entry.torrent
    entry.torrent = null
    // A sleep or a network switch is not a new run for the task: its uploads so far keep counting.
    entry.uploadedCarry = options.keepUploads ? entry.uploadedCarry + (torrent?.uploaded ?? 0) : 0
    if (!torrent || torrent.destroyed) return
    // Without piece maps, the in-memory bitfield lets a resume check a couple of pieces per file instead of all.
    if (!this.#pieceMaps && !options.discardMap && torrent.ready && torrent.bitfield) entry.bitfield = new Uint8Array(torrent.bitfield.buffer)
    this.#signals.emit(`gone:${entry.input.infoHash}`)
    await withTimeout(
      new Promise<void>((done) => torrent.destroy({ destroyStore: false }, () => done())),
      this.#options.stopTimeoutMs ?? defaults.torrentStopTimeoutMs,
    )
    if (options.discardMap) await this.#pieceMaps?.forget(entry.input.infoHash)
    else await this.#pieceMaps?.stopped(entry.input.infoHash)
  }

  #savedTorrentPath(infoHash: string): string {
    return join(this.#options.stateDir ?? '', defaults.torrentMetadataDirName, `${infoHash}.torrent`)
  }

  /**
   * webtorrent announces `started` (and `completed` when done) once and then only every tracker
   * interval (30 min): an announce that fails - a tracker restarting, a connection it drops -
   * leaves a seeder invisible to that tracker's peers and a leecher without peers for that long.
   * Here every tracker that has not answered since the torrent started (or finished) is asked
   * again, after announceRetryMinMs doubling up to announceRetryMaxMs, until it answers.
   */
  #retryAnnounces(torrent: Torrent, infoHash: string): void {
    const minMs = this.#options.announceRetryMinMs ?? defaults.torrentAnnounceRetryMinMs
    const maxMs = this.#options.announceRetryMaxMs ?? defaults.torrentAnnounceRetryMaxMs
    /** Every tracker owes an answer to an announce sent after this (start, then done). */
    let since = Date.now()
    const answeredAt = new Map<string, number>()
    let client: TrackerClient | undefined
    let timer: NodeJS.Timeout | undefined
    let delay = minMs
    const unanswered = () => (client?._trackers ?? []).filter((t) => !t.destroyed && (answeredAt.get(t.announceUrl) ?? -1) < since)
    const onUpdate = (data: { announce?: string }) => {
      if (data.announce) answeredAt.set(data.announce, Date.now())
      if (unanswered().length === 0) {
        clearTimeout(timer)
        timer = undefined
        delay = minMs
      }
    }
    const schedule = () => {
      if (timer || torrent.destroyed || unanswered().length === 0) return
      timer = setTimeout(retry, delay)
      timer.unref()
    }
    const retry = () => {
      timer = undefined
      if (torrent.destroyed || !client) return
      const stale = unanswered()
      if (stale.length === 0) return
      this.#log.debug({ infoHash, trackers: stale.map((t) => t.announceUrl), delayMs: delay }, 'announcing again to trackers that did not answer')
      for (const tracker of stale) {
        const opts = client._defaultAnnounceOpts?.(answeredAt.has(tracker.announceUrl) ? {} : { event: 'started' })
        if (opts) tracker.announce(opts)
      }
      delay = Math.min(delay * 2, maxMs)
      // An announce that fails again warns again, which schedules the next try.
    }
    const hook = (discovery: Discovery | null | undefined) => {
      if (discovery && !completesOnlyDownloads.has(discovery) && typeof discovery.complete === 'function') {
        // BEP 3: `completed` is sent when a download completes, "not sent if the file was complete
        // when started". webtorrent sends it at the first done check of every torrent, so each
        // start of a complete one (every wake of a dormant torrent) cost a second announce to each
        // of its trackers right after its `started` (docs/torrents.md, Trackers).
        completesOnlyDownloads.add(discovery)
        const complete = discovery.complete.bind(discovery)
        discovery.complete = (opts?: unknown) => {
          if (torrent.received === 0) return
          since = Date.now()
          complete(opts)
        }
      }
      const next = discovery?.tracker ?? undefined
      if (next === client) return
      client?.off('update', onUpdate)
      client = next
      client?.on('update', onUpdate)
      this.#warnOnce(jitterAnnounces(client, this.#options.announceJitter ?? defaults.torrentAnnounceJitter), 'bittorrent-tracker changed: announces are not spread')
    }
    // The tracker client exists from the moment webtorrent creates the torrent's discovery
    // (after verification for a .torrent, at once for a magnet): hook in right there, before
    // its first announce can answer or fail.
    let discovery = (torrent as unknown as { discovery?: Discovery | null }).discovery ?? null
    hook(discovery)
    Object.defineProperty(torrent, 'discovery', {
      configurable: true,
      enumerable: true,
      get: () => discovery,
      set: (value: Discovery | null) => {
        discovery = value
        hook(value)
      },
    })
    // A failed announce reaches the torrent as a warning (discovery forwards its tracker client's);
    // discovery may also have replaced its client (a new port).
    torrent.on('warning', () => {
      hook(discovery)
      schedule()
    })
    torrent.once('close', () => {
      clearTimeout(timer)
      hook(null)
    })
  }

  /**
   * webtorrent tries every IPv4 peer over uTP four times (5 s connect timeout each, 21 s of backoff)
   * before TCP: a peer without uTP (aria2c, a NAT that drops UDP) is ~41 s away. Here a uTP attempt
   * gets utpFallbackMs, then the address is tried over TCP at once (utp-fallback.ts).
   */
  #fallBackFromUtp(torrent: Torrent, infoHash: string): void {
    const fallbackMs = this.#options.utpFallbackMs ?? defaults.torrentUtpFallbackMs
    if (!(this.#options.utp ?? defaults.torrentUtp) || !(fallbackMs > 0)) return
    installUtpFallback(torrent, {
      fallbackMs,
      onFallback: (addr) => this.#log.debug({ infoHash, addr, fallbackMs }, 'uTP did not connect; trying TCP'),
      onUnsupported: (reason) => {
        if (this.#utpFallbackUnsupported) return
        this.#utpFallbackUnsupported = true
        this.#log.warn({ reason }, 'webtorrent changed: no quick uTP-to-TCP fallback, peers without uTP take ~40 s to connect')
      },
    })
  }

  #warnOnce(reason: string | undefined, message: string): void {
    if (!reason || this.#warned.has(message)) return
    this.#warned.add(message)
    this.#log.warn({ reason }, message)
  }

  #emit(entry: Entry, event: TorrentEngineEvent): void {
    for (const listener of [...entry.listeners]) {
      try {
        listener(event)
      } catch (err) {
        this.#log.error({ err, event: event.type }, 'torrent listener threw')
      }
    }
  }

  async #whenReady(infoHash: string, options: { wake?: boolean } = {}): Promise<Torrent> {
    const sleeper = this.#entries.get(infoHash)
    if (options.wake && sleeper && !sleeper.paused && this.#dormancy.asleep(sleeper)) {
      const woken = await this.#dormancy.wake(sleeper)
      if (woken) return woken
      // A paused torrent's reader waits for the resume, as for a live one; any other failed wake is final.
      if (!sleeper.paused && !sleeper.torrent) throw new TorrentNotFoundError(`torrent ${infoHash} could not be woken to read its data`)
    }
    const torrent = this.#entries.get(infoHash)?.torrent
    if (torrent && torrent.ready && !torrent.destroyed) return torrent
    if (!this.#entries.has(infoHash) || this.#closed) throw new TorrentNotFoundError(`no active torrent ${infoHash}`)
    return new Promise<Torrent>((resolveReady, reject) => {
      const onReady = (ready: Torrent) => {
        cleanup()
        resolveReady(ready)
      }
      const onGone = () => {
        cleanup()
        reject(new TorrentNotFoundError(`torrent ${infoHash} stopped before its data could be read`))
      }
      const cleanup = () => {
        this.#signals.off(`ready:${infoHash}`, onReady)
        this.#signals.off(`gone:${infoHash}`, onGone)
      }
      this.#signals.on(`ready:${infoHash}`, onReady)
      this.#signals.on(`gone:${infoHash}`, onGone)
    })
  }
}

/** webtorrent's `torrent.discovery` (torrent-discovery): its tracker client, and the `completed` announce. */
interface Discovery {
  tracker?: TrackerClient | null
  complete?(opts?: unknown): void
}

/** Discoveries whose `completed` announce is kept for torrents that downloaded something. */
const completesOnlyDownloads = new WeakSet<object>()

/** The parts of bittorrent-tracker's client (webtorrent's `torrent.discovery.tracker`) used to announce again. */
interface TrackerClient extends EventEmitter {
  _trackers?: { announceUrl: string; destroyed?: boolean; announce(opts: Record<string, unknown>): void }[]
  _defaultAnnounceOpts?(opts: Record<string, unknown>): Record<string, unknown>
}

function everyPiece(torrent: Torrent): boolean {
  const bitfield = torrent.bitfield
  const pieces = torrent.pieces?.length ?? 0
  if (!bitfield || pieces === 0) return false
  for (let i = 0; i < pieces; i++) if (!bitfield.get(i)) return false
  return true
}

/** Maps an engine failure to a typed error; a full disk says "no space left" (protocol task `error`). */
export function toTorrentError(err: unknown, name: string, downloadDir: string): AgentError {
  if (err instanceof AgentError) return err
  const error = err as NodeJS.ErrnoException
  const message = error?.message ?? String(err)
  if (error?.code === 'ENOSPC' || /no space left/i.test(message)) {
    return new TorrentDiskFullError(`no space left on device while writing "${name}" to ${downloadDir}`, { cause: err })
  }
  return new TorrentEngineError(`${name}: ${message}`, { cause: err })
}

async function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([promise, new Promise<void>((done) => { timer = setTimeout(done, ms); timer.unref() })])
  clearTimeout(timer)
}
