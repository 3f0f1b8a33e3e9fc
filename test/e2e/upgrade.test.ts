import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { UpgradeResult } from '../../src/protocol/wire.js'
import { agentVersion } from '../../src/version.js'
import { repoRoot, runCli, startDaemon, tempAgent, type DaemonProcess, type TempAgent } from '../helpers/daemon.js'

// Self-upgrade end to end (protocol.md 7.5, docs/upgrade.md), run as an operator would: the
// real `npm run release` script builds a self-contained tarball of this project with a bumped
// version; the reference server offers it with its sha256 (from a plain HTTP file server); the
// daemon installs it into its temp state dir and exits 75; a supervisor loop restarts it on any
// failure exit (as systemd's Restart=on-failure does) and the new process reports `success`.

const run = promisify(execFile)
const accessToken = 'upgrade-e2e-token'
const [major, minor, patch] = agentVersion.split('.').map(Number) as [number, number, number]
const nextVersion = `${major}.${minor}.${patch + 1}`
const brokenVersion = `${major}.${minor}.${patch + 2}`

let work: string
let server: ReferenceServer
let files: Server
let filesUrl: string
const artifacts = new Map<string, { file: string; sha256: string }>()

async function sha256Of(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex')
}

/** A copy of `from` stamped `version`, whose daemon exits at once (before it could register). */
async function brokenCopy(from: string, version: string): Promise<string> {
  const dir = join(work, `broken-${version}`)
  await mkdir(dir, { recursive: true })
  await run('tar', ['-xzf', from, '-C', dir])
  const manifestPath = join(dir, 'package', 'package.json')
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>
  await writeFile(manifestPath, JSON.stringify({ ...manifest, version }))
  const cliPath = join(dir, 'package', 'dist', 'cli.js')
  const cli = await readFile(cliPath, 'utf8')
  // `--version` still answers (the smoke test passes); `daemon` dies before it registers.
  await writeFile(cliPath, cli.replace('\n', "\nif (process.argv[2] === 'daemon') { process.stderr.write('this build is broken\\n'); process.exit(1) }\n"))
  const file = join(work, `media-agent-${version}.tgz`)
  await run('tar', ['-czf', file, '-C', dir, 'package'])
  return file
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ma15-e2e-'))
  // The release script of the repository, as `npm run release -- --version X --out DIR` runs it.
  const { stdout } = await run(process.execPath, [join(repoRoot, 'scripts', 'release.mjs'), '--version', nextVersion, '--out', work, '--no-build'], { cwd: repoRoot, maxBuffer: 1 << 20 })
  const built = JSON.parse(stdout.trim().split('\n').pop()!) as { path: string; version: string; sha256: string; bytes: number }
  expect(built.version).toBe(nextVersion)
  expect(built.sha256).toBe(await sha256Of(built.path))
  artifacts.set(nextVersion, { file: built.path, sha256: built.sha256 })
  const broken = await brokenCopy(built.path, brokenVersion)
  artifacts.set(brokenVersion, { file: broken, sha256: await sha256Of(broken) })

  files = createServer((req, res) => {
    const name = basename(decodeURIComponent(req.url ?? ''))
    const file = join(work, name)
    if (!name.endsWith('.tgz') || !existsSync(file)) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/gzip' })
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
  const address = files.address()
  filesUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  server = await createReferenceServer({ accessToken })
}, 180_000)

afterAll(async () => {
  await server?.close()
  await new Promise((resolve) => files?.close(resolve))
  if (work) await rm(work, { recursive: true, force: true })
})

const offer = (version: string, sha256?: string) => ({
  targetVersion: version,
  artifactUrl: `${filesUrl}/${basename(artifacts.get(version)?.file ?? `media-agent-${version}.tgz`)}`,
  sha256: sha256 ?? artifacts.get(version)?.sha256 ?? '0'.repeat(64),
})

/**
 * Restarts the daemon whenever it exits with anything but 0 (what Restart=on-failure does for
 * 75 and for a crash), up to a bound, and remembers each run's exit code.
 */
function supervise(args: string[], env: NodeJS.ProcessEnv) {
  const exits: (number | null)[] = []
  let current: DaemonProcess | undefined
  let stopping = false
  const done = (async () => {
    for (let runs = 0; runs < 8 && !stopping; runs++) {
      const daemon = startDaemon(args, env)
      current = daemon
      const code = await new Promise<number | null>((resolve) => {
        if (daemon.child.exitCode !== null) resolve(daemon.child.exitCode)
        else daemon.child.once('exit', (exitCode) => resolve(exitCode))
      })
      exits.push(code)
      if (code === 0 || stopping) return
    }
  })()
  return {
    exits,
    logs: () => current?.logs ?? [],
    async stop() {
      stopping = true
      current?.child.kill('SIGTERM')
      await done
    },
    done,
  }
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function statusOf(agent: TempAgent): Promise<{ version: string; upgrade: Record<string, unknown> }> {
  const status = await runCli(['status', '--json', '--config', agent.configPath])
  expect(status.code, status.stderr).toBe(0)
  return JSON.parse(status.stdout) as { version: string; upgrade: Record<string, unknown> }
}

describe('self-upgrade, end to end', () => {
  let agent: TempAgent | undefined
  let supervisor: ReturnType<typeof supervise> | undefined
  let daemon: DaemonProcess | undefined

  afterEach(async () => {
    await supervisor?.stop()
    await daemon?.stop('SIGKILL')
    await agent?.cleanup()
    supervisor = undefined
    daemon = undefined
    agent = undefined
  })

  it('installs an offered release, restarts into it through the supervisor and reports success once; a release that dies before registering is rolled back and reported as failure', async () => {
    agent = await tempAgent({ baseUrl: server.url, accessToken })
    supervisor = supervise(['daemon', '--config', agent.configPath], { MEDIA_AGENT_SUPERVISOR: 'restart-on-75' })
    const registered = await until('the first registration', () => server.state.registrations.at(-1))
    const agentId = registered.request.agentId
    const mine = () => server.upgradeResults().map((record) => record.result)
    expect(mine()).toEqual([])

    // 1. A good release: exit 75, restart, the new version posts success with its own header.
    server.requestUpgrade(offer(nextVersion))
    await until('the success report', () => (mine().length > 0 ? true : undefined), 120_000)
    expect(supervisor.exits[0]).toBe(75)
    expect(mine()).toEqual([{ outcome: 'success', fromVersion: agentVersion, toVersion: nextVersion } satisfies UpgradeResult])
    expect(server.upgradeResults()[0]!.agentVersion).toBe(nextVersion)
    expect(await readlink(join(agent.stateDir, 'versions', 'current'))).toBe(nextVersion)
    expect((await statusOf(agent)).version).toBe(nextVersion)
    expect(server.upgradeRequested).toBe(false)
    // The next syncs show the flag down: nothing more is posted, nothing restarts.
    const syncsBefore = server.state.syncs.filter((sync) => sync.agentId === agentId).length
    server.raiseWake('test')
    await until('another sync', () => (server.state.syncs.filter((sync) => sync.agentId === agentId).length > syncsBefore ? true : undefined))
    expect(mine()).toHaveLength(1)
    expect(supervisor.exits).toEqual([75])

    // 2. A release that exits before registering, installed by the upgraded version itself and
    //    asked for with `media-agent update` (the flag set without a wake): the start after its
    //    crash rolls back to the previous version, which posts failure.
    server.state.requestUpgrade(offer(brokenVersion))
    const update = await runCli(['update', '--config', agent.configPath])
    expect(update.code, update.stdout + update.stderr).toBe(0)
    expect(update.stdout).toBe(`upgrade applied: ${nextVersion} -> ${brokenVersion}; the daemon exits 75 and its supervisor starts the new version\n`)
    await until('the rollback report', () => (mine().length > 1 ? true : undefined), 120_000)
    expect(supervisor.exits).toEqual([75, 75, 1])
    const failure = mine()[1]!
    expect(failure).toMatchObject({ outcome: 'failure', fromVersion: nextVersion, toVersion: brokenVersion })
    expect(failure.error).toMatch(new RegExp(`version ${brokenVersion.replace(/\./g, '\\.')} did not come up \\(exited with code 1\\); rolled back to ${nextVersion.replace(/\./g, '\\.')}`))
    expect(server.upgradeResults()[1]!.agentVersion).toBe(nextVersion)
    expect(await readlink(join(agent.stateDir, 'versions', 'current'))).toBe(nextVersion)
    expect((await statusOf(agent)).version).toBe(nextVersion)
    expect(mine()).toHaveLength(2)

    // A stop is passed on through the start wrapper: the whole chain exits 0.
    await supervisor.stop()
    expect(supervisor.exits.at(-1)).toBe(0)
  }, 300_000)

  it('reports a bad sha256 as failure and keeps the running version; update says which: failure (1), none offered (0), already running (0)', async () => {
    agent = await tempAgent({ baseUrl: server.url, accessToken })
    daemon = startDaemon(['daemon', '--config', agent.configPath], { MEDIA_AGENT_SUPERVISOR: 'restart-on-75' })
    const before = server.upgradeResults().length
    await daemon.waitForLog((line) => line.msg === 'registered with the web server')
    const agentId = (await readFile(join(agent.stateDir, 'agent-id'), 'utf8')).trim()
    // The sync right after registering is done; the next one is a minute away (idle interval).
    await until('the first sync', () => (server.state.syncs.some((sync) => sync.agentId === agentId) ? true : undefined))

    // Set the flag without a wake, so that `update` is what makes the agent see it.
    server.state.requestUpgrade(offer(nextVersion, 'ab'.repeat(32)))
    const failed = await runCli(['update', '--config', agent.configPath])
    // On a failure, say which syncs the server answered and how (the flag each saw), and what the daemon logged.
    const syncsSeen = () => JSON.stringify(server.state.syncs.filter((sync) => sync.agentId === agentId).map((sync) => ({ at: sync.at, upgradeRequested: sync.response.upgradeRequested })))
    expect(failed.code, `${failed.stdout}${failed.stderr}\nsyncs: ${syncsSeen()}\ndaemon: ${daemon.stderrText().slice(-3000)}`).toBe(1)
    expect(failed.stdout).toMatch(/upgrade failed \(.+\): the upgrade artifact's sha256 is [0-9a-f]{64}, the server offered (ab){32}/)
    const results = server.upgradeResults().slice(before).map((record) => record.result)
    expect(results).toEqual([expect.objectContaining({ outcome: 'failure', fromVersion: agentVersion, toVersion: nextVersion })])
    expect(existsSync(join(agent.stateDir, 'versions', 'current'))).toBe(false)
    expect(existsSync(join(agent.stateDir, 'versions', nextVersion))).toBe(false)
    expect(daemon.child.exitCode).toBe(null)
    expect((await statusOf(agent)).version).toBe(agentVersion)

    const none = await runCli(['update', '--config', agent.configPath])
    expect(none.code, none.stderr).toBe(0)
    expect(none.stdout).toMatch(/no upgrade offered/)

    server.state.requestUpgrade(offer(agentVersion, 'cd'.repeat(32)))
    const noop = await runCli(['update', '--config', agent.configPath, '--json'])
    expect(noop.code, noop.stderr).toBe(0)
    expect(JSON.parse(noop.stdout)).toMatchObject({ outcome: 'noop', targetVersion: agentVersion })
    expect(server.upgradeResults().slice(before).map((record) => record.result.outcome)).toEqual(['failure', 'noop'])
    expect(daemon.child.exitCode).toBe(null)

    // upgrade.json keeps a result only until a sync shows the flag down.
    await runCli(['update', '--config', agent.configPath])
    const stored = JSON.parse(await readFile(join(agent.stateDir, 'upgrade.json'), 'utf8')) as { results: unknown[] }
    expect(stored.results).toEqual([])
    expect((await stat(join(agent.stateDir, 'upgrade.json'))).mode & 0o777).toBe(0o600)
  }, 120_000)

  it('in a container it reports failure "managed externally" and swaps nothing', async () => {
    agent = await tempAgent({ baseUrl: server.url, accessToken })
    daemon = startDaemon(['daemon', '--config', agent.configPath], { MEDIA_AGENT_SUPERVISOR: 'container' })
    await daemon.waitForLog((line) => line.msg === 'registered with the web server')
    const before = server.upgradeResults().length
    const reported = server.waitFor('upgradeResult', undefined, 60_000)
    server.requestUpgrade(offer(nextVersion))
    expect((await reported).result).toEqual({ outcome: 'failure', fromVersion: agentVersion, toVersion: nextVersion, error: 'managed externally' })
    expect(server.upgradeResults()).toHaveLength(before + 1)
    expect(existsSync(join(agent.stateDir, 'versions'))).toBe(false)
    expect(daemon.child.exitCode).toBe(null)
    // The actor is a child of the root, visible to the operator.
    const status = await statusOf(agent)
    expect(status.upgrade).toMatchObject({ state: 'idle', supervisor: 'container', last: { outcome: 'failure', targetVersion: nextVersion, error: 'managed externally' } })
    const token = (await readFile(join(agent.stateDir, 'admin.token'), 'utf8')).trim()
    const tree = await (await fetch(`http://127.0.0.1:${agent.adminPort}/debug/actors`, { headers: { authorization: `Bearer ${token}` } })).json() as { children: { systemId?: string; value?: unknown }[] }
    expect(tree.children.find((child) => child.systemId === 'upgrade')?.value).toBe('idle')
  }, 120_000)

  it('update exits 3 when no daemon runs', async () => {
    agent = await tempAgent({ baseUrl: server.url, accessToken })
    const result = await runCli(['update', '--config', agent.configPath])
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/not running/)
  })
})
