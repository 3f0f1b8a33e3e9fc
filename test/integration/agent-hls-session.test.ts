import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { parseConfigText } from '../../src/config/load.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import type { SessionReport, SyncRequest } from '../../src/protocol/wire.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { freePort } from '../helpers/ports.js'

// An HLS session through the whole agent (issue 6 wired into issue 5's sessions): the server lists
// it, the agent transcodes with the real ffmpeg, posts session-ready once, and a real HLS client
// (ffprobe) reads the playlist and every segment from the agent's stream server over HTTP.

const run = promisify(execFile)
const accessToken = 'hls-agent-test'
let dir = ''
let fixtures: MediaFixtures
let server: ReferenceServer
let agent: RunningAgent
let streamOrigin = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-agent-hls-'))
  fixtures = await createMediaFixtures()
  server = await createReferenceServer({ accessToken })
  const streamPort = await freePort()
  const text = [
    '[server]', `base_url = "${server.url}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${join(dir, 'state')}"`,
    '[stream]', `port = ${streamPort}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
    '[downloads]', `dir = "${join(dir, 'downloads')}"`,
    '[downloads.hls_cache]', `dir = "${join(dir, 'hls')}"`,
    '[funnel]', 'enabled = false',
  ].join('\n')
  const { config } = parseConfigText(text, { file: join(dir, 'config.toml') })
  const registered = server.waitFor('register', undefined, 20_000)
  agent = await startAgent(config, silentLogger(), { sessions: { streamHost: '127.0.0.1' } })
  streamOrigin = `http://127.0.0.1:${streamPort}`
  await registered
})

afterAll(async () => {
  await agent?.stop()
  await server?.close()
  await fixtures?.cleanup()
  await rm(dir, { recursive: true, force: true })
})

const reportOf = (request: SyncRequest, sessionId: string): SessionReport | undefined => request.sessions.find((session) => session.sessionId === sessionId)

describe('an HLS session through the whole agent', () => {
  it('becomes ready with one session-ready call and plays end to end in a real HLS client', async () => {
    const source = await fixtures.get('h264-720p')
    const sessionId = 'hls-1'
    const ready = server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 60_000)
    const readySync = server.waitFor('sync', (record) => reportOf(record.request, sessionId)?.state === 'ready', 60_000)
    const view = server.createStreamSession({ sessionId, filePath: source, PlayMethod: 'hls', quality: '480p' })
    expect((await ready).first).toBe(true)
    await readySync

    const master = `${streamOrigin}${view.paths.hls}`
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,height', '-of', 'json', master])
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; height?: number }[] }).streams
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 480 })
    // Decode every segment the playlist lists, start to end, through the agent.
    const decoded = await run('ffmpeg', ['-v', 'error', '-i', master, '-f', 'null', '-'], { maxBuffer: 16 * 1024 * 1024 })
    expect(decoded.stderr).toBe('')
    expect(server.session(sessionId)?.readyAt).not.toBeNull()
  })
})
