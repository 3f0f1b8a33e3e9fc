import { readFileSync } from 'node:fs'
import { isIPv4 } from 'node:net'
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'
import type { AddressKind, StreamServerInfo } from '../../protocol/wire.js'

// The stream server's public address candidates in the contract's order (1.11): UPnP-mapped
// public IP, mesh-VPN IP, LAN IP. `publicUrl` is the first of them (protocol.md RegisterRequest).

export interface AddressInputs {
  port: number
  /** The router's external IP of a live UPnP mapping, when there is one (reported only when public). */
  upnpPublicIp?: string | undefined
  interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>
  /** Interfaces that carry a default route, preferred first; read from /proc/net/route when absent. */
  defaultRouteInterfaces?: string[]
}

// A mesh VPN is known by its interface (Tailscale `tailscale0`, WireGuard `wg0`, ZeroTier
// `zt...`), never by the 100.64.0.0/10 range alone: carrier-grade NAT hands out that range to
// plain LAN/WAN interfaces too.
const meshInterface = /^(tailscale|wg|zt)/

export function isMeshInterface(name: string): boolean {
  return meshInterface.test(name)
}

/** Whether an IPv4 address is routable on the internet (not private, CGNAT, loopback, link-local, documentation, multicast...). */
export function isPublicIPv4(ip: string): boolean {
  if (!isIPv4(ip)) return false
  const [a = 0, b = 0, c = 0] = ip.split('.').map(Number)
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false
  if (a === 100 && b >= 64 && b <= 127) return false
  if (a === 169 && b === 254) return false
  if (a === 172 && b >= 16 && b <= 31) return false
  if (a === 192 && b === 168) return false
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false
  if (a === 198 && (b === 18 || b === 19)) return false
  if (a === 198 && b === 51 && c === 100) return false
  if (a === 203 && b === 0 && c === 113) return false
  return true
}

/** The interfaces of the IPv4 default routes in /proc/net/route text, lowest metric first. */
export function defaultRouteInterfacesIn(procNetRoute: string): string[] {
  const routes: { name: string; metric: number }[] = []
  for (const line of procNetRoute.split('\n').slice(1)) {
    const [name, destination, , , , , metric, mask] = line.trim().split(/\s+/)
    if (!name || destination !== '00000000' || mask !== '00000000') continue
    routes.push({ name, metric: Number(metric) || 0 })
  }
  return [...new Set(routes.sort((x, y) => x.metric - y.metric).map((route) => route.name))]
}

function readDefaultRouteInterfaces(): string[] {
  try {
    return defaultRouteInterfacesIn(readFileSync('/proc/net/route', 'utf8'))
  } catch {
    return []
  }
}

export function streamServerAddresses(inputs: AddressInputs): StreamServerInfo {
  const addresses: { kind: AddressKind; url: string }[] = []
  const url = (ip: string) => `http://${ip.includes(':') ? `[${ip}]` : ip}:${inputs.port}`
  if (inputs.upnpPublicIp && isPublicIPv4(inputs.upnpPublicIp)) addresses.push({ kind: 'upnp', url: url(inputs.upnpPublicIp) })
  const interfaces = inputs.interfaces ?? networkInterfaces()
  const ipv4Of = (name: string) => (interfaces[name] ?? []).filter((info) => !info.internal && info.family === 'IPv4').map((info) => info.address)
  const names = Object.keys(interfaces)
  const mesh = names.filter(isMeshInterface).flatMap(ipv4Of)
  // The LAN address is the one of the interface the default route leaves by; with no default
  // route (an isolated LAN), every other interface's.
  const routed = (inputs.defaultRouteInterfaces ?? readDefaultRouteInterfaces()).filter((name) => !isMeshInterface(name) && ipv4Of(name).length > 0)
  const lanNames = routed.length > 0 ? routed : names.filter((name) => !isMeshInterface(name))
  const lan = [...new Set(lanNames.flatMap(ipv4Of))]
  for (const ip of mesh) addresses.push({ kind: 'mesh', url: url(ip) })
  for (const ip of lan) addresses.push({ kind: 'lan', url: url(ip) })
  return { port: inputs.port, publicUrl: addresses[0]?.url ?? url('127.0.0.1'), addresses }
}
