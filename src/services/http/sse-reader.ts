import { createParser, type EventSourceParser } from 'eventsource-parser'
import { sseMaxEventBytes, sseMaxLineBytes } from '../../config/defaults.js'
import { SseLimitError } from '../../errors.js'

// Bytes in, SSE frames out (contract 6.1, protocol.md 3). The framing and the limits are done
// here on raw bytes, in front of eventsource-parser, because the limits are in bytes (256 KiB a
// line, 1 MiB an event) and a line must never be held past its limit waiting for a terminator:
// the memory held is at most one line plus one event, whatever the peer sends. Lines are cut on
// CRLF, CR or LF (a CR at the end of one chunk and an LF at the start of the next are one
// terminator), decoded only once complete (so a UTF-8 character split across chunks survives),
// and handed to the parser one at a time. A UTF-8 BOM is dropped at the start of the stream only.

export interface SseFrame {
  /** The `event:` field; `message` when absent; `ping` for a heartbeat comment line. */
  event: string
  data: string
  id?: string
  /** True when the frame was a comment line (`: ping`) surfaced as a `ping` event. */
  comment?: boolean
}

export interface SseReaderOptions {
  onFrame: (frame: SseFrame) => void
  maxLineBytes?: number
  maxEventBytes?: number
}

export interface SseReader {
  /**
   * Feeds raw bytes. Frames complete in them are delivered to `onFrame` before this returns.
   * Throws `SseLimitError` (and only that) once a limit is passed; the reader then holds nothing
   * and throws the same error on every later call: the stream must be closed and reopened.
   */
  feed(chunk: Uint8Array): void
  /** The stream ended: an unterminated line or event is dropped (as the SSE spec says). */
  end(): void
  readonly failed: SseLimitError | undefined
  /** Bytes held for the unfinished line and event (for the memory-bound property). */
  readonly bufferedBytes: number
}

const LF = 0x0a
const CR = 0x0d
const COLON = 0x3a

export function createSseReader(options: SseReaderOptions): SseReader {
  const maxLineBytes = options.maxLineBytes ?? sseMaxLineBytes
  const maxEventBytes = options.maxEventBytes ?? sseMaxEventBytes
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

  let pieces: Uint8Array[] = []
  let pendingBytes = 0
  let eventBytes = 0
  let skipLeadingLf = false
  let firstLine = true
  let failed: SseLimitError | undefined

  const parser: EventSourceParser = createParser({
    onEvent: (message) => {
      const frame: SseFrame = { event: message.event || 'message', data: message.data }
      if (message.id !== undefined) frame.id = message.id
      options.onFrame(frame)
    },
    onComment: (comment) => options.onFrame({ event: 'ping', data: comment, comment: true }),
    // Unknown fields and bad `retry` values are ignored, as the SSE spec says.
    onError: () => {},
  })

  function fail(what: 'line' | 'event', limit: number): never {
    failed = new SseLimitError(what, limit)
    pieces = []
    pendingBytes = 0
    eventBytes = 0
    throw failed
  }

  function hold(segment: Uint8Array): void {
    if (segment.length === 0) return
    if (pendingBytes + segment.length > maxLineBytes) fail('line', maxLineBytes)
    // A copy: the caller may reuse its buffer.
    pieces.push(segment.slice())
    pendingBytes += segment.length
  }

  function takeLine(last: Uint8Array): Uint8Array {
    if (pendingBytes + last.length > maxLineBytes) fail('line', maxLineBytes)
    if (pieces.length === 0) return last
    const line = new Uint8Array(pendingBytes + last.length)
    let offset = 0
    for (const piece of pieces) {
      line.set(piece, offset)
      offset += piece.length
    }
    line.set(last, offset)
    pieces = []
    pendingBytes = 0
    return line
  }

  function processLine(raw: Uint8Array): void {
    let line = raw
    if (firstLine) {
      firstLine = false
      if (line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3)
    }
    if (line.length === 0) {
      eventBytes = 0
      parser.feed('\n')
      return
    }
    // Comment lines are delivered at once and never buffered, so they do not count to the event.
    if (line[0] !== COLON) {
      eventBytes += line.length
      if (eventBytes > maxEventBytes) fail('event', maxEventBytes)
    }
    parser.feed(`${decoder.decode(line)}\n`)
  }

  return {
    feed(chunk: Uint8Array): void {
      if (failed) throw failed
      let index = 0
      const length = chunk.length
      if (skipLeadingLf && length > 0) {
        skipLeadingLf = false
        if (chunk[0] === LF) index = 1
      }
      while (index < length) {
        let end = index
        while (end < length) {
          const byte = chunk[end]
          if (byte === LF || byte === CR) break
          end++
        }
        if (end === length) {
          hold(chunk.subarray(index))
          return
        }
        processLine(takeLine(chunk.subarray(index, end)))
        if (chunk[end] === CR) {
          if (end + 1 < length) index = chunk[end + 1] === LF ? end + 2 : end + 1
          else {
            skipLeadingLf = true
            index = end + 1
          }
        } else {
          index = end + 1
        }
      }
    },
    end(): void {
      pieces = []
      pendingBytes = 0
      eventBytes = 0
      parser.reset()
    },
    get failed() {
      return failed
    },
    get bufferedBytes() {
      return pendingBytes + eventBytes
    },
  }
}

/** Every frame of a complete byte stream (tests, tools). Throws `SseLimitError` like `feed`. */
export function readSseFrames(chunks: Iterable<Uint8Array>, options: Omit<SseReaderOptions, 'onFrame'> = {}): SseFrame[] {
  const frames: SseFrame[] = []
  const reader = createSseReader({ ...options, onFrame: (frame) => frames.push(frame) })
  for (const chunk of chunks) reader.feed(chunk)
  reader.end()
  return frames
}
