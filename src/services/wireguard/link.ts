// The WireGuard device seen as the netstack's link (src/services/netstack/link.ts NetLink shape:
// send / onPacket / mtu), typed structurally so neither side imports the other.
import type { WireGuardDevice } from './device.js'

export interface WireGuardLink {
  send(packet: Uint8Array): void
  onPacket(handler: (packet: Uint8Array) => void): void
  readonly mtu: number
}

export function wireGuardLink(device: WireGuardDevice): WireGuardLink {
  return {
    send: (packet) => device.sendIp(packet),
    onPacket: (handler) => device.onIp(handler),
    mtu: device.mtu,
  }
}
