// Direct play end to end (docs/sessions.md): the whole agent in-process (startAgent) against the
// reference server. A session created on the server reaches the agent through the sync, becomes
// ready as soon as its source answers (ready_at set by the session-ready call), streams with
// Range through the player URL, and stops being served once the server drops it. A debrid-style
// link is HEADed once; an .mkv link fails with its reason in the sync report.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/load.js'
import { silentLogger } from '../../src/log.js'
import { createReferenceServer, type ReferenceServer, type SessionView } from '../../src/reference-server/index.js'
import type { SessionReport, SyncRequest } from '../../src/protocol/wire.js'
import { resolveFfmpegBinary } from '../../src/services/ffmpeg/binaries.js'
import { startAgent, type RunningAgent } from '../../src/system/start-agent.js'
import { startHttpsUpstream, type HttpsUpstream } from '../helpers/https-upstream.js'
import { freePort } from '../helpers/ports.js'
import { rawRequest } from './stream-kit.js'

const run = promisify(execFile)
const accessToken = 'session-test-token'

let dir: string
let video: string
let videoBytes: Buffer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-session-direct-'))
  video = join(dir, 'library', 'clip.mp4')
  await run('mkdir', ['-p', join(dir, 'library')])
  await run(resolveFfmpegBinary('ffmpeg'), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x120:rate=10', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', video])
  videoBytes = await readFile(video)
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

interface Running {
  server: ReferenceServer
  agent: RunningAgent
  /** http://127.0.0.1:<stream port> */
  streamOrigin: string
}

let running: Running | undefined
let upstream: HttpsUpstream | undefined

afterEach(async () => {
  await running?.agent.stop()
  await running?.server.close()
  await upstream?.close()
  running = undefined
  upstream = undefined
})

async function startAll(options: { ca?: string } = {}): Promise<Running> {
  const server = await createReferenceServer({ accessToken })
  const streamPort = await freePort()
  const adminPort = await freePort()
  const text = [
    '[server]', `base_url = "${server.url}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${join(dir, 'state')}"`,
    '[stream]', `port = ${streamPort}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${adminPort}"`,
    '[downloads]', `dir = "${join(dir, 'downloads')}"`,
    '[downloads.hls_cache]', `dir = "${join(dir, 'hls')}"`,
    '[library]', `paths = ["${join(dir, 'library')}"]`,
    '[funnel]', 'enabled = false',
  ].join('\n')
  const { config } = parseConfigText(text, { file: join(dir, 'config.toml') })
  const registered = server.waitFor('register', undefined, 20_000)
  // Loopback only in tests; the daemon binds 0.0.0.0 (contract 1.11).
  const agent = await startAgent(config, silentLogger(), { sessions: { streamHost: '127.0.0.1', ...(options.ca ? { ca: options.ca } : {}) } })
  running = { server, agent, streamOrigin: `http://127.0.0.1:${streamPort}` }
  await registered
  return running
}

const reportOf = (request: SyncRequest, sessionId: string): SessionReport | undefined => request.sessions.find((session) => session.sessionId === sessionId)

const streamPath = (view: SessionView) => view.paths.stream

describe('a direct-play session, end to end', () => {
  it('is ready once its file is stat\'ed, streams with Range, and is withdrawn when the server removes it', async () => {
    const { server, agent, streamOrigin } = await startAll()
    const sessionId = 'local-1'
    const playback = () => (agent.system.root.system.get(`session:${sessionId}`)?.getSnapshot() as { value?: unknown } | undefined)?.value
    const ready = server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 20_000)
    const readySync = server.waitFor('sync', (record) => reportOf(record.request, sessionId)?.state === 'ready', 20_000)
    const view = server.createStreamSession({ sessionId, filePath: video, PlayMethod: 'direct', quality: 'original' })
    expect((await ready).first).toBe(true)
    expect(server.session(sessionId)?.readyAt).not.toBeNull()
    expect(reportOf((await readySync).request, sessionId)).toEqual({ sessionId, state: 'ready', cacheHit: false })

    // A HEAD is no playback; the first body bytes are (the session's `playing`, reported `ready`).
    const head = await rawRequest(streamOrigin, 'HEAD', streamPath(view))
    expect(head.status).toBe(200)
    expect(playback()).toMatchObject({ direct: { ready: { playback: 'idle' } } })
    const whole = await rawRequest(streamOrigin, 'GET', streamPath(view))
    expect(whole.status).toBe(200)
    expect(playback()).toMatchObject({ direct: { ready: { playback: 'playing' } } })
    const playingSync = server.waitFor('sync', undefined, 20_000)
    server.raiseWake('playing')
    expect(reportOf((await playingSync).request, sessionId)).toEqual({ sessionId, state: 'ready', cacheHit: false })
    expect(whole.headers['content-type']).toBe('video/mp4')
    expect(whole.headers['accept-ranges']).toBe('bytes')
    expect(whole.body.equals(videoBytes)).toBe(true)
    const range = await rawRequest(streamOrigin, 'GET', streamPath(view), { Range: 'bytes=100-1099' })
    expect(range.status).toBe(206)
    expect(range.headers['content-range']).toBe(`bytes 100-1099/${videoBytes.length}`)
    expect(range.body.equals(videoBytes.subarray(100, 1100))).toBe(true)

    // The server drops it: the agent reports `ended` once, then leaves it out, and serves nothing.
    const endedSync = server.waitFor('sync', (record) => reportOf(record.request, sessionId)?.state === 'ended', 20_000)
    server.removeStreamSession(sessionId)
    await endedSync
    const after = await rawRequest(streamOrigin, 'GET', streamPath(view))
    const unknownId = 'never-created'
    const unknown = await rawRequest(streamOrigin, 'GET', `/stream/${unknownId}/clip.mp4?token=${encodeURIComponent(server.mintToken(`stream:${unknownId}`))}`)
    expect(after.status).toBe(404)
    expect(after.head).toBe(unknown.head)
    expect(after.body.equals(unknown.body)).toBe(true)
    const nextSync = server.waitFor('sync', undefined, 20_000)
    server.raiseWake('next')
    expect(reportOf((await nextSync).request, sessionId)).toBeUndefined()
  })

  it('ends a session on stop_session and does not bring it back while the server still lists it', async () => {
    const { server, agent, streamOrigin } = await startAll()
    const sessionId = 'local-stop'
    const ready = server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 20_000)
    const view = server.createStreamSession({ sessionId, filePath: video, PlayMethod: 'direct', quality: 'original' })
    await ready
    const endedSync = server.waitFor('sync', (record) => reportOf(record.request, sessionId)?.state === 'ended', 20_000)
    server.queueControl({ kind: 'stop_session', sessionId })
    await endedSync
    expect((await rawRequest(streamOrigin, 'GET', streamPath(view))).status).toBe(404)
    const nextSync = server.waitFor('sync', (record) => record.response.streamSessions.some((session) => session.sessionId === sessionId), 20_000)
    server.raiseWake('still listed')
    expect(reportOf((await nextSync).request, sessionId)).toBeUndefined()
    expect(agent.system.root.system.get(`session:${sessionId}`)).toBeUndefined()
    expect((await rawRequest(streamOrigin, 'GET', streamPath(view))).status).toBe(404)
  })
})

describe('a debrid direct link', () => {
  it('is HEADed once, becomes ready, and streams ranges from the upstream', async () => {
    upstream = await startHttpsUpstream({ content: videoBytes })
    const { server, streamOrigin } = await startAll({ ca: upstream.ca })
    const sessionId = 'debrid-1'
    const ready = server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 20_000)
    const view = server.createStreamSession({ sessionId, DirectURL: `${upstream.origin}/files/clip.mp4`, PlayMethod: 'direct', quality: 'original', cacheId: 'a'.repeat(40) })
    await ready
    expect(upstream.count('HEAD')).toBe(1)
    expect(upstream.count('GET')).toBe(0)
    const range = await rawRequest(streamOrigin, 'GET', streamPath(view), { Range: 'bytes=0-499' })
    expect(range.status).toBe(206)
    expect(range.headers['content-type']).toBe('video/mp4')
    expect(range.body.equals(videoBytes.subarray(0, 500))).toBe(true)
    const head = await rawRequest(streamOrigin, 'HEAD', streamPath(view))
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(videoBytes.length))
    expect(upstream.count('HEAD')).toBe(1)
  })

  it('fails an .mkv link with the reason in the sync report, without asking the upstream or calling session-ready', async () => {
    upstream = await startHttpsUpstream({ content: videoBytes })
    const { server } = await startAll({ ca: upstream.ca })
    const sessionId = 'debrid-mkv'
    const failed = server.waitFor('sync', (record) => reportOf(record.request, sessionId)?.state === 'failed', 20_000)
    server.createStreamSession({ sessionId, DirectURL: `${upstream.origin}/files/clip.mkv`, PlayMethod: 'direct', quality: 'original' })
    const report = reportOf((await failed).request, sessionId)!
    expect(report.error).toMatch(/\.mkv.*mp4\/m4v only/)
    expect(upstream.requests).toHaveLength(0)
    expect(server.session(sessionId)?.readyAt).toBeNull()
  })
})
