// A torrent file that is still downloading, direct-played while it fills (contract 1.2, 1.3).
// The size is known from the torrent's metadata; a read of a range whose pieces have not arrived
// waits inside the provider's stream, and backpressure from a slow player flows back to it.
import type { Readable } from 'node:stream'
import { SourceMissingError } from '../../errors.js'
import { contentTypeForName, type ByteRange, type ByteSource, type OpenByteSource } from './byte-source.js'

/**
 * The slice of the torrent engine this adapter needs (`src/services/torrent/engine.ts`).
 * `end` is inclusive, as in webtorrent's `file.createReadStream`.
 */
export interface TorrentFileProvider {
  createReadStream(infoHash: string, fileIndex: number, range: { start: number; end: number }): Readable
}

export interface InProgressFileSourceOptions {
  provider: TorrentFileProvider
  infoHash: string
  fileIndex: number
  /** The file's total size from the torrent metadata. */
  size: number
  /** The file's name inside the torrent; only its extension is used (content type). */
  name: string
  /** False once the task is deleted: the stream server then answers 404. */
  isAvailable?: () => boolean
}

export function createInProgressFileSource(options: InProgressFileSourceOptions): ByteSource {
  const { provider, infoHash, fileIndex, size, name } = options
  const contentType = contentTypeForName(name)
  // The info hash fixes the bytes for good, so it is a strong validator for every range.
  const etag = `"${infoHash.toLowerCase()}-${fileIndex.toString(16)}-${size.toString(16)}"`
  return {
    label: `torrent:${infoHash}/${fileIndex}`,
    open(): Promise<OpenByteSource> {
      if (options.isAvailable !== undefined && !options.isAvailable()) {
        return Promise.reject(new SourceMissingError(`torrent ${infoHash} file ${fileIndex} is no longer available`, { details: { infoHash, fileIndex } }))
      }
      return Promise.resolve({
        size,
        contentType,
        etag,
        waitsForData: true,
        read(range: ByteRange): Promise<Readable> {
          return Promise.resolve(provider.createReadStream(infoHash, fileIndex, { start: range.start, end: range.end }))
        },
        close: () => Promise.resolve(),
      })
    },
  }
}
