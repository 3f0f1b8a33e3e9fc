// What the stream server reads a direct-play session from (contract 1.3, 4.2): a local file, a
// debrid direct link, or a torrent file still downloading. The server knows only this interface,
// so the torrent engine plugs in through `in-progress-file-source.ts` without touching it.
import { extname } from 'node:path'
import type { Readable } from 'node:stream'
import { createRequire } from 'node:module'
import type MimeTypes from 'mime-types'

// mime-types (and its ~200 KB database) is required on the first lookup: an idle agent never needs it.
let mimeTypes: typeof MimeTypes | undefined
const lookupMime = (ext: string): string | false => (mimeTypes ??= createRequire(import.meta.url)('mime-types') as typeof MimeTypes).lookup(ext)

/** Inclusive byte positions, as in `Content-Range` and `createReadStream({ start, end })`. */
export interface ByteRange {
  start: number
  end: number
}

export interface ByteSourceInfo {
  /** Total size in bytes, known before any byte is read (a torrent file has it from metadata). */
  size: number
  contentType: string
  /** A strong validator (quoted), or undefined when the source has none. */
  etag?: string
  /** Whole seconds; undefined when the source has none. */
  lastModified?: Date
  /** True when a read may wait long for its bytes (a torrent still downloading). */
  waitsForData?: boolean
}

/** The bytes of one source held steady for one response (one file descriptor, one HEAD result). */
export interface OpenByteSource extends ByteSourceInfo {
  /**
   * Resolves once bytes can flow: a URL source resolves after the upstream answered, so a failure
   * still becomes a status (502) instead of a cut response. Destroying the stream releases it.
   */
  read(range: ByteRange, signal: AbortSignal): Promise<Readable>
  /**
   * Positional reads into the caller's buffer, for sources that have them (local files): the
   * server then writes a range without a stream per response (routes/send-positional.ts). Calls
   * back with the bytes read, 0 at the end of the file, and may do so before it returns (a read
   * served inline from the page cache).
   */
  readAt?(buffer: Buffer, offset: number, length: number, position: number, callback: ReadAtCallback): void
  /** Idempotent; called once the response is done or abandoned. */
  close(): Promise<void>
}

export type ReadAtCallback = (err: Error | null, bytesRead: number) => void

/**
 * A body whose buffers may be reused once the response has `finish`ed (every byte handed to the
 * kernel). Called only after a body ended and its response finished; never after an error.
 */
export interface RecyclableBody {
  recycle(): void
}

export function isRecyclableBody(body: unknown): body is RecyclableBody {
  return typeof (body as Partial<RecyclableBody> | null)?.recycle === 'function'
}

export interface ByteSource {
  /** Human label for logs (never a URL with credentials in it). */
  readonly label: string
  /** Throws SourceMissingError when the bytes are gone (answered as the stream server's 404). */
  open(signal: AbortSignal): Promise<OpenByteSource>
}

// mime-db says video/x-m4v for .m4v; the contract serves mp4 and m4v alike as video/mp4 (4.2).
const contentTypeOverrides: Record<string, string> = {
  '.m4v': 'video/mp4',
  '.mkv': 'video/x-matroska',
  '.mk3d': 'video/x-matroska',
  '.ts': 'video/mp2t',
}

/** Content type from a file name's extension; `application/octet-stream` when unknown. */
export function contentTypeForName(name: string): string {
  const ext = extname(name).toLowerCase()
  if (ext === '') return 'application/octet-stream'
  const override = contentTypeOverrides[ext]
  if (override !== undefined) return override
  const found = lookupMime(ext)
  return found === false ? 'application/octet-stream' : found
}

/** nginx's validator shape (`"<mtime hex>-<size hex>"`), so caches that saw either agree. */
export function fileEtag(mtimeSeconds: number, size: number): string {
  return `"${mtimeSeconds.toString(16)}-${size.toString(16)}"`
}
