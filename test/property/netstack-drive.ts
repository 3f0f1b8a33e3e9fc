// Runs two stacks joined by an in-memory link in simulated time: between timer steps the event
// loop gets one turn (setImmediate) so stream callbacks settle; no real sleeps anywhere.
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import type { Duplex } from 'node:stream'
import { seededRandom } from '../../src/services/netstack/clock.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import type { MemoryLinkOptions } from '../../src/services/netstack/memory-link.js'
import { createMemoryLinkPair } from '../../src/services/netstack/memory-link.js'
import type { NetStack, NetStackOptions } from '../../src/services/netstack/netstack.js'
import { createNetStack } from '../../src/services/netstack/netstack.js'

export async function drive(clock: ManualClock, done: () => boolean, limitMs: number): Promise<void> {
  const deadline = clock.now() + limitMs
  let idle = 0
  while (!done()) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    if (done()) break
    const next = clock.nextTimerAt()
    if (next === undefined) {
      if (++idle > 100) throw new Error('stalled: nothing scheduled and not done')
      continue
    }
    idle = 0
    if (next > deadline) throw new Error(`not done within ${limitMs} ms of simulated time`)
    clock.advanceTo(next)
  }
}

export function pair(link: Omit<MemoryLinkOptions, 'clock'> = {}, stack: Partial<NetStackOptions> = {}) {
  const clock = new ManualClock(0)
  const [linkA, linkB] = createMemoryLinkPair({ clock, ...link })
  const a = createNetStack({ link: linkA, localAddress: '10.0.0.1', clock, random: seededRandom(101), ...stack })
  const b = createNetStack({ link: linkB, localAddress: '10.0.0.2', clock, random: seededRandom(202), ...stack })
  return { clock, a, b, linkA, linkB }
}

export function seededBytes(length: number, seed: number): Buffer {
  const random = seededRandom(seed)
  const out = Buffer.alloc(length)
  for (let i = 0; i + 4 <= length; i += 4) out.writeUInt32LE(random(), i)
  for (let i = length & ~3; i < length; i++) out[i] = random() & 0xff
  return out
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Writes `data` honouring backpressure, then ends the writable side. */
export async function writeAll(socket: Duplex, data: Uint8Array, chunkBytes = 16 * 1024): Promise<void> {
  for (let offset = 0; offset < data.length; offset += chunkBytes) {
    if (!socket.write(data.subarray(offset, offset + chunkBytes))) await once(socket, 'drain')
  }
  socket.end()
}

/** Collects what arrives until 'end'; the result holds the sha256 and the byte count. */
export function collect(socket: Duplex): { done: boolean; bytes: number; hash(): string; error?: Error } {
  const hash = createHash('sha256')
  const state: { done: boolean; bytes: number; digest?: string; error?: Error; hash(): string } = {
    done: false,
    bytes: 0,
    hash: () => (state.digest ??= hash.digest('hex')),
  }
  socket.on('data', (chunk: Buffer) => {
    state.bytes += chunk.length
    hash.update(chunk)
  })
  socket.on('end', () => {
    state.done = true
  })
  socket.on('error', (error) => {
    state.error = error
    state.done = true
  })
  return state
}

export type { NetStack }
