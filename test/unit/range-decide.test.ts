import { describe, expect, it } from 'vitest'
import { decideRange, ifRangeHolds } from '../../src/server/routes/range.js'

const etag = '"5f5e1000-2710"'
const lastModified = new Date('2026-03-03T10:00:00Z')
const decide = (range: string | undefined, size = 10_000, ifRange?: string, maxRanges = 64) =>
  decideRange({ range, ifRange, size, etag, lastModified, maxRanges })

describe('Range decisions', () => {
  it('serves the whole file when there is no Range or it is not in bytes', () => {
    expect(decide(undefined)).toEqual({ kind: 'full' })
    expect(decide('items=0-1')).toEqual({ kind: 'full' })
    expect(decide('bytes=')).toEqual({ kind: 'full' })
  })

  it('cuts single, open-ended and suffix ranges with inclusive ends', () => {
    expect(decide('bytes=0-0')).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 0 }] })
    expect(decide('bytes=9000-')).toEqual({ kind: 'partial', ranges: [{ start: 9000, end: 9999 }] })
    expect(decide('bytes=-100')).toEqual({ kind: 'partial', ranges: [{ start: 9900, end: 9999 }] })
    expect(decide('bytes=-20000')).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 9999 }] })
    expect(decide('bytes=9990-20000')).toEqual({ kind: 'partial', ranges: [{ start: 9990, end: 9999 }] })
  })

  it('answers 416 for malformed or wholly unsatisfiable ranges', () => {
    for (const range of ['bytes=abc', 'bytes=5', 'bytes=0-5,', 'bytes=,0-5', 'bytes=10000-', 'bytes=-0', 'bytes=5-1', 'bytes=99999999999999999999-']) {
      expect(decide(range), range).toEqual({ kind: 'unsatisfiable' })
    }
  })

  it('keeps multiple ranges in the asked order without merging them', () => {
    expect(decide('bytes=100-199,0-9,5-14')).toEqual({ kind: 'partial', ranges: [{ start: 100, end: 199 }, { start: 0, end: 9 }, { start: 5, end: 14 }] })
  })

  it('serves the whole file when the ranges add up to more than it or exceed the range limit', () => {
    expect(decide('bytes=0-,0-')).toEqual({ kind: 'full' })
    expect(decide('bytes=0-0,2-2,4-4', 10_000, undefined, 2)).toEqual({ kind: 'full' })
  })

  it('serves an empty file whole for any range starting at zero, like nginx', () => {
    expect(decide('bytes=0-', 0)).toEqual({ kind: 'full' })
    expect(decide('bytes=-5', 0)).toEqual({ kind: 'full' })
    expect(decide('bytes=5-10', 0)).toEqual({ kind: 'unsatisfiable' })
  })

  it('honours If-Range only for the exact ETag or Last-Modified date', () => {
    expect(decide('bytes=0-1', 10_000, etag).kind).toBe('partial')
    expect(decide('bytes=0-1', 10_000, 'W/"5f5e1000-2710"').kind).toBe('full')
    expect(decide('bytes=0-1', 10_000, lastModified.toUTCString()).kind).toBe('partial')
    expect(decide('bytes=0-1', 10_000, 'Tue, 03 Mar 2026 10:00:01 GMT').kind).toBe('full')
    expect(ifRangeHolds('"x"', undefined, undefined)).toBe(false)
    expect(ifRangeHolds('Tue, 03 Mar 2026 10:00:00 GMT', etag, undefined)).toBe(false)
  })
})
