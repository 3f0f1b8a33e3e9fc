// One range of a source with positional reads (local files), written straight to the response:
// no Readable and no stream.pipeline per answer, whose setup and teardown cost more than the
// bytes of a player's seek. The first read is small and goes out with the head in one write, so
// the first bytes leave before the rest is read; later reads are large and overlap the socket's
// writes. Buffers come from the read pool and go back only when the socket's write callback says
// the kernel has their bytes; a response that is cut off keeps its buffers (the garbage collector
// takes them), so no buffer is reused under a pending write.
import type { ServerResponse } from 'node:http'
import {
  streamFirstReadBytes,
  streamReadChunkBytes,
  streamReadPoolSlabBytes,
  streamReadsInFlight,
  streamSendBuffers,
  streamWholeReadBytes,
} from '../../config/defaults.js'
import { SourceMissingError } from '../../errors.js'
import type { ByteRange, ReadAtCallback } from '../../services/media/byte-source.js'
import { borrowSlab, returnSlab } from '../../services/media/read-buffer-pool.js'

export type ReadAt = (buffer: Buffer, offset: number, length: number, position: number, callback: ReadAtCallback) => void

interface Slot {
  /** Pooled when `pooled`, else a buffer of its own. */
  buffer: Buffer
  pooled: boolean
  length: number
  position: number
  filled: number
}

/**
 * Writes `range` (non-empty) to `res`. `head` writes the status and headers (no bytes yet: they
 * leave with the first chunk). Rejects, without writing anything, when the first read fails
 * (the caller answers a status); resolves once the body is written or the client went away.
 */
export function sendPositional(res: ServerResponse, readAt: ReadAt, range: ByteRange, head: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let position = range.start
    const end = range.end
    /** Reads issued and not yet written, in file order. */
    const slots: Slot[] = []
    let reading = 0
    /** Buffers held: being read, waiting to be written, or queued on the socket. */
    let held = 0
    let headWritten = false
    let done = false
    let pumping = false
    let again = false
    let scheduled = false

    const finish = (err?: Error): void => {
      if (done) return
      done = true
      res.off('close', onClose)
      if (err === undefined) resolve()
      else if (!headWritten) reject(err)
      else {
        // The head and some bytes are out: only cutting the connection tells the player.
        res.destroy()
        resolve()
      }
    }
    const onClose = (): void => finish()
    res.once('close', onClose)

    const release = (slot: Slot): void => {
      held--
      if (slot.pooled) returnSlab(slot.buffer)
    }

    const issue = (slot: Slot): void => {
      reading++
      readAt(slot.buffer, slot.filled, slot.length - slot.filled, slot.position + slot.filled, (err, bytesRead) => {
        reading--
        if (done) {
          // Cut off meanwhile: the read is over, so nothing touches the buffer any more.
          release(slot)
          return
        }
        if (err !== null) return finish(err)
        if (bytesRead === 0) return finish(new SourceMissingError('the file shrank while it was being served'))
        slot.filled += bytesRead
        // A short read (possible on network file systems) reads on for the rest of its slot.
        if (slot.filled < slot.length) issue(slot)
        else pump()
      })
    }

    const write = (slot: Slot): void => {
      const view = slot.length === slot.buffer.length ? slot.buffer : slot.buffer.subarray(0, slot.length)
      if (!headWritten) {
        headWritten = true
        head()
      }
      const last = position > end && slots.length === 0
      if (last) {
        // `finish` follows the write of the last bytes: the kernel has every byte of the answer.
        res.once('finish', () => release(slot))
        res.end(view)
        return
      }
      res.write(view, (err) => {
        if (err === undefined || err === null) {
          release(slot)
          pump()
        }
      })
    }

    // Reads may call back inline (page-cache hits), so pump() is re-entered from its own loop;
    // `again` turns that into another turn of the loop instead of a nested one.
    const pump = (): void => {
      if (pumping) {
        again = true
        return
      }
      pumping = true
      try {
        do {
          again = false
          if (done) return
          let wrote = false
          while (slots.length > 0 && slots[0]!.filled === slots[0]!.length) {
            write(slots.shift()!)
            wrote = true
          }
          if (position > end) {
            if (slots.length === 0) finish()
            return
          }
          if (wrote) {
            // node's response corks the socket until the next tick: read on after the bytes
            // just written have left, not before (an inline read would hold them back).
            defer()
            return
          }
          while (position <= end && reading < streamReadsInFlight && held < streamSendBuffers) {
            const remaining = end - position + 1
            // A small first read gets the first bytes out sooner; what is left of a short range
            // (a player's seek) is then read at once, a long one in large chunks.
            const length = position === range.start
              ? Math.min(remaining, streamFirstReadBytes)
              : remaining <= streamWholeReadBytes ? remaining : Math.min(remaining, streamReadChunkBytes)
            const pooled = length <= streamReadPoolSlabBytes
            const slot: Slot = { buffer: pooled ? borrowSlab() : Buffer.allocUnsafe(length), pooled, length, position, filled: 0 }
            position += length
            held++
            slots.push(slot)
            issue(slot)
            if (done || again) break
          }
        } while (again)
      } finally {
        pumping = false
      }
    }

    const defer = (): void => {
      if (scheduled) return
      scheduled = true
      process.nextTick(() => {
        scheduled = false
        pump()
      })
    }

    pump()
  })
}
