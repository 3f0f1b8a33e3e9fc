import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PassThrough } from 'node:stream'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCli } from '../../src/cli/index.js'
import { startAdminServer, type AdminRoute, type AdminServer } from '../../src/server/admin-server.js'
import { InspectionHub } from '../../src/system/inspection.js'
import { adminTokenFileName } from '../../src/config/defaults.js'
import { silentLogger } from '../../src/log.js'
import type { FunnelStatus } from '../../src/protocol/wire.js'
import type { VpnStatus } from '../../src/services/vpn/status.js'
import { freePort } from '../helpers/ports.js'

// `vpn enable|disable` and `funnel on|off` are one switch (src/cli/config-switch.ts): persist the key
// in the user's config file, then apply it to the running daemon. The daemon here is the real admin
// listener with the token file the CLI reads; its /api/vpn and /api/funnel routes answer like the
// parts do (src/system/vpn-part.ts, funnel-part.ts) and record what they were asked. The parts
// themselves are driven by the real daemon in test/integration/{funnel-agent,vpn-torrent-tunnel}.

const token = 'config-switch-admin-token-0123456789'
let dir: string
let server: AdminServer | undefined

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-switch-'))
})

afterEach(async () => {
  await server?.close()
  server = undefined
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

const userFile = (adminPort: number, start: { vpn: boolean; funnel: boolean }) => [
  "# the user's own comment, kept",
  '[server]',
  'base_url = "http://127.0.0.1:9"',
  'access_token = "t"',
  '[daemon]',
  `state_dir = "${join(dir, 'state')}"`,
  '[admin]',
  `listen = "127.0.0.1:${adminPort}" # loopback only`,
  '[downloads.vpn]',
  `enabled = ${String(start.vpn)} # my choice for now`,
  '[funnel]',
  `enabled = ${String(start.funnel)}`,
  '',
].join('\n')

/** The user's file; with `flipping`, that switch's key starts at the opposite value, so the write must happen. */
async function configFile(flipping?: { table: string; enabled: boolean }): Promise<{ file: string; adminPort: number }> {
  const adminPort = await freePort()
  const file = join(dir, 'config.toml')
  const start = { vpn: false, funnel: true }
  if (flipping?.table === '[downloads.vpn]') start.vpn = !flipping.enabled
  if (flipping?.table === '[funnel]') start.funnel = !flipping.enabled
  await writeFile(file, userFile(adminPort, start), { mode: 0o600 })
  return { file, adminPort }
}

/** The daemon's admin listener on `port` with the two switch routes; returns what each was POSTed. */
async function runningDaemon(port: number) {
  const posted: Record<string, unknown[]> = { '/api/vpn': [], '/api/funnel': [] }
  const vpn: VpnStatus = { enabled: false, state: 'off', mode: 'off', exitServer: '', handshakeAgeSeconds: null, rxBytes: 0, txBytes: 0 }
  const funnel: FunnelStatus = { enabled: true, state: 'up', url: 'https://a-b.trycloudflare.com', restarts: 0, helperPath: '/state/bin/cloudflared' }
  const routes: AdminRoute[] = [
    { method: 'POST', path: '/api/vpn', handle: ({ body }) => {
      posted['/api/vpn']!.push(body)
      const enabled = (body as { enabled: boolean }).enabled
      return { status: 200, json: { ...vpn, enabled, state: enabled ? 'fetching' : 'off' } }
    } },
    { method: 'POST', path: '/api/funnel', handle: ({ body }) => {
      posted['/api/funnel']!.push(body)
      const enabled = (body as { enabled: boolean }).enabled
      return { status: 200, json: { ...funnel, enabled, state: enabled ? 'starting' : 'off', url: '' } }
    } },
  ]
  server = await startAdminServer({ host: '127.0.0.1', port, token, logger: silentLogger(), source: { actorTree: () => ({ id: 'agent', children: [] }), inspection: new InspectionHub(1), status: () => ({}), routes } })
  await mkdir(join(dir, 'state'), { recursive: true })
  await writeFile(join(dir, 'state', adminTokenFileName), token, { mode: 0o600 })
  return posted
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
  stderr.on('data', (chunk: Buffer) => { err += chunk.toString() })
  const code = await buildCli({ colors: false }).run(args, { stdin: process.stdin, stdout, stderr })
  return { code, stdout: out, stderr: err }
}

const switches = [
  { name: 'vpn enable', args: ['vpn', 'enable'], table: '[downloads.vpn]', line: 'enabled = true # my choice for now', route: '/api/vpn', enabled: true, live: 'vpn: enabled, fetching' },
  { name: 'vpn disable', args: ['vpn', 'disable'], table: '[downloads.vpn]', line: 'enabled = false # my choice for now', route: '/api/vpn', enabled: false, live: 'vpn: disabled, off' },
  { name: 'funnel on', args: ['funnel', 'on'], table: '[funnel]', line: 'enabled = true', route: '/api/funnel', enabled: true, live: 'funnel: on (starting)' },
  { name: 'funnel off', args: ['funnel', 'off'], table: '[funnel]', line: 'enabled = false', route: '/api/funnel', enabled: false, live: 'funnel: off (off)' },
] as const

describe.each(switches)('media-agent $name', (sw) => {
  it('writes the key into the config file, keeping every other line and comment, and the running daemon applies it', async () => {
    const { file, adminPort } = await configFile(sw)
    const posted = await runningDaemon(adminPort)
    const before = await readFile(file, 'utf8')
    expect(before).not.toContain(`${sw.table}\n${sw.line}\n`)
    const result = await run([...sw.args, '--config', file])
    expect(result.code, result.stderr).toBe(0)
    const after = await readFile(file, 'utf8')
    expect(after).toContain(`${sw.table}\n${sw.line}\n`)
    // Exactly the switch's line differs: comments, order and the other keys are the user's.
    const changed = after.split('\n').filter((line, i) => line !== before.split('\n')[i])
    expect(changed).toEqual([sw.line])
    expect(after.split('\n')).toHaveLength(before.split('\n').length)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(posted[sw.route]).toEqual([{ enabled: sw.enabled }])
    expect(result.stdout).toContain(`${sw.table} enabled = ${String(sw.enabled)} written to ${file}`)
    expect(result.stdout).toContain('applied to the running daemon')
    expect(result.stdout).toContain(sw.live)
  })

  it('with no daemon running, still writes the file, says the setting applies when the daemon starts, and exits 0', async () => {
    const { file } = await configFile(sw)
    const result = await run([...sw.args, '--config', file])
    expect(result.code, result.stderr).toBe(0)
    expect(await readFile(file, 'utf8')).toContain(`${sw.table}\n${sw.line}\n`)
    expect(result.stdout).toContain('not running')
    expect(result.stdout).toContain('the setting applies when it starts')
  })

  it('with no config file, changes nothing, not even the running daemon, and says how to get one (exit 1)', async () => {
    const config = join(dir, 'xdg-config')
    vi.stubEnv('XDG_CONFIG_HOME', config)
    vi.stubEnv('XDG_STATE_HOME', join(dir, 'xdg-state'))
    const result = await run([...sw.args])
    expect(result.code).toBe(1)
    const expectedPath = join(config, 'media-agent', 'config.toml')
    expect(result.stderr).toContain(`no config file at ${expectedPath}`)
    expect(result.stderr).toContain('nothing changed')
    expect(result.stderr).toContain('media-agent init')
    expect(result.stdout).toBe('')
    await expect(stat(expectedPath)).rejects.toThrow(/ENOENT/)
  })

  it('leaves a config file it cannot take the key untouched and does not ask the daemon', async () => {
    const adminPort = await freePort()
    const posted = await runningDaemon(adminPort)
    const file = join(dir, 'config.toml')
    // The table is written inline: a `[table]` section cannot be added, so the edit is refused.
    const inline = sw.route === '/api/vpn' ? 'downloads = { vpn = { enabled = false } }' : 'funnel = { enabled = false }'
    const text = `${inline}\n[server]\nbase_url = "http://127.0.0.1:9"\naccess_token = "t"\n[daemon]\nstate_dir = "${join(dir, 'state')}"\n[admin]\nlisten = "127.0.0.1:${adminPort}"\n`
    await writeFile(file, text)
    const result = await run([...sw.args, '--config', file])
    expect(result.code).toBe(1)
    expect(result.stdout + result.stderr).toContain('would no longer parse')
    expect(await readFile(file, 'utf8')).toBe(text)
    expect(posted[sw.route]).toEqual([])
  })
})
