// A VPN provider in a box for the VPN tests (issue 13): a test-made namespace (`ma13-*`) with a
// wireguard-go server, and behind it - reachable only at tunnel addresses - a DNS responder, a
// real opentracker and a real aria2c seeder. The host gets a route to the tunnel range through
// the namespace, so a packet sent in the clear to the tracker or the seeder would really leave
// (and be counted): host-side nftables counters tell what went where. Everything is removed by
// name and PID afterwards.
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { execa } from 'execa'
import { encodeKey } from '../../src/services/wireguard/config.js'
import { publicKeyOf } from '../../src/services/wireguard/crypto.js'
import {
  createNetnsLink, inNetns, killByPid, removeNetnsLink, spawnInNetns, spawnInNetnsUntil, wireGuardGoPeer,
  type NetnsLink, type WireGuardGoPeer,
} from './netns.js'
import { until } from './opentracker.js'

export const trackerHost = 'tracker.ma13.test'
export const trackerPort = 6969
export const seederPort = 6881
const wgPort = 51820

/** Answers every A query with one address. argv: bind-host answer. */
const dnsServerSource = String.raw`
const dgram = require('node:dgram'); const [host, answer] = process.argv.slice(-2);
const s = dgram.createSocket('udp4');
s.on('message', (q, r) => {
  let o = 12; while (q[o] !== 0) o += q[o] + 1; o += 5;
  const head = Buffer.from(q.subarray(0, o)); head[2] = 0x81; head[3] = 0x80;
  head.writeUInt16BE(1, 6); head.writeUInt16BE(0, 8); head.writeUInt16BE(0, 10);
  const rr = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...answer.split('.').map(Number)]);
  s.send(Buffer.concat([head, rr]), r.port, r.address);
});
s.bind(53, host, () => console.log('listening'));
`

/** Inside the namespace: GETs a URL until the body passes a check (a regex); exits 0 then, 1 on timeout. argv: url regex timeoutMs */
const probeSource = String.raw`
const [url, pattern, timeout] = process.argv.slice(-3); const deadline = Date.now() + Number(timeout);
(async () => { for (;;) {
  try { const res = await fetch(url); const body = Buffer.from(await res.arrayBuffer()).toString('latin1');
    if (res.ok && new RegExp(pattern).test(body)) { console.log('ok'); process.exit(0) } } catch {}
  if (Date.now() > deadline) { console.log('timeout'); process.exit(1) } await new Promise((r) => setTimeout(r, 200)) } })();
`

export interface VpnLab {
  link: NetnsLink
  /** The server's tunnel address: DNS, tracker and seeder listen here. */
  gateway: string
  /** The agent's tunnel address. */
  agentAddress: string
  /** wg-quick text for the agent (what vpn-config serves). */
  agentConfig: string
  wireguard: WireGuardGoPeer
  /** Starts opentracker (whitelisting `infoHash`) and an aria2c seeder of `torrentPath` with its data in `seedDir`. */
  startSwarm(options: { infoHash: string; torrentPath: string; seedDir: string }): Promise<void>
  /** Host-side nftables counters: packets and bytes per name. */
  counters(): Promise<Record<string, { packets: number; bytes: number }>>
  /** Drops (true) or passes (false) the WireGuard datagrams arriving at the namespace. */
  blockWireGuard(blocked: boolean): Promise<void>
  /** Bytes the namespace's WireGuard interface sent into the tunnel. */
  wireGuardTxBytes(): Promise<number>
  close(): Promise<void>
}

export async function startVpnLab(options: { controlPlanePort: number }): Promise<VpnLab> {
  const link = await createNetnsLink('ma13')
  const children: ResultPromise[] = []
  const dir = await mkdtemp(join(tmpdir(), 'ma13-lab-'))
  await chmod(dir, 0o755)
  const table = `ma13_${randomBytes(3).toString('hex')}`
  let wireguard: WireGuardGoPeer | undefined
  const gateway = `10.251.${link.octet}.1`
  const agentAddress = `10.251.${link.octet}.2`
  const tunnelRange = `10.251.${link.octet}.0/24`

  const close = async () => {
    for (const child of children.reverse()) await killByPid(child)
    await wireguard?.stop()
    await execa('nft', ['delete', 'table', 'inet', table], { reject: false })
    await removeNetnsLink(link) // the host route through the veth goes with it
    await rm(dir, { recursive: true, force: true })
  }

  const agentKey = new Uint8Array(randomBytes(32))
  const serverKey = new Uint8Array(randomBytes(32))
  try {
    const keyFile = join(dir, 'server.key')
    await writeFile(keyFile, `${encodeKey(serverKey)}\n`, { mode: 0o600 })
    wireguard = wireGuardGoPeer({
      link, privateKeyFile: keyFile, listenPort: wgPort, tunnelAddress: gateway, prefixLength: 24, prefix: 'ma13',
      peers: [{ publicKey: encodeKey(publicKeyOf(agentKey)), allowedIps: `${agentAddress}/32` }],
    })
    await wireguard.start()
    children.push((await spawnInNetnsUntil(link, 'node', ['-e', dnsServerSource, gateway, gateway], 'listening')).child)

    // A clear packet to the tunnel range must really go out (and be counted), not fail for want of a route.
    await execa('ip', ['route', 'add', tunnelRange, 'via', link.nsAddress])
    const rules = `
table inet ${table} {
  counter clear_tunnel_range {}
  counter clear_tracker_tcp {}
  counter clear_tracker_udp {}
  counter clear_seeder {}
  counter wireguard {}
  counter control_plane {}
  chain out {
    type filter hook output priority 0; policy accept;
    ip daddr ${tunnelRange} counter name clear_tunnel_range
    tcp dport ${trackerPort} counter name clear_tracker_tcp
    udp dport ${trackerPort} counter name clear_tracker_udp
    tcp dport ${seederPort} counter name clear_seeder
    ip daddr 127.0.0.1 tcp dport ${options.controlPlanePort} counter name control_plane
    ip daddr ${link.nsAddress} udp dport ${wgPort} counter name wireguard
  }
}
`
    await execa('nft', ['-f', '-'], { input: rules })
  } catch (err) {
    await close()
    throw err
  }

  const agentConfig = [
    '[Interface]',
    `PrivateKey = ${encodeKey(agentKey)}`,
    `Address = ${agentAddress}/32`,
    `DNS = ${gateway}`,
    'MTU = 1420',
    '',
    '[Peer]',
    `PublicKey = ${encodeKey(publicKeyOf(serverKey))}`,
    `Endpoint = ${link.nsAddress}:${wgPort}`,
    `AllowedIPs = ${tunnelRange}`,
    'PersistentKeepalive = 25',
    '',
  ].join('\n')
  return {
    link,
    gateway,
    agentAddress,
    agentConfig,
    wireguard: wireguard!,
    async startSwarm({ infoHash, torrentPath, seedDir }) {
      await writeFile(join(dir, 'whitelist.txt'), `${infoHash}\n`, { mode: 0o644 })
      const conf = join(dir, 'opentracker.conf')
      await writeFile(conf, `listen.tcp_udp ${gateway}:${trackerPort}\ntracker.rootdir ${dir}\naccess.whitelist whitelist.txt\n`, { mode: 0o644 })
      children.push(spawnInNetns(link, 'opentracker', ['-f', conf]))
      // Debian's opentracker reads its whitelist in a thread of its own: wait until it serves the hash.
      const hash = [...Buffer.from(infoHash, 'hex')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
      const base = `http://${gateway}:${trackerPort}`
      const probe = (url: string, pattern: string, timeoutMs: number) => inNetns(link, 'node', ['-e', probeSource, url, pattern, String(timeoutMs)])
      await probe(`${base}/announce?info_hash=${hash}&peer_id=-MA0000-whitelist000&port=1&uploaded=0&downloaded=0&left=0&numwant=0&event=started`, '^d(?!.*failure reason)', 15_000)
      await probe(`${base}/announce?info_hash=${hash}&peer_id=-MA0000-whitelist000&port=1&uploaded=0&downloaded=0&left=0&numwant=0&event=stopped`, '^d', 5_000)
      children.push(spawnInNetns(link, 'aria2c', [
        '--enable-dht=false', '--enable-dht6=false', '--bt-enable-lpd=false', '--enable-peer-exchange=false',
        '--disable-ipv6=true', `--interface=${gateway}`, `--listen-port=${seederPort}`,
        '--console-log-level=warn', '--summary-interval=0', '--show-console-readout=false',
        '--file-allocation=none', '--auto-save-interval=0', '--bt-save-metadata=false',
        // The torrent names the tracker by a name only the tunnel's DNS knows; the seeder uses its address.
        '--bt-exclude-tracker=*', `--bt-tracker=${base}/announce`,
        '--seed-ratio=0.0', '--check-integrity=true', '--bt-seed-unverified=false',
        `--dir=${seedDir}`, torrentPath,
      ]))
      await probe(`${base}/scrape?info_hash=${hash}`, '8:completei[1-9]', 30_000)
    },
    async counters() {
      const { stdout } = await execa('nft', ['-j', 'list', 'counters', 'table', 'inet', table])
      const out: Record<string, { packets: number; bytes: number }> = {}
      for (const item of (JSON.parse(stdout) as { nftables: Array<{ counter?: { name: string; packets: number; bytes: number } }> }).nftables) {
        if (item.counter) out[item.counter.name] = { packets: item.counter.packets, bytes: item.counter.bytes }
      }
      return out
    },
    async blockWireGuard(blocked) {
      // Dropped in the namespace, as a server gone away would: a drop on the host's way out
      // would fail the agent's send (EPERM), which no real outage looks like.
      // Both ways: the server neither hears nor speaks (its own rekey initiations would otherwise
      // reach the agent and count as a live peer).
      if (blocked) {
        await inNetns(link, 'nft', ['-f', '-'], [
          'table inet ma13_block {',
          `  chain in { type filter hook input priority 0; policy accept; udp dport ${wgPort} drop; }`,
          `  chain out { type filter hook output priority 0; policy accept; udp sport ${wgPort} drop; }`,
          '}', '',
        ].join('\n'))
      }
      else await inNetns(link, 'nft', ['delete', 'table', 'inet', 'ma13_block'])
    },
    async wireGuardTxBytes() {
      const { stdout } = await inNetns(link, 'ip', ['-j', '-s', 'link', 'show', wireguard!.ifName])
      return (JSON.parse(String(stdout)) as Array<{ stats64: { tx: { bytes: number } } }>)[0]!.stats64.tx.bytes
    },
    close,
  }
}

export { until }
