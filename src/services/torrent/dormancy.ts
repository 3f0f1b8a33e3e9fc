import { createHash } from 'node:crypto'
import type { TorrentStats } from './engine.js'
import { torrentFilePath } from './source.js'

// Dormant torrents (docs/torrents.md, Dormant torrents): a complete seeding torrent with no peers
// for the idle grace gives up its webtorrent Torrent (wires, bitfield, piece objects, discovery,
// store) and keeps only this record. Its files stay where they are and its verified-piece map on
// disk says they are complete; the .torrent is in the state dir (tasks-store.ts). It is woken -
// made a live webtorrent torrent again from the .torrent and the map, nothing hashed - when
// something needs it: a peer's handshake for its info hash (the hook below), a read stream, a
// recheck.

export interface DormantRecord {
  infoHash: string
  /** sha1('req2' + info hash): what an encrypted (MSE) handshake names the torrent by. */
  infoHashHash: string
  name: string
  /** Total bytes. */
  length: number
  pieceLength: number
  pieces: number
  /** Absolute paths and sizes. */
  files: { path: string; size: number }[]
  announce: string[]
  private: boolean
}

/** The parts of a parsed torrent (parse-torrent) or a live webtorrent Torrent a record is made of. */
export interface TorrentShape {
  infoHash: string
  name?: string
  length?: number
  pieceLength?: number
  pieces?: unknown[]
  files?: { path: string; length: number }[]
  announce?: string[]
  private?: boolean
}

/** webtorrent's `infoHashHash` (lib/index.js `_getByHash`), hex. */
export function infoHashHashOf(infoHash: string): string {
  return createHash('sha1').update(Buffer.concat([Buffer.from('req2'), Buffer.from(infoHash, 'hex')])).digest('hex')
}

export function dormantRecordOf(torrent: TorrentShape, root: string): DormantRecord {
  const files = (torrent.files ?? []).map((file) => ({ path: torrentFilePath(root, file.path), size: file.length }))
  return {
    infoHash: torrent.infoHash,
    infoHashHash: infoHashHashOf(torrent.infoHash),
    name: torrent.name ?? '',
    length: torrent.length ?? files.reduce((sum, file) => sum + file.size, 0),
    pieceLength: torrent.pieceLength ?? 0,
    pieces: torrent.pieces?.length ?? 0,
    files,
    announce: [...(torrent.announce ?? [])],
    private: Boolean(torrent.private),
  }
}

/** What a dormant torrent reports: the same figures as the idle live torrent it was (complete, no peers). */
export function dormantStats(record: DormantRecord, uploaded: number): TorrentStats {
  return {
    infoHash: record.infoHash,
    name: record.name,
    hasMetadata: true,
    ready: true,
    done: true,
    progress: 1,
    size: record.length,
    downloaded: record.length,
    uploaded,
    downloadSpeed: 0,
    uploadSpeed: 0,
    peers: 0,
    etaSeconds: 0,
    files: record.files.map((file) => ({ path: file.path, size: file.size, downloaded: file.size, progress: 1 })),
  }
}

/** The two lookups webtorrent's ConnPool makes for an incoming peer (lib/conn-pool.js `_onConnection`). */
interface LookupClient {
  get(torrentId: unknown): Promise<unknown>
  _getByHash(infoHashHash: string): Promise<unknown>
}

export interface WakeHook<T> {
  /**
   * The live torrent of this info hash (or of this MSE hash of one), when the engine has it:
   * answered without webtorrent's own lookups, which parse the id into a magnet link and scan
   * every torrent of the client (`_getByHash` hashing each one's info hash the first time), for
   * every incoming peer: O(torrents) per handshake, O(torrents^2) for a restart's wakes.
   */
  live?(infoHash: string): T | undefined
  liveByInfoHashHash?(infoHashHash: string): T | undefined
  /** The live torrent of a dormant one (woken for this peer), or null when there is none. */
  byInfoHash(infoHash: string): Promise<T | null> | null
  byInfoHashHash(infoHashHash: string): Promise<T | null> | null
}

const hex40 = /^[0-9a-f]{40}$/i

/**
 * Hooks the client's incoming-peer lookups: when webtorrent finds no torrent for a handshake's
 * info hash (or, encrypted, its hash), the engine may wake a dormant one and hand the waiting peer
 * to it; otherwise the peer is dropped as before. Instance methods on our own client: nothing
 * of webtorrent is patched. Returns why nothing was hooked when the client is shaped otherwise.
 */
export function installWakeHook<T>(client: object, hook: WakeHook<T>): string | undefined {
  const c = client as LookupClient
  if (typeof c.get !== 'function' || typeof c._getByHash !== 'function') return 'webtorrent client has no get / _getByHash'
  const get = c.get.bind(c)
  const getByHash = c._getByHash.bind(c)
  // The engine's own answer first (its live torrent, or the wake of its dormant one): every
  // torrent in the client is one of the engine's, so webtorrent's lookup is left for ids it does
  // not hold, and the hook of a client shaped without `live` asks webtorrent first as before.
  c.get = async (torrentId: unknown) => {
    const id = typeof torrentId === 'string' && hex40.test(torrentId) ? torrentId.toLowerCase() : undefined
    if (id === undefined) return get(torrentId)
    if (hook.live) {
      const known = hook.live(id) ?? hook.byInfoHash(id)
      if (known) return (await known) ?? null
    }
    const live = await get(torrentId)
    if (live) return live
    return (await hook.byInfoHash(id)) ?? null
  }
  c._getByHash = async (infoHashHash: string) => {
    if (typeof infoHashHash !== 'string') return getByHash(infoHashHash)
    const hashHash = infoHashHash.toLowerCase()
    if (hook.liveByInfoHashHash) {
      const known = hook.liveByInfoHashHash(hashHash) ?? hook.byInfoHashHash(hashHash)
      if (known) return (await known) ?? null
    }
    const live = await getByHash(infoHashHash)
    if (live) return live
    return (await hook.byInfoHashHash(hashHash)) ?? null
  }
  return undefined
}
