import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Reassembler } from '../../src/services/netstack/tcp-reassembly.js'
import { seqAdd, seqDiff } from '../../src/services/netstack/seq.js'

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/** The stream cut at arbitrary points, with extra arbitrary (overlapping) ranges as duplicates. */
const scenario = fc.record({
  stream: fc.uint8Array({ minLength: 1, maxLength: 3000 }),
  start: fc.oneof(fc.nat({ max: 0xffffffff }), fc.integer({ min: 0xffffffff - 3000, max: 0xffffffff })),
  cuts: fc.array(fc.nat({ max: 3000 }), { maxLength: 40 }),
  extra: fc.array(fc.tuple(fc.nat({ max: 3000 }), fc.nat({ max: 600 })), { maxLength: 20 }),
  order: fc.array(fc.nat(), { maxLength: 80 }),
})

describe('TCP reassembly', () => {
  it('any segmentation, duplication and order of a byte stream reassembles to exactly the stream', () => {
    fc.assert(fc.property(scenario, ({ stream, start, cuts, extra, order }) => {
      const points = [...new Set([0, stream.length, ...cuts.filter((c) => c < stream.length)])].sort((a, b) => a - b)
      const ranges: Array<[number, number]> = []
      for (let i = 0; i + 1 < points.length; i++) ranges.push([points[i]!, points[i + 1]!])
      for (const [from, len] of extra) if (from < stream.length) ranges.push([from, Math.min(stream.length, from + len)])
      // A deterministic shuffle driven by `order`.
      for (let i = ranges.length - 1; i > 0; i--) {
        const j = (order[i % Math.max(1, order.length)] ?? 0) % (i + 1)
        ;[ranges[i], ranges[j]] = [ranges[j]!, ranges[i]!]
      }
      const r = new Reassembler(start)
      const out: Uint8Array[] = []
      for (const [from, to] of ranges) {
        out.push(...r.receive(seqAdd(start, from), stream.subarray(from, to)))
        for (const [left, right] of r.sackBlocks(4)) {
          // Every SACK block lies beyond RCV.NXT and inside what was sent.
          expect(seqDiff(left, r.nextSeq)).toBeGreaterThan(0)
          expect(seqDiff(right, left)).toBeGreaterThan(0)
          expect(seqDiff(right, start)).toBeLessThanOrEqual(stream.length)
        }
      }
      expect(concat(out)).toEqual(stream)
      expect(r.nextSeq).toBe(seqAdd(start, stream.length))
      expect(r.bufferedBytes).toBe(0)
      expect(r.sackBlocks(4)).toEqual([])
    }), { numRuns: 300 })
  })

  it('SACK blocks are disjoint, not adjacent, and the first holds the latest segment', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 30 }), (segments) => {
      const r = new Reassembler(0)
      for (const [from, len] of segments) {
        r.receive(from, new Uint8Array(len))
        const blocks = r.sackBlocks(4)
        expect(blocks.length).toBeGreaterThan(0)
        expect(blocks[0]![0] <= from && from < blocks[0]![1]).toBe(true)
        const sorted = [...blocks].sort((a, b) => a[0] - b[0])
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]![0]).toBeGreaterThan(sorted[i - 1]![1])
      }
    }))
  })
})
