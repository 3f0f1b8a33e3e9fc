// A JS WireGuard initiator against a real wireguard-go peer inside a test-made network namespace:
// handshake, an ICMP echo answered by the Linux kernel behind wireguard-go, a rehandshake after
// the peer restarts, and a handshake through a lossy relay (retransmissions).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { systemClock } from '../../src/services/wireguard/clock.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import { createWireGuardDevice, type WireGuardDevice, type WireGuardEvent } from '../../src/services/wireguard/device.js'
import { createNodeUdpSocket } from '../../src/services/wireguard/udp.js'
import { createNetnsLink, inNetns, killByPid, netnsUnavailable, removeNetnsLink, spawnInNetns, type NetnsLink } from '../helpers/netns.js'
import { startUdpRelay, type UdpRelay } from '../helpers/udp-relay.js'

const unavailable = await netnsUnavailable(['wireguard-go', 'wg'])
if (unavailable !== undefined) console.warn(`wireguard-go integration test skipped: ${unavailable}`)

function checksum(bytes: Uint8Array, start: number, end: number): number {
  let sum = 0
  for (let i = start; i < end; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0)
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16)
  return ~sum & 0xffff
}

/** A raw IPv4 ICMP echo request, both checksums filled in. */
function icmpEcho(src: string, dst: string, id: number, seq: number): Uint8Array {
  const payload = new TextEncoder().encode('media-agent wireguard ping')
  const packet = new Uint8Array(20 + 8 + payload.length)
  packet[0] = 0x45
  packet[2] = packet.length >> 8
  packet[3] = packet.length & 0xff
  packet[4] = id >> 8
  packet[5] = id & 0xff
  packet[8] = 64
  packet[9] = 1 // ICMP
  packet.set(src.split('.').map(Number), 12)
  packet.set(dst.split('.').map(Number), 16)
  const ip = checksum(packet, 0, 20)
  packet[10] = ip >> 8
  packet[11] = ip & 0xff
  packet[20] = 8 // echo request
  packet[24] = id >> 8
  packet[25] = id & 0xff
  packet[26] = seq >> 8
  packet[27] = seq & 0xff
  packet.set(payload, 28)
  const icmp = checksum(packet, 20, packet.length)
  packet[22] = icmp >> 8
  packet[23] = icmp & 0xff
  return packet
}

/** A UDP reply (checksum 0, allowed for IPv4) to a UDP/IPv4 packet: addresses and ports swapped. */
function udpReplyTo(request: Uint8Array, payload: Uint8Array): Uint8Array {
  const headerLength = (request[0]! & 0x0f) * 4
  const reply = new Uint8Array(20 + 8 + payload.length)
  reply[0] = 0x45
  reply[2] = reply.length >> 8
  reply[3] = reply.length & 0xff
  reply[8] = 64
  reply[9] = 17
  reply.set(request.subarray(16, 20), 12)
  reply.set(request.subarray(12, 16), 16)
  const ip = checksum(reply, 0, 20)
  reply[10] = ip >> 8
  reply[11] = ip & 0xff
  reply.set(request.subarray(headerLength + 2, headerLength + 4), 20) // source port = their destination port
  reply.set(request.subarray(headerLength, headerLength + 2), 22)
  reply[24] = (8 + payload.length) >> 8
  reply[25] = (8 + payload.length) & 0xff
  reply.set(payload, 28)
  return reply
}

function isEchoReply(packet: Uint8Array, from: string, id: number): boolean {
  return packet[9] === 1 && packet[20] === 0 && packet.subarray(12, 16).join('.') === from && ((packet[24]! << 8) | packet[25]!) === id
}

describe.skipIf(unavailable !== undefined)('JS WireGuard initiator against wireguard-go in a network namespace', () => {
  let link: NetnsLink
  let dir: string
  let wgGo: ResultPromise | undefined
  let device: WireGuardDevice | undefined
  let relay: UdpRelay | undefined
  const ifName = `wgma${randomBytes(3).toString('hex')}` // unique: /var/run/wireguard/<if>.sock is shared with the host
  const jsPrivate = new Uint8Array(randomBytes(32))
  const goPrivate = new Uint8Array(randomBytes(32))
  let tunnelJs = ''
  let tunnelGo = ''

  async function startWireGuardGo(): Promise<void> {
    wgGo = spawnInNetns(link, 'wireguard-go', ['-f', ifName], { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: '1', LOG_LEVEL: 'error' })
    // wait until the interface exists and its UAPI answers
    for (let i = 0; i < 200; i++) {
      const shown = await inNetns(link, 'wg', ['show', ifName]).then(() => true, () => false)
      if (shown) break
      if (wgGo.exitCode !== null) throw new Error(`wireguard-go exited: ${String((await wgGo).stderr)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    await inNetns(link, 'wg', ['set', ifName, 'private-key', join(dir, 'go.key'), 'listen-port', '51820', 'peer', encodeKey(publicKeyOf(jsPrivate)), 'allowed-ips', `${tunnelJs}/32`])
    await inNetns(link, 'ip', ['addr', 'add', `${tunnelGo}/24`, 'dev', ifName])
    await inNetns(link, 'ip', ['link', 'set', ifName, 'up'])
  }

  function makeDevice(endpoint: string | undefined, privateKey: Uint8Array = jsPrivate): { device: WireGuardDevice; events: WireGuardEvent[]; replies: Uint8Array[]; waitFor: (p: () => boolean, what: string, ms?: number) => Promise<void> } {
    const config = `[Interface]\nPrivateKey = ${encodeKey(privateKey)}\nAddress = ${tunnelJs}/32\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(goPrivate))}\n${endpoint === undefined ? '' : `Endpoint = ${endpoint}\n`}AllowedIPs = 10.251.${link.octet}.0/24\n`
    const d = createWireGuardDevice({ config, udp: createNodeUdpSocket(), clock: systemClock, logger: silentLogger(), bindAddress: link.hostAddress })
    const events: WireGuardEvent[] = []
    const replies: Uint8Array[] = []
    const waiters = new Set<() => void>()
    const notify = (): void => waiters.forEach((w) => w())
    d.onEvent((e) => (events.push(e), notify()))
    d.onIp((p) => (replies.push(new Uint8Array(p)), notify()))
    const waitFor = (predicate: () => boolean, what: string, ms = 30_000): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate()) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`timed out waiting for ${what}`))), ms)
        waiters.add(check)
        check()
      })
    return { device: d, events, replies, waitFor }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ma-wg-go-test-'))
    writeFileSync(join(dir, 'go.key'), `${encodeKey(goPrivate)}\n`, { mode: 0o600 })
    link = await createNetnsLink()
    tunnelJs = `10.251.${link.octet}.1`
    tunnelGo = `10.251.${link.octet}.2`
    await startWireGuardGo()
  })

  afterAll(async () => {
    await device?.close()
    await relay?.close()
    await killByPid(wgGo)
    if (link !== undefined) await removeNetnsLink(link)
    rmSync(`/var/run/wireguard/${ifName}.sock`, { force: true })
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('completes a handshake, gets an ICMP echo reply from the kernel, and rehandshakes after wireguard-go restarts', async () => {
    const side = makeDevice(`${link.nsAddress}:51820`)
    device = side.device
    await device.start()
    device.sendIp(icmpEcho(tunnelJs, tunnelGo, 0x4d41, 1))
    await side.waitFor(() => side.replies.some((p) => isEchoReply(p, tunnelGo, 0x4d41)), 'the first echo reply')
    expect(side.events.filter((e) => e.type === 'handshake-complete')).toHaveLength(1)

    await killByPid(wgGo)
    await startWireGuardGo()
    // The restarted peer has no session: our packets go unanswered until the new-handshake timer
    // (keepalive 10 s + rekey timeout 5 s) starts a fresh handshake. Keep pinging once a second.
    const before = side.replies.length
    let seq = 2
    const pinger = setInterval(() => device?.sendIp(icmpEcho(tunnelJs, tunnelGo, 0x4d41, seq++)), 1000)
    try {
      await side.waitFor(() => side.replies.length > before && side.events.filter((e) => e.type === 'handshake-complete').length >= 2, 'a rehandshake and a new echo reply', 40_000)
    } finally {
      clearInterval(pinger)
    }
    expect(side.replies.slice(before).some((p) => isEchoReply(p, tunnelGo, 0x4d41))).toBe(true)
    await device.close()
    device = undefined
  })

  it('completes the handshake through a lossy relay by retransmitting the initiation', async () => {
    relay = await startUdpRelay({ listenAddress: link.hostAddress, target: { address: link.nsAddress, port: 51820 }, dropFirstFromClient: 2, lossRate: 0.2, delayMs: [0, 20], seed: 7 })
    const side = makeDevice(`${link.hostAddress}:${relay.port}`)
    device = side.device
    await device.start()
    device.sendIp(icmpEcho(tunnelJs, tunnelGo, 0x4d42, 1))
    await side.waitFor(() => side.events.some((e) => e.type === 'handshake-complete'), 'a handshake through the relay', 60_000)
    const attempts = side.events.filter((e) => e.type === 'handshake-initiated').length
    expect(attempts).toBeGreaterThanOrEqual(3)
    expect(relay.stats.dropped).toBeGreaterThanOrEqual(2)
    const pinger = setInterval(() => device?.sendIp(icmpEcho(tunnelJs, tunnelGo, 0x4d42, 2)), 500)
    try {
      await side.waitFor(() => side.replies.some((p) => isEchoReply(p, tunnelGo, 0x4d42)), 'an echo reply through the relay', 20_000)
    } finally {
      clearInterval(pinger)
    }
    await device.close()
    device = undefined
  })

  it('answers as responder: wireguard-go initiates for a process in the namespace, which gets its UDP reply', async () => {
    await relay?.close()
    relay = undefined
    const responderKey = new Uint8Array(randomBytes(32))
    const side = makeDevice(undefined, responderKey)
    device = side.device
    device.onIp((packet) => {
      side.replies.push(new Uint8Array(packet))
      const headerLength = (packet[0]! & 0x0f) * 4
      if (packet[9] === 17 && ((packet[headerLength + 2]! << 8) | packet[headerLength + 3]!) === 7777) {
        device?.sendIp(udpReplyTo(packet, new TextEncoder().encode('pong from js')))
      }
    })
    await device.start()
    const port = device.stats().listenPort!
    await inNetns(link, 'wg', ['set', ifName, 'peer', encodeKey(publicKeyOf(jsPrivate)), 'remove'])
    await inNetns(link, 'wg', ['set', ifName, 'peer', encodeKey(publicKeyOf(responderKey)), 'endpoint', `${link.hostAddress}:${port}`, 'allowed-ips', `${tunnelJs}/32`])
    // A UDP client inside the namespace: its datagrams route over wireguard-go, which starts the handshake.
    const client = `const s = require('node:dgram').createSocket('udp4');
s.on('message', (m) => { console.log(String(m)); process.exit(0) });
s.bind(0, () => { const send = () => s.send('ping from netns', 7777, '${tunnelJs}'); send(); setInterval(send, 300) });
setTimeout(() => process.exit(2), 15000)`
    const result = await inNetns(link, process.execPath, ['-e', client]).then((r) => r, (err: unknown) => err as { exitCode?: number; stdout?: string; stderr?: string })
    expect(result.exitCode, `${String(result.stdout)} ${String(result.stderr)}`).toBe(0)
    expect(String(result.stdout)).toContain('pong from js')
    const complete = side.events.find((e) => e.type === 'handshake-complete')
    expect(complete?.type === 'handshake-complete' && complete.role).toBe('responder')
    await device.close()
    device = undefined
  })
})
