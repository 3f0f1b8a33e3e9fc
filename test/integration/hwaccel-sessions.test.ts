import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import { buildHlsArgs, type HlsEncoder } from '../../src/services/ffmpeg/hls-args.js'
import { installFakeFfmpeg, type FakeFfmpeg, type FakeFfmpegConfig } from '../helpers/fake-ffmpeg.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { decodeWithFfmpeg, run, startEngineKit, startSession, type EngineKit } from './hls-kit.js'

// HLS sessions on each hardware encoder (issue 12; contract 4.3.5, 7), through the faithful GPU
// fakes (docs/encoders.md "Faithful fakes"): the argv each encoder gets, segments that really come
// out and play, and the fallback to libx264 when the encoder fails in a session.

let fixtures: MediaFixtures
let source = ''
beforeAll(async () => {
  fixtures = await createMediaFixtures()
  source = await fixtures.get('h264-720p')
})
afterAll(async () => {
  await fixtures?.cleanup()
})

let kit: EngineKit | undefined
let fake: FakeFfmpeg | undefined
afterEach(async () => {
  await kit?.close()
  await fake?.cleanup()
  kit = undefined
  fake = undefined
})

interface Logged { msg: string; [key: string]: unknown }

async function engineOn(gpu: FakeFfmpegConfig['gpu'], encoder: HlsEncoder, extra: Partial<FakeFfmpegConfig> = {}) {
  fake = await installFakeFfmpeg({ gpu, ...extra })
  const lines: Logged[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as Logged)
      done()
    },
  })
  const failures: { encoder: string; reason: string }[] = []
  kit = await startEngineKit({
    ffmpegPath: fake.path,
    logger: pino({ level: 'info' }, sink),
    encoderFor: async () => ({ encoder, maxHeight: 2160 }),
    onEncoderFailed: (failed, reason) => failures.push({ encoder: failed, reason }),
  })
  return { kit, fake, lines, failures }
}

/** The argv of the HLS encodes (not ffprobe's, not subtitle extraction). */
async function hlsRuns(ffmpeg: FakeFfmpeg): Promise<string[][]> {
  return (await ffmpeg.invocations()).map(({ argv }) => argv).filter((argv) => argv.includes('hls'))
}

const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1]

describe('HLS sessions on each hardware encoder (faithful fakes)', () => {
  it('NVENC gets -preset p3 -rc vbr, the libx264 filter chain and no -tune, and its segments play', async () => {
    const { kit, fake } = await engineOn('nvenc', 'h264_nvenc')
    const session = startSession(kit, 'nv-1', source)
    await session.ready
    const [argv] = await hlsRuns(fake)
    expect(after(argv!, '-c:v')).toBe('h264_nvenc')
    expect(argv!.join(' ')).toContain('-c:v h264_nvenc -preset p3 -rc vbr')
    expect(argv).not.toContain('-tune')
    expect(after(argv!, '-vf')).toMatch(/^scale=.*,format=yuv420p,setparams=/)
    const decoded = await decodeWithFfmpeg(`${kit.base('nv-1')}/master.m3u8`)
    expect(decoded.stderr).toBe('')
    expect(decoded.videoFrames).toBeGreaterThan(300)
  })

  it('QSV gets preset veryfast and look_ahead 0 with the libx264 filter chain', async () => {
    const { kit, fake } = await engineOn('qsv', 'h264_qsv')
    await startSession(kit, 'qsv-1', source).ready
    const [argv] = await hlsRuns(fake)
    expect(argv!.join(' ')).toContain('-c:v h264_qsv -preset veryfast -look_ahead 0')
    expect(after(argv!, '-vf')).toMatch(/,format=yuv420p,setparams=/)
  })

  it('VAAPI gets its render node before the input and the hybrid chain ending in format=nv12,hwupload', async () => {
    const { kit, fake } = await engineOn('vaapi', 'h264_vaapi')
    await startSession(kit, 'va-1', source).ready
    const [argv] = await hlsRuns(fake)
    expect(argv!.indexOf('-vaapi_device')).toBeLessThan(argv!.indexOf('-i'))
    expect(after(argv!, '-vaapi_device')).toBe('/dev/dri/renderD128')
    const filter = after(argv!, '-vf')!
    expect(filter).toMatch(/^scale=.*,format=nv12,hwupload$/)
    expect(filter).not.toMatch(/scale_vaapi|setparams/)
  })

  it('VideoToolbox gets -realtime 1 and bitrate arguments, never -q:v', async () => {
    const { kit, fake } = await engineOn('videotoolbox', 'h264_videotoolbox')
    await startSession(kit, 'vt-1', source).ready
    const [argv] = await hlsRuns(fake)
    expect(argv!.join(' ')).toContain('-c:v h264_videotoolbox -realtime 1')
    expect(argv).toContain('-b:v')
    expect(argv).not.toContain('-q:v')
  })
})

describe('falling back to libx264 in a session', () => {
  it('finishes the session with libx264 when NVENC fails at open, logs it, reports the encoder once, and spends no restart', async () => {
    const { kit, fake, lines, failures } = await engineOn('nvenc', 'h264_nvenc', { failSessions: true })
    const session = startSession(kit, 'fb-1', source)
    await session.ready
    const runs = await hlsRuns(fake)
    expect(after(runs[0]!, '-c:v')).toBe('h264_nvenc')
    expect(runs.slice(1).map((argv) => after(argv, '-c:v'))).toEqual(['libx264'])
    expect(failures).toHaveLength(1)
    expect(failures[0]!.encoder).toBe('h264_nvenc')
    expect(failures[0]!.reason).toMatch(/OpenEncodeSessionEx failed/)
    const line = lines.find((logged) => logged.fallbackFrom === 'h264_nvenc')
    expect(line).toMatchObject({ encoder: 'libx264', acceleration: 'none', preset: 'superfast' })
    expect(line!.msg).toMatch(/encoder h264_nvenc failed; falling back to libx264/)
    expect(kit.engine.inspect().find((live) => live.sessionId === 'fb-1')?.restarts).toBe(0)
    const decoded = await decodeWithFfmpeg(`${kit.base('fb-1')}/master.m3u8`)
    expect(decoded.stderr).toBe('')
  })

  it('does not blame the encoder when the source cannot be read', async () => {
    const { kit, failures } = await engineOn('nvenc', 'h264_nvenc')
    const session = startSession(kit, 'gone-1', '/nonexistent/video.mp4')
    await session.failed
    expect(failures).toEqual([])
  })
})

describe('the NVENC fake is faithful about -tune ll (contract 7)', () => {
  it('closes no second segment with -tune ll, and cuts every 2 s without it', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc' })
    const segments = async (tuneLl: boolean) => {
      const dir = await mkdtemp(join(tmpdir(), 'ma12-tune-'))
      try {
        const built = buildHlsArgs({ source, sourceGeometry: { width: 1280, height: 720 }, durationSeconds: 12, quality: '480p', encoder: 'h264_nvenc', audioIndex: 0, hasAudio: true, outputDir: dir })
        const args = [...built.args]
        if (tuneLl) args.splice(args.indexOf('-rc'), 0, '-tune', 'll')
        await run(fake!.path, args)
        return (await readdir(dir)).filter((name) => /^seg-\d+\.m4s$/.test(name)).length
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
    expect(await segments(true)).toBe(1)
    expect(await segments(false)).toBe(6)
  })
})
