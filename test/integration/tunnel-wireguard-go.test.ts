// The whole tunnel (userspace WireGuard + userspace TCP/IP) against a real wireguard-go peer in a
// test-made network namespace, with Linux TCP servers behind it: HTTP GET by name (DNS through
// the tunnel), bulk transfers both ways checked by sha256, the same through a lossy / reordering
// UDP relay, wireguard-go restarting in the middle of a transfer, 100 parallel connections, and
// fuzzing of the receive path (outer datagrams and authenticated inner packets).
//
// Sizes (env): TUNNEL_TEST_BULK_MB (default 200, each way), TUNNEL_TEST_LOSSY_MB (default 200
// each way per impairment; about 35 s at 1 % loss, 55-60 s at 3 %, 75-85 s with reordering on a
// 2-core machine; 150 keeps each under a minute), TUNNEL_TEST_RESTART_MB (default 24).
// TUNNEL_TEST_DIAG=1 prints, per bulk and lossy transfer, its time and the TCP and UDP counters
// of both ends (ours from stats(), Linux's from nstat in the namespace).
import { randomBytes } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createTunnel, type Tunnel, type TunnelEvent } from '../../src/services/tunnel/index.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import {
  bulkPattern, bulkPatternSha256, bulkServerSource, createNetnsLink, downloadBulk, inNetns, killByPid, netnsUnavailable, removeNetnsLink,
  spawnInNetnsUntil, wireGuardGoPeer, type NetnsLink, type WireGuardGoPeer,
} from '../helpers/netns.js'
import { startUdpRelay, type UdpRelay } from '../helpers/udp-relay.js'

const unavailable = await netnsUnavailable(['wireguard-go', 'wg', 'python3'])
if (unavailable !== undefined) console.warn(`tunnel integration test against wireguard-go skipped: ${unavailable}`)

const MiB = 1024 * 1024
const bulkBytes = Number(process.env.TUNNEL_TEST_BULK_MB ?? 200) * MiB
const lossyBytes = Number(process.env.TUNNEL_TEST_LOSSY_MB ?? 200) * MiB
const restartBytes = Number(process.env.TUNNEL_TEST_RESTART_MB ?? 24) * MiB

/** Answers every A query with one address, and NXDOMAIN for names starting with "nx". argv: host answer. */
const dnsServerSource = String.raw`
const dgram = require('node:dgram'); const [host, answer] = process.argv.slice(-2);
const s = dgram.createSocket('udp4');
s.on('message', (q, r) => {
  let o = 12; const labels = []; while (q[o] !== 0) { labels.push(q.subarray(o + 1, o + 1 + q[o]).toString()); o += q[o] + 1 } o += 5;
  const nx = labels[0].startsWith('nx'); const head = Buffer.from(q.subarray(0, o)); head[2] = 0x81; head[3] = nx ? 0x83 : 0x80;
  head.writeUInt16BE(nx ? 0 : 1, 6); head.writeUInt16BE(0, 8); head.writeUInt16BE(0, 10);
  const rr = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...answer.split('.').map(Number)]);
  s.send(nx ? head : Buffer.concat([head, rr]), r.port, r.address);
});
s.bind(53, host, () => console.log('listening'));
`

/** Sends authenticated-but-hostile inner packets from inside the namespace (raw IPv4, header included). */
const innerFuzzSource = String.raw`
import os, random, socket, struct, sys
src, dst, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
for i in range(count):
    proto = random.choice([1, 6, 17, 6, 6, random.randrange(256)])
    body = bytes(random.getrandbits(8) for _ in range(random.randrange(0, 120)))
    if proto == 6 and len(body) >= 20 and random.random() < 0.7:
        # a TCP header with a plausible data offset and flags, ports aimed at the tunnel's listeners
        off = random.choice([5, 6, 8, 15, random.randrange(16)])
        body = struct.pack('!HHIIBBHHH', random.choice([9000, 8080, random.randrange(65536)]), random.choice([45000, 51413, random.randrange(65536)]),
                           random.getrandbits(32), random.getrandbits(32), off << 4, random.getrandbits(6), random.getrandbits(16), 0, 0) + body[20:]
    flags = random.choice([0x4000, 0x2000, 0x0000, 0x0001])  # DF, MF, none, fragment offset
    header = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(body), random.getrandbits(16), flags, 64, proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    try:
        s.sendto(header + body, (dst, 0))
    except OSError:
        pass
print('sent', count)
`

function collect(socket: TcpSocket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks)))
    socket.on('error', reject)
  })
}

/** Downloads `bytes` of the pattern for `seed`; resolves with the received length and sha256. */
async function download(tunnel: Tunnel, host: string, bytes: number, seed: string, onProgress?: (got: number) => void): Promise<{ got: number; sha256: string }> {
  return downloadBulk(await tunnel.connect(host, 9000, { timeoutMs: 20_000 }), bytes, seed, onProgress)
}

/** Uploads `bytes` of the pattern for `seed`; resolves with the sha256 the server computed. */
async function upload(tunnel: Tunnel, host: string, bytes: number, seed: string): Promise<string> {
  const socket = await tunnel.connect(host, 9000, { timeoutMs: 20_000 })
  const answer = collect(socket)
  socket.write(`UP ${bytes}\n`)
  const block = bulkPattern(seed)
  for (let left = bytes; left > 0; ) {
    const len = Math.min(left, block.length)
    if (!socket.write(block.subarray(0, len))) await new Promise((r) => socket.once('drain', r))
    left -= len
  }
  socket.end()
  return (await answer).toString().trim()
}

describe.skipIf(unavailable !== undefined)('the tunnel against wireguard-go with Linux servers behind it', () => {
  let link: NetnsLink
  let dir: string
  let peer: WireGuardGoPeer
  const children: ResultPromise[] = []
  let tunnel: Tunnel | undefined
  let relay: UdpRelay | undefined
  const jsKey = new Uint8Array(randomBytes(32))
  const goKey = new Uint8Array(randomBytes(32))
  let server = ''
  let jsAddress = ''

  const configFor = (endpoint: string) =>
    `[Interface]\nPrivateKey = ${encodeKey(jsKey)}\nAddress = ${jsAddress}/32\nDNS = ${server}\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(goKey))}\nEndpoint = ${endpoint}\nAllowedIPs = 10.251.${link.octet}.0/24\n`

  async function open(endpoint = `${link.nsAddress}:51820`): Promise<Tunnel> {
    await tunnel?.close()
    tunnel = await createTunnel({ configText: configFor(endpoint), logger: silentLogger(), bindAddress: link.hostAddress })
    return tunnel
  }

  /** TUNNEL_TEST_DIAG=1: per phase, time, our TCP counters and Linux's (nstat in the namespace). */
  async function diagnostics(t: Tunnel) {
    const on = process.env.TUNNEL_TEST_DIAG === '1'
    const linux = async () => {
      if (!on) return {} as Record<string, number>
      const { stdout } = await inNetns(link, 'nstat', ['-saz'])
      const out: Record<string, number> = {}
      for (const line of String(stdout).split('\n')) {
        const [name, value] = line.trim().split(/\s+/)
        if (name && /^(Tcp|TcpExt|Udp)/.test(name) && value !== undefined) out[name] = Number(value)
      }
      return out
    }
    const ours = () => {
      const n = t.stats().netstack as unknown as Record<string, number>
      return Object.fromEntries(Object.entries(n).filter(([k]) => k.startsWith('tcp')))
    }
    let since = { at: performance.now(), ours: ours(), linux: await linux() }
    return {
      async report(phase: string) {
        if (!on) return
        const now = { at: performance.now(), ours: ours(), linux: await linux() }
        const delta = (a: Record<string, number>, b: Record<string, number>) =>
          Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - (a[k] ?? 0)]).filter(([, v]) => v !== 0))
        console.log(JSON.stringify({ phase, seconds: +((now.at - since.at) / 1000).toFixed(2), ours: delta(since.ours, now.ours), linux: delta(since.linux, now.linux), relay: relay?.stats }))
        since = now
      },
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ma-tunnel-wg-go-'))
    writeFileSync(join(dir, 'go.key'), `${encodeKey(goKey)}\n`, { mode: 0o600 })
    writeFileSync(join(dir, 'hello.txt'), 'hello through the tunnel\n')
    writeFileSync(join(dir, 'fuzz.py'), innerFuzzSource)
    link = await createNetnsLink('wgtn')
    server = `10.251.${link.octet}.2`
    jsAddress = `10.251.${link.octet}.1`
    peer = wireGuardGoPeer({
      link, privateKeyFile: join(dir, 'go.key'), listenPort: 51820, tunnelAddress: server, prefixLength: 24,
      peers: [{ publicKey: encodeKey(publicKeyOf(jsKey)), allowedIps: `${jsAddress}/32` }],
    })
    await peer.start()
    // The servers bind the tunnel address once the interface has it; their sockets (and the
    // established connections) outlive a wireguard-go restart, which removes and re-adds it.
    children.push((await spawnInNetnsUntil(link, process.execPath, ['-e', bulkServerSource, server, '9000'], 'listening')).child)
    children.push((await spawnInNetnsUntil(link, process.execPath, ['-e', dnsServerSource, server, server], 'listening')).child)
    children.push((await spawnInNetnsUntil(link, 'python3', ['-u', '-m', 'http.server', '--bind', server, '--directory', dir, '8080'], 'Serving HTTP')).child)
  })

  afterEach(async () => {
    await tunnel?.close()
    tunnel = undefined
    await relay?.close()
    relay = undefined
  })

  afterAll(async () => {
    await tunnel?.close()
    await relay?.close()
    for (const child of children) await killByPid(child)
    await peer?.stop()
    if (link !== undefined) await removeNetnsLink(link)
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('fetches a page over HTTP by host name, resolved through the tunnel DNS server, and reports the handshake', async () => {
    const t = await open()
    const events: TunnelEvent[] = []
    t.onEvent((e) => events.push(e))
    expect(t.status).toBe('connecting')
    expect(await t.resolve('files.test')).toBe(server)
    await expect(t.resolve('nx.files.test')).rejects.toMatchObject({ code: 'MA_ERR_DNS_RESOLVE', retryable: false })
    const socket = await t.connect('files.test', 8080)
    const response = collect(socket)
    socket.write(`GET /hello.txt HTTP/1.0\r\nHost: files.test\r\n\r\n`)
    const text = (await response).toString()
    expect(text).toMatch(/^HTTP\/1\.0 200 /)
    expect(text.endsWith('\r\n\r\nhello through the tunnel\n')).toBe(true)
    expect(t.status).toBe('up')
    expect(events).toContainEqual(expect.objectContaining({ type: 'handshake-ok', role: 'initiator', restored: true }))
    expect(await t.ping(server)).toBeGreaterThanOrEqual(0)
    await t.close()
    await t.close() // idempotent
    expect(t.status).toBe('closed')
    expect(events.at(-1)).toEqual({ type: 'closed' })
    await expect(t.connect(server, 8080)).rejects.toMatchObject({ code: 'MA_ERR_TUNNEL_CLOSED' })
  })

  it(`moves ${bulkBytes / MiB} MiB down and ${bulkBytes / MiB} MiB up with matching sha256`, async () => {
    const t = await open()
    const diag = await diagnostics(t)
    const down = await download(t, server, bulkBytes, 'bulk-down')
    await diag.report('bulk down')
    expect(down.got).toBe(bulkBytes)
    expect(down.sha256).toBe(bulkPatternSha256('bulk-down', bulkBytes))
    expect(await upload(t, server, bulkBytes, 'bulk-up')).toBe(bulkPatternSha256('bulk-up', bulkBytes))
    await diag.report('bulk up')
    const stats = t.stats()
    expect(stats.netstack.receiveErrors).toBe(0)
    expect(stats.wireguard.internalErrors).toBe(0)
  }, 600_000)

  for (const impairment of [
    { name: '1 % loss', lossRate: 0.01, delayMs: [0, 0] as [number, number] },
    { name: '3 % loss', lossRate: 0.03, delayMs: [0, 0] as [number, number] },
    { name: 'reordering (0-8 ms jitter) with 1 % loss', lossRate: 0.01, delayMs: [0, 8] as [number, number] },
  ]) {
    it(`keeps ${lossyBytes / MiB} MiB each way intact through a relay with ${impairment.name}`, async () => {
      relay = await startUdpRelay({ listenAddress: link.hostAddress, target: { address: link.nsAddress, port: 51820 }, lossRate: impairment.lossRate, delayMs: impairment.delayMs, seed: 11 })
      const t = await open(`${link.hostAddress}:${relay.port}`)
      const seed = `lossy-${impairment.lossRate}-${impairment.delayMs[1]}`
      const diag = await diagnostics(t)
      const down = await download(t, server, lossyBytes, seed)
      await diag.report(`${impairment.name} down`)
      expect(down.got).toBe(lossyBytes)
      expect(down.sha256).toBe(bulkPatternSha256(seed, lossyBytes))
      expect(await upload(t, server, lossyBytes, `${seed}-up`)).toBe(bulkPatternSha256(`${seed}-up`, lossyBytes))
      await diag.report(`${impairment.name} up`)
      expect(relay.stats.dropped).toBeGreaterThan(0)
    }, 600_000)
  }

  it('finishes a download intact when wireguard-go restarts in the middle of it (rehandshake, same TCP connection)', async () => {
    const t = await open()
    const events: TunnelEvent[] = []
    t.onEvent((e) => events.push(e))
    let restarted: Promise<void> | undefined
    const result = await download(t, server, restartBytes, 'restart', (got) => {
      if (restarted === undefined && got >= restartBytes / 4) {
        restarted = (async () => {
          await peer.stop()
          await peer.start()
        })()
      }
    })
    await restarted
    expect(result.got).toBe(restartBytes)
    expect(result.sha256).toBe(bulkPatternSha256('restart', restartBytes))
    expect(events.filter((e) => e.type === 'handshake-ok').length).toBeGreaterThanOrEqual(2)
  }, 240_000)

  it('serves 100 parallel TCP connections, each with its own data', async () => {
    const t = await open()
    const size = 256 * 1024
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => download(t, server, size + i, `parallel-${i}`)))
    results.forEach((r, i) => {
      expect(r.got).toBe(size + i)
      expect(r.sha256).toBe(bulkPatternSha256(`parallel-${i}`, size + i))
    })
    expect(t.stats().netstack.tcpConnections).toBeLessThanOrEqual(100) // TIME_WAIT entries at most
  }, 180_000)

  it('survives random and mutated datagrams and hostile inner packets, and still carries data', async () => {
    const captured: Buffer[] = []
    relay = await startUdpRelay({
      listenAddress: link.hostAddress, target: { address: link.nsAddress, port: 51820 }, seed: 3,
      tap: (data, fromClient) => {
        if (!fromClient && captured.length < 400) captured.push(Buffer.from(data))
      },
    })
    const t = await open(`${link.hostAddress}:${relay.port}`)
    const listener = t.listen(51413, (socket) => socket.destroy())
    const first = await download(t, server, 2 * MiB, 'fuzz-seed')
    expect(first.sha256).toBe(bulkPatternSha256('fuzz-seed', 2 * MiB))
    expect(captured.length).toBeGreaterThan(10)

    // Outer datagrams straight at the tunnel's UDP port, from a second socket.
    const port = t.stats().listenPort!
    const fuzzer = createSocket('udp4')
    await new Promise<void>((r) => fuzzer.bind(0, link.hostAddress, () => r()))
    const rand = (n: number) => Math.floor(Math.random() * n)
    let sent = 0
    const send = (data: Uint8Array) =>
      new Promise<void>((r) => {
        sent++
        fuzzer.send(data, port, link.hostAddress, () => r())
      })
    const transfer = download(t, server, 4 * MiB, 'fuzz-during')
    for (let round = 0; round < 3000; round++) {
      const kind = round % 4
      let data: Buffer
      if (kind === 0) data = randomBytes(rand(200))
      else if (kind === 1) {
        // a plausible header: type 1-4, sizes of the real messages, random rest
        const type = 1 + rand(4)
        data = randomBytes([148, 92, 64, 32 + rand(1400)][type - 1]!)
        data.writeUInt32LE(type, 0)
      } else {
        data = Buffer.from(captured[rand(captured.length)]!)
        if (kind === 2) for (let flips = 1 + rand(4); flips > 0; flips--) data[rand(data.length)]! ^= 1 << rand(8)
        // kind 3: an exact replay of a real packet
      }
      await send(data)
    }
    fuzzer.close()
    // Authenticated but hostile inner packets: raw IPv4 from inside the namespace over wireguard-go.
    await inNetns(link, 'python3', [join(dir, 'fuzz.py'), server, jsAddress, '3000', '42'])
    const during = await transfer
    expect(during.sha256).toBe(bulkPatternSha256('fuzz-during', 4 * MiB))
    const after = await download(t, server, 1 * MiB, 'fuzz-after')
    expect(after.sha256).toBe(bulkPatternSha256('fuzz-after', 1 * MiB))
    listener.close()
    const stats = t.stats()
    expect(sent).toBe(3000)
    expect(stats.wireguard.internalErrors).toBe(0)
    expect(stats.netstack.receiveErrors).toBe(0)
    expect(stats.wireguard.dropped.decrypt + stats.wireguard.dropped.replay + stats.wireguard.dropped.malformed + stats.wireguard.dropped.unknownIndex).toBeGreaterThan(1000)
    expect(stats.netstack.ipReceived).toBeGreaterThan(1000)
  }, 180_000)

  it('accepts inbound TCP on a forwarded port and exchanges data with a Linux client', async () => {
    const t = await open()
    await t.ping(server) // the handshake: wireguard-go learns our endpoint
    const received: string[] = []
    const listener = t.listen(51413, (socket) => {
      socket.on('data', (c: Buffer) => received.push(c.toString()))
      socket.end('hello from the tunnel listener\n')
    })
    const client = `const s = require('node:net').connect(51413, '${jsAddress}', () => s.write('hello from linux\\n'));
let got = ''; s.on('data', (c) => (got += c)); s.on('end', () => { console.log(got.trim()); s.end() });
setTimeout(() => process.exit(2), 15000).unref()`
    const result = await inNetns(link, process.execPath, ['-e', client])
    expect(String(result.stdout)).toBe('hello from the tunnel listener')
    expect(received.join('')).toBe('hello from linux\n')
    listener.close()
  }, 60_000)
})
