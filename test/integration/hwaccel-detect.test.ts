import { afterEach, describe, expect, it } from 'vitest'
import { detectHwAccel } from '../../src/services/encoders/detect.js'
import { installFakeFfmpeg, isAlive, type FakeFfmpeg, type FakeFfmpegConfig } from '../helpers/fake-ffmpeg.js'

// Hardware detection (issue 12) with the real ffmpeg of this machine, which lists NVENC, QSV and
// VAAPI but has no GPU, and with the faithful GPU fakes (docs/encoders.md "Faithful fakes").

let fake: FakeFfmpeg | undefined
afterEach(async () => {
  await fake?.cleanup()
  fake = undefined
})
const withFake = async (config: FakeFfmpegConfig) => {
  fake = await installFakeFfmpeg(config)
  return fake
}
const hardware = ['h264_nvenc', 'h264_qsv', 'h264_vaapi', 'h264_videotoolbox']

describe('hardware detection on this machine (no GPU)', () => {
  it('chooses libx264 and reports every listed hardware encoder as failed with its test encode\'s real error', async () => {
    const { hwAccel, warning } = await detectHwAccel({ preference: 'auto', ffmpegPath: '/usr/bin/ffmpeg' })
    expect(hwAccel.error).toBeUndefined()
    expect(warning).toBeUndefined()
    expect(hwAccel.ffmpegPath).toBe('/usr/bin/ffmpeg')
    expect(hwAccel.ffmpegVersion).toMatch(/^\d+\.\d+/)
    expect(hwAccel.encoders).toContain('libx264')
    const listed = hwAccel.encoders.filter((name) => hardware.includes(name))
    expect(listed.length).toBeGreaterThan(0)
    expect(hwAccel.candidates.map((candidate) => candidate.encoder)).toEqual(listed)
    for (const candidate of hwAccel.candidates) {
      expect(candidate.ok, candidate.encoder).toBe(false)
      expect(candidate.error, candidate.encoder).toBeTruthy()
    }
    // The errors are ffmpeg's own, per encoder (Debian ffmpeg 5.1 without a GPU).
    const errorOf = (name: string) => hwAccel.candidates.find((candidate) => candidate.encoder === name)?.error
    if (listed.includes('h264_nvenc')) expect(errorOf('h264_nvenc')).toMatch(/libcuda|nvenc|CUDA/i)
    if (listed.includes('h264_vaapi')) expect(errorOf('h264_vaapi')).toMatch(/VA display|vaapi|renderD128/i)
    if (listed.includes('h264_qsv')) expect(errorOf('h264_qsv')).toMatch(/MFX|qsv|session/i)
    expect(hwAccel.chosenEncoder).toBe('libx264')
    expect(hwAccel.maxTranscodeHeight).toBe(1080)
    expect(hwAccel.probeMs).toBeLessThanOrEqual(10_000)
  })

  it('names the missing ffmpeg in the diagnostic instead of failing', async () => {
    const { hwAccel } = await detectHwAccel({ preference: 'auto', ffmpegPath: '/nonexistent/ffmpeg' })
    expect(hwAccel.error).toMatch(/ffmpeg is not an executable file at \/nonexistent\/ffmpeg/)
    expect(hwAccel.chosenEncoder).toBe('none')
    expect(hwAccel.candidates).toEqual([])
  })
})

describe('hardware detection with a GPU (faithful fakes)', () => {
  it('chooses a working NVENC, whose test encode used the session\'s NVENC options and no -tune', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc' })
    const { hwAccel } = await detectHwAccel({ preference: 'auto', ffmpegPath: ffmpeg.path })
    expect(hwAccel.chosenEncoder).toBe('h264_nvenc')
    expect(hwAccel.maxTranscodeHeight).toBe(2160)
    expect(hwAccel.candidates.find((candidate) => candidate.encoder === 'h264_nvenc')).toMatchObject({ ok: true })
    // QSV and VAAPI are not this fake's GPU: the real ffmpeg ran them and failed for real.
    expect(hwAccel.candidates.filter((candidate) => candidate.encoder !== 'h264_nvenc').every((candidate) => !candidate.ok)).toBe(true)
    const tests = (await ffmpeg.invocations()).filter(({ argv }) => argv.includes('h264_nvenc'))
    expect(tests.map(({ argv }) => /testsrc2=size=\d+x(\d+)/.exec(argv.join(' '))?.[1])).toEqual(['1080', '2160'])
    for (const { argv } of tests) {
      const at = argv.indexOf('-c:v')
      expect(argv.slice(at, at + 6)).toEqual(['-c:v', 'h264_nvenc', '-preset', 'p3', '-rc', 'vbr'])
      expect(argv).not.toContain('-tune')
      expect(argv[argv.indexOf('-vf') + 1]).toMatch(/,format=yuv420p,setparams=/)
    }
  })

  it('caps the resolution at the tallest test frame the encoder took', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc', maxHeight: 1080 })
    const { hwAccel } = await detectHwAccel({ preference: 'auto', ffmpegPath: ffmpeg.path })
    expect(hwAccel.chosenEncoder).toBe('h264_nvenc')
    expect(hwAccel.maxTranscodeHeight).toBe(1080)
  })

  it('finds QSV, VAAPI (with its driver) and VideoToolbox when each is the GPU', async () => {
    const qsv = await detectHwAccel({ preference: 'auto', ffmpegPath: (await withFake({ gpu: 'qsv' })).path })
    expect(qsv.hwAccel.chosenEncoder).toBe('h264_qsv')
    await fake!.cleanup()
    const vaapi = await detectHwAccel({ preference: 'auto', ffmpegPath: (await withFake({ gpu: 'vaapi', vaapiDriver: 'Mesa Gallium driver 23.2.1 for AMD Radeon 780M' })).path })
    expect(vaapi.hwAccel.chosenEncoder).toBe('h264_vaapi')
    expect(vaapi.hwAccel.drivers).toContain('vaapi: Mesa Gallium driver 23.2.1 for AMD Radeon 780M')
    await fake!.cleanup()
    const mac = await detectHwAccel({ preference: 'auto', ffmpegPath: (await withFake({ gpu: 'videotoolbox' })).path })
    expect(mac.hwAccel.encoders).toContain('h264_videotoolbox')
    expect(mac.hwAccel.chosenEncoder).toBe('h264_videotoolbox')
  })

  it('forces a configured encoder only when it works, else libx264 with a warning', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc' })
    const forced = await detectHwAccel({ preference: 'h264_qsv', ffmpegPath: ffmpeg.path })
    expect(forced.hwAccel.chosenEncoder).toBe('libx264')
    expect(forced.warning).toMatch(/encoder = "h264_qsv" is not usable: its test encode failed/)
    const nvenc = await detectHwAccel({ preference: 'h264_nvenc', ffmpegPath: ffmpeg.path })
    expect(nvenc.hwAccel.chosenEncoder).toBe('h264_nvenc')
    expect(nvenc.warning).toBeUndefined()
  })
})

describe('the bound on detection', () => {
  it('kills, by PID, an ffmpeg that hangs and reports that it did not answer', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc', hang: 'all' })
    const { hwAccel } = await detectHwAccel({ preference: 'auto', ffmpegPath: ffmpeg.path, timeoutMs: 3_000 })
    expect(hwAccel.error).toMatch(/did not answer within 3000 ms; killed/)
    expect(hwAccel.chosenEncoder).toBe('none')
    const pids = (await ffmpeg.invocations()).map(({ pid }) => pid)
    // -version and -encoders, started together; 3 s is ample for each fake to start and log its PID.
    expect(pids.length).toBe(2)
    for (const pid of pids) expect(await isAlive(pid), `pid ${pid}`).toBe(false)
  })

  it('reports a test encode that hangs as timed out, keeps what finished, and kills it by PID', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc', hang: 'test-encode' })
    const { hwAccel } = await detectHwAccel({ preference: 'auto', ffmpegPath: ffmpeg.path, timeoutMs: 2_000 })
    expect(hwAccel.error).toBeUndefined()
    expect(hwAccel.ffmpegVersion).toMatch(/^\d/)
    expect(hwAccel.candidates.length).toBeGreaterThan(0)
    for (const candidate of hwAccel.candidates) {
      expect(candidate.ok).toBe(false)
      expect(candidate.error).toMatch(/test encode \(1080p\) did not finish within 2000 ms; killed/)
    }
    expect(hwAccel.chosenEncoder).toBe('libx264')
    const hung = (await ffmpeg.invocations()).filter(({ argv }) => argv.includes('lavfi'))
    expect(hung.length).toBe(hwAccel.candidates.length)
    for (const { pid } of hung) expect(await isAlive(pid), `pid ${pid}`).toBe(false)
  })

  it('ends at once, killing its ffmpeg by PID, when the agent stops in the middle of a probe', async () => {
    const ffmpeg = await withFake({ gpu: 'nvenc', hang: 'all' })
    const stop = new AbortController()
    const detection = detectHwAccel({ preference: 'auto', ffmpegPath: ffmpeg.path, signal: stop.signal })
    // Both hanging fakes have started once they logged their PIDs (bounded by the test timeout).
    while ((await ffmpeg.invocations()).length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
    stop.abort()
    const { hwAccel } = await detection
    expect(hwAccel.error).toMatch(/killed/)
    for (const { pid } of await ffmpeg.invocations()) expect(await isAlive(pid), `pid ${pid}`).toBe(false)
  })
})
