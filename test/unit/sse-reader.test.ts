import { describe, expect, it } from 'vitest'
import { SseLimitError } from '../../src/errors.js'
import { createSseReader, readSseFrames, type SseFrame } from '../../src/services/http/sse-reader.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('SSE reader', () => {
  it('reads the server preamble, a heartbeat comment, a sync and a command', () => {
    const stream = 'event: ping\ndata: {}\n\n: ping\n\nevent: sync\ndata: {"reason":"scan"}\n\nevent: command\nid: 7\ndata: {"id":"c1","kind":"scan_library"}\n\n'
    expect(readSseFrames([bytes(stream)])).toEqual([
      { event: 'ping', data: '{}' },
      { event: 'ping', data: 'ping', comment: true },
      { event: 'sync', data: '{"reason":"scan"}' },
      { event: 'command', data: '{"id":"c1","kind":"scan_library"}', id: '7' },
    ])
  })

  it('accepts CRLF, CR and LF line ends, even mixed', () => {
    const expected: SseFrame[] = [{ event: 'a', data: 'x\ny' }, { event: 'b', data: 'z' }]
    expect(readSseFrames([bytes('event: a\r\ndata: x\r\ndata: y\r\n\r\nevent: b\rdata: z\r\r')])).toEqual(expected)
    expect(readSseFrames([bytes('event: a\ndata: x\rdata: y\r\n\nevent: b\r\ndata: z\n\r')])).toEqual(expected)
  })

  it('treats a CR at the end of one chunk and an LF at the start of the next as one line end', () => {
    expect(readSseFrames([bytes('data: 1\r'), bytes('\n'), bytes('\r'), bytes('\ndata: 2\n\n')])).toEqual([
      { event: 'message', data: '1' },
      { event: 'message', data: '2' },
    ])
  })

  it('keeps a UTF-8 character that is split across chunks', () => {
    const all = bytes('data: héllo 🎬\n\n')
    const chunks = Array.from(all, (byte) => Uint8Array.of(byte))
    expect(readSseFrames(chunks)).toEqual([{ event: 'message', data: 'héllo 🎬' }])
  })

  it('drops a BOM at the start of the stream, even when it is split', () => {
    const all = Uint8Array.of(0xef, 0xbb, 0xbf, ...bytes('data: x\n\n'))
    expect(readSseFrames([all.subarray(0, 1), all.subarray(1, 2), all.subarray(2)])).toEqual([{ event: 'message', data: 'x' }])
  })

  it('drops an unterminated event when the stream ends', () => {
    expect(readSseFrames([bytes('data: done\n\ndata: half')])).toEqual([{ event: 'message', data: 'done' }])
  })

  it('flags a line over the limit before its end arrives and holds nothing afterwards', () => {
    const reader = createSseReader({ maxLineBytes: 16, maxEventBytes: 64, onFrame: () => {} })
    reader.feed(bytes('data: 0123456789'))
    expect(() => reader.feed(bytes('x'))).toThrow(SseLimitError)
    expect(reader.failed?.code).toBe('MA_ERR_SSE_LIMIT')
    expect(reader.bufferedBytes).toBe(0)
    expect(() => reader.feed(bytes('\n\n'))).toThrow(SseLimitError)
  })

  it('flags an event over the limit even when every line is short', () => {
    const frames: SseFrame[] = []
    const reader = createSseReader({ maxLineBytes: 16, maxEventBytes: 40, onFrame: (frame) => frames.push(frame) })
    reader.feed(bytes('data: ok\n\n'))
    expect(() => reader.feed(bytes('data: 12345\n'.repeat(4)))).toThrow(/event longer than 40 bytes/)
    expect(frames).toEqual([{ event: 'message', data: 'ok' }])
  })

  it('does not count heartbeat comments towards the event size', () => {
    const frames: SseFrame[] = []
    const reader = createSseReader({ maxLineBytes: 16, maxEventBytes: 20, onFrame: (frame) => frames.push(frame) })
    for (let i = 0; i < 100; i++) reader.feed(bytes(': ping\n'))
    expect(frames).toHaveLength(100)
  })

  it('accepts a line of exactly 256 KiB and an event of exactly 1 MiB by default', () => {
    const line = `data: ${'x'.repeat(256 * 1024 - 6)}`
    const frames: SseFrame[] = []
    const reader = createSseReader({ onFrame: (frame) => frames.push(frame) })
    for (let i = 0; i < 4; i++) reader.feed(bytes(`${line}\n`))
    reader.feed(bytes('\n'))
    expect(frames).toHaveLength(1)
    expect(frames[0]!.data.length).toBe(4 * (256 * 1024 - 6) + 3)
    expect(() => reader.feed(bytes(`${line}x\n`))).toThrow(SseLimitError)
  })
})
