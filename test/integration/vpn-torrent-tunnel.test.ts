// Issue 13, the check: a whole agent with `[downloads.vpn] enabled = true` against the reference
// server, whose vpn-config hands out a WireGuard config for a real wireguard-go server in a
// test-made namespace (test/helpers/vpn-lab.ts). The tracker (opentracker, HTTP and UDP, named by
// a host name only the tunnel's DNS knows) and the seeder (aria2c) listen only at tunnel
// addresses, and the host has a route to them in the clear: host-side nftables counters then
// prove that no tracker or peer packet left in the clear, that WireGuard carried the download,
// and that the control plane (register, sync, vpn-config) did not use the tunnel.
//
// While the tunnel cannot connect (its datagrams dropped on the host), the task waits: nothing
// goes to the tracker or the seeder in the clear and VPNActive stays false. Then `media-agent vpn
// status`, `status --check` and `disable` through the real CLI (persisted, applied live, the
// slot freed by the next sync).
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { VpnStatus } from '../../src/services/vpn/status.js'
import { harnessAccessToken, startAgentHarness, syncWhere, type AgentHarness } from '../helpers/agent-harness.js'
import { assertBuilt, runCli } from '../helpers/daemon.js'
import { netnsUnavailable } from '../helpers/netns.js'
import { randomTorrent, writeTorrentFiles, type FixtureTorrent } from '../helpers/torrent-fixtures.js'
import { startVpnLab, trackerHost, trackerPort, until, type VpnLab } from '../helpers/vpn-lab.js'

const unavailable = await netnsUnavailable(['wireguard-go', 'wg', 'nft', 'opentracker', 'aria2c'])
if (unavailable !== undefined) console.warn(`VPN torrent test skipped: ${unavailable}`)

const MiB = 1024 * 1024

async function admin<T>(h: AgentHarness, path: string): Promise<T> {
  const token = (await readFile(h.agent.adminTokenPath, 'utf8')).trim()
  const response = await request(`${h.agent.admin.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  expect(response.statusCode).toBe(200)
  return (await response.body.json()) as T
}

const clearCounters = ['clear_tunnel_range', 'clear_tracker_tcp', 'clear_tracker_udp', 'clear_seeder'] as const

describe.skipIf(unavailable !== undefined)('torrent traffic through the managed WireGuard VPN', () => {
  let server: ReferenceServer
  let lab: VpnLab
  let h: AgentHarness | undefined
  let dir: string
  let torrent: FixtureTorrent

  beforeAll(async () => {
    assertBuilt()
    dir = await mkdtemp(join(tmpdir(), 'ma13-vpn-'))
    server = await createReferenceServer({ accessToken: harnessAccessToken })
    lab = await startVpnLab({ controlPlanePort: server.port })
    server.setVpn({ enabled: true, provisioned: true, config: lab.agentConfig, exitServer: 'ma13-exit' })
    torrent = randomTorrent('ma13-payload', [3 * MiB, 1 * MiB + 517], {
      pieceLength: 64 * 1024,
      announce: [`http://${trackerHost}:${trackerPort}/announce`, `udp://${trackerHost}:${trackerPort}`],
    })
    const seedDir = join(dir, 'seed')
    await mkdir(seedDir, { recursive: true })
    await writeTorrentFiles(seedDir, torrent)
    const torrentPath = join(dir, 'payload.torrent')
    await writeFile(torrentPath, torrent.torrentFile)
    await lab.startSwarm({ infoHash: torrent.infoHash, torrentPath, seedDir })
  }, 90_000)

  afterAll(async () => {
    await h?.stop()
    await lab?.close()
    await server?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  }, 60_000)

  it('waits while the tunnel connects, then downloads through it only: no tracker or peer packet in the clear, control-plane calls in the clear', async () => {
    await lab.blockWireGuard(true)
    server.setWatching(true)
    h = await startAgentHarness({
      server,
      logLevel: 'debug',
      testing: { vpn_sample_interval_ms: 200, vpn_kick_interval_ms: 1000 },
      extraToml: '[downloads.vpn]\nenabled = true\n',
    })
    const agent = h
    onTestFailed(() => {
      const wanted = new Set(['torrent', 'vpn', 'tunnel', 'tasks', 'vpn-peer-network', 'wireguard'])
      for (const line of agent.logs) if (line.component && wanted.has(line.component)) console.log(JSON.stringify(line).slice(0, 600))
    })
    const magnet = `magnet:?xt=urn:btih:${torrent.infoHash}&dn=ma13-payload&tr=${encodeURIComponent(`http://${trackerHost}:${trackerPort}/announce`)}&tr=${encodeURIComponent(`udp://${trackerHost}:${trackerPort}`)}`
    const taskId = server.queueTask(magnet, { agentId: agent.agentId })

    // Connecting: handshake initiations go out (and are dropped); the task waits.
    await until(async () => ((await lab.counters()).wireguard?.packets ?? 0) >= 3, 30_000, 'three WireGuard datagrams from the agent')
    await syncWhere(server, (r) => r.agentId === agent.agentId && r.request.tasks.some((t) => t.id === taskId), 20_000)
    const connecting = await admin<VpnStatus>(agent, '/api/vpn')
    expect(connecting).toMatchObject({ enabled: true, state: 'connecting', mode: 'wireguard', exitServer: 'ma13-exit', handshakeAgeSeconds: null })
    const waiting = await lab.counters()
    for (const name of clearCounters) expect(waiting[name], `${name} while connecting`).toEqual({ packets: 0, bytes: 0 })
    const lastWhileConnecting = server.lastSync(agent.agentId)!
    expect(lastWhileConnecting.request).toMatchObject({ VPNActive: false, VPNMode: 'wireguard', VPNExitServer: 'ma13-exit' })
    expect(lastWhileConnecting.request.tasks.find((t) => t.id === taskId)?.progress ?? 0).toBe(0)

    // The tunnel comes up: VPNActive reaches the server, and the download runs through it.
    await lab.blockWireGuard(false)
    await syncWhere(server, (r) => r.agentId === agent.agentId && r.request.VPNActive === true, 40_000)
    const done = await syncWhere(
      server,
      (r) => r.agentId === agent.agentId && r.request.tasks.some((t) => t.id === taskId && (t.state === 'seeding' || t.state === 'completed')),
      120_000,
    )
    const report = done.request.tasks.find((t) => t.id === taskId)!
    expect(report.progress).toBe(1)
    for (const file of torrent.files) {
      const got = await readFile(join(agent.dir, 'downloads', torrent.name, file.path))
      expect(createHash('sha256').update(got).digest('hex'), file.path).toBe(createHash('sha256').update(file.data).digest('hex'))
    }

    // The UDP announce sent while connecting timed out (15 s, bittorrent-tracker); the engine asks
    // that tracker again (2 s, 4 s, ...), and this time it goes through the tunnel.
    type Traffic = { peerConnections: number; trackerConnections: number; udpDatagrams: number }
    await until(async () => (await admin<Traffic>(agent, '/api/vpn/traffic')).udpDatagrams > 0, 60_000, 'a UDP announce through the tunnel')
    const after = await lab.counters()
    for (const name of clearCounters) expect(after[name], `${name} after the download`).toEqual({ packets: 0, bytes: 0 })
    expect(after.wireguard!.packets).toBeGreaterThan(10)
    expect(after.control_plane!.packets, 'register, sync and vpn-config go to the server in the clear').toBeGreaterThan(0)
    expect(await lab.wireGuardTxBytes(), 'the payload crossed the WireGuard interface').toBeGreaterThanOrEqual(torrent.size)
    expect(server.registrations(agent.agentId)[0]!.request).toMatchObject({ VPNActive: false, VPNMode: 'wireguard' })

    const traffic = await admin<Traffic>(agent, '/api/vpn/traffic')
    expect(traffic.peerConnections, 'peer connections through the tunnel').toBeGreaterThan(0)
    expect(traffic.trackerConnections, 'HTTP announces through the tunnel').toBeGreaterThan(0)
    expect(traffic.udpDatagrams, 'UDP announces through the tunnel').toBeGreaterThan(0)

    const up = await admin<VpnStatus>(agent, '/api/vpn')
    expect(up).toMatchObject({ enabled: true, state: 'up', mode: 'wireguard', exitServer: 'ma13-exit' })
    expect(up.handshakeAgeSeconds).toBeGreaterThanOrEqual(0)
    expect(up.handshakeAgeSeconds).toBeLessThan(180)
    expect(up.rxBytes).toBeGreaterThan(torrent.size)
    expect(server.vpnState().holder).toBe(agent.agentId)
  }, 240_000)

  it('media-agent vpn status, status --check and disable: persisted in the config file, applied live, and the slot freed', async () => {
    const agent = h!
    const configPath = join(agent.dir, 'config.toml')
    await writeFile(configPath, agent.configText, { mode: 0o600 })

    const status = await runCli(['vpn', 'status', '--json', '--config', configPath])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ enabled: true, state: 'up', mode: 'wireguard', exitServer: 'ma13-exit' })
    const human = await runCli(['vpn', 'status', '--config', configPath])
    expect(human.stdout).toContain('up (wireguard, exit ma13-exit)')

    const check = await runCli(['vpn', 'status', '--check', '--config', configPath])
    expect(check.stdout.trim()).toBe('ok')
    expect(check.code).toBe(0)
    expect(server.vpnState().holder, 'probe=1 neither claims nor frees').toBe(agent.agentId)

    const disabled = await runCli(['vpn', 'disable', '--config', configPath])
    expect(disabled.code).toBe(0)
    expect(await readFile(configPath, 'utf8')).toMatch(/\[downloads\.vpn\]\nenabled = false\n/)
    await syncWhere(server, (r) => r.agentId === agent.agentId && r.request.VPNActive === false && r.request.VPNMode === 'off', 20_000)
    expect(server.vpnState().holder, 'a sync with VPNActive false frees the slot').toBeUndefined()
    expect(await admin<VpnStatus>(agent, '/api/vpn')).toMatchObject({ enabled: false, state: 'off', mode: 'off', exitServer: '' })

    // With the server's VPN switched off, --check says so and exits non-zero.
    server.setVpn({ enabled: false })
    const refused = await runCli(['vpn', 'status', '--check', '--config', configPath])
    expect(refused.stdout.trim()).toBe('disabled')
    expect(refused.code).toBe(1)
  }, 60_000)
})
