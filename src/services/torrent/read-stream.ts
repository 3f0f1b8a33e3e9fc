import { Readable } from 'node:stream'
import type { Torrent } from 'webtorrent'
import { TorrentNotFoundError } from '../../errors.js'

/** A byte range of one torrent file (end inclusive) while it may still be downloading (docs/torrents.md, Streaming). */
export function readTorrentFile(whenReady: () => Promise<Torrent>, key: string, fileIndex: number, range: { start?: number; end?: number }): Readable {
  async function* read(): AsyncGenerator<Buffer> {
    const torrent = await whenReady()
    const file = torrent.files[fileIndex]
    if (!file) throw new TorrentNotFoundError(`torrent ${key} has no file ${fileIndex} (it has ${torrent.files.length})`)
    const start = range.start ?? 0
    const end = Math.min(range.end ?? file.length - 1, file.length - 1)
    if (!Number.isSafeInteger(start) || start < 0 || start > end) {
      if (file.length === 0 || start === end + 1) return
      throw new TorrentNotFoundError(`range ${start}-${range.end ?? ''} is outside file ${fileIndex} of ${file.length} bytes`)
    }
    let remaining = end - start + 1
    const iterator = file[Symbol.asyncIterator]({ start, end })
    try {
      while (remaining > 0) {
        const step = await iterator.next()
        if (step.done) break
        const chunk = step.value
        // webtorrent reads `end: 0` as "to the end of the file": cut at what was asked for.
        const take = Math.min(chunk.length, remaining)
        remaining -= take
        yield Buffer.from(chunk.buffer, chunk.byteOffset, take)
      }
    } finally {
      await iterator.return?.()
    }
    if (remaining > 0) throw new TorrentNotFoundError(`torrent ${key} stopped while file ${fileIndex} was being read (${remaining} bytes short)`)
  }
  return Readable.from(read(), { objectMode: false })
}
