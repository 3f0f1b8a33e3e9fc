// The link the stack sits on: anything that moves whole IPv4 packets. The WireGuard device
// (`sendIp`/`onIp`) adapts to this shape; tests use the in-memory pair in memory-link.ts.

export interface NetLink {
  /** Sends one IPv4 packet. The link may keep a reference; the stack never reuses the buffer. */
  send(packet: Uint8Array): void
  /** Registers the one receiver of incoming IPv4 packets. The packet is only valid during the call. */
  onPacket(handler: (packet: Uint8Array) => void): void
  /** Largest IPv4 packet (header included) the link carries. */
  readonly mtu: number
}
