import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { SyncRecord } from '../../src/reference-server/records.js'
import { runCli, startDaemon, tempAgent, type TempAgent } from '../helpers/daemon.js'
import { buildFakeHelper, helperRuns, isAlive, serveFakeHelper, type FakeHelperAssets } from '../helpers/fake-cloudflared.js'

// No tunnel helper outlives the daemon (the brief's process rule), however the daemon ends:
// the built CLI with the fake helper (test/fixtures/funnel/fake-cloudflared.c) as its download.

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return true
}

describe('the tunnel helper of a daemon process', () => {
  let assets: FakeHelperAssets
  let server: ReferenceServer
  const agents: TempAgent[] = []

  beforeAll(async () => {
    assets = await serveFakeHelper(await buildFakeHelper())
    server = await createReferenceServer({ accessToken: 'e2e-token' })
  })

  afterAll(async () => {
    await server?.close()
    await assets?.close()
    for (const agent of agents) await agent.cleanup()
  })

  it('with no config file, funnel on changes nothing and says how to write one (exit 1)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ma14-home-'))
    try {
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') }
      const result = await runCli(['funnel', 'on'], env)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`no config file at ${join(home, 'config', 'media-agent', 'config.toml')}`)
      expect(result.stderr).toContain('nothing changed')
      expect(result.stderr).toContain('media-agent init')
      const status = await runCli(['funnel', 'status'], env)
      expect(status.code).toBe(3)
      expect(status.stderr).toContain('not running')
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('with a config file but no daemon, funnel on writes the file and says it applies at the next start', async () => {
    const agent = await tempAgent({ baseUrl: server.url })
    agents.push(agent)
    const result = await runCli(['funnel', 'on', '--config', agent.configPath])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('the setting applies when it starts')
    expect(await readFile(agent.configPath, 'utf8')).toMatch(/\[funnel\]\nenabled = true\n/)
  })

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`ends with the daemon when the daemon gets ${signal}`, async () => {
      const agent = await tempAgent({ baseUrl: server.url, funnel: ['enabled = true', `helper_url = "${assets.baseUrl}"`] })
      agents.push(agent)
      const reported = server.waitFor('sync', (record: SyncRecord) => /^https:\/\/quick-\d+-0\.trycloudflare\.com$/.test(record.request.FunnelURL), 30_000)
      const daemon = startDaemon(['daemon', '--config', agent.configPath])
      try {
        const record = await reported
        const [run] = await helperRuns(join(agent.stateDir, 'bin', 'cloudflared'))
        expect(record.request.FunnelURL).toBe(`https://quick-${run!.pid}-0.trycloudflare.com`)
        expect(isAlive(run!.pid)).toBe(true)
        const exit = await daemon.stop(signal)
        if (signal === 'SIGTERM') expect(exit.code).toBe(0)
        expect(await goneWithin(run!.pid, 5_000), `helper ${run!.pid} still runs after the daemon got ${signal}`).toBe(true)
      } finally {
        await daemon.stop('SIGKILL')
      }
    })
  }
})
