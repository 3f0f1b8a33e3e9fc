import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { parseConfigText } from '../../src/config/load.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { SessionReport, SyncRequest } from '../../src/protocol/wire.js'
import { runCli } from '../../src/cli/index.js'
import { cacheIdentity } from '../../src/services/cache/cache-key.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { freePort } from '../helpers/ports.js'
import { waitUntil } from '../helpers/cache-kit.js'

// The segment cache through the whole agent (issue 11; contract 3, 6.3; protocol.md 7.1): the
// second session of the same file is a HIT, reported `cacheHit: true` in the next SyncRequest
// with session-ready posted at once; the `cache` actor and its `cacheEntry:<key>` show in
// /debug/actors; `media-agent cache status --json` and `cache clear` answer through the admin API.

const accessToken = 'hls-cache-agent-test'
let dir = ''
let configFile = ''
let fixtures: MediaFixtures
let server: ReferenceServer
let agent: RunningAgent
let adminUrl = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-ma11-agent-'))
  fixtures = await createMediaFixtures()
  server = await createReferenceServer({ accessToken })
  const adminPort = await freePort()
  adminUrl = `http://127.0.0.1:${adminPort}`
  const text = [
    '[server]', `base_url = "${server.url}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${join(dir, 'state')}"`,
    '[stream]', `port = ${await freePort()}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${adminPort}"`,
    '[downloads]', `dir = "${join(dir, 'downloads')}"`,
    '[downloads.hls_cache]', `dir = "${join(dir, 'hls')}"`, 'size_gb = 0.05',
    '[funnel]', 'enabled = false',
  ].join('\n')
  configFile = join(dir, 'config.toml')
  await writeFile(configFile, text)
  const { config } = parseConfigText(text, { file: configFile })
  const registered = server.waitFor('register', undefined, 20_000)
  agent = await startAgent(config, silentLogger(), { sessions: { streamHost: '127.0.0.1' } })
  await registered
})

afterAll(async () => {
  await agent?.stop()
  await server?.close()
  await fixtures?.cleanup()
  await rm(dir, { recursive: true, force: true })
})

const reportOf = (request: SyncRequest, sessionId: string): SessionReport | undefined => request.sessions.find((session) => session.sessionId === sessionId)

async function admin<T>(path: string, method = 'GET'): Promise<T> {
  const token = (await readFile(agent.adminTokenPath, 'utf8')).trim()
  const response = await fetch(`${adminUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** Runs the CLI in this process and returns its exit code and stdout. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = ''
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += chunk.toString()
    return true
  }) as typeof process.stdout.write
  try {
    return { code: await runCli([...args, '--config', configFile]), out }
  } finally {
    process.stdout.write = write
  }
}

interface Node { id: string; children?: Node[] }
const ids = (node: Node): string[] => [node.id, ...(node.children ?? []).flatMap(ids)]

describe('the segment cache through the whole agent', () => {
  it('reports the second session of a file as a cache HIT, ready at once, and shows its entry in the debug tree and the CLI', async () => {
    const source = await fixtures.get('h264-720p')
    const first = server.waitFor('sessionReady', (event) => event.record.session.sessionId === 'c-1', 60_000)
    server.createStreamSession({ sessionId: 'c-1', filePath: source, PlayMethod: 'hls', quality: '480p' })
    await first
    await waitUntil(async () => (await admin<{ entries: number }>('/api/cache')).entries === 1, 60_000, 'the entry to be complete')
    const firstReport = server.waitFor('sync', (record) => reportOf(record.request, 'c-1')?.cacheHit === false, 30_000)
    await firstReport
    server.removeStreamSession('c-1')
    await waitUntil(async () => (await admin<{ pinned: number }>('/api/cache')).pinned === 0, 30_000, 'the first session to end')

    const hitReady = server.waitFor('sessionReady', (event) => event.record.session.sessionId === 'c-2', 30_000)
    const hitSync = server.waitFor('sync', (record) => reportOf(record.request, 'c-2')?.cacheHit === true, 30_000)
    server.createStreamSession({ sessionId: 'c-2', filePath: source, PlayMethod: 'hls', quality: '480p' })
    await hitReady
    expect(reportOf((await hitSync).request, 'c-2')).toMatchObject({ state: 'ready', cacheHit: true })

    const key = cacheIdentity({ source, quality: '480p', audioIndex: 0 })!.key
    const tree = ids(await admin<Node>('/debug/actors'))
    expect(tree).toEqual(expect.arrayContaining(['cache', `cacheShard:${key.slice(0, 2)}`, `cacheEntry:${key}`]))

    const status = await cli(['cache', 'status', '--json'])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.out)).toEqual({ enabled: true, dir: join(dir, 'hls'), budgetBytes: 50_000_000, sizeBytes: expect.any(Number), entries: 1, pinned: 1, hits: 1, misses: 1 })
    // The entry plays: `cache clear` leaves it.
    expect((await cli(['cache', 'clear'])).out).toContain('removed 0 entries; 1 left')
    server.removeStreamSession('c-2')
    await waitUntil(async () => (await admin<{ pinned: number }>('/api/cache')).pinned === 0, 30_000, 'the HIT session to end')
    expect((await cli(['cache', 'clear'])).out).toContain('removed 1 entries; 0 left')
    expect(JSON.parse((await cli(['cache', 'status', '--json'])).out)).toMatchObject({ entries: 0, sizeBytes: 0 })
  })
})
