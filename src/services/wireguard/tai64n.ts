// TAI64N timestamps (whitepaper 5.1): 8-byte big-endian 2^62 + 10 + seconds, 4-byte big-endian
// nanoseconds. Compared as bytes; a responder keeps the greatest one seen per peer.

export const TAI64N_BYTES = 12
const BASE = 0x4000_0000_0000_000an

export function tai64n(wallMs: number): Uint8Array {
  const out = new Uint8Array(TAI64N_BYTES)
  const view = new DataView(out.buffer)
  const seconds = Math.floor(wallMs / 1000)
  // Rounded to whole milliseconds: no finer timing leaks out (wireguard-go rounds to ~16 ms).
  const nanos = Math.floor(wallMs - seconds * 1000) * 1_000_000
  view.setBigUint64(0, BASE + BigInt(seconds))
  view.setUint32(8, nanos)
  return out
}

/** Negative, zero or positive like a comparator. */
export function compareTai64n(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < TAI64N_BYTES; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/** The smallest timestamp strictly greater than `t` (used to keep ours strictly increasing). */
export function nextTai64n(t: Uint8Array): Uint8Array {
  const out = new Uint8Array(t)
  for (let i = TAI64N_BYTES - 1; i >= 0; i--) {
    out[i] = (out[i]! + 1) & 0xff
    if (out[i] !== 0) break
  }
  return out
}
