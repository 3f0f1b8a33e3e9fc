import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import parseTorrent from 'parse-torrent'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRootLogger } from '../../src/log.js'
import { parseConfigText } from '../../src/config/load.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { createReferenceServer, type ReferenceServer, type SyncRecord } from '../../src/reference-server/index.js'
import type { SessionReport, TaskReport } from '../../src/protocol/wire.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { freePort } from '../helpers/ports.js'

// Issue 6, URL sources: an HLS session on a torrent file that is still downloading. ffprobe,
// ffmpeg and the subtitle extraction read it through the agent's loopback input URL (reads wait
// for their pieces and prioritise them), never the sparse file on disk. Real software on loopback:
// opentracker, an aria2c seeder throttled so the download is still running when the session
// starts, the agent in-process, the reference server, and ffmpeg as the HLS client.

const run = promisify(execFile)
const accessToken = 'hls-torrent-test'
const fileName = 'clip.mp4'

let root = ''
let fixtures: MediaFixtures
let tracker: OpenTracker
let seeder: Aria2Peer
let server: ReferenceServer
let agent: RunningAgent
let infoHash = ''
let streamOrigin = ''
const logLines: Record<string, unknown>[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-agent-hls-torrent-'))
  fixtures = await createMediaFixtures()
  // A 20 s H.264 + AAC mp4 from ffmpeg; its moov is at the end, so the probe needs the last
  // pieces first: the in-progress source must fetch them out of order.
  const seedDir = join(root, 'seed')
  await mkdir(seedDir, { recursive: true })
  const content = join(seedDir, fileName)
  await copyFile(await fixtures.get('h264-360p'), content)
  const { size } = await stat(content)

  tracker = await startOpentracker()
  const torrentPath = join(root, 'clip.torrent')
  await mktorrent(content, torrentPath, tracker.announceUrl, 15)
  infoHash = (await parseTorrent(await readFile(torrentPath))).infoHash
  await tracker.allow([infoHash])
  // About 12 s for the whole file: still downloading when the session starts, fast enough for
  // the encode (which keeps pace with the download) to finish well within the test timeout.
  const limitKiB = Math.max(48, Math.ceil(size / 1024 / 12))
  seeder = await startAria2({ torrentPath, dir: seedDir, mode: 'seed', args: [`--max-upload-limit=${limitKiB}K`] })
  await tracker.waitForSeeders(infoHash, 1)

  server = await createReferenceServer({ accessToken })
  const streamPort = await freePort()
  const text = [
    '[server]', `base_url = "${server.url}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${join(root, 'state')}"`,
    '[stream]', `port = ${streamPort}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
    '[downloads]', `dir = "${join(root, 'downloads')}"`, 'seed_ratio = 0',
    '[downloads.hls_cache]', `dir = "${join(root, 'hls')}"`,
    // webtorrent's uTP-first connect is slow to TCP-only peers like aria2c.
    '[downloads.torrent]', 'dht = false', 'lsd = false', 'pex = false', 'nat_traversal = false', 'utp = false',
    '[funnel]', 'enabled = false',
    '[testing]', 'sync_interval_idle_ms = 200', 'register_retry_base_ms = 50',
  ].join('\n')
  const { config } = parseConfigText(text, { file: join(root, 'config.toml') })
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') logLines.push(JSON.parse(line) as Record<string, unknown>)
      }
      done()
    },
  })
  const registered = server.waitFor('register', undefined, 20_000)
  agent = await startAgent(config, createRootLogger({ level: 'info', pretty: false, destination }), { sessions: { streamHost: '127.0.0.1' } })
  streamOrigin = `http://127.0.0.1:${streamPort}`
  await registered
})

afterAll(async () => {
  await agent?.stop()
  await server?.close()
  await seeder?.stop()
  await tracker?.stop()
  await fixtures?.cleanup()
  if (root !== '') await rm(root, { recursive: true, force: true })
})

const taskIn = (record: SyncRecord, taskId: string): TaskReport | undefined => record.request.tasks.find((task) => task.id === taskId)
const sessionIn = (record: SyncRecord, sessionId: string): SessionReport | undefined => record.request.sessions.find((session) => session.sessionId === sessionId)

describe('an HLS session on a torrent file still downloading', () => {
  it('reads it through the loopback input URL, becomes ready once, and plays end to end in a real HLS client', async () => {
    const taskId = server.queueTask(`magnet:?xt=urn:btih:${infoHash}&tr=${encodeURIComponent(tracker.announceUrl)}`, { agentId: agent.agentId })
    const downloading = await server.waitFor('sync', (record) => {
      const task = taskIn(record, taskId)
      return task?.state === 'downloading' && task.files.length === 1 && task.files[0]!.progress < 0.5
    }, 60_000)
    const filePath = taskIn(downloading, taskId)!.files[0]!.path
    expect(filePath).toBe(join(root, 'downloads', fileName))

    const sessionId = 'hls-torrent-1'
    const readyPosts: boolean[] = []
    const stopCounting = server.on('sessionReady', (event) => {
      if (event.record.session.sessionId === sessionId) readyPosts.push(event.first)
    })
    const readySync = server.waitFor('sync', (record) => sessionIn(record, sessionId)?.state === 'ready', 90_000)
    const view = server.createStreamSession({ sessionId, filePath, PlayMethod: 'hls', quality: '480p' })
    await readySync

    // Decode every segment the playlist lists, start to end, through the agent.
    const master = `${streamOrigin}${view.paths.hls}`
    const decoded = await run('ffmpeg', ['-v', 'error', '-i', master, '-f', 'null', '-'], { maxBuffer: 16 * 1024 * 1024 })
    expect(decoded.stderr).toBe('')
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,height', '-of', 'json', master])
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; height?: number }[] }).streams
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 360 })

    // The session read a URL source (the loopback input), not the sparse file on disk.
    const started = logLines.find((line) => line.sessionId === sessionId && typeof line.msg === 'string' && line.msg.startsWith('hls session: encoder'))
    expect(started).toMatchObject({ sourceKind: 'url' })
    expect(JSON.stringify(started)).not.toContain('token=')
    // No ffmpeg run failed on the way (the torrent left the engine at completion: seed_ratio 0).
    expect(logLines.filter((line) => line.msg === 'ffmpeg exited early; restarting' || line.msg === 'subtitle extraction failed')).toEqual([])
    await server.waitFor('sync', (record) => taskIn(record, taskId)?.state === 'completed', 60_000)
    // session-ready was posted exactly once; a player fetching segments put the session in `playing`.
    stopCounting()
    expect(readyPosts).toEqual([true])
    const session = agent.system.root.system.get(`session:${sessionId}`)
    expect(session?.getSnapshot().matches({ hls: { ready: { playback: 'playing' } } })).toBe(true)
    expect(logLines.filter((line) => line.msg === 'stream session playing' && line.sessionId === sessionId)).toHaveLength(1)

    // Players' tokens never open the raw input: neither /stream nor /source with a stream: token.
    const streamToken = server.mintToken(`stream:${sessionId}`)
    for (const path of [`/stream/${sessionId}/${fileName}`, `/source/${sessionId}/${fileName}`]) {
      const answer = await request(`${streamOrigin}${path}?token=${streamToken}`)
      expect(answer.statusCode, path).toBe(404)
      expect(await answer.body.text()).toBe('Not Found\n')
    }
  })
})
