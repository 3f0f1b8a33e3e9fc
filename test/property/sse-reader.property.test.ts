import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SseLimitError } from '../../src/errors.js'
import { createSseReader, type SseFrame } from '../../src/services/http/sse-reader.js'

// The reader is fed by the network in whatever pieces TCP and proxies make; none of that may
// change what comes out, and no byte sequence may crash it or make it hold unbounded memory.

const encoder = new TextEncoder()

/** Text without line breaks (lone surrogates would not survive UTF-8, so they are dropped). */
const lineText = fc
  .string({ unit: 'binary', maxLength: 40 })
  .map((text) => text.replace(/[\r\n]/g, '').replace(/[\uD800-\uDFFF]/g, ''))

type Item =
  | { kind: 'event'; event: string; data: string[]; id?: string }
  | { kind: 'comment'; text: string }

const item: fc.Arbitrary<Item> = fc.oneof(
  fc.record(
    {
      kind: fc.constant('event' as const),
      event: fc.constantFrom('', 'ping', 'sync', 'command', 'message', 'other'),
      data: fc.array(lineText, { minLength: 1, maxLength: 4 }),
      id: lineText.map((id) => id.replace(/\0/g, '')),
    },
    { requiredKeys: ['kind', 'event', 'data'] },
  ),
  fc.record({ kind: fc.constant('comment' as const), text: lineText }),
)

const stream = fc.record({
  items: fc.array(item, { maxLength: 12 }),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  bom: fc.boolean(),
})

function render({ items, eol, bom }: { items: Item[]; eol: string; bom: boolean }): Uint8Array {
  let text = bom ? '\uFEFF' : ''
  for (const entry of items) {
    if (entry.kind === 'comment') {
      text += `: ${entry.text}${eol}`
      continue
    }
    if (entry.event !== '') text += `event: ${entry.event}${eol}`
    if (entry.id !== undefined) text += `id: ${entry.id}${eol}`
    for (const line of entry.data) text += `data: ${line}${eol}`
    text += eol
  }
  return encoder.encode(text)
}

function expected(items: Item[]): SseFrame[] {
  return items.map((entry) => {
    if (entry.kind === 'comment') return { event: 'ping', data: entry.text, comment: true }
    const frame: SseFrame = { event: entry.event || 'message', data: entry.data.join('\n') }
    if (entry.id !== undefined) frame.id = entry.id
    return frame
  })
}

/** Cuts `bytes` at the given positions (any, repeated, unsorted). */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Uint8Array[] = []
  let start = 0
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point))
    start = point
  }
  return chunks
}

function run(chunks: Uint8Array[], limits: { maxLineBytes: number; maxEventBytes: number }) {
  const frames: SseFrame[] = []
  const reader = createSseReader({ ...limits, onFrame: (frame) => frames.push(frame) })
  let error: unknown
  let maxBuffered = 0
  for (const piece of chunks) {
    try {
      reader.feed(piece)
    } catch (caught) {
      error = caught
      break
    }
    maxBuffered = Math.max(maxBuffered, reader.bufferedBytes)
  }
  if (error === undefined) reader.end()
  return { frames, error, maxBuffered }
}

const defaultLimits = { maxLineBytes: 256 * 1024, maxEventBytes: 1024 * 1024 }

describe('SSE reader properties', () => {
  it('reads every frame of a valid stream, however the bytes are chunked', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 30 }), (generated, cuts) => {
        const bytes = render(generated)
        const result = run(chunk(bytes, cuts), defaultLimits)
        expect(result.error).toBeUndefined()
        expect(result.frames).toEqual(expected(generated.items))
      }),
      { numRuns: 300 },
    )
  })

  it('gives the same frames for one byte at a time as for the whole stream', () => {
    fc.assert(
      fc.property(stream, (generated) => {
        const bytes = render(generated)
        const single = run(Array.from(bytes, (byte) => Uint8Array.of(byte)), defaultLimits)
        expect(single.frames).toEqual(run([bytes], defaultLimits).frames)
      }),
      { numRuns: 100 },
    )
  })

  it('never throws anything but SseLimitError on arbitrary bytes, and holds at most one line and one event', () => {
    const limits = { maxLineBytes: 48, maxEventBytes: 160 }
    const noisy = fc.array(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom(...['\n', '\r', '\r\n', 'data: ', ': ', 'event: ', 'id: ', '\uFEFF'].map((text) => encoder.encode(text))),
      ),
      { maxLength: 60 },
    )
    fc.assert(
      fc.property(noisy, fc.array(fc.nat(), { maxLength: 20 }), (parts, cuts) => {
        const bytes = Uint8Array.from(parts.flatMap((part) => [...part]))
        const chunked = run(chunk(bytes, cuts), limits)
        if (chunked.error !== undefined) expect(chunked.error).toBeInstanceOf(SseLimitError)
        expect(chunked.maxBuffered).toBeLessThanOrEqual(limits.maxLineBytes + limits.maxEventBytes)
        // Chunking changes nothing, not even where a limit trips.
        const whole = run([bytes], limits)
        expect(chunked.frames).toEqual(whole.frames)
        expect(chunked.error === undefined).toBe(whole.error === undefined)
      }),
      { numRuns: 500 },
    )
  })
})
