// TCP sequence-number arithmetic modulo 2^32 (RFC 9293 3.4, RFC 1982 style comparisons).
// Every sequence value in the stack is an unsigned 32-bit integer; comparisons use the sign of
// the 32-bit difference, which is only meaningful while the two values are less than 2^31 apart
// (always true inside a TCP window, which is at most 2^30).

/** a + n, wrapped to an unsigned 32-bit sequence number. */
export function seqAdd(a: number, n: number): number {
  return (a + n) >>> 0
}

/** Signed distance from b to a: positive when a is after b. */
export function seqDiff(a: number, b: number): number {
  return (a - b) | 0
}

export function seqLt(a: number, b: number): boolean {
  return seqDiff(a, b) < 0
}

export function seqLe(a: number, b: number): boolean {
  return seqDiff(a, b) <= 0
}

export function seqGt(a: number, b: number): boolean {
  return seqDiff(a, b) > 0
}

export function seqGe(a: number, b: number): boolean {
  return seqDiff(a, b) >= 0
}

export function seqMax(a: number, b: number): number {
  return seqGe(a, b) ? a : b
}

export function seqMin(a: number, b: number): number {
  return seqLe(a, b) ? a : b
}

/** lo <= x < hi in sequence space. */
export function seqInRange(x: number, lo: number, hi: number): boolean {
  return seqLe(lo, x) && seqLt(x, hi)
}
