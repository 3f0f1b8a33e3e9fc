import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'
import type { AddressKind, StreamServerInfo } from '../../protocol/wire.js'

// The stream server's public address candidates in the contract's order (1.11): UPnP-mapped
// public IP, mesh-VPN IP, LAN IP. `publicUrl` is the first of them (protocol.md RegisterRequest).

export interface AddressInputs {
  port: number
  /** The public IP of a live UPnP mapping, when there is one. */
  upnpPublicIp?: string
  interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>
}

// Tailscale and ZeroTier hand out addresses from these ranges; their interfaces are named so too.
const meshInterface = /^(tailscale|ts|zt|wg|nebula)/
const inCgnatRange = (ip: string) => {
  const [a, b] = ip.split('.').map(Number)
  return a === 100 && b !== undefined && b >= 64 && b <= 127
}

export function streamServerAddresses(inputs: AddressInputs): StreamServerInfo {
  const addresses: { kind: AddressKind; url: string }[] = []
  const url = (ip: string) => `http://${ip.includes(':') ? `[${ip}]` : ip}:${inputs.port}`
  if (inputs.upnpPublicIp) addresses.push({ kind: 'upnp', url: url(inputs.upnpPublicIp) })
  const mesh: string[] = []
  const lan: string[] = []
  for (const [name, infos] of Object.entries(inputs.interfaces ?? networkInterfaces())) {
    for (const info of infos ?? []) {
      if (info.internal || info.family !== 'IPv4') continue
      if (meshInterface.test(name) || inCgnatRange(info.address)) mesh.push(info.address)
      else lan.push(info.address)
    }
  }
  for (const ip of mesh) addresses.push({ kind: 'mesh', url: url(ip) })
  for (const ip of lan) addresses.push({ kind: 'lan', url: url(ip) })
  return { port: inputs.port, publicUrl: addresses[0]?.url ?? url('127.0.0.1'), addresses }
}
