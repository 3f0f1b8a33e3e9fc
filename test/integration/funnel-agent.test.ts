import { readFile, writeFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js'
import { buildFakeHelper, helperRuns, isAlive, serveFakeHelper, setHelperMode, type FakeHelperAssets } from '../helpers/fake-cloudflared.js'
import { runCli } from '../helpers/daemon.js'
import type { SyncRecord } from '../../src/reference-server/records.js'

// The public tunnel in a running agent (protocol.md 7.4; contract 1.7, 2.4, 3 tunnel row, 8)
// against the reference server, with the fake helper (test/fixtures/funnel/fake-cloudflared.c)
// served as the provider's download. Time constants are shortened through [testing].

const quickUrl = /^https:\/\/quick-(\d+)-(\d+)\.trycloudflare\.com$/

async function getJson(url: string): Promise<unknown> {
  const response = await request(url)
  return response.body.json()
}

describe('the funnel in a running agent', () => {
  let assets: FakeHelperAssets
  let h: AgentHarness
  let helperPath: string
  let configFile: string
  let streamPort: number

  const nextSync = (predicate: (url: string) => boolean) =>
    h.server.waitFor('sync', (record: SyncRecord) => predicate(record.request.FunnelURL), 20_000)
  const metricsOf = async (pid: number) => {
    const run = (await helperRuns(helperPath)).find((r) => r.pid === pid)
    return `http://${run!.args[3]}`
  }

  beforeAll(async () => {
    assets = await serveFakeHelper(await buildFakeHelper())
    h = await startAgentHarness({
      funnel: ['enabled = true', `helper_url = "${assets.baseUrl}"`],
      testing: { funnel_restart_base_ms: 200, funnel_restart_max_ms: 2_000, funnel_rate_limited_restart_ms: 1_500, funnel_ready_poll_ms: 50 },
      logLevel: 'info',
    })
    helperPath = join(h.stateDir, 'bin', 'cloudflared')
    configFile = join(h.dir, 'config.toml')
    await writeFile(configFile, `# the user's own comment\n${h.configText}`)
    streamPort = Number(/\[stream\]\nport = (\d+)/.exec(h.configText)![1])
  })

  afterAll(async () => {
    const runs = helperPath ? await helperRuns(helperPath) : []
    await h?.stop()
    await assets?.close()
    // No helper outlives the agent.
    for (const run of runs) expect(isAlive(run.pid), `helper ${run.pid}`).toBe(false)
  })

  it('downloads the helper, runs it with the agent arguments and reports its URL once the tunnel is ready', async () => {
    const synced = await h.server.waitFor('sync', (record: SyncRecord) => quickUrl.test(record.request.FunnelURL), 20_000).catch(async () => {
      throw new Error(`no FunnelURL: ${JSON.stringify(await getJson(`${h.agent.admin.url}/api/funnel`).catch(() => 'n/a'))}`)
    })
    const runs = await helperRuns(helperPath)
    expect(runs).toHaveLength(1)
    const [pid] = [runs[0]!.pid]
    expect(synced.request.FunnelURL).toBe(`https://quick-${pid}-0.trycloudflare.com`)
    expect(runs[0]!.args).toEqual(['tunnel', '--no-autoupdate', '--metrics', expect.stringMatching(/^127\.0\.0\.1:\d+$/), '--url', `http://127.0.0.1:${streamPort}`])
    // The actor is in the live tree with its state and URL.
    expect(await h.node('funnel')).toMatchObject({ value: { on: { live: 'up' } }, context: expect.objectContaining({ url: synced.request.FunnelURL }) })
    expect(await h.node('addresses')).toMatchObject({ value: 'off' })
    // The sync carried it only once /ready answered 200 on the helper's metrics address.
    const ready = await request(`${await metricsOf(pid)}/ready`)
    expect(ready.statusCode).toBe(200)
    await ready.body.dump()
  })

  it('reports the new URL when the provider rotates the tunnel', async () => {
    const [run] = await helperRuns(helperPath)
    const rotated = nextSync((url) => url === `https://quick-${run!.pid}-1.trycloudflare.com`)
    await (await request(`${await metricsOf(run!.pid)}/rotate`)).body.dump()
    await rotated
  })

  it('clears the URL at the next sync when the helper dies, then restarts it and reports the new URL', async () => {
    const [run] = await helperRuns(helperPath)
    const cleared = nextSync((url) => url === '')
    const renewed = nextSync((url) => quickUrl.test(url) && !url.includes(`quick-${run!.pid}-`))
    await (await request(`${await metricsOf(run!.pid)}/exit`)).body.dump()
    await cleared
    const record = await renewed
    const runs = await helperRuns(helperPath)
    expect(runs).toHaveLength(2)
    expect(record.request.FunnelURL).toBe(`https://quick-${runs[1]!.pid}-0.trycloudflare.com`)
    expect(isAlive(run!.pid)).toBe(false)
    const status = await runCli(['funnel', 'status', '--json', '--config', configFile])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toEqual({ enabled: true, state: 'up', url: record.request.FunnelURL, restarts: 1, helperPath, error: expect.stringContaining('helper exited') })
  })

  it('refuses a funnel switch that is not {"enabled": true|false} and changes nothing', async () => {
    const token = (await readFile(join(h.stateDir, 'admin.token'), 'utf8')).trim()
    const response = await request(`${h.agent.admin.url}/api/funnel`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"enabled":"yes"}' })
    expect(response.statusCode).toBe(400)
    expect(await response.body.json()).toMatchObject({ error: 'bad_request' })
    expect((await h.node('funnel'))?.context).toMatchObject({ enabled: true })
  })

  it('backs off longer when the provider rate-limits the helper, then comes back', async () => {
    await setHelperMode(helperPath, ['ratelimit'])
    const runs = await helperRuns(helperPath)
    const limited = h.waitForLog((line) => line.msg.startsWith('public tunnel down') && line.rateLimited === true, 20_000)
    await (await request(`${await metricsOf(runs.at(-1)!.pid)}/exit`)).body.dump()
    try {
      const line = await limited
      // The ordinary backoff here is a few hundred ms: the rate-limit floor wins.
      expect(line.restartInMs).toBe(1_500)
    } finally {
      await rm(`${helperPath}.mode`)
    }
    await nextSync((url) => quickUrl.test(url))
  })

  it('applies the server\'s set_funnel control live, without touching the config file', async () => {
    const fileBefore = await readFile(configFile, 'utf8')
    const cleared = nextSync((url) => url === '')
    h.server.queueControl({ kind: 'set_funnel', enabled: false })
    await cleared
    expect((await h.node('funnel'))?.value).toBe('off')
    const back = nextSync((url) => quickUrl.test(url))
    h.server.queueControl({ kind: 'set_funnel', enabled: true })
    await back
    expect(await readFile(configFile, 'utf8')).toBe(fileBefore)
  })

  it('funnel off persists the choice in the config file, stops the helper and clears the URL; funnel on brings it back', async () => {
    const before = await helperRuns(helperPath)
    const cleared = nextSync((url) => url === '')
    const off = await runCli(['funnel', 'off', '--config', configFile])
    expect(off.code, off.stderr).toBe(0)
    expect(off.stdout).toContain(`[funnel] enabled = false written to ${configFile}`)
    await cleared
    const text = await readFile(configFile, 'utf8')
    expect(text).toMatch(/\[funnel\]\nenabled = false\n/)
    expect(text.startsWith("# the user's own comment\n")).toBe(true)
    expect(isAlive(before.at(-1)!.pid)).toBe(false)
    const status = await runCli(['funnel', 'status', '--json', '--config', configFile])
    expect(JSON.parse(status.stdout)).toMatchObject({ enabled: false, state: 'off', url: '' })

    const back = nextSync((url) => quickUrl.test(url))
    const on = await runCli(['funnel', 'on', '--config', configFile])
    expect(on.code, on.stderr).toBe(0)
    expect(await readFile(configFile, 'utf8')).toMatch(/\[funnel\]\nenabled = true\n/)
    await back
  })
})
