import { readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Torrent } from 'webtorrent'
import * as defaults from '../../config/defaults.js'
import type { Logger } from '../../log.js'
import { removeStaleTemps, writeFileAtomic } from '../state/atomic-file.js'
import { storeFilePaths, type FilePool } from './file-store.js'

// Resume without re-hashing (docs/torrents.md, Resume): each torrent's verified-piece map is kept
// in `state_dir/torrents/<infohash>.pieces.json` with the size and mtime of each of its files. A
// start whose files still match hands webtorrent the map (`skipVerify` when every piece is there,
// its `bitfield` option otherwise); any mismatch (a size or mtime changed, a file missing) leaves
// the map out and webtorrent hashes that torrent's data, and only that torrent's.
//
// A piece is named in a map only once its bytes are on disk: the bitfield is copied first, then
// every file of the torrent written since its last sync is fdatasync'd (FilePool.sync), then the
// files are stat'ed and the map is written atomically. A piece verified after the copy waits for
// the next map. Writes are batched: at most one map per `pieceMapWriteIntervalMs` while pieces
// arrive, at once when the torrent is verified or done, and a last one when it stops. One whose
// bitfield is the map on disk's (a torrent resumed complete, at ready and done) stops before the
// fdatasync and the stat: a start stats the files once, to check the map.

export interface PieceMapFileStat {
  /** -1: the file did not exist. */
  size: number
  mtimeMs: number
}

export interface PieceMap {
  version: 1
  infoHash: string
  pieces: number
  /** webtorrent's bitfield (piece 0 = the high bit of byte 0), base64. */
  bitfield: string
  files: PieceMapFileStat[]
}

const infoHashPattern = /^[0-9a-f]{40}$/
const suffix = '.pieces.json'

/** Parses a saved map; anything that is not exactly a map of `infoHash` is undefined (the torrent is then verified). */
export function parsePieceMap(text: string, infoHash: string): PieceMap | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object') return undefined
  const map = value as Record<string, unknown>
  if (map.version !== 1 || map.infoHash !== infoHash || typeof map.bitfield !== 'string') return undefined
  if (!Number.isSafeInteger(map.pieces) || (map.pieces as number) < 0) return undefined
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(map.bitfield)) return undefined
  if (Buffer.from(map.bitfield, 'base64').length !== Math.ceil((map.pieces as number) / 8)) return undefined
  if (!Array.isArray(map.files)) return undefined
  for (const file of map.files as unknown[]) {
    if (!file || typeof file !== 'object') return undefined
    const { size, mtimeMs } = file as Record<string, unknown>
    if (!Number.isSafeInteger(size) || (size as number) < -1 || typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)) return undefined
  }
  return { version: 1, infoHash, pieces: map.pieces as number, bitfield: map.bitfield, files: (map.files as PieceMapFileStat[]).map(({ size, mtimeMs }) => ({ size, mtimeMs })) }
}

export async function statFiles(paths: readonly string[]): Promise<PieceMapFileStat[]> {
  return Promise.all(paths.map(async (path) => {
    try {
      const s = await stat(path)
      return { size: s.size, mtimeMs: s.mtimeMs }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { size: -1, mtimeMs: 0 }
      throw err
    }
  }))
}

export type ResumeDecision =
  | { kind: 'complete' }
  | { kind: 'partial'; bitfield: Uint8Array }
  | { kind: 'verify'; reason: string }

/** What a start may trust: the map when every file is as it recorded, else nothing (hash the data). */
export function decideResume(map: PieceMap | undefined, pieces: number, now: readonly PieceMapFileStat[]): ResumeDecision {
  if (!map) return { kind: 'verify', reason: 'no verified-piece map' }
  if (map.pieces !== pieces || map.files.length !== now.length) return { kind: 'verify', reason: 'the map is of another shape' }
  for (const [index, file] of now.entries()) {
    const saved = map.files[index]!
    if (saved.size !== file.size) return { kind: 'verify', reason: file.size === -1 ? `file ${index} is missing` : `file ${index} changed size` }
    if (saved.mtimeMs !== file.mtimeMs) return { kind: 'verify', reason: `file ${index} was modified` }
  }
  const bitfield = new Uint8Array(Buffer.from(map.bitfield, 'base64'))
  return isComplete(bitfield, pieces) ? { kind: 'complete' } : { kind: 'partial', bitfield }
}

function isComplete(bitfield: Uint8Array, pieces: number): boolean {
  for (let i = 0; i < pieces; i++) if (!(bitfield[i >> 3]! & (0x80 >> (i & 7)))) return false
  return true
}

interface Recorder {
  torrent: Torrent
  paths: string[] | null
  pieces: number
  /** Pieces verified (or unverified) since the last map. */
  changed: boolean
  timer: NodeJS.Timeout | undefined
  writing: Promise<void>
  /** The map on disk (the one the torrent started from, or the last written): an identical one is not written again. */
  last: PieceMap | undefined
}

export interface ResumeStart {
  /** webtorrent `client.add` options. */
  add: { skipVerify?: true; bitfield?: Uint8Array }
  /** The map the options came from (it matched the files): pass it to `track`. */
  matched?: PieceMap
}

export interface PieceMapsOptions {
  stateDir: string
  pool: FilePool
  logger: Logger
  writeIntervalMs?: number
}

/** The engine's side of resume: start options from a saved map, and the recorders of running torrents. */
export class PieceMaps {
  readonly #dir: string
  readonly #pool: FilePool
  readonly #log: Logger
  readonly #intervalMs: number
  readonly #recorders = new Map<string, Recorder>()
  /** Infohashes whose map was forgotten (recheck, removal) while a write was under way. */
  readonly #generation = new Map<string, number>()
  #cleaned: Promise<void> | undefined

  constructor(options: PieceMapsOptions) {
    this.#dir = join(options.stateDir, defaults.torrentMetadataDirName)
    this.#pool = options.pool
    this.#log = options.logger
    this.#intervalMs = options.writeIntervalMs ?? defaults.torrentPieceMapWriteIntervalMs
  }

  path(infoHash: string): string {
    return join(this.#dir, `${infoHash}${suffix}`)
  }

  async load(infoHash: string): Promise<PieceMap | undefined> {
    // Temps of map writes a kill interrupted; a map being written now (a magnet's, say) is kept.
    await (this.#cleaned ??= removeStaleTemps(this.#dir, (name) => name.endsWith(suffix)).then(() => {}))
    let text: string
    try {
      text = await readFile(this.path(infoHash), 'utf8')
    } catch {
      return undefined
    }
    const map = parsePieceMap(text, infoHash)
    if (!map) this.#log.warn({ infoHash, path: this.path(infoHash) }, 'verified-piece map unreadable; the torrent is verified instead')
    return map
  }

  /**
   * For a torrent about to start: webtorrent add options (`skipVerify` or `bitfield` when its files
   * match the map) and the map they came from, to hand to `track` for this same start (kept by the
   * caller, not here: a launch abandoned before `track` leaves nothing behind).
   */
  async startOptions(infoHash: string, torrent: { pieces?: unknown[]; files?: { path: string }[] }, root: string): Promise<ResumeStart> {
    if (!torrent.pieces || !torrent.files || !infoHashPattern.test(infoHash)) return { add: {} }
    try {
      const map = await this.load(infoHash)
      const decision = decideResume(map, torrent.pieces.length, await statFiles(storeFilePaths(root, torrent.files)))
      if (decision.kind === 'complete') return { add: { skipVerify: true }, matched: map }
      if (decision.kind === 'partial') return { add: { bitfield: decision.bitfield }, matched: map }
      if (map) this.#log.info({ infoHash, reason: decision.reason }, 'files changed since the verified-piece map was written; verifying this torrent')
    } catch (err) {
      this.#log.warn({ err, infoHash }, 'cannot check the verified-piece map; verifying this torrent')
    }
    return { add: {} }
  }

  /**
   * Whether the map on disk names every piece and the files still match it: what a torrent needs
   * to go (or be restored) dormant (dormancy.ts). Unlike startOptions it keeps nothing in memory.
   */
  async complete(infoHash: string, torrent: { pieces: number; files: { path: string }[] }, root: string): Promise<boolean> {
    if (!infoHashPattern.test(infoHash)) return false
    try {
      const map = await this.load(infoHash)
      return decideResume(map, torrent.pieces, await statFiles(storeFilePaths(root, torrent.files))).kind === 'complete'
    } catch {
      return false
    }
  }

  /**
   * Records the torrent's verified pieces from now on (batched; see the top of this file).
   * `matched`: the map this start resumed from (`startOptions`), i.e. the one on disk.
   */
  track(torrent: Torrent, infoHash: string, root: string, matched?: PieceMap): void {
    const recorder: Recorder = { torrent, paths: null, pieces: 0, changed: false, timer: undefined, writing: Promise.resolve(), last: matched }
    this.#recorders.set(infoHash, recorder)
    const soon = () => {
      recorder.changed = true
      if (recorder.timer || !recorder.paths) return
      recorder.timer = setTimeout(() => {
        recorder.timer = undefined
        void this.#write(infoHash, recorder)
      }, this.#intervalMs)
      recorder.timer.unref()
    }
    torrent.on('verified', soon)
    const now = () => {
      recorder.changed = true
      clearTimeout(recorder.timer)
      recorder.timer = undefined
      void this.#write(infoHash, recorder)
    }
    torrent.once('ready', () => {
      try {
        recorder.paths = storeFilePaths(root, torrent.files)
        recorder.pieces = torrent.pieces.length
      } catch {
        return
      }
      now()
    })
    torrent.on('done', now)
    torrent.once('close', () => {
      clearTimeout(recorder.timer)
      recorder.timer = undefined
    })
  }

  /** After the torrent stopped (its store closed and flushed): the last map, with the files as they are now. */
  async stopped(infoHash: string): Promise<void> {
    const recorder = this.#recorders.get(infoHash)
    if (!recorder) return
    this.#recorders.delete(infoHash)
    clearTimeout(recorder.timer)
    // Always compared: bytes of pieces not yet verified may have changed the files' mtimes.
    recorder.changed = true
    await this.#write(infoHash, recorder, { files: true })
  }

  /** Drops the map (recheck, removal): the next start hashes every piece. */
  async forget(infoHash: string): Promise<void> {
    this.#generation.set(infoHash, (this.#generation.get(infoHash) ?? 0) + 1)
    const recorder = this.#recorders.get(infoHash)
    if (recorder) {
      this.#recorders.delete(infoHash)
      clearTimeout(recorder.timer)
      await recorder.writing
    }
    await unlink(this.path(infoHash)).catch(() => {})
  }

  /** `files`: write the map if the files changed even when the pieces did not (the last map, at stop). */
  #write(infoHash: string, recorder: Recorder, options: { files?: boolean } = {}): Promise<void> {
    recorder.writing = recorder.writing.then(async () => {
      const paths = recorder.paths
      const bitfield = recorder.torrent.bitfield?.buffer
      if (!paths || !bitfield || !recorder.changed) return
      const generation = this.#generation.get(infoHash) ?? 0
      recorder.changed = false
      // Order matters: copy, then make every write that finished before the copy durable, then stat.
      const copy = Buffer.from(bitfield)
      const pieces = recorder.pieces
      // The map on disk names exactly these pieces (ready and done of a torrent resumed complete,
      // a timer after nothing new): nothing to make durable, so no fdatasync and no stat. Its file
      // stats can only be behind by a put still under way, whose piece changes the bitfield and
      // brings the next map; and the last map, at stop, looks at the files whatever the pieces.
      if (!options.files && recorder.last?.pieces === pieces && recorder.last.bitfield === copy.toString('base64')) return
      try {
        await this.#pool.sync(paths)
        const files = await statFiles(paths)
        if ((this.#generation.get(infoHash) ?? 0) !== generation) return
        const map: PieceMap = { version: 1, infoHash, pieces, bitfield: copy.toString('base64'), files }
        if (recorder.last && JSON.stringify(recorder.last) === JSON.stringify(map)) return
        await writeFileAtomic(this.path(infoHash), `${JSON.stringify(map)}\n`, { mode: 0o600 })
        recorder.last = map
      } catch (err) {
        recorder.changed = true
        this.#log.warn({ err, infoHash }, 'cannot write the verified-piece map; the next start verifies this torrent')
      }
    })
    return recorder.writing
  }
}
