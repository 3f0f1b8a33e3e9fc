import { randomBytes, createHash } from 'node:crypto'
import { mkdir, mkdtemp, open, readFile, rm, writeFile, access } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parseTorrent from 'parse-torrent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRootLogger } from '../../src/log.js'
import { parseConfigText } from '../../src/config/load.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { runCli } from '../helpers/daemon.js'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { SyncRecord } from '../../src/reference-server/index.js'
import type { TaskReport } from '../../src/protocol/wire.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { freePort } from '../helpers/ports.js'

// The whole agent, in-process, against the reference server and real BitTorrent software on
// loopback (opentracker, an aria2c seeder): a task queued on the server is downloaded, reported
// through sync, survives a restart through tasks.json, and is deleted with its files on request.

const files: Record<string, Buffer> = {
  'film.mkv': randomBytes(2 * 1024 * 1024 + 777),
  'film.en.srt': randomBytes(10_000),
}
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

let root = ''
let tracker: OpenTracker
let seeder: Aria2Peer
let server: ReferenceServer
let infoHash = ''
const torrentName = 'Film Pack'
const agents: RunningAgent[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-agent-dl-'))
  const content = join(root, 'seed', torrentName)
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(content, path, '..'), { recursive: true })
    await writeFile(join(content, path), data)
  }
  tracker = await startOpentracker()
  const torrentPath = join(root, 'pack.torrent')
  await mktorrent(content, torrentPath, tracker.announceUrl, 15)
  infoHash = (await parseTorrent(await readFile(torrentPath))).infoHash
  await tracker.allow([infoHash])
  seeder = await startAria2({ torrentPath, dir: join(root, 'seed'), mode: 'seed' })
  await tracker.waitForSeeders(infoHash, 1)
  server = await createReferenceServer({ accessToken: 'downloads-test-token' })
})

afterAll(async () => {
  for (const agent of agents) await agent.stop()
  await server?.close()
  await seeder?.stop()
  await tracker?.stop()
  await rm(root, { recursive: true, force: true })
})

async function configText(stateDir: string, downloads: string) {
  return [
    '[server]', `base_url = "${server.url}"`, 'access_token = "downloads-test-token"',
    '[daemon]', `state_dir = "${stateDir}"`,
    '[stream]', `port = ${await freePort()}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
    '[downloads]', `dir = "${downloads}"`, 'seed_ratio = 0',
    '[downloads.torrent]', 'dht = false', 'lsd = false', 'pex = false', 'nat_traversal = false',
    '[funnel]', 'enabled = false',
    '[testing]', 'sync_interval_idle_ms = 200', 'register_retry_base_ms = 50',
  ].join('\n')
}

async function start(stateDir: string, downloads: string): Promise<RunningAgent> {
  const text = await configText(stateDir, downloads)
  const file = join(stateDir, '..', 'config.toml')
  // On disk too, for the CLI (`torrent recheck`).
  await mkdir(join(stateDir, '..'), { recursive: true })
  await writeFile(file, text)
  const { config } = parseConfigText(text, { file })
  const agent = await startAgent(config, createRootLogger({ level: (process.env.AGENT_LOG_LEVEL as 'debug') ?? 'silent', pretty: false }), { sessions: { streamHost: '127.0.0.1' } })
  agents.push(agent)
  return agent
}

const taskIn = (record: SyncRecord, taskId: string): TaskReport | undefined => record.request.tasks.find((task) => task.id === taskId)

describe('downloads through the whole agent', () => {
  const stateDir = () => join(root, 'agent', 'state')
  const downloads = () => join(root, 'agent', 'downloads')

  it('downloads a task queued on the server, reports it in sync, and every file matches', async () => {
    const agent = await start(stateDir(), downloads())
    const taskId = server.queueTask(`magnet:?xt=urn:btih:${infoHash}&tr=${encodeURIComponent(tracker.announceUrl)}`, { agentId: agent.agentId })
    const done = await server.waitFor('sync', (record: SyncRecord) => taskIn(record, taskId)?.state === 'completed', 60_000)
    const report = taskIn(done, taskId)!
    expect(report).toMatchObject({ infoHash, name: torrentName, progress: 1, size: files['film.mkv']!.length + files['film.en.srt']!.length })
    expect(report.files.map((file) => file.progress)).toEqual([1, 1])
    for (const [path, data] of Object.entries(files)) {
      expect(sha256(await readFile(join(downloads(), torrentName, path)))).toBe(sha256(data))
    }
    await agent.stop()
    agents.splice(agents.indexOf(agent), 1)
  })

  it('after a restart, reports the same task from tasks.json without asking the tracker again', async () => {
    const tasksFile = JSON.parse(await readFile(join(stateDir(), 'tasks.json'), 'utf8')) as { tasks: { id: string; state: string }[] }
    expect(tasksFile.tasks).toHaveLength(1)
    const taskId = tasksFile.tasks[0]!.id
    await seeder.stop() // nothing to fetch from: the restart must rely on what is on disk
    const agent = await start(stateDir(), downloads())
    const record = await server.waitFor('sync', (r: SyncRecord) => r.agentId === agent.agentId && taskIn(r, taskId)?.state === 'completed', 30_000)
    expect(taskIn(record, taskId)).toMatchObject({ progress: 1, infoHash })
    // `media-agent torrent status` (GET /api/torrents/status): a completed task holds no torrent in the engine.
    const configFile = join(stateDir(), '..', 'config.toml')
    const status = await runCli(['torrent', 'status', '--config', configFile])
    expect(status).toMatchObject({ code: 0 })
    expect(status.stdout).toMatch(/^torrent engine (started|not started): 0 live, 0 dormant/)
    expect(status.stdout).toContain(`${taskId}  completed  ${infoHash}`)
    const json = await runCli(['torrent', 'status', '--json', '--config', configFile])
    expect(JSON.parse(json.stdout)).toMatchObject({ live: 0, dormant: 0, tasks: [{ id: taskId, infoHash, state: 'completed', dormant: false }] })
  })

  it('rechecks a completed task on `media-agent torrent recheck`: a byte damaged on disk is found and the task downloads again', async () => {
    const agent = agents.at(-1)!
    const tasksFile = JSON.parse(await readFile(join(stateDir(), 'tasks.json'), 'utf8')) as { tasks: { id: string }[] }
    const taskId = tasksFile.tasks[0]!.id
    // The restart above trusted the verified-piece map written after the download.
    await access(join(stateDir(), 'torrents', `${infoHash}.pieces.json`))
    const film = await open(join(downloads(), torrentName, 'film.mkv'), 'r+')
    await film.write(Buffer.from([files['film.mkv']![100_000]! ^ 0xff]), 0, 1, 100_000)
    await film.close()
    const configFile = join(stateDir(), '..', 'config.toml')
    // The built CLI in a process of its own, as a user runs it.
    const recheck = await runCli(['torrent', 'recheck', taskId, '--config', configFile])
    expect(recheck).toMatchObject({ code: 0 })
    expect(recheck.stdout).toContain(`task ${taskId}: checking every piece now`)
    const unknown = await runCli(['torrent', 'recheck', 'no-such-task', '--config', configFile])
    expect(unknown).toMatchObject({ code: 1 })
    expect(unknown.stderr).toContain('no task with the id or info hash "no-such-task"')
    // No seeder is left: the damaged piece stays missing and the task says so.
    const record = await server.waitFor('sync', (r: SyncRecord) => r.agentId === agent.agentId && taskIn(r, taskId)?.state === 'downloading' && taskIn(r, taskId)!.progress < 1, 30_000)
    expect(taskIn(record, taskId)!.progress).toBeGreaterThan(0.5)
  })

  it('deletes the task and its files when the server asks', async () => {
    const agent = agents.at(-1)!
    const tasksFile = JSON.parse(await readFile(join(stateDir(), 'tasks.json'), 'utf8')) as { tasks: { id: string }[] }
    const taskId = tasksFile.tasks[0]!.id
    server.deleteTask(taskId, { deleteFiles: true, agentId: agent.agentId })
    await server.waitFor('sync', (record: SyncRecord) => record.agentId === agent.agentId && taskIn(record, taskId) === undefined, 30_000)
    // The task leaves the report when its deletion starts; the files go once the engine is done.
    const gone = async () => access(join(downloads(), torrentName, 'film.mkv')).then(() => false, () => true)
    const deadline = Date.now() + 10_000
    while (!(await gone()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await gone()).toBe(true)
  })
})
