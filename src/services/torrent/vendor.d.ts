// The parts of webtorrent 3 and parse-torrent 11 that the engine uses. Neither package ships
// types; these follow node_modules/webtorrent/index.js, lib/torrent.js, lib/file.js and
// node_modules/parse-torrent/index.js.

declare module 'webtorrent' {
  import type { EventEmitter } from 'node:events'

  export interface WebTorrentOptions {
    dht?: boolean | Record<string, unknown>
    lsd?: boolean
    utPex?: boolean
    utp?: boolean
    natUpnp?: boolean | 'permanent'
    natPmp?: boolean
    tracker?: boolean | Record<string, unknown>
    torrentPort?: number
    maxConns?: number
    webSeeds?: boolean
    seedOutgoingConnections?: boolean
  }

  export interface AddOptions {
    path?: string
    announce?: string[]
    bitfield?: Uint8Array
    skipVerify?: boolean
    paused?: boolean
    deselect?: boolean
    store?: unknown
    storeOpts?: Record<string, unknown>
    destroyStoreOnDestroy?: boolean
    storeCacheSlots?: number
  }

  export interface WebTorrentFile extends EventEmitter {
    name: string
    path: string
    length: number
    offset: number
    done: boolean
    readonly downloaded: number
    readonly progress: number
    [Symbol.asyncIterator](opts?: { start?: number; end?: number }): AsyncIterator<Uint8Array>
  }

  export interface BitField {
    buffer: Uint8Array
    get(index: number): boolean
  }

  export interface Torrent extends EventEmitter {
    infoHash: string
    name: string
    length: number
    pieceLength: number
    path: string
    files: WebTorrentFile[]
    ready: boolean
    done: boolean
    paused: boolean
    destroyed: boolean
    metadata: Uint8Array | null
    torrentFile: Uint8Array
    bitfield?: BitField
    pieces: unknown[]
    announce: string[]
    private?: boolean
    /** Open peer connections. */
    wires: unknown[]
    readonly downloaded: number
    uploaded: number
    received: number
    readonly downloadSpeed: number
    readonly uploadSpeed: number
    readonly progress: number
    readonly numPeers: number
    readonly timeRemaining: number
    pause(): void
    resume(): void
    destroy(opts?: { destroyStore?: boolean } | null, cb?: (err?: Error | null) => void): void
  }

  export default class WebTorrent extends EventEmitter {
    constructor(opts?: WebTorrentOptions)
    static UTP_SUPPORT: boolean
    torrents: Torrent[]
    torrentPort: number
    /** Hex. */
    peerId: string
    /** false when the DHT is off. */
    dht: false | { announce(infoHash: string, port: number, cb: (err?: Error) => void): void }
    listening: boolean
    destroyed: boolean
    add(torrentId: unknown, opts?: AddOptions, ontorrent?: (torrent: Torrent) => void): Torrent
    address(): { address: string; family: string; port: number } | null
    destroy(cb?: (err?: Error | null) => void): void
  }
}

declare module 'parse-torrent' {
  export interface ParsedFile {
    path: string
    name: string
    length: number
    offset: number
  }

  export interface ParsedTorrent {
    infoHash: string
    name?: string
    dn?: string
    announce: string[]
    urlList: string[]
    info?: unknown
    files?: ParsedFile[]
    length?: number
    pieceLength?: number
    pieces?: string[]
    private?: boolean
    [key: string]: unknown
  }

  export default function parseTorrent(torrentId: unknown): Promise<ParsedTorrent>
  export function toMagnetURI(parsed: ParsedTorrent): string
  export function toTorrentFile(parsed: ParsedTorrent): Uint8Array
  export function remote(torrentId: unknown, opts: unknown, cb: (err: Error | null, parsed?: ParsedTorrent) => void): void
}
