// Read buffers shared by every local file answer. A fresh 1 MiB buffer per read costs page faults
// and garbage collection (a quarter of the server's time on 1 MiB ranges), so reads borrow slabs
// of `streamReadPoolSlabBytes` and give them back once the kernel has the bytes. A slab given
// back too early would put one player's bytes into another's answer:
// test/integration/stream-buffer-reuse.test.ts guards exactly that.
import { streamReadPoolSlabBytes, streamReadPoolSlabs } from '../../config/defaults.js'

const idle: Buffer[] = []

/** A whole slab (length `streamReadPoolSlabBytes`); callers read into a prefix of it. */
export function borrowSlab(): Buffer {
  return idle.pop() ?? Buffer.allocUnsafeSlow(streamReadPoolSlabBytes)
}

/** Only once nothing (a read, a socket write) can still touch the slab. */
export function returnSlab(slab: Buffer): void {
  if (idle.length < streamReadPoolSlabs && slab.length === streamReadPoolSlabBytes) idle.push(slab)
}
