// AllowedIPs: longest-prefix match from an inner address to a peer (cryptokey routing, whitepaper
// section 2). A sorted list per family; the number of peers here is small.
import { cidrContains, type Cidr } from './config.js'

export class AllowedIps<T> {
  private readonly v4: { cidr: Cidr; value: T }[] = []
  private readonly v6: { cidr: Cidr; value: T }[] = []

  insert(cidr: Cidr, value: T): void {
    const list = cidr.family === 4 ? this.v4 : this.v6
    const same = list.findIndex((e) => e.cidr.prefix === cidr.prefix && e.cidr.text === cidr.text)
    if (same !== -1) list.splice(same, 1) // a later peer claiming the same range takes it over (as wg does)
    list.push({ cidr, value })
    list.sort((a, b) => b.cidr.prefix - a.cidr.prefix)
  }

  /** The value of the most specific range containing the address at `offset` (4 or 16 bytes). */
  lookup(family: 4 | 6, address: Uint8Array, offset = 0): T | undefined {
    const list = family === 4 ? this.v4 : this.v6
    for (const entry of list) if (cidrContains(entry.cidr, address, offset)) return entry.value
    return undefined
  }
}

/** Source and destination of an inner IP packet, or undefined when it is not a whole IPv4/IPv6 packet. */
export function innerPacketInfo(packet: Uint8Array): { family: 4 | 6; length: number; srcOffset: number; dstOffset: number } | undefined {
  if (packet.length < 1) return undefined
  const version = packet[0]! >> 4
  if (version === 4) {
    if (packet.length < 20) return undefined
    const length = (packet[2]! << 8) | packet[3]!
    if (length < 20 || length > packet.length) return undefined
    return { family: 4, length, srcOffset: 12, dstOffset: 16 }
  }
  if (version === 6) {
    if (packet.length < 40) return undefined
    const length = 40 + ((packet[4]! << 8) | packet[5]!)
    if (length > packet.length) return undefined
    return { family: 6, length, srcOffset: 8, dstOffset: 24 }
  }
  return undefined
}
