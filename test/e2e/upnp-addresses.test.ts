import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { RegisterRecord, SyncRecord } from '../../src/reference-server/records.js'
import type { StreamServerInfo } from '../../src/protocol/wire.js'
import { assertBuilt, cliPath, tempAgent, type TempAgent } from '../helpers/daemon.js'
import { createNetnsLink, inNetns, killByPid, linkNamespaces, netnsUnavailable, removeNetnsLink, spawnInNetns, type NetnsLink } from '../helpers/netns.js'

// The stream server's addresses (contract 1.11, 9 0.3.0) with a real router: the daemon (the
// built CLI) runs in a "home LAN" namespace whose default route goes to a "router" namespace
// running Debian's miniupnpd (nftables backend). The router's WAN carries 1.2.3.4, a public
// address that exists only inside its namespace. The LAN namespace also has a `wg*` interface
// (a mesh VPN) and a second link to the host, where the reference server listens.
//
//   host (reference server) --10.250.x.0/30-- lan ns (daemon) --10.252.x.0/30-- router ns (miniupnpd) -- wan0 1.2.3.4

const reason = await netnsUnavailable(['miniupnpd', 'nft'])
const publicIp = '1.2.3.4'
const meshIp = '100.100.14.2'

// The chains miniupnpd's nftables backend writes into (Debian's /etc/miniupnpd/nft_init.sh).
const nftInit = `table inet filter {
  chain miniupnpd {
  }
  chain prerouting_miniupnpd {
  }
  chain postrouting_miniupnpd {
  }
  chain forward {
    type filter hook forward priority 0; policy drop;
    jump miniupnpd
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    jump postrouting_miniupnpd
  }
}
`

describe.skipIf(reason !== undefined)('UPnP mapping and the address order, against a real miniupnpd', () => {
  let lan: NetnsLink
  let router: NetnsLink
  let between: Awaited<ReturnType<typeof linkNamespaces>>
  let dir: string
  let miniupnpd: ResultPromise | undefined
  let daemon: ResultPromise | undefined
  let server: ReferenceServer
  let streamPort: number
  let agent: TempAgent | undefined
  let routerLanIf: string
  let daemonLog = ''
  let startRouter: () => Promise<void>
  let routerLog = ''

  const redirects = async () => (await inNetns(router, 'nft', ['list', 'chain', 'inet', 'filter', 'prerouting_miniupnpd'])).stdout

  beforeAll(async () => {
    assertBuilt()
    dir = await mkdtemp(join(tmpdir(), 'ma14-upnp-'))
    lan = await createNetnsLink('ma14l')
    router = await createNetnsLink('ma14r')
    between = await linkNamespaces(lan, router)
    await inNetns(lan, 'ip', ['route', 'add', 'default', 'via', between.bAddress])
    // A mesh VPN interface in the LAN namespace: known by its name (contract: mesh-VPN IP).
    await inNetns(lan, 'ip', ['link', 'add', 'wgma14', 'type', 'veth', 'peer', 'name', 'pma14'])
    await inNetns(lan, 'ip', ['addr', 'add', `${meshIp}/32`, 'dev', 'wgma14'])
    await inNetns(lan, 'ip', ['link', 'set', 'wgma14', 'up'])
    await inNetns(lan, 'ip', ['link', 'set', 'pma14', 'up'])
    // The router's WAN: a veth pair inside its namespace holding the public address.
    await inNetns(router, 'ip', ['link', 'add', 'wan0', 'type', 'veth', 'peer', 'name', 'wan1'])
    await inNetns(router, 'ip', ['addr', 'add', `${publicIp}/24`, 'dev', 'wan0'])
    await inNetns(router, 'ip', ['link', 'set', 'wan0', 'up'])
    await inNetns(router, 'ip', ['link', 'set', 'wan1', 'up'])
    await inNetns(router, 'nft', ['-f', '-'], nftInit)
    routerLanIf = (await inNetns(router, 'ip', ['-o', '-4', 'addr', 'show', 'to', between.bAddress])).stdout.split(/\s+/)[1]!
    const conf = join(dir, 'miniupnpd.conf')
    await writeFile(conf, [
      'ext_ifname=wan0',
      `listening_ip=${routerLanIf}`,
      'http_port=5000',
      'enable_upnp=yes',
      'enable_natpmp=no',
      'secure_mode=yes',
      'system_uptime=yes',
      `lease_file=${join(dir, 'upnp.leases')}`,
      'uuid=4d61696e-6d61-3134-8000-000000000014',
      'allow 1024-65535 0.0.0.0/0 1024-65535',
      'deny 0-65535 0.0.0.0/0 0-65535',
      '',
    ].join('\n'))
    server = await createReferenceServer({ host: lan.hostAddress, accessToken: 'ma14-token' })
    agent = await tempAgent({ baseUrl: server.url, accessToken: 'ma14-token', upnp: true, extra: '[testing]\naddresses_retry_ms = 500\n' })
    streamPort = agent.streamPort
    daemon = spawnInNetns(lan, process.execPath, [cliPath, 'daemon', '--config', agent.configPath, '--log-level', 'debug'])
    daemon.stderr?.on('data', (chunk: Buffer) => (daemonLog += chunk.toString()))
    // The router is switched on only after the daemon found none (the next test), so the
    // retry is part of what is tested.
    startRouter = async () => {
      miniupnpd = spawnInNetns(router, '/usr/sbin/miniupnpd', ['-d', '-f', conf, '-P', join(dir, 'miniupnpd.pid')])
      miniupnpd.stderr?.on('data', (chunk: Buffer) => (routerLog += chunk.toString()))
      // Bounded wait for the router to be up, as a person would look at its log.
      for (let i = 0; !routerLog.includes('HTTP listening on port'); i++) {
        if (i > 200 || miniupnpd.exitCode !== null) throw new Error(`miniupnpd did not start: ${routerLog}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }
  })

  afterAll(async () => {
    await killByPid(daemon)
    await killByPid(miniupnpd)
    await server?.close()
    await between?.remove()
    if (lan) await removeNetnsLink(lan)
    if (router) await removeNetnsLink(router)
    await rm(dir, { recursive: true, force: true })
    await agent?.cleanup()
  })

  it('reports mesh-VPN and LAN addresses while no router answers, warning about UPnP once however often it retries', async () => {
    const failures = () => daemonLog.split('\n').filter((line) => line.includes('UPnP mapping of the stream port failed')).map((line) => (JSON.parse(line) as { level: number }).level)
    // Bounded wait: three attempts (500 ms apart in this test) have failed.
    for (let i = 0; failures().length < 3; i++) {
      if (i > 800) throw new Error(`no UPnP failures logged:\n${daemonLog.slice(-3000)}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(failures().filter((level) => level === 40)).toHaveLength(1)
    const registered = server.registrations().at(-1) ?? await server.waitFor('register', () => true, 30_000)
    expect(registered.request.streamServer.addresses.map((a) => a.kind)).toEqual(['mesh', 'lan'])
    await startRouter()
  })

  it('then maps the stream port on the router and reports UPnP, mesh-VPN and LAN addresses in that order', async () => {
    const reported = (info: StreamServerInfo) => info.addresses[0]?.kind === 'upnp'
    const record = await Promise.race([
      server.waitFor('register', (r: RegisterRecord) => reported(r.request.streamServer), 30_000),
      server.waitFor('sync', (r: SyncRecord) => reported(r.request.streamServer), 30_000),
    ]).catch(async (err: Error) => {
      throw new Error(`${err.message}\ndaemon log:\n${daemonLog.slice(-3000)}\nminiupnpd log:\n${routerLog.slice(-3000)}`)
    })
    expect(record.request.streamServer).toEqual({
      port: streamPort,
      publicUrl: `http://${publicIp}:${streamPort}`,
      addresses: [
        { kind: 'upnp', url: `http://${publicIp}:${streamPort}` },
        { kind: 'mesh', url: `http://${meshIp}:${streamPort}` },
        // The LAN address is the default route's interface, not the link the server is on.
        { kind: 'lan', url: `http://${between.aAddress}:${streamPort}` },
      ],
    })
    // The router really forwards the port to the agent.
    // (`@nh,72,8 0x6` is the IPv4 protocol byte: TCP.)
    expect(await redirects()).toMatch(new RegExp(`iif "wan0" @nh,72,8 0x6 th dport ${streamPort} dnat ip to ${between.aAddress.replace(/\./g, '\\.')}:${streamPort}`))
  })

  it('removes the mapping when the daemon is stopped with SIGTERM', async () => {
    process.kill(daemon!.pid!, 'SIGTERM')
    const result = await daemon!
    expect(result.exitCode).toBe(0)
    expect(await redirects()).not.toContain(`dport ${streamPort}`)
  })
})
