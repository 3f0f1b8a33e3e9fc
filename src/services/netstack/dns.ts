// A minimal DNS stub resolver for A records (RFC 1035) over the stack's UDP: one fresh socket
// (random source port) and one random id per query, a per-try timeout, and tries rotating over
// the configured servers. NXDOMAIN ends the lookup at once; no cache (callers resolve rarely).
import { DnsResolveError, NetstackInvalidArgumentError } from '../../errors.js'
import type { NetClock, RandomUint32 } from './clock.js'
import { formatIpv4Address, parseIpv4Address } from './ipv4.js'
import type { UdpSocket } from './udp.js'

const TYPE_A = 1
const CLASS_IN = 1

export function encodeDnsName(name: string): Uint8Array {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name
  const labels = trimmed.split('.')
  if (trimmed.length === 0 || trimmed.length > 253 || labels.some((l) => l.length === 0 || l.length > 63 || !/^[\x21-\x7e]+$/.test(l))) {
    throw new NetstackInvalidArgumentError(`not a resolvable host name: ${name}`, { details: { name } })
  }
  const out: number[] = []
  for (const label of labels) {
    out.push(label.length)
    for (let i = 0; i < label.length; i++) out.push(label.charCodeAt(i))
  }
  out.push(0)
  return Uint8Array.from(out)
}

export function encodeDnsQuery(id: number, name: string): Uint8Array {
  const qname = encodeDnsName(name)
  const out = new Uint8Array(12 + qname.length + 4)
  out[0] = (id >>> 8) & 0xff
  out[1] = id & 0xff
  out[2] = 0x01 // RD
  out[5] = 1 // QDCOUNT
  out.set(qname, 12)
  const q = 12 + qname.length
  out[q + 1] = TYPE_A
  out[q + 3] = CLASS_IN
  return out
}

export interface DnsAnswer {
  rcode: number
  truncated: boolean
  addresses: Array<{ address: string; ttlSeconds: number }>
}

/** Reads a possibly compressed name; returns it lower-cased and the offset after it. */
function readName(data: Uint8Array, start: number): { name: string; next: number } | undefined {
  const labels: string[] = []
  let offset = start
  let next: number | undefined
  for (let jumps = 0; jumps < 64; jumps++) {
    if (offset >= data.length) return undefined
    const len = data[offset]!
    if (len === 0) return { name: labels.join('.').toLowerCase(), next: next ?? offset + 1 }
    if ((len & 0xc0) === 0xc0) {
      if (offset + 1 >= data.length) return undefined
      next ??= offset + 2
      offset = ((len & 0x3f) << 8) | data[offset + 1]!
      continue
    }
    if (len & 0xc0 || offset + 1 + len > data.length) return undefined
    labels.push(String.fromCharCode(...data.subarray(offset + 1, offset + 1 + len)))
    offset += 1 + len
  }
  return undefined
}

/** Parses a response to query `id` for `name`; undefined when it is not one (spoofed, garbled). */
export function parseDnsResponse(data: Uint8Array, id: number, name: string): DnsAnswer | undefined {
  if (data.length < 12) return undefined
  if (((data[0]! << 8) | data[1]!) !== id || !(data[2]! & 0x80)) return undefined
  const rcode = data[3]! & 0x0f
  const truncated = (data[2]! & 0x02) !== 0
  const qdcount = (data[4]! << 8) | data[5]!
  const ancount = (data[6]! << 8) | data[7]!
  let offset = 12
  const wanted = (name.endsWith('.') ? name.slice(0, -1) : name).toLowerCase()
  for (let i = 0; i < qdcount; i++) {
    const q = readName(data, offset)
    if (!q || q.next + 4 > data.length) return undefined
    if (i === 0 && q.name !== wanted) return undefined
    offset = q.next + 4
  }
  const addresses: DnsAnswer['addresses'] = []
  for (let i = 0; i < ancount; i++) {
    const rr = readName(data, offset)
    if (!rr || rr.next + 10 > data.length) break
    const o = rr.next
    const type = (data[o]! << 8) | data[o + 1]!
    const klass = (data[o + 2]! << 8) | data[o + 3]!
    const ttl = ((data[o + 4]! << 24) | (data[o + 5]! << 16) | (data[o + 6]! << 8) | data[o + 7]!) >>> 0
    const rdlength = (data[o + 8]! << 8) | data[o + 9]!
    if (o + 10 + rdlength > data.length) break
    if (type === TYPE_A && klass === CLASS_IN && rdlength === 4) {
      const value = ((data[o + 10]! << 24) | (data[o + 11]! << 16) | (data[o + 12]! << 8) | data[o + 13]!) >>> 0
      addresses.push({ address: formatIpv4Address(value), ttlSeconds: ttl })
    }
    offset = o + 10 + rdlength
  }
  return { rcode, truncated, addresses }
}

export interface ResolverDeps {
  servers: readonly string[]
  clock: NetClock
  random: RandomUint32
  createSocket(): UdpSocket
  timeoutMs: number
  attempts: number
}

/** Resolves `name` to one IPv4 address (an IPv4 literal comes back as is). */
export async function resolveA(deps: ResolverDeps, name: string): Promise<string> {
  if (parseIpv4Address(name) !== undefined) return name
  if (deps.servers.length === 0) throw new DnsResolveError(`no DNS server configured to resolve ${name}`, { retryable: false, details: { name } })
  encodeDnsName(name)
  let lastReason = 'timeout'
  for (let attempt = 0; attempt < deps.attempts; attempt++) {
    const server = deps.servers[attempt % deps.servers.length]!
    const result = await queryOnce(deps, server, name)
    if (result.kind === 'answer') {
      const first = result.answer.addresses[0]
      if (result.answer.rcode === 0 && first) return first.address
      if (result.answer.rcode === 3 || (result.answer.rcode === 0 && !result.answer.truncated)) {
        throw new DnsResolveError(`${name}: ${result.answer.rcode === 3 ? 'no such name' : 'no A record'}`, {
          retryable: false,
          details: { name, server, rcode: result.answer.rcode },
        })
      }
      lastReason = `rcode ${result.answer.rcode}`
    } else {
      lastReason = result.kind
    }
  }
  throw new DnsResolveError(`${name}: no answer from ${deps.servers.join(', ')} (${lastReason})`, { details: { name, attempts: deps.attempts, reason: lastReason } })
}

type QueryResult = { kind: 'answer'; answer: DnsAnswer } | { kind: 'timeout' } | { kind: 'send-failed' }

function queryOnce(deps: ResolverDeps, server: string, name: string): Promise<QueryResult> {
  return new Promise((resolve) => {
    const id = deps.random() & 0xffff
    const socket = deps.createSocket()
    const finish = (result: QueryResult) => {
      deps.clock.clearTimeout(timer)
      socket.close()
      resolve(result)
    }
    const timer = deps.clock.setTimeout(() => finish({ kind: 'timeout' }), deps.timeoutMs)
    socket.on('message', (message, remote) => {
      if (remote.address !== server || remote.port !== 53) return
      const answer = parseDnsResponse(message, id, name)
      if (answer) finish({ kind: 'answer', answer })
    })
    try {
      socket.send(encodeDnsQuery(id, name), 53, server)
    } catch {
      finish({ kind: 'send-failed' })
    }
  })
}
