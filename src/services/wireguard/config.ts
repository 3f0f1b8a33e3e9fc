// wg-quick configuration text ([Interface] + [Peer] sections) into a typed config. Every problem
// is a WireGuardConfigError naming the line number and its text; nothing else is ever thrown.
import { WireGuardConfigError } from '../../errors.js'

export interface Cidr {
  readonly family: 4 | 6
  /** Network address bytes (4 or 16), host bits cleared. */
  readonly bytes: Uint8Array
  readonly prefix: number
  /** Canonical text form, e.g. "10.0.0.0/24". */
  readonly text: string
}

export interface InterfaceAddress {
  readonly family: 4 | 6
  readonly bytes: Uint8Array
  readonly prefix: number
  readonly text: string
}

export interface WgEndpoint {
  readonly host: string
  readonly port: number
}

export interface WgPeerConfig {
  readonly publicKey: Uint8Array
  readonly presharedKey: Uint8Array | undefined
  readonly endpoint: WgEndpoint | undefined
  readonly allowedIps: readonly Cidr[]
  /** Seconds; 0 = off. */
  readonly persistentKeepalive: number
}

export interface WgConfig {
  readonly privateKey: Uint8Array
  readonly addresses: readonly InterfaceAddress[]
  readonly dns: readonly string[]
  readonly mtu: number | undefined
  readonly listenPort: number | undefined
  readonly peers: readonly WgPeerConfig[]
}

/** Decodes a standard base64 WireGuard key (exactly 32 bytes, canonical 44-character form). */
export function parseKey(text: string): Uint8Array | undefined {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/.test(trimmed)) return undefined
  const bytes = Buffer.from(trimmed, 'base64')
  return bytes.length === 32 ? new Uint8Array(bytes) : undefined
}

export function encodeKey(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64')
}

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  const out = new Uint8Array(4)
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    out[i] = n
  }
  return out
}

function parseIpv6(text: string): Uint8Array | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.length > 45) return undefined
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const groupsOf = (s: string): number[] | undefined => {
    if (s === '') return []
    const out: number[] = []
    const pieces = s.split(':')
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece)
        if (v4 === undefined) return undefined
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(piece)) return undefined
        out.push(parseInt(piece, 16))
      }
    }
    return out
  }
  const head = groupsOf(halves[0]!)
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  let groups: number[]
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return undefined
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
  } else {
    if (head.length !== 8) return undefined
    groups = head
  }
  const out = new Uint8Array(16)
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8
    out[2 * i + 1] = g & 0xff
  })
  return out
}

/** Parses an IPv4 or IPv6 address literal (no brackets). */
export function parseIp(text: string): { family: 4 | 6; bytes: Uint8Array } | undefined {
  if (text.includes(':')) {
    const bytes = parseIpv6(text)
    return bytes === undefined ? undefined : { family: 6, bytes }
  }
  const bytes = parseIpv4(text)
  return bytes === undefined ? undefined : { family: 4, bytes }
}

export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.')
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:{3,}/, '::')
}

function splitPrefix(text: string): { ip: { family: 4 | 6; bytes: Uint8Array }; prefix: number } | undefined {
  const trimmed = text.trim()
  const slash = trimmed.indexOf('/')
  const ipText = slash === -1 ? trimmed : trimmed.slice(0, slash)
  const ip = parseIp(ipText)
  if (ip === undefined) return undefined
  const max = ip.family === 4 ? 32 : 128
  if (slash === -1) return { ip, prefix: max }
  const prefixText = trimmed.slice(slash + 1)
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined
  const prefix = Number(prefixText)
  if (prefix > max) return undefined
  return { ip, prefix }
}

/** Parses "a.b.c.d/n" or "x::y/n" (no prefix = host route); host bits are cleared. */
export function parseCidr(text: string): Cidr | undefined {
  const parsed = splitPrefix(text)
  if (parsed === undefined) return undefined
  const bytes = maskBytes(parsed.ip.bytes, parsed.prefix)
  return { family: parsed.ip.family, bytes, prefix: parsed.prefix, text: `${formatIp(bytes)}/${parsed.prefix}` }
}

export function maskBytes(bytes: Uint8Array, prefix: number): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = 0; i < out.length; i++) {
    const bits = Math.max(0, Math.min(8, prefix - i * 8))
    out[i]! &= bits === 0 ? 0 : (0xff << (8 - bits)) & 0xff
  }
  return out
}

export function cidrContains(cidr: Cidr, address: Uint8Array, offset = 0): boolean {
  const full = cidr.prefix >> 3
  for (let i = 0; i < full; i++) if (address[offset + i] !== cidr.bytes[i]) return false
  const rest = cidr.prefix & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return ((address[offset + full] ?? 0) & mask) === cidr.bytes[full]
}

function parseInterfaceAddress(text: string): InterfaceAddress | undefined {
  const parsed = splitPrefix(text)
  if (parsed === undefined) return undefined
  return { family: parsed.ip.family, bytes: parsed.ip.bytes, prefix: parsed.prefix, text: `${formatIp(parsed.ip.bytes)}/${parsed.prefix}` }
}

/** "host:port", "1.2.3.4:port" or "[v6]:port". */
export function parseEndpoint(text: string): WgEndpoint | undefined {
  const trimmed = text.trim()
  let host: string
  let portText: string
  if (trimmed.startsWith('[')) {
    const close = trimmed.indexOf(']')
    if (close === -1 || trimmed[close + 1] !== ':') return undefined
    host = trimmed.slice(1, close)
    if (parseIp(host)?.family !== 6) return undefined
    portText = trimmed.slice(close + 2)
  } else {
    const colon = trimmed.lastIndexOf(':')
    if (colon <= 0) return undefined
    host = trimmed.slice(0, colon)
    portText = trimmed.slice(colon + 1)
    if (host.includes(':')) return undefined
    if (!/^[A-Za-z0-9.-]+$/.test(host) || host.length > 253) return undefined
    if (/^[0-9.]+$/.test(host) && parseIp(host) === undefined) return undefined
  }
  if (!/^[0-9]{1,5}$/.test(portText)) return undefined
  const port = Number(portText)
  if (port < 1 || port > 65535) return undefined
  return { host, port }
}

interface Line {
  number: number
  text: string
}

function fail(line: Line, why: string): never {
  throw new WireGuardConfigError(`WireGuard config line ${line.number} (${JSON.stringify(line.text)}): ${why}`, {
    line: line.number,
    text: line.text.includes('PrivateKey') || line.text.includes('PresharedKey') ? '[redacted]' : line.text,
  })
}

function parseInteger(line: Line, value: string, min: number, max: number, what: string): number {
  if (!/^[0-9]{1,6}$/.test(value)) fail(line, `${what} must be a whole number`)
  const n = Number(value)
  if (n < min || n > max) fail(line, `${what} must be between ${min} and ${max}`)
  return n
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

interface PeerDraft {
  header: Line
  publicKey?: Uint8Array
  presharedKey?: Uint8Array
  endpoint?: WgEndpoint
  allowedIps: Cidr[]
  persistentKeepalive: number
}

/** Parses wg-quick configuration text. Throws WireGuardConfigError only. */
export function parseWgConfig(text: string): WgConfig {
  if (typeof text !== 'string') throw new WireGuardConfigError('WireGuard config must be text', { line: 0, text: '' })
  const lines = text.split(/\r?\n|\r/)
  let section: 'none' | 'interface' | 'peer' = 'none'
  let interfaceHeader: Line | undefined
  let privateKey: Uint8Array | undefined
  const addresses: InterfaceAddress[] = []
  const dns: string[] = []
  let mtu: number | undefined
  let listenPort: number | undefined
  const peers: PeerDraft[] = []
  const seen = new Set<string>()

  lines.forEach((raw, index) => {
    const line: Line = { number: index + 1, text: raw }
    const hashAt = raw.indexOf('#')
    const content = (hashAt === -1 ? raw : raw.slice(0, hashAt)).trim()
    if (content === '') return
    if (content.startsWith('[')) {
      const name = content.toLowerCase()
      if (name === '[interface]') {
        if (interfaceHeader !== undefined) fail(line, 'a second [Interface] section')
        interfaceHeader = line
        section = 'interface'
      } else if (name === '[peer]') {
        peers.push({ header: line, allowedIps: [], persistentKeepalive: 0 })
        section = 'peer'
      } else {
        fail(line, 'unknown section (expected [Interface] or [Peer])')
      }
      seen.clear()
      return
    }
    const eq = content.indexOf('=')
    if (eq === -1) fail(line, 'expected "Key = Value"')
    const key = content.slice(0, eq).trim().toLowerCase()
    const value = content.slice(eq + 1).trim()
    if (section === 'none') fail(line, 'key outside of an [Interface] or [Peer] section')
    const repeatable = key === 'address' || key === 'dns' || key === 'allowedips'
    if (!repeatable && seen.has(key)) fail(line, `duplicate key ${content.slice(0, eq).trim()}`)
    seen.add(key)
    if (section === 'interface') {
      switch (key) {
        case 'privatekey':
          privateKey = parseKey(value) ?? fail(line, 'PrivateKey must be a base64 32-byte key')
          return
        case 'address':
          for (const item of list(value)) addresses.push(parseInterfaceAddress(item) ?? fail(line, `bad address ${JSON.stringify(item)}`))
          return
        case 'dns':
          for (const item of list(value)) dns.push(item)
          return
        case 'mtu':
          mtu = parseInteger(line, value, 576, 65535, 'MTU')
          return
        case 'listenport':
          listenPort = parseInteger(line, value, 0, 65535, 'ListenPort')
          return
        // wg-quick keys that do not apply to an in-process tunnel: accepted and ignored.
        case 'table': case 'preup': case 'postup': case 'predown': case 'postdown': case 'saveconfig': case 'fwmark':
          return
        default:
          fail(line, `unknown [Interface] key ${content.slice(0, eq).trim()}`)
      }
    }
    const peer = peers[peers.length - 1]!
    switch (key) {
      case 'publickey':
        peer.publicKey = parseKey(value) ?? fail(line, 'PublicKey must be a base64 32-byte key')
        return
      case 'presharedkey':
        peer.presharedKey = parseKey(value) ?? fail(line, 'PresharedKey must be a base64 32-byte key')
        return
      case 'endpoint':
        peer.endpoint = parseEndpoint(value) ?? fail(line, 'Endpoint must be host:port or [ipv6]:port')
        return
      case 'allowedips':
        for (const item of list(value)) peer.allowedIps.push(parseCidr(item) ?? fail(line, `bad CIDR ${JSON.stringify(item)}`))
        return
      case 'persistentkeepalive':
        peer.persistentKeepalive = value.toLowerCase() === 'off' ? 0 : parseInteger(line, value, 0, 65535, 'PersistentKeepalive')
        return
      default:
        fail(line, `unknown [Peer] key ${content.slice(0, eq).trim()}`)
    }
  })

  if (interfaceHeader === undefined) fail({ number: lines.length, text: lines[lines.length - 1] ?? '' }, 'missing [Interface] section')
  if (privateKey === undefined) fail(interfaceHeader, '[Interface] has no PrivateKey')
  const keys = new Set<string>()
  const done = peers.map((p): WgPeerConfig => {
    if (p.publicKey === undefined) fail(p.header, '[Peer] has no PublicKey')
    const id = encodeKey(p.publicKey)
    if (keys.has(id)) fail(p.header, 'the same PublicKey appears in two [Peer] sections')
    keys.add(id)
    return {
      publicKey: p.publicKey,
      presharedKey: p.presharedKey,
      endpoint: p.endpoint,
      allowedIps: p.allowedIps,
      persistentKeepalive: p.persistentKeepalive,
    }
  })
  return { privateKey, addresses, dns, mtu, listenPort, peers: done }
}
