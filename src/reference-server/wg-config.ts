// The wg-quick text served by vpn-config (protocol.md 1: [Interface] PrivateKey, Address, DNS,
// MTU; [Peer] PublicKey, PresharedKey?, Endpoint, AllowedIPs, PersistentKeepalive?).
import { randomBytes } from 'node:crypto'

export interface WireGuardFields {
  privateKey: string
  address: string
  dns: string
  mtu: number
  peerPublicKey: string
  presharedKey?: string
  endpoint: string
  allowedIPs: string
  persistentKeepalive?: number
}

/** Placeholder keys (random, not a real key pair): enough for parsing tests, not for a tunnel. */
export function placeholderWireGuardFields(): WireGuardFields {
  return {
    privateKey: randomBytes(32).toString('base64'),
    address: '10.64.0.2/32',
    dns: '10.64.0.1',
    mtu: 1420,
    peerPublicKey: randomBytes(32).toString('base64'),
    endpoint: '127.0.0.1:51820',
    allowedIPs: '0.0.0.0/0, ::/0',
    persistentKeepalive: 25,
  }
}

export function renderWireGuardConfig(fields: WireGuardFields): string {
  const lines = [
    '[Interface]',
    `PrivateKey = ${fields.privateKey}`,
    `Address = ${fields.address}`,
    `DNS = ${fields.dns}`,
    `MTU = ${fields.mtu}`,
    '',
    '[Peer]',
    `PublicKey = ${fields.peerPublicKey}`,
  ]
  if (fields.presharedKey) lines.push(`PresharedKey = ${fields.presharedKey}`)
  lines.push(`Endpoint = ${fields.endpoint}`, `AllowedIPs = ${fields.allowedIPs}`)
  if (fields.persistentKeepalive !== undefined) lines.push(`PersistentKeepalive = ${fields.persistentKeepalive}`)
  return `${lines.join('\n')}\n`
}
