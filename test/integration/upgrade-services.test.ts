import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createArtifactDownloader } from '../../src/services/upgrade/artifact-download.js'
import { createInstaller, switchCurrent } from '../../src/services/upgrade/installer.js'
import { launchCurrentVersion } from '../../src/services/upgrade/launcher.js'
import { detectSupervisor } from '../../src/services/upgrade/supervisor.js'
import { parseUpgradeState, readUpgradeState, writeUpgradeState, type UpgradeState } from '../../src/services/upgrade/upgrade-store.js'

// The I/O behind the upgrade actor (docs/upgrade.md), each against the real thing: a loopback
// HTTP server, system tar, node running the installed CLI, symlinks in a temp state dir.

const run = promisify(execFile)
const log = pino({ level: 'silent' })
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma15-unit-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A minimal media-agent package: package.json, node_modules, and a CLI that prints its version. */
async function packageTarball(version: string, options: { name?: string; cli?: string; nodeModules?: boolean } = {}): Promise<{ file: string; sha256: string }> {
  const root = join(dir, `src-${version}-${Math.random().toString(16).slice(2)}`, 'package')
  await mkdir(join(root, 'dist'), { recursive: true })
  if (options.nodeModules !== false) await mkdir(join(root, 'node_modules'), { recursive: true })
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: options.name ?? 'media-agent', version, type: 'module' }))
  await writeFile(join(root, 'dist', 'cli.js'), options.cli ?? `if (process.argv[2] === '--version') console.log(${JSON.stringify(version)})\n`)
  const file = join(dir, `media-agent-${version}-${Math.random().toString(16).slice(2)}.tgz`)
  await run('tar', ['-czf', file, '-C', join(root, '..'), 'package'])
  return { file, sha256: createHash('sha256').update(await readFile(file)).digest('hex') }
}

describe('the artifact downloader', () => {
  let server: Server
  let base: string
  const bodies = new Map<string, { body: Buffer; contentLength?: boolean }>()
  const seenAuth: (string | undefined)[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      seenAuth.push(req.headers.authorization)
      const entry = bodies.get(req.url ?? '')
      if (!entry) return void res.writeHead(404).end()
      res.writeHead(200, entry.contentLength === false ? {} : { 'content-length': entry.body.length })
      res.end(entry.body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const body = Buffer.from('a release tarball, or so it says')
  const sha = createHash('sha256').update(body).digest('hex')
  const downloader = (maxBytes = 1024, baseUrl = 'http://server.example') =>
    createArtifactDownloader({ dir: join(dir, 'versions'), maxBytes, timeoutMs: 5_000, server: { baseUrl, accessToken: 'secret-token' } })

  it('keeps an artifact whose sha256 matches the offer, and sends the access token to the server origin only', async () => {
    bodies.set('/a.tgz', { body })
    const path = await downloader().download({ targetVersion: '1.0.1', artifactUrl: `${base}/a.tgz`, sha256: sha.toUpperCase() })
    expect(await readFile(path)).toEqual(body)
    await downloader(1024, base).download({ targetVersion: '1.0.1', artifactUrl: `${base}/a.tgz`, sha256: sha })
    expect(seenAuth.slice(-2)).toEqual([undefined, 'Bearer secret-token'])
  })

  it('refuses a wrong sha256, an oversized body with or without Content-Length, and a 404, leaving no file behind', async () => {
    bodies.set('/b.tgz', { body })
    bodies.set('/big.tgz', { body: Buffer.alloc(4096), contentLength: false })
    bodies.set('/big-declared.tgz', { body: Buffer.alloc(4096) })
    const offer = (path: string, sha256 = sha) => ({ targetVersion: '1.0.1', artifactUrl: `${base}${path}`, sha256 })
    await expect(downloader().download(offer('/b.tgz', 'ab'.repeat(32)))).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_VERIFY', message: expect.stringContaining(`sha256 is ${sha}`) })
    await expect(downloader().download(offer('/big.tgz'))).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_VERIFY', message: expect.stringContaining('1024-byte cap') })
    await expect(downloader().download(offer('/big-declared.tgz'))).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_VERIFY', message: expect.stringContaining('4096 bytes') })
    await expect(downloader().download(offer('/missing.tgz'))).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_DOWNLOAD', message: expect.stringContaining('HTTP 404') })
    await expect(downloader().download(offer('/b.tgz', 'not-hex'))).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_VERIFY' })
    await expect(downloader().download({ ...offer('/b.tgz'), artifactUrl: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_DOWNLOAD' })
    expect(await readdir(join(dir, 'versions'))).toEqual([])
  })
})

describe('the installer', () => {
  const installer = () => createInstaller({ stateDir: dir, extractTimeoutMs: 30_000, smokeTestTimeoutMs: 30_000 })

  it('installs side by side, writes the pending marker, then points versions/current at the new version', async () => {
    const { file } = await packageTarball('2.0.0')
    await installer().install({ offer: { targetVersion: '2.0.0', artifactUrl: 'x', sha256: 'x' }, artifactPath: file, fromVersion: '1.0.0' })
    expect(await readlink(join(dir, 'versions', 'current'))).toBe('2.0.0')
    expect(JSON.parse(await readFile(join(dir, 'versions', '2.0.0', 'package.json'), 'utf8')).version).toBe('2.0.0')
    expect((await readUpgradeState(dir)).pending).toEqual({ fromVersion: '1.0.0', toVersion: '2.0.0', previous: null, launched: false })
    expect(existsSync(file)).toBe(false)

    const next = await packageTarball('2.1.0')
    await installer().install({ offer: { targetVersion: '2.1.0', artifactUrl: 'x', sha256: 'x' }, artifactPath: next.file, fromVersion: '2.0.0' })
    expect((await readUpgradeState(dir)).pending).toMatchObject({ previous: '2.0.0', toVersion: '2.1.0' })
    expect((await readdir(join(dir, 'versions'))).sort()).toEqual(['2.0.0', '2.1.0', 'current'])
  })

  it('leaves versions/current and the state untouched when the artifact is not the offered media-agent or fails its smoke test', async () => {
    await mkdir(join(dir, 'versions', '1.5.0'), { recursive: true })
    await switchCurrent(join(dir, 'versions'), '1.5.0')
    const cases: [Promise<{ file: string }>, string, RegExp][] = [
      [packageTarball('2.0.0', { name: 'evil' }), '2.0.0', /package "evil", not media-agent/],
      [packageTarball('2.0.1'), '2.0.0', /version "2.0.1", the server offered 2.0.0/],
      [packageTarball('2.0.0', { cli: 'process.exit(3)\n' }), '2.0.0', /smoke test/],
      [packageTarball('2.0.0', { cli: 'console.log("9.9.9")\n' }), '2.0.0', /printed "9.9.9", expected 2.0.0/],
      [packageTarball('2.0.0', { nodeModules: false }), '2.0.0', /not self-contained/],
      [packageTarball('../../x'), '../../x', /not a usable version name/],
    ]
    for (const [tarball, target, message] of cases) {
      const { file } = await tarball
      await expect(installer().install({ offer: { targetVersion: target, artifactUrl: 'x', sha256: 'x' }, artifactPath: file, fromVersion: '1.5.0' })).rejects.toMatchObject({ code: 'MA_ERR_UPGRADE_INSTALL', message: expect.stringMatching(message) })
    }
    const garbage = join(dir, 'garbage.tgz')
    await writeFile(garbage, 'not a tarball')
    await expect(installer().install({ offer: { targetVersion: '2.0.0', artifactUrl: 'x', sha256: 'x' }, artifactPath: garbage, fromVersion: '1.5.0' })).rejects.toMatchObject({ message: expect.stringContaining('cannot extract') })
    expect(await readlink(join(dir, 'versions', 'current'))).toBe('1.5.0')
    expect((await readdir(join(dir, 'versions'))).sort()).toEqual(['1.5.0', 'current'])
    expect((await readUpgradeState(dir)).pending).toBeNull()
  })
})

describe('the start wrapper', () => {
  async function installFake(version: string, script: string) {
    const root = join(dir, 'versions', version)
    await mkdir(join(root, 'dist'), { recursive: true })
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'media-agent', version, type: 'module' }))
    await writeFile(join(root, 'dist', 'cli.js'), script)
  }
  const launch = (argv: string[] = ['daemon']) => launchCurrentVersion({ stateDir: dir, argv, env: { ...process.env, MEDIA_AGENT_DELEGATED: '' }, ownRoot: join(dir, 'base'), log })

  it('runs in this process when there is no versions dir or no current link', async () => {
    expect(await launch()).toBeUndefined()
    await mkdir(join(dir, 'versions'))
    expect(await launch()).toBeUndefined()
    expect(await launchCurrentVersion({ stateDir: dir, argv: [], env: { MEDIA_AGENT_DELEGATED: '1' }, ownRoot: dir, log })).toBeUndefined()
  })

  it('runs the version versions/current names with the same arguments and returns its exit code', async () => {
    const out = join(dir, 'argv.json')
    await installFake('2.0.0', `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), delegated: process.env.MEDIA_AGENT_DELEGATED }))\nprocess.exit(75)\n`)
    await switchCurrent(join(dir, 'versions'), '2.0.0')
    expect(await launch(['daemon', '--config', '/etc/x.toml'])).toBe(75)
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({ argv: ['daemon', '--config', '/etc/x.toml'], delegated: '1' })
  })

  it('rolls back a new version that exited before registering, at the next start, and leaves its failure to post', async () => {
    await installFake('1.5.0', 'setInterval(() => {}, 1000)\n')
    await installFake('2.0.0', 'process.exit(0)\n')
    await switchCurrent(join(dir, 'versions'), '2.0.0')
    await writeUpgradeState(dir, { pending: { fromVersion: '1.5.0', toVersion: '2.0.0', previous: '1.5.0', launched: false }, results: [] })
    // First start: the new version runs and dies with the marker still there. An exit 0 is
    // turned into 1, so a Restart=on-failure supervisor comes back for the rollback.
    expect(await launch()).toBe(1)
    expect((await readUpgradeState(dir)).pending).toMatchObject({ launched: true, exit: 'exited with code 0' })
    // Second start: rolled back to 1.5.0 before anything runs; 1.5.0 is then run and stopped here.
    await installFake('1.5.0', 'process.exit(0)\n')
    expect(await launch()).toBe(0)
    expect(await readlink(join(dir, 'versions', 'current'))).toBe('1.5.0')
    const state = await readUpgradeState(dir)
    expect(state.pending).toBeNull()
    expect(state.results).toEqual([{ posted: false, result: { outcome: 'failure', fromVersion: '1.5.0', toVersion: '2.0.0', error: 'version 2.0.0 did not come up (exited with code 0); rolled back to 1.5.0' } }])
  })

  it('drops a marker whose switch never happened, and runs in this process when the link names this very version', async () => {
    await installFake('2.0.0', 'process.exit(9)\n')
    await writeUpgradeState(dir, { pending: { fromVersion: '1.0.0', toVersion: '2.0.0', previous: null, launched: true }, results: [] })
    expect(await launch()).toBeUndefined()
    expect((await readUpgradeState(dir)).pending).toBeNull()
    await symlink(join(dir, 'versions', '2.0.0'), join(dir, 'base'))
    await switchCurrent(join(dir, 'versions'), '2.0.0')
    expect(await launch()).toBeUndefined()
  })
})

describe('supervisor detection', () => {
  const probe = (env: NodeJS.ProcessEnv, container = false) => detectSupervisor({ env, isContainer: () => container })
  it('trusts MEDIA_AGENT_SUPERVISOR, then systemd, then a container, else nothing', () => {
    expect(probe({ MEDIA_AGENT_SUPERVISOR: 'restart-on-75' }, true)).toBe('restart')
    expect(probe({ MEDIA_AGENT_SUPERVISOR: 'container', INVOCATION_ID: 'x' })).toBe('container')
    expect(probe({ MEDIA_AGENT_SUPERVISOR: 'none', INVOCATION_ID: 'x' })).toBe('none')
    expect(probe({ INVOCATION_ID: '0123' }, true)).toBe('restart')
    expect(probe({ NOTIFY_SOCKET: '/run/systemd/notify' })).toBe('restart')
    expect(probe({}, true)).toBe('container')
    expect(probe({ MEDIA_AGENT_SUPERVISOR: 'bogus' })).toBe('none')
    expect(probe({})).toBe('none')
  })
})

describe('upgrade.json', () => {
  it('reads back what it wrote, and rejects anything else with a clear error instead of guessing', async () => {
    const result = fc.record({ outcome: fc.constantFrom('success', 'failure', 'noop'), fromVersion: fc.string(), toVersion: fc.string() }, { requiredKeys: ['outcome', 'fromVersion', 'toVersion'] })
    const stateArb: fc.Arbitrary<UpgradeState> = fc.record({
      pending: fc.option(fc.record({ fromVersion: fc.string(), toVersion: fc.string(), previous: fc.option(fc.string(), { nil: null }), launched: fc.boolean() }), { nil: null }),
      results: fc.array(fc.record({ result: result as fc.Arbitrary<UpgradeState['results'][number]['result']>, posted: fc.boolean() })),
    })
    fc.assert(fc.property(stateArb, (state) => {
      expect(parseUpgradeState(JSON.stringify(state))).toEqual(state)
    }))
    fc.assert(fc.property(fc.string(), (text) => {
      try {
        parseUpgradeState(text)
      } catch (error) {
        expect(error).toBeInstanceOf(Error)
      }
    }))
    await writeFile(join(dir, 'upgrade.json'), '{"pending": {"toVersion": 3}, "results": []}')
    await expect(readUpgradeState(dir)).rejects.toMatchObject({ code: 'MA_ERR_STATE_FILE', message: expect.stringContaining('upgrade.json is not a valid upgrade state file') })
  })
})
