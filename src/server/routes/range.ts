// Range and If-Range (RFC 9110 13.1.5, 14.2) with nginx's decisions, checked request by request
// against a real nginx in test/integration/stream-range-conformance.test.ts. Hand-written because
// range-parser (the jshttp one) rejects a suffix longer than the file, which RFC 9110 14.1.2 says
// means the whole file, and ignores malformed headers where nginx answers 416. docs/stream-server.md
// lists the rules.
import type { ByteRange } from '../../services/media/byte-source.js'
import { parseHttpDate } from '../../services/media/http-date.js'

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; ranges: ByteRange[] }
  | { kind: 'unsatisfiable' }

export interface RangeInput {
  range: string | undefined
  ifRange: string | undefined
  size: number
  etag?: string | undefined
  lastModified?: Date | undefined
  /** More ranges than this: the whole file (nginx `max_ranges`). */
  maxRanges: number
}

const full: RangeDecision = { kind: 'full' }
const unsatisfiable: RangeDecision = { kind: 'unsatisfiable' }
const maxOffT = 9223372036854775807n

/** What to answer for a Range header: never throws, whatever the header holds. */
export function decideRange(input: RangeInput): RangeDecision {
  const { range, ifRange } = input
  if (range === undefined || range.length < 7 || range.slice(0, 6).toLowerCase() !== 'bytes=') return full
  if (ifRange !== undefined && !ifRangeHolds(ifRange, input.etag, input.lastModified)) return full
  return parseByteRanges(range.slice(6), input.size, input.maxRanges)
}

/** If-Range: a quoted value is compared byte for byte with the ETag, anything else as a date. */
export function ifRangeHolds(ifRange: string, etag: string | undefined, lastModified: Date | undefined): boolean {
  if (ifRange.length >= 2 && ifRange.endsWith('"')) return etag !== undefined && etag === ifRange
  if (lastModified === undefined) return false
  const date = parseHttpDate(ifRange)
  return date !== undefined && date.getTime() === lastModified.getTime()
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

export function parseByteRanges(spec: string, size: number, maxRanges: number): RangeDecision {
  const n = spec.length
  let p = 0
  const ranges: ByteRange[] = []
  let total = 0
  const skipSpaces = (): void => {
    while (p < n && spec.charCodeAt(p) === 32) p++
  }
  // undefined for no digits or a value past 2^63-1 (nginx's off_t overflow: 416).
  const number = (): number | undefined => {
    const from = p
    while (p < n && isDigit(spec.charCodeAt(p))) p++
    if (p === from) return undefined
    const digits = spec.slice(from, p)
    if (digits.length > 19 || (digits.length === 19 && BigInt(digits) > maxOffT)) return undefined
    return Number(digits)
  }

  for (;;) {
    let start = 0
    let end: number
    skipSpaces()
    if (spec[p] !== '-') {
      const first = number()
      if (first === undefined) return unsatisfiable
      start = first
      skipSpaces()
      if (spec[p] !== '-') return unsatisfiable
      p++
      skipSpaces()
      if (p === n || spec[p] === ',') {
        end = size
      } else {
        const last = number()
        if (last === undefined) return unsatisfiable
        skipSpaces()
        if (p !== n && spec[p] !== ',') return unsatisfiable
        end = last >= size ? size : last + 1
      }
    } else {
      p++
      const suffix = number()
      if (suffix === undefined) return unsatisfiable
      skipSpaces()
      if (p !== n && spec[p] !== ',') return unsatisfiable
      start = suffix < size ? size - suffix : 0
      end = size
    }
    // `end` is exclusive from here on.
    if (start < end) {
      ranges.push({ start, end: end - 1 })
      total += end - start
      if (ranges.length > maxRanges) return full
    } else if (start === 0) {
      // Only an empty file gets here: there is nothing to cut, so the whole (empty) body.
      return full
    }
    if (p === n) break
    p++
  }
  if (ranges.length === 0) return unsatisfiable
  // Overlapping ranges adding up to more than the file: serving the file once is cheaper.
  if (total > size) return full
  return { kind: 'partial', ranges }
}
