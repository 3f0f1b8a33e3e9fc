// `npm run bench -- wireguard`: bulk TCP download from a Linux TCP server behind wireguard-go,
// (a) through our in-process tunnel (userspace WireGuard + userspace TCP) and (b) through a second
// wireguard-go instance with the kernel's TCP on the client side, one after the other in one run.
// Prints ONE JSON line: both throughputs (MiB/s), the ratio ours / kernel, and the CPU seconds
// our process spent per GiB moved (process.cpuUsage, user + system). Needs root, wireguard-go,
// wg and ip; everything lives in test-made namespaces and is removed by name/PID afterwards.
// Size: BENCH_WG_MB (default 256). Runs: BENCH_WG_RUNS (default 1; the best run is reported).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { silentLogger } from '../src/log.js'
import { createTunnel, type Tunnel } from '../src/services/tunnel/index.js'
import { encodeKey } from '../src/services/wireguard/config.js'
import { publicKeyOf } from '../src/services/wireguard/crypto.js'
import {
  bulkPatternSha256, bulkServerSource, createNetnsLink, downloadBulk, inNetns, killByPid, linkNamespaces, netnsUnavailable, removeNetnsLink,
  spawnInNetnsUntil, wireGuardGoPeer, type NetnsLink, type WireGuardGoPeer,
} from '../test/helpers/netns.js'

const MiB = 1024 * 1024
const sizeMb = Number(process.env.BENCH_WG_MB ?? 256)
const runs = Number(process.env.BENCH_WG_RUNS ?? 1)
const bytes = sizeMb * MiB
const round = (value: number, digits = 2) => Number(value.toFixed(digits))
const log = (message: string) => process.stderr.write(`[bench wireguard] ${message}\n`)

const kernelClientSource = String.raw`
const net = require('node:net'); const crypto = require('node:crypto');
const [host, port, n, seed] = process.argv.slice(-4);
const started = process.hrtime.bigint(); const hash = crypto.createHash('sha256'); let got = 0;
const s = net.connect(Number(port), host, () => s.write('DOWN ' + n + ' ' + seed + '\n'));
s.on('data', (c) => { got += c.length; hash.update(c) });
s.on('end', () => { const seconds = Number(process.hrtime.bigint() - started) / 1e9; console.log(JSON.stringify({ got, seconds, sha256: hash.digest('hex') })) });
`

async function downloadThroughTunnel(tunnel: Tunnel, host: string, port: number, seed: string): Promise<{ seconds: number; cpuSeconds: number; sha256: string; got: number }> {
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const { got, sha256 } = await downloadBulk(await tunnel.connect(host, port), bytes, seed)
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, sha256, got }
}

let cleanup: (() => Promise<void>) | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`)
    void (cleanup?.() ?? Promise.resolve()).finally(() => process.exit(130))
  })
}

export async function main(): Promise<void> {
  const unavailable = await netnsUnavailable(['wireguard-go', 'wg', 'node'])
  if (unavailable !== undefined) {
    process.stdout.write(`${JSON.stringify({ bench: 'wireguard', skipped: unavailable })}\n`)
    return
  }
  const dir = mkdtempSync(join(tmpdir(), 'ma-bench-wg-'))
  const serverKey = new Uint8Array(randomBytes(32))
  const jsKey = new Uint8Array(randomBytes(32))
  const kernelKey = new Uint8Array(randomBytes(32))
  writeFileSync(join(dir, 'server.key'), `${encodeKey(serverKey)}\n`, { mode: 0o600 })
  writeFileSync(join(dir, 'kernel.key'), `${encodeKey(kernelKey)}\n`, { mode: 0o600 })
  let serverNs: NetnsLink | undefined
  let clientNs: NetnsLink | undefined
  let cross: { remove(): Promise<void> } | undefined
  let serverWg: WireGuardGoPeer | undefined
  let clientWg: WireGuardGoPeer | undefined
  let server: ResultPromise | undefined
  let tunnel: Tunnel | undefined
  cleanup = async () => {
    await tunnel?.close()
    await killByPid(server)
    await clientWg?.stop()
    await serverWg?.stop()
    await cross?.remove()
    if (clientNs) await removeNetnsLink(clientNs)
    if (serverNs) await removeNetnsLink(serverNs)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    serverNs = await createNetnsLink('wgbs')
    clientNs = await createNetnsLink('wgbc')
    const o = serverNs.octet
    const between = await linkNamespaces(serverNs, clientNs)
    cross = between
    const serverTunnel = `10.251.${o}.2`
    serverWg = wireGuardGoPeer({
      link: serverNs, privateKeyFile: join(dir, 'server.key'), listenPort: 51820, tunnelAddress: serverTunnel, prefixLength: 24,
      peers: [
        { publicKey: encodeKey(publicKeyOf(jsKey)), allowedIps: `10.251.${o}.1/32` },
        { publicKey: encodeKey(publicKeyOf(kernelKey)), allowedIps: `10.251.${o}.3/32` },
      ],
    })
    await serverWg.start()
    log('server wireguard-go up')
    clientWg = wireGuardGoPeer({
      link: clientNs, privateKeyFile: join(dir, 'kernel.key'), listenPort: 51821, tunnelAddress: `10.251.${o}.3`, prefixLength: 24,
      peers: [{ publicKey: encodeKey(publicKeyOf(serverKey)), allowedIps: `10.251.${o}.0/24`, endpoint: `${between.aAddress}:51820` }],
    })
    await clientWg.start()
    log('client wireguard-go up')
    server = (await spawnInNetnsUntil(serverNs, process.execPath, ['-e', bulkServerSource, serverTunnel, '9000'], 'listening')).child
    log('bulk server listening')

    const config = `[Interface]\nPrivateKey = ${encodeKey(jsKey)}\nAddress = 10.251.${o}.1/32\n\n[Peer]\nPublicKey = ${encodeKey(publicKeyOf(serverKey))}\nEndpoint = ${serverNs.nsAddress}:51820\nAllowedIPs = 10.251.${o}.0/24\n`
    tunnel = await createTunnel({ configText: config, logger: silentLogger(), bindAddress: serverNs.hostAddress })
    await tunnel.ping(serverTunnel)
    log('tunnel up')

    let best: { ours: number; kernel: number; cpuPerGiB: number } | undefined
    for (let run = 0; run < runs; run++) {
      const seed = `bench-${run}`
      const expected = bulkPatternSha256(seed, bytes)
      const ours = await downloadThroughTunnel(tunnel, serverTunnel, 9000, seed)
      if (ours.got !== bytes || ours.sha256 !== expected) throw new Error(`tunnel download corrupt: ${ours.got} bytes, sha256 ${ours.sha256}`)
      const oursMiBs = bytes / MiB / ours.seconds
      const cpuPerGiB = ours.cpuSeconds / (bytes / (1024 * MiB))
      log(`run ${run + 1}: ours ${round(oursMiBs)} MiB/s (${round(ours.seconds)} s, ${round(cpuPerGiB)} CPU s/GiB)`)
      const kernelRun = await inNetns(clientNs, process.execPath, ['-e', kernelClientSource, serverTunnel, '9000', String(bytes), seed])
      const kernel = JSON.parse(String(kernelRun.stdout).trim()) as { got: number; seconds: number; sha256: string }
      if (kernel.got !== bytes || kernel.sha256 !== expected) throw new Error(`kernel download corrupt: ${kernel.got} bytes`)
      const kernelMiBs = bytes / MiB / kernel.seconds
      log(`run ${run + 1}: kernel via wireguard-go ${round(kernelMiBs)} MiB/s (${round(kernel.seconds)} s)`)
      if (best === undefined || oursMiBs / kernelMiBs > best.ours / best.kernel) best = { ours: oursMiBs, kernel: kernelMiBs, cpuPerGiB }
    }
    const stats = tunnel.stats()
    process.stdout.write(`${JSON.stringify({
      bench: 'wireguard',
      sizeMiB: sizeMb,
      runs,
      oursMiBps: round(best!.ours),
      kernelWireguardGoMiBps: round(best!.kernel),
      ratio: round(best!.ours / best!.kernel, 3),
      oursCpuSecondsPerGiB: round(best!.cpuPerGiB),
      oursMbitps: round((best!.ours * MiB * 8) / 1e6, 1),
      kernelMbitps: round((best!.kernel * MiB * 8) / 1e6, 1),
      wgDropped: Object.fromEntries(Object.entries(stats.wireguard.dropped).filter(([, n]) => n > 0)),
      tcp: { retransmitted: stats.netstack.tcpSegmentsRetransmitted, timeouts: stats.netstack.tcpTimeouts },
      node: process.version,
    })}\n`)
  } finally {
    await cleanup()
    cleanup = undefined
  }
}

await main()
