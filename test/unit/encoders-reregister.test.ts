import { describe, expect, it } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { embeddedDefaultConfig } from '../../src/config/load.js'
import { hwAccelChange, type Detection } from '../../src/machines/encoder-choice.js'
import type { HwAccelDiagnostic } from '../../src/protocol/wire.js'
import { silentLogger } from '../../src/log.js'
import { createEncodersPart } from '../../src/system/encoders-part.js'

// Only RegisterRequest carries hwAccel (protocol.md 1), so the server's view of a host's encoders
// is only as fresh as the last register. A probe whose result differs from what that register
// carried must make the agent register again; one that finds the same host must not.

const diagnostic = (nvencOk: boolean, partial: Partial<HwAccelDiagnostic> = {}): HwAccelDiagnostic => ({
  ffmpegVersion: '5.1.9', ffmpegPath: '/usr/bin/ffmpeg', encoders: ['libx264', 'h264_nvenc', 'h264_vaapi'],
  devices: [{ path: '/dev/nvidia0', driver: 'nvidia' }], drivers: ['nvidia 550.54.14'],
  chosenEncoder: nvencOk ? 'h264_nvenc' : 'libx264', maxTranscodeHeight: nvencOk ? 2160 : 1080, probeMs: 300,
  candidates: [
    { encoder: 'h264_nvenc', ok: nvencOk, ms: 120, ...(nvencOk ? {} : { error: 'h264_nvenc: Cannot load libcuda.so.1' }) },
    { encoder: 'h264_vaapi', ok: false, ms: 80, error: 'No VA display found for device /dev/dri/renderD128.' },
  ],
  ...partial,
})
const detection = (nvencOk: boolean, partial: Partial<HwAccelDiagnostic> = {}): Detection => ({ hwAccel: diagnostic(nvencOk, partial), caps: nvencOk ? { h264_nvenc: 2160 } : {} })

describe('what in a diagnostic is a change for the server', () => {
  it('sees none between two probes of the same host, whose timings and error wording differ', () => {
    const again = diagnostic(true, { probeMs: 999, candidates: [{ encoder: 'h264_nvenc', ok: true, ms: 7 }, { encoder: 'h264_vaapi', ok: false, ms: 1, error: 'another wording' }] })
    expect(hwAccelChange(diagnostic(true), again)).toBeUndefined()
  })

  it('names a new chosen encoder and the candidate results that flipped', () => {
    expect(hwAccelChange(diagnostic(true), diagnostic(false))).toBe('chosen encoder h264_nvenc (cap 2160p) -> libx264 (cap 1080p); h264_nvenc fails its test encode')
    expect(hwAccelChange(diagnostic(false), diagnostic(true))).toBe('chosen encoder libx264 (cap 1080p) -> h264_nvenc (cap 2160p); h264_nvenc passes its test encode')
  })

  it('sees a device becoming usable, a new driver, another ffmpeg, and a first diagnostic after none', () => {
    expect(hwAccelChange(diagnostic(false, { devices: [{ path: '/dev/nvidia0', driver: 'nvidia', error: 'permission denied' }] }), diagnostic(false))).toBe('devices: /dev/nvidia0 nvidia')
    expect(hwAccelChange(diagnostic(true), diagnostic(true, { drivers: ['nvidia 555.1'] }))).toBe('drivers: nvidia 555.1')
    expect(hwAccelChange(diagnostic(true), diagnostic(true, { ffmpegVersion: '6.0' }))).toBe('ffmpeg 6.0 at /usr/bin/ffmpeg')
    expect(hwAccelChange(undefined, diagnostic(true))).toBe('diagnostic ready (encoder h264_nvenc)')
  })
})

describe('the encoders part asks for a new register when a probe changed the diagnostic', () => {
  function start(results: Detection[]) {
    const config = embeddedDefaultConfig({}, '/nonexistent-home')
    const reasons: string[] = []
    let probes = 0
    const part = createEncodersPart({
      config, logger: silentLogger(),
      detect: async () => results[Math.min(probes++, results.length - 1)]!,
      hwAccelChanged: (reason) => reasons.push(reason),
    })
    const clock = new SimulatedClock()
    const actor = createActor(part.logic, { input: part.input, clock }).start()
    part.attach(() => actor)
    return { part, actor, clock, reasons, probes: () => probes }
  }

  it('registers again after the re-probe that follows a session failure, when that probe finds the GPU gone', async () => {
    const t = start([detection(true), detection(false)])
    expect((await t.part.hwAccel())?.chosenEncoder).toBe('h264_nvenc') // what the first register carried
    t.part.encoderFailed('h264_nvenc', 'OpenEncodeSessionEx failed')
    expect(t.actor.getSnapshot().value).toBe('degraded')
    t.clock.increment(t.part.input.reprobeAfterFailureMs - 1)
    expect(t.probes()).toBe(1)
    t.clock.increment(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(t.probes()).toBe(2)
    expect(t.reasons).toEqual(['hwAccel: chosen encoder h264_nvenc (cap 2160p) -> libx264 (cap 1080p); h264_nvenc fails its test encode'])
    // The new register collects the new diagnostic; a further identical probe asks for nothing.
    expect((await t.part.hwAccel())?.chosenEncoder).toBe('libx264')
    expect((await t.part.reprobe()).reregister).toBeNull()
    expect(t.reasons).toHaveLength(1)
  })

  it('asks for nothing when the re-probe finds what the server already has', async () => {
    const t = start([detection(true)])
    await t.part.hwAccel()
    const result = await t.part.reprobe()
    expect(t.probes()).toBe(2)
    expect(result).toMatchObject({ encoder: 'h264_nvenc', reregister: null })
    expect(t.reasons).toEqual([])
  })

  it('asks for nothing before any register collected the diagnostic: that first register reads the latest probe', async () => {
    const t = start([detection(true), detection(false)])
    await new Promise((resolve) => setImmediate(resolve))
    expect((await t.part.reprobe()).reregister).toBeNull()
    expect(t.reasons).toEqual([])
    expect((await t.part.hwAccel())?.chosenEncoder).toBe('libx264')
  })

  it('waits out a probe already running before probing again, so the answer comes from a probe begun after the request', async () => {
    const config = embeddedDefaultConfig({}, '/nonexistent-home')
    let release!: () => void
    const startup = new Promise<void>((resolve) => (release = resolve))
    let probes = 0
    const part = createEncodersPart({
      config, logger: silentLogger(),
      // The start-up probe hangs until released and finds no NVENC; the next one finds it working.
      detect: async () => (++probes === 1 ? (await startup, detection(false)) : detection(true)),
    })
    const actor = createActor(part.logic, { input: part.input }).start()
    part.attach(() => actor)
    const asked = part.reprobe()
    await new Promise((resolve) => setImmediate(resolve))
    expect(probes).toBe(1)
    release()
    const answer = await asked
    expect(probes).toBe(2)
    expect(answer.hwAccel?.chosenEncoder).toBe('h264_nvenc')
    // Two asked at once share the probe begun after both asked.
    const [a, b] = await Promise.all([part.reprobe(), part.reprobe()])
    expect(probes).toBe(3)
    expect([a.encoder, b.encoder]).toEqual(['h264_nvenc', 'h264_nvenc'])
  })
})
