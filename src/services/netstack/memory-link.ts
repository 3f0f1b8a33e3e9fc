// Two NetLinks joined back to back in simulated time, with seeded loss, duplication and
// reordering: the wire for deterministic stack-to-stack tests.
import type { NetClock, RandomUint32 } from './clock.js'
import { seededRandom } from './clock.js'
import type { NetLink } from './link.js'

export interface MemoryLinkOptions {
  clock: NetClock
  mtu?: number
  /** One-way delay of every packet. */
  latencyMs?: number
  /** Extra delay drawn uniformly from [0, jitterMs] for reordered packets. */
  jitterMs?: number
  lossRate?: number
  duplicateRate?: number
  reorderRate?: number
  seed?: number
}

export interface MemoryLinkEnd extends NetLink {
  /** Packets this end has sent, dropped or not. */
  readonly sent: number
  readonly dropped: number
  /** Sees every packet this end sends, before impairments (tests inspect traffic). */
  tap?: (packet: Uint8Array) => void
}

export function createMemoryLinkPair(options: MemoryLinkOptions): [MemoryLinkEnd, MemoryLinkEnd] {
  const random: RandomUint32 = seededRandom(options.seed ?? 1)
  const chance = (rate: number | undefined): boolean => rate !== undefined && rate > 0 && random() / 2 ** 32 < rate
  const mtu = options.mtu ?? 1420
  const latency = options.latencyMs ?? 1
  const jitter = options.jitterMs ?? 5
  const handlers: Array<((packet: Uint8Array) => void) | undefined> = [undefined, undefined]

  const makeEnd = (self: number): MemoryLinkEnd => {
    const end: MemoryLinkEnd & { sent: number; dropped: number } = {
      mtu,
      sent: 0,
      dropped: 0,
      send(packet: Uint8Array) {
        end.sent++
        end.tap?.(packet)
        if (packet.length > mtu || chance(options.lossRate)) {
          end.dropped++
          return
        }
        const copies = chance(options.duplicateRate) ? 2 : 1
        for (let i = 0; i < copies; i++) {
          const copy = Uint8Array.from(packet)
          const delay = latency + (chance(options.reorderRate) ? (random() % (jitter * 1000 + 1)) / 1000 : 0)
          options.clock.setTimeout(() => handlers[1 - self]?.(copy), delay)
        }
      },
      onPacket(handler) {
        handlers[self] = handler
      },
    }
    return end
  }
  return [makeEnd(0), makeEnd(1)]
}
