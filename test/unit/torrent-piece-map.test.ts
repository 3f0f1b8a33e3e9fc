import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decideResume, parsePieceMap, type PieceMap } from '../../src/services/torrent/piece-map.js'

// docs/torrents.md, Resume: a saved verified-piece map is trusted only when it is exactly a map
// of this torrent and every file is as it recorded; anything else means hashing the data.

const infoHash = 'a'.repeat(40)
const map = (bits: number[], pieces: number, files = [{ size: 10, mtimeMs: 1.5 }]): PieceMap => ({ version: 1, infoHash, pieces, bitfield: Buffer.from(bits).toString('base64'), files })

describe('verified-piece map', () => {
  it('never throws on any text and returns a map only for a well-formed one of this torrent', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
      const parsed = parsePieceMap(text, infoHash)
      if (parsed) expect(Buffer.from(parsed.bitfield, 'base64').length).toBe(Math.ceil(parsed.pieces / 8))
    }), { numRuns: 2000 })
    const good = map([0xff, 0x80], 9)
    expect(parsePieceMap(JSON.stringify(good), infoHash)).toEqual(good)
    expect(parsePieceMap(JSON.stringify(good), 'b'.repeat(40))).toBeUndefined()
    expect(parsePieceMap(JSON.stringify({ ...good, pieces: 17 }), infoHash)).toBeUndefined()
    expect(parsePieceMap(JSON.stringify({ ...good, files: [{ size: -2, mtimeMs: 0 }] }), infoHash)).toBeUndefined()
  })

  it('accepts a map-shaped record exactly when its bitfield has the length its piece count needs', () => {
    const record = fc.record({
      version: fc.constant(1),
      infoHash: fc.constant(infoHash),
      pieces: fc.integer({ min: 1, max: 200 }),
      bitfield: fc.uint8Array({ maxLength: 30 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      files: fc.array(fc.record({ size: fc.integer({ min: -1, max: 1e9 }), mtimeMs: fc.double({ min: 0, max: 2e12, noNaN: true }) }), { minLength: 1, maxLength: 3 }),
    })
    let accepted = 0
    fc.assert(fc.property(record, (candidate) => {
      const parsed = parsePieceMap(JSON.stringify(candidate), infoHash)
      const lengthFits = Buffer.from(candidate.bitfield, 'base64').length === Math.ceil(candidate.pieces / 8)
      expect(parsed !== undefined).toBe(lengthFits)
      if (parsed) accepted++
    }), { numRuns: 2000 })
    expect(accepted).toBeGreaterThan(0)
  })

  it('trusts a map only when every file has the size and mtime it recorded', () => {
    const files = [{ size: 10, mtimeMs: 1.5 }, { size: -1, mtimeMs: 0 }]
    expect(decideResume(map([0xff, 0x80], 9, files), 9, files)).toEqual({ kind: 'complete' })
    expect(decideResume(map([0xfe, 0x80], 9, files), 9, files)).toMatchObject({ kind: 'partial' })
    expect(decideResume(map([0xff, 0x80], 9, files), 9, [{ size: 10, mtimeMs: 1.6 }, files[1]!])).toMatchObject({ kind: 'verify', reason: 'file 0 was modified' })
    expect(decideResume(map([0xff, 0x80], 9, files), 9, [files[0]!, { size: 3, mtimeMs: 2 }])).toMatchObject({ kind: 'verify', reason: 'file 1 changed size' })
    expect(decideResume(map([0xff, 0x80], 9, files), 9, [{ size: -1, mtimeMs: 0 }, files[1]!])).toMatchObject({ kind: 'verify', reason: 'file 0 is missing' })
    expect(decideResume(map([0xff, 0x80], 9, files), 10, files)).toMatchObject({ kind: 'verify' })
    expect(decideResume(undefined, 9, files)).toMatchObject({ kind: 'verify' })
  })
})
