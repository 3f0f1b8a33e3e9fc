// The Internet checksum (RFC 1071) and the IPv4 pseudo-header sum used by TCP and UDP (RFC 768,
// RFC 9293 3.1).

/** Ones'-complement sum of 16-bit big-endian words, not yet folded or complemented. */
export function sumWords(data: Uint8Array, start: number, end: number, initial = 0): number {
  let sum = initial
  let i = start
  const evenEnd = end - ((end - start) & 1)
  for (; i < evenEnd; i += 2) sum += (data[i]! << 8) | data[i + 1]!
  if (i < end) sum += data[i]! << 8
  // Fold every 2^16 words at most, far below 2^53; callers fold once at the end.
  return sum
}

export function foldChecksum(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000)
  return ~sum & 0xffff
}

export function internetChecksum(data: Uint8Array, start = 0, end = data.length): number {
  return foldChecksum(sumWords(data, start, end))
}

/** Sum of the IPv4 pseudo-header for a transport segment of `length` bytes. */
export function pseudoHeaderSum(src: number, dst: number, protocol: number, length: number): number {
  return (src >>> 16) + (src & 0xffff) + (dst >>> 16) + (dst & 0xffff) + protocol + length
}
