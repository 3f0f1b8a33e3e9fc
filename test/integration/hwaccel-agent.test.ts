import { copyFile, readFile } from 'node:fs/promises'
import { request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import type { HwAccelDiagnostic } from '../../src/protocol/wire.js'
import type { ReprobeResult } from '../../src/system/encoders-part.js'
import { detectHwAccel } from '../../src/services/encoders/detect.js'
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js'
import { installFakeFfmpeg, type FakeFfmpeg } from '../helpers/fake-ffmpeg.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'

// The encoders actor inside the whole agent (issue 12; contract 2.4, 6.3; protocol.md 7.2): the
// start-up probe goes into the register body and one `[transcode]` line; a hardware encoder that
// fails in a session is marked unhealthy until the re-probe, whose delay is shortened here.

let harness: AgentHarness | undefined
let fake: FakeFfmpeg | undefined
let fixtures: MediaFixtures | undefined
afterEach(async () => {
  await harness?.stop()
  await fake?.cleanup()
  await fixtures?.cleanup()
  harness = undefined
  fake = undefined
  fixtures = undefined
})

/** The diagnostic without what differs between two probes of the same host (timings). */
const stable = (hwAccel: HwAccelDiagnostic) => ({ ...hwAccel, probeMs: 0, candidates: hwAccel.candidates.map((candidate) => ({ ...candidate, ms: 0 })) })
const transcodeLines = (h: AgentHarness) => h.logs.filter((line) => line.msg.startsWith('[transcode]'))

/** `POST /api/encoders/reprobe` on the agent's admin listener, as a person's tooling would call it. */
async function reprobe(h: AgentHarness): Promise<{ status: number; body: ReprobeResult }> {
  const token = (await readFile(h.agent.adminTokenPath, 'utf8')).trim()
  const response = await request(`${h.agent.admin.url}/api/encoders/reprobe`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, body: (await response.body.json()) as ReprobeResult }
}

describe('hardware encoders in the agent', () => {
  it('registers with the diagnostic of this host, the same one probe-hwaccel computes, and logs one [transcode] line', async () => {
    harness = await startAgentHarness({ logLevel: 'info' })
    const registered = await harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 20_000)
    const hwAccel = registered.request.hwAccel!
    expect(hwAccel.chosenEncoder).toBe('libx264')
    expect(hwAccel.candidates.length).toBeGreaterThan(0)
    expect(hwAccel.candidates.every((candidate) => !candidate.ok && candidate.error)).toBe(true)
    const direct = await detectHwAccel({ preference: 'auto' })
    expect(stable(hwAccel)).toEqual(stable(direct.hwAccel))

    const lines = transcodeLines(harness)
    expect(lines).toHaveLength(1)
    expect(lines[0]!.msg).toMatch(/^\[transcode\] encoder libx264, cap 1080p; ffmpeg /)
    // The very object the register body carried, timings included.
    expect(lines[0]!.hwAccel).toEqual(hwAccel)
    const node = await harness.waitForNode('encoders', (found) => found.value === 'ready')
    expect(node.value).toBe('ready')
  })

  it('chooses a working NVENC, marks it unhealthy when it fails in a session, and clears the mark at the re-probe', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc', failSessions: true })
    fixtures = await createMediaFixtures()
    const source = await fixtures.get('h264-720p')
    harness = await startAgentHarness({
      logLevel: 'info',
      testing: { hw_reprobe_after_failure_ms: 300 },
      extraToml: `[transcode]\nffmpeg_path = "${fake.path}"\n`,
    })
    const registered = await harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 20_000)
    expect(registered.request.hwAccel!.chosenEncoder).toBe('h264_nvenc')
    expect(registered.request.hwAccel!.ffmpegPath).toBe(fake.path)

    const ready = harness.server.waitFor('sessionReady', (event) => event.record.session.sessionId === 'nv-agent', 60_000)
    harness.server.createStreamSession({ sessionId: 'nv-agent', filePath: source, PlayMethod: 'hls', quality: '480p' })
    await ready
    const fallback = await harness.waitForLog((line) => line.fallbackFrom === 'h264_nvenc')
    expect(fallback.msg).toMatch(/falling back to libx264/)
    const marked = await harness.waitForLog((line) => /h264_nvenc failed in a session; new sessions use libx264 until the next probe/.test(line.msg))
    expect(marked.encoder).toBe('h264_nvenc')
    // The re-probe after the (shortened) delay passes NVENC's test encode again: the mark is gone.
    await harness.waitForLog((line) => line.msg.startsWith('re-probe: encoder h264_nvenc'))
    await harness.waitForNode('encoders', (node) => node.value === 'ready' && JSON.stringify((node.context as { unhealthy?: unknown }).unhealthy) === '{}')
    expect(transcodeLines(harness)).toHaveLength(1)
  })

  it('gives a new session libx264 from its first run while NVENC is marked unhealthy', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc', failSessions: true })
    fixtures = await createMediaFixtures()
    const source = await fixtures.get('h264-360p')
    harness = await startAgentHarness({ logLevel: 'info', extraToml: `[transcode]\nffmpeg_path = "${fake.path}"\n` })
    const hlsEncoders = async (file: string) => (await fake!.invocations())
      .filter(({ argv }) => argv.includes('hls') && argv.includes(file))
      .map(({ argv }) => argv[argv.indexOf('-c:v') + 1])
    const play = async (sessionId: string, file: string) => {
      const ready = harness!.server.waitFor('sessionReady', (event) => event.record.session.sessionId === sessionId, 60_000)
      harness!.server.createStreamSession({ sessionId, filePath: file, PlayMethod: 'hls', quality: '480p' })
      await ready
    }
    await play('first', source)
    expect(await hlsEncoders(source)).toEqual(['h264_nvenc', 'libx264'])
    await harness.waitForNode('encoders', (node) => node.value === 'degraded')
    // The same file under another name, so this session's runs can be told apart in the log.
    const copy = `${source}.again.mp4`
    await copyFile(source, copy)
    await play('second', copy)
    expect(await hlsEncoders(copy)).toEqual(['libx264'])
  })

  it('registers again with the new diagnostic when the re-probe after a session failure finds the GPU gone', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc' })
    fixtures = await createMediaFixtures()
    const source = await fixtures.get('h264-360p')
    harness = await startAgentHarness({
      logLevel: 'info',
      testing: { hw_reprobe_after_failure_ms: 300 },
      extraToml: `[transcode]\nffmpeg_path = "${fake.path}"\n`,
    })
    const first = await harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 20_000)
    expect(first.request.hwAccel!.chosenEncoder).toBe('h264_nvenc')
    // The NVIDIA driver goes away under the running agent: NVENC now fails as the real ffmpeg does.
    await fake.reconfigure({ gpu: 'none' })
    const again = harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 30_000)
    // A sync after the second register (the waiter is set now: that sync follows the register at once).
    const syncedAfter = harness.server.waitFor('sync', (record) => record.agentId === harness!.agentId && harness!.server.registrations(harness!.agentId).length === 2, 30_000)
    const ready = harness.server.waitFor('sessionReady', (event) => event.record.session.sessionId === 'gone', 60_000)
    harness.server.createStreamSession({ sessionId: 'gone', filePath: source, PlayMethod: 'hls', quality: '480p' })
    await ready
    const second = await again
    expect(second.request.hwAccel!.chosenEncoder).toBe('libx264')
    expect(second.request.hwAccel!.candidates.find((candidate) => candidate.encoder === 'h264_nvenc')).toMatchObject({ ok: false })
    // It came from the re-probe that followed the session's failure, not from anything else.
    const reprobed = harness.logs.findIndex((line) => line.msg.startsWith('re-probe: encoder libx264'))
    const marked = harness.logs.findIndex((line) => /h264_nvenc failed in a session/.test(line.msg))
    expect(marked).toBeGreaterThanOrEqual(0)
    expect(reprobed).toBeGreaterThan(marked)
    expect(harness.server.registrations(harness.agentId)).toHaveLength(2)
    // And the agent goes on syncing after registering again.
    await syncedAfter
  })

  it('probes again on POST /api/encoders/reprobe: no new register when nothing changed, one with the new result when it did', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc' })
    harness = await startAgentHarness({ logLevel: 'info', extraToml: `[transcode]\nffmpeg_path = "${fake.path}"\n` })
    await harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 20_000)
    const probesBefore = (await fake.invocations()).filter(({ argv }) => argv.includes('-version')).length

    const same = await reprobe(harness)
    expect(same.status).toBe(200)
    expect(same.body).toMatchObject({ encoder: 'h264_nvenc', reregister: null })
    expect(same.body.hwAccel!.chosenEncoder).toBe('h264_nvenc')
    // A fresh detection really ran.
    expect((await fake.invocations()).filter(({ argv }) => argv.includes('-version')).length).toBe(probesBefore + 1)

    await fake.reconfigure({ gpu: 'none' })
    const again = harness.server.waitFor('register', (record) => record.request.agentId === harness!.agentId, 20_000)
    const changed = await reprobe(harness)
    expect(changed.status).toBe(200)
    expect(changed.body.encoder).toBe('libx264')
    expect(changed.body.reregister).toMatch(/chosen encoder h264_nvenc \(cap \d+p\) -> libx264 \(cap 1080p\); h264_nvenc fails its test encode/)
    const second = await again
    expect(stable(second.request.hwAccel!)).toEqual(stable(changed.body.hwAccel!))
    expect(harness.server.registrations(harness.agentId)).toHaveLength(2)
  })
})
