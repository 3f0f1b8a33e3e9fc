// `GET /metrics` of a whole agent (startAgent) against the reference server (protocol.md 7.7,
// docs/operations.md "Metrics"): what an operator's Prometheus sees after real syncs, a fallback
// of the downlink, and a direct-play session streamed over the real stream server.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { request } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { resolveFfmpegBinary } from '../../src/services/ffmpeg/binaries.js'
import { agentPaths, downlinkMode, startAgentHarness, syncWhere, type AgentHarness } from '../helpers/agent-harness.js'
import { rawRequest } from './stream-kit.js'

const run = promisify(execFile)
let harness: AgentHarness | undefined
let dir: string
let video: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma18-metrics-'))
  await mkdir(join(dir, 'library'))
  video = join(dir, 'library', 'clip.mp4')
  await run(resolveFfmpegBinary('ffmpeg'), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', video])
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

afterEach(async () => {
  await harness?.stop()
  harness = undefined
})

async function scrape(h: AgentHarness, token?: string): Promise<{ status: number; contentType: string; text: string }> {
  const bearer = token ?? (await readFile(h.agent.adminTokenPath, 'utf8')).trim()
  const response = await request(`${h.agent.admin.url}/metrics`, { headers: { authorization: `Bearer ${bearer}` } })
  return { status: response.statusCode, contentType: String(response.headers['content-type']), text: await response.body.text() }
}

/** The value of one sample line (`name{labels} value`); undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics on the admin listener', () => {
  it('answers 401 without the admin token and Prometheus text with it, every family named media_agent_*', async () => {
    harness = await startAgentHarness({ downlink: 'sse' })
    const h = harness
    await h.waitForNode('downlink', (node) => downlinkMode(node) === 'sse' && typeof (node.context as { connectedTo?: unknown })?.connectedTo === 'string', 15_000, 'a connected SSE stream')
    await syncWhere(h.server, (record) => record.agentId === h.agentId)

    const refused = await scrape(h, 'not-the-token')
    expect(refused.status).toBe(401)
    expect(refused.text).not.toContain('media_agent_')

    const woke = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('metrics')
    await woke
    // The sync's done event reaches the observer right after the server has answered.
    await expect.poll(async () => sample((await scrape(h)).text, 'media_agent_wake_to_sync_seconds_count{source="sse"}'), { timeout: 5_000 }).toBeGreaterThanOrEqual(1)

    const { status, contentType, text } = await scrape(h)
    expect(status).toBe(200)
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    const families = text.split('\n').filter((line) => line.startsWith('# TYPE ')).map((line) => line.split(' ')[2]!)
    expect(families.length).toBeGreaterThan(20)
    expect(families.filter((name) => !name.startsWith('media_agent_'))).toEqual([])
    for (const required of ['media_agent_sync_cycles_total', 'media_agent_sync_failures_total', 'media_agent_wake_to_sync_seconds', 'media_agent_session_ready_seconds',
      'media_agent_cache_hits_total', 'media_agent_cache_misses_total', 'media_agent_stream_bytes_total', 'media_agent_process_resident_memory_bytes', 'media_agent_ffmpeg_restarts_total']) {
      expect(families).toContain(required)
    }
    expect(sample(text, 'media_agent_sync_cycles_total')).toBeGreaterThanOrEqual(2)
    expect(sample(text, 'media_agent_sync_failures_total')).toBe(0)
    expect(sample(text, 'media_agent_downlink_mode{mode="sse"}')).toBe(1)
    expect(sample(text, 'media_agent_downlink_mode{mode="poll"}')).toBe(0)
    expect(sample(text, 'media_agent_cache_hits_total')).toBe(0)
  })

  it('counts failed syncs and the fallback of the downlink to the long-poll', async () => {
    harness = await startAgentHarness({ testing: { long_poll_reprobe_ms: 60_000 } })
    const h = harness
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    h.server.faults.failNext[agentPaths.sync] = 2
    h.server.faults.sseDropAfterMs = 0
    const fellBack = h.waitForLog((line) => line.msg === 'downlink falls back to the wake long-poll')
    await h.server.restart()
    await fellBack
    await h.waitForNode('downlink', (node) => downlinkMode(node) === 'poll', 5_000, 'the long-poll')
    const woke = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('after failures')
    await woke

    await expect.poll(async () => sample((await scrape(h)).text, 'media_agent_sync_failures_total'), { timeout: 5_000 }).toBe(2)
    const { text } = await scrape(h)
    expect(sample(text, 'media_agent_downlink_fallbacks_total')).toBe(1)
    expect(sample(text, 'media_agent_downlink_mode{mode="poll"}')).toBe(1)
    expect(sample(text, 'media_agent_sync_cycles_total')).toBeGreaterThanOrEqual(3)
  })

  it('counts a direct-play session: ready latency, stream requests and the bytes sent', async () => {
    harness = await startAgentHarness({ extraToml: `[library]\npaths = ["${join(dir, 'library')}"]\n` })
    const h = harness
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    const sessionId = 'metrics-direct'
    const ready = h.server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 20_000)
    const view = h.server.createStreamSession({ sessionId, filePath: video, PlayMethod: 'direct', quality: 'original' })
    await ready
    const streamOrigin = `http://127.0.0.1:${/\[stream\]\nport = (\d+)/.exec(h.configText)![1]}`

    const before = sample((await scrape(h)).text, 'media_agent_stream_bytes_total{route="stream"}') ?? 0
    const whole = await rawRequest(streamOrigin, 'GET', view.paths.stream)
    expect(whole.status).toBe(200)
    const missing = await rawRequest(streamOrigin, 'GET', '/nothing-here')
    expect(missing.status).toBe(404)

    await expect.poll(async () => sample((await scrape(h)).text, 'media_agent_stream_requests_total{route="stream",code="200"}'), { timeout: 5_000 }).toBe(1)
    const { text } = await scrape(h)
    const sent = sample(text, 'media_agent_stream_bytes_total{route="stream"}')! - before
    expect(sent).toBeGreaterThanOrEqual(whole.body.length)
    expect(sent).toBeLessThan(whole.body.length + 2_048) // the body plus one response head
    expect(sample(text, 'media_agent_stream_requests_total{route="other",code="404"}')).toBe(1)
    expect(sample(text, 'media_agent_stream_first_byte_seconds_count{route="stream"}')).toBe(1)
    expect(sample(text, 'media_agent_session_ready_seconds_count{kind="direct"}')).toBe(1)
    expect(sample(text, 'media_agent_stream_sessions{kind="direct",state="ready"}')).toBe(1)
  })
})
