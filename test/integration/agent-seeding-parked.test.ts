import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parseTorrent from 'parse-torrent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnyActorRef } from 'xstate'
import { parseConfigText } from '../../src/config/load.js'
import { createRootLogger } from '../../src/log.js'
import { taskShardActorId, type TaskShardContext } from '../../src/machines/task-shard.machine.js'
import type { TaskReport } from '../../src/protocol/wire.js'
import { createReferenceServer, type ReferenceServer, type SyncRecord } from '../../src/reference-server/index.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { startOpentracker, until, type OpenTracker } from '../helpers/opentracker.js'
import { freePort } from '../helpers/ports.js'

// A seeding task whose torrent went dormant is parked by its shard (docs/torrents.md, Dormant
// torrents, Parked tasks): the whole agent, in-process, with real BitTorrent software on loopback
// (opentracker, aria2c). The task is downloaded from an aria2c seeder, goes dormant once alone and
// is kept as its context; the server still sees it seeding; a fresh aria2c downloads all of it
// from the agent (its handshake wakes the torrent, the task's actors start again) and the task
// is parked again; a restart restores it parked straight away.

const film = randomBytes(3 * 1024 * 1024 + 123)
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const torrentName = 'Parked Film'

let root = ''
let tracker: OpenTracker
let server: ReferenceServer
let torrentPath = ''
let infoHash = ''
const peers: Aria2Peer[] = []
const agents: RunningAgent[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-agent-parked-'))
  await mkdir(join(root, 'seed', torrentName), { recursive: true })
  await writeFile(join(root, 'seed', torrentName, 'film.mkv'), film)
  tracker = await startOpentracker()
  torrentPath = join(root, 'film.torrent')
  await mktorrent(join(root, 'seed', torrentName), torrentPath, tracker.announceUrl, 15)
  infoHash = (await parseTorrent(await readFile(torrentPath))).infoHash
  await tracker.allow([infoHash])
  server = await createReferenceServer({ accessToken: 'parked-test-token' })
})

afterAll(async () => {
  for (const agent of agents) await agent.stop()
  for (const peer of peers) await peer.stop()
  await server?.close()
  await tracker?.stop()
  await rm(root, { recursive: true, force: true })
})

async function start(): Promise<RunningAgent> {
  const text = [
    '[server]', `base_url = "${server.url}"`, 'access_token = "parked-test-token"',
    '[daemon]', `state_dir = "${join(root, 'agent', 'state')}"`,
    '[stream]', `port = ${await freePort()}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
    // Seeds on (a ratio it never reaches here); dormant half a second after its last peer left.
    '[downloads]', `dir = "${join(root, 'agent', 'downloads')}"`, 'seed_ratio = 100',
    '[downloads.torrent]', 'dht = false', 'lsd = false', 'pex = false', 'nat_traversal = false', 'idle_grace_s = 0.5',
    '[funnel]', 'enabled = false',
    '[testing]', 'sync_interval_idle_ms = 200', 'register_retry_base_ms = 50',
  ].join('\n')
  const { config } = parseConfigText(text, { file: join(root, 'config.toml') })
  const agent = await startAgent(config, createRootLogger({ level: (process.env.AGENT_LOG_LEVEL as 'debug') ?? 'silent', pretty: false }), { sessions: { streamHost: '127.0.0.1' } })
  agents.push(agent)
  return agent
}

async function stop(agent: RunningAgent) {
  await agent.stop()
  agents.splice(agents.indexOf(agent), 1)
}

const taskIn = (record: SyncRecord, taskId: string): TaskReport | undefined => record.request.tasks.find((task) => task.id === taskId)

/** The task as the agent's actors hold it: parked in its shard's context, or as a `task:<id>` actor. */
function taskHolding(agent: RunningAgent, taskId: string): { parked: boolean; actor: boolean } {
  const shard = agent.system.root.system.get(taskShardActorId(taskId)) as AnyActorRef | undefined
  const snapshot = shard?.getSnapshot() as { context: TaskShardContext; children: Record<string, AnyActorRef | undefined> } | undefined
  return { parked: Boolean(snapshot?.context.parked[taskId]), actor: Boolean(snapshot?.children[`task:${taskId}`]) }
}

describe('a dormant seeding task, parked', () => {
  let taskId = ''

  it('is kept as its context once its torrent sleeps, still seeding for the server, and woken by a peer that downloads all of it', async () => {
    const seeder = await startAria2({ torrentPath, dir: join(root, 'seed'), mode: 'seed' })
    peers.push(seeder)
    await tracker.waitForSeeders(infoHash, 1)
    const agent = await start()
    taskId = server.queueTask(`magnet:?xt=urn:btih:${infoHash}&tr=${encodeURIComponent(tracker.announceUrl)}`, { agentId: agent.agentId })
    await server.waitFor('sync', (record: SyncRecord) => taskIn(record, taskId)?.state === 'seeding', 60_000)
    // Alone with its data, the torrent goes dormant and the task is parked.
    await seeder.stop()
    await until(async () => taskHolding(agent, taskId).parked, 30_000, 'the seeding task to be parked')
    expect(taskHolding(agent, taskId)).toEqual({ parked: true, actor: false })
    const parkedReport = taskIn(await server.waitFor('sync', (record: SyncRecord) => record.agentId === agent.agentId && taskIn(record, taskId) !== undefined, 10_000), taskId)
    expect(parkedReport).toMatchObject({ state: 'seeding', progress: 1, infoHash, size: film.length, peers: 0, uploadSpeed: 0, downloadSpeed: 0 })

    // A fresh peer learns the agent from the tracker; its handshake wakes the torrent.
    const target = join(root, 'leecher')
    const leecher = await startAria2({ torrentPath, dir: target, mode: 'download' })
    peers.push(leecher)
    await leecher.exited
    expect(sha256(await readFile(join(target, torrentName, 'film.mkv')))).toBe(sha256(film))
    // The woken task counted what it sent, and is parked again once the peer has gone.
    const after = await server.waitFor('sync', (record: SyncRecord) => record.agentId === agent.agentId && (taskIn(record, taskId)?.uploaded ?? 0) >= film.length, 30_000)
    expect(taskIn(after, taskId)).toMatchObject({ state: 'seeding', progress: 1 })
    await until(async () => taskHolding(agent, taskId).parked, 30_000, 'the task to be parked again')
    await stop(agent)
  })

  it('is parked straight away after a restart, its upload count kept', async () => {
    const agent = await start()
    await until(async () => taskHolding(agent, taskId).parked, 30_000, 'the restored task to be parked')
    expect(taskHolding(agent, taskId).actor).toBe(false)
    const record = await server.waitFor('sync', (r: SyncRecord) => r.agentId === agent.agentId && taskIn(r, taskId)?.state === 'seeding', 10_000)
    expect(taskIn(record, taskId)!.uploaded).toBeGreaterThanOrEqual(film.length)
    await stop(agent)
  })
})
