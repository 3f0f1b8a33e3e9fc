import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { request } from 'undici'
import { runCli, startDaemon, tempAgent, type DaemonProcess, type TempAgent } from '../helpers/daemon.js'
import { freePort } from '../helpers/ports.js'

let daemon: DaemonProcess | undefined
let agent: TempAgent | undefined

afterEach(async () => {
  await daemon?.stop('SIGKILL')
  await agent?.cleanup()
  daemon = undefined
  agent = undefined
})

interface TreeNode { id: string; systemId?: string; value?: unknown; children: TreeNode[] }

describe('the daemon, run as a person would', () => {
  it('serves its live actor tree to the admin token holder only, and exits 0 on SIGTERM', async () => {
    // A server address where nothing listens: the agent must keep running and retrying.
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    daemon = startDaemon(['daemon', '--config', agent.configPath])
    await daemon.waitForLog((line) => line.msg === 'admin listener ready')
    // An actionable message naming the address and what to check, and it keeps retrying.
    const retry = await daemon.waitForLog((line) => /retrying/.test(line.msg) && JSON.stringify(line).includes('MA_ERR_SERVER_UNREACHABLE'))
    expect(JSON.stringify(retry)).toContain('check [server] base_url')

    const tokenFile = join(agent.stateDir, 'admin.token')
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600)
    const token = (await readFile(tokenFile, 'utf8')).trim()
    const admin = `http://127.0.0.1:${agent.adminPort}`

    const withToken = await request(`${admin}/debug/actors`, { headers: { authorization: `Bearer ${token}` } })
    expect(withToken.statusCode).toBe(200)
    const tree = (await withToken.body.json()) as TreeNode
    expect(tree.id).toBe('agent')
    expect(tree.value).toBe('running')
    const controlPlane = tree.children.find((child) => child.systemId === 'controlPlane')
    expect(controlPlane?.value).toEqual({ registering: 'backoff' })

    const withoutToken = await request(`${admin}/debug/actors`)
    expect(withoutToken.statusCode).toBe(401)
    expect(await withoutToken.body.text()).toBe('{"error":"unauthorized"}')

    const status = await runCli(['status', '--config', agent.configPath])
    expect(status.code).toBe(0)
    expect(status.stdout.split('\n')[0]).toBe('active tasks: 0')

    const exit = await daemon.stop('SIGTERM')
    expect(exit).toEqual({ code: 0, signal: null })
    expect(daemon.logs.some((line) => line.msg === 'media-agent stopped' && line.clean === true)).toBe(true)
  })

  it('says the daemon is not running when nothing answers, and still prints the task count', async () => {
    agent = await tempAgent({ baseUrl: 'http://127.0.0.1:9' })
    const status = await runCli(['status', '--config', agent.configPath])
    expect(status.code).toBe(3)
    expect(status.stdout).toMatch(/^active tasks: 0\ndaemon: not running/)
  })

  it('lists the tasks recorded in tasks.json while the daemon is down, as text and as JSON', async () => {
    agent = await tempAgent({ baseUrl: 'http://127.0.0.1:9' })
    const task = (id: string, state: string, progress: number) => ({ id, source: `magnet:?xt=urn:btih:${id.padEnd(40, '0')}`, infoHash: id.padEnd(40, '0'), name: `film ${id}`, state, size: 1000, downloaded: 1000 * progress, uploaded: 0, progress, files: [], addedAt: 1 })
    await mkdir(agent.stateDir, { recursive: true })
    await writeFile(join(agent.stateDir, 'tasks.json'), JSON.stringify({ version: 1, tasks: [task('a1', 'downloading', 0.5), task('b2', 'completed', 1)] }))
    const text = await runCli(['status', '--config', agent.configPath])
    const lines = text.stdout.trim().split('\n')
    expect(lines[0]).toBe('active tasks: 1')
    expect(lines[1]).toMatch(/^a1 .*50\.0%.*downloading.*film a1/)
    expect(lines[2]).toMatch(/^b2 .*100\.0%.*completed.*film b2/)
    expect(lines.at(-1)).toMatch(/^daemon: not running .*tasks read from tasks\.json$/)
    const json = JSON.parse((await runCli(['status', '--json', '--config', agent.configPath])).stdout) as { running: boolean; activeTaskCount: number; tasks: unknown[] }
    expect(json).toMatchObject({ running: false, activeTaskCount: 1 })
    expect(json.tasks).toHaveLength(2)
  })

  it('stops before start-up on a wrong config value, naming the file, the key and what is expected', async () => {
    agent = await tempAgent({ baseUrl: 'http://127.0.0.1:9', extra: '[library]\npaths = "not a list"' })
    const result = await runCli(['daemon', '--config', agent.configPath])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(agent.configPath)
    expect(result.stderr).toContain('library.paths')
  })

  // Issue 18 (idle footprint): `daemon` parses its two options itself; the CLI framework and every
  // other command's modules stay unloaded, while help and usage errors still come from the full CLI.
  it('starts the daemon without loading the CLI framework, with the same messages and exit codes', async () => {
    const missing = await runCli(['daemon', '--config', '/nonexistent/media-agent.toml', '--log-level=warn'], { NODE_DEBUG: 'module' })
    expect(missing.code).toBe(78)
    expect(missing.stderr).toContain('Cannot read config file /nonexistent/media-agent.toml')
    expect(missing.stderr).not.toMatch(/clipanion/i)
    const bogus = await runCli(['daemon', '--bogus'])
    expect(bogus.code).toBe(2)
    expect(bogus.stderr).toContain('Unsupported option name ("--bogus")')
    const badLevel = await runCli(['daemon', '--log-level', 'loud'])
    expect(badLevel.code).toBe(2)
    expect(badLevel.stderr).toContain('--log-level must be one of')
  })

  it('prints its version and help for every command', async () => {
    const version = await runCli(['--version'])
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string }
    expect(version.stdout.trim()).toBe(pkg.version)
    for (const command of ['daemon', 'status', 'statecharts', 'start', 'reference-server']) {
      const help = await runCli([command, '--help'])
      expect(help.code, command).toBe(0)
      expect(help.stdout, command).toContain(`media-agent ${command}`)
    }
  })
})
