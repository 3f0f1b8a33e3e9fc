import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheKey, createProbeService, ffprobeArgs, parseProbe, redact, type FfprobeJson } from '../../src/services/ffmpeg/probe.js'

const probeJson: FfprobeJson = {
  streams: [
    { index: 0, codec_type: 'video', codec_name: 'hevc', width: 1920, height: 804, sample_aspect_ratio: '1:1', avg_frame_rate: '24000/1001', pix_fmt: 'yuv420p10le' },
    { index: 1, codec_type: 'audio', codec_name: 'eac3', channels: 6, tags: { language: 'eng' } },
    { index: 2, codec_type: 'audio', codec_name: 'aac', channels: 2, tags: { language: 'fra' } },
    { index: 3, codec_type: 'subtitle', codec_name: 'subrip', tags: { language: 'eng', title: 'English' } },
    { index: 4, codec_type: 'subtitle', codec_name: 'hdmv_pgs_subtitle', tags: { language: 'deu' } },
  ],
  format: { duration: '5400.5', format_name: 'matroska,webm' },
}

let dir: string
let ffprobe: string
let calls: string
const logger = pino({ level: 'silent' })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-probe-'))
  calls = join(dir, 'calls')
  ffprobe = join(dir, 'fake-ffprobe')
  await writeFile(join(dir, 'out.json'), JSON.stringify(probeJson))
  await writeFile(ffprobe, `#!/bin/sh\necho "$@" >> '${calls}'\ncase "$*" in *fail*) echo "fail.mkv: Invalid data found when processing input" >&2; exit 1;; esac\ncat '${join(dir, 'out.json')}'\n`)
  await chmod(ffprobe, 0o755)
})
afterAll(async () => rm(dir, { recursive: true, force: true }))

const callCount = async () => (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter(Boolean).length

describe('probe cache: keyed by path, mtime and size, 30 minutes', () => {
  it('a second probe of the same unchanged file within 30 minutes does not run ffprobe', async () => {
    let now = 1_000_000
    const service = createProbeService({ ffprobePath: ffprobe, logger, now: () => now })
    const file = join(dir, 'film.mkv')
    await writeFile(file, 'x'.repeat(100))
    const before = await callCount()
    const first = await service.probe(file)
    expect(first.cacheHit).toBe(false)
    expect(first.result.video).toMatchObject({ codec: 'hevc', width: 1920, height: 804 })
    now += 29 * 60_000
    expect((await service.probe(file)).cacheHit).toBe(true)
    expect(await callCount()).toBe(before + 1)
    now += 60_001 // 30 minutes and a millisecond after the first probe
    expect((await service.probe(file)).cacheHit).toBe(false)
    expect(await callCount()).toBe(before + 2)
  })

  it('a file changed in size or mtime is probed again', async () => {
    const service = createProbeService({ ffprobePath: ffprobe, logger, now: () => 0 })
    const file = join(dir, 'changing.mkv')
    await writeFile(file, 'abc')
    const keyA = await cacheKey(file)
    await service.probe(file)
    await writeFile(file, 'abcd')
    const keyB = await cacheKey(file)
    expect(keyB).not.toBe(keyA)
    expect((await service.probe(file)).cacheHit).toBe(false)
    await utimes(file, new Date(2000, 1, 1), new Date(2000, 1, 1))
    expect(await cacheKey(file)).not.toBe(keyB)
    expect((await service.probe(file)).cacheHit).toBe(false)
  })

  it('URL sources are keyed by CacheID when there is one, otherwise by the URL', async () => {
    expect(await cacheKey('https://debrid.example/dl/abc?token=1', 'f'.repeat(40))).toBe(`url|${'f'.repeat(40)}`)
    expect(await cacheKey('https://debrid.example/dl/abc?token=1')).toBe('url|https://debrid.example/dl/abc?token=1')
  })
})

describe('ffprobe results and failures', () => {
  it('finds the video, every audio track and which subtitle tracks are text', () => {
    const result = parseProbe(probeJson)
    expect(result.durationSeconds).toBe(5400.5)
    expect(result.video.frameRate).toBeCloseTo(23.976, 3)
    expect(result.audio.map((track) => [track.index, track.channels, track.language])).toEqual([[0, 6, 'eng'], [1, 2, 'fra']])
    expect(result.subtitles.map((track) => [track.index, track.text])).toEqual([[0, true], [1, false]])
  })

  it('tells the rate ffmpeg encodes a variable-frame-rate source at (r_frame_rate) from its average, as ffmpeg guesses it', () => {
    const withRates = (r: string | undefined, avg: string | undefined) => parseProbe({
      ...probeJson,
      streams: [{ ...probeJson.streams![0]!, avg_frame_rate: undefined, ...(r === undefined ? {} : { r_frame_rate: r }), ...(avg === undefined ? {} : { avg_frame_rate: avg }) }],
    }).video
    expect(withRates('30/1', '6300/299')).toMatchObject({ encodeFrameRate: 30, frameRate: 6300 / 299 })
    // An implausible r_frame_rate (a timebase, not a rate) gives way to the average, as in av_guess_frame_rate.
    expect(withRates('90000/1', '25/1').encodeFrameRate).toBe(25)
    expect(withRates(undefined, '25/1').encodeFrameRate).toBe(25)
    expect(withRates('0/0', undefined).encodeFrameRate).toBeUndefined()
  })

  it('a failing ffprobe surfaces its own stderr', async () => {
    const service = createProbeService({ ffprobePath: ffprobe, logger })
    const file = join(dir, 'fail.mkv')
    await writeFile(file, 'nope')
    await expect(service.probe(file)).rejects.toMatchObject({ code: 'MA_ERR_PROBE_FAILED', message: expect.stringContaining('Invalid data found when processing input') })
  })

  it('an ffprobe that cannot be started is an actionable error naming FFPROBE_PATH and [transcode] ffprobe_path', async () => {
    const service = createProbeService({ ffprobePath: join(dir, 'missing-ffprobe'), logger })
    const file = join(dir, 'film2.mkv')
    await writeFile(file, 'x')
    await expect(service.probe(file)).rejects.toMatchObject({
      code: 'MA_ERR_FFMPEG_NOT_FOUND',
      message: expect.any(String),
    })
    const error = (await service.probe(file).catch((err: unknown) => err)) as Error
    expect(error.message).toContain('FFPROBE_PATH')
    expect(error.message).toContain('ffprobe_path')
  })

  it('ffprobe found on PATH is looked up once, and looked up again after it could not be started', async () => {
    const saved = { PATH: process.env.PATH, FFPROBE_PATH: process.env.FFPROBE_PATH }
    const onPath = async (name: string) => {
      const bin = join(dir, name)
      await mkdir(bin, { recursive: true })
      await writeFile(join(bin, 'ffprobe'), `#!/bin/sh\necho ${name} >> '${join(dir, 'which')}'\nexec /bin/cat '${join(dir, 'out.json')}'\n`)
      await chmod(join(bin, 'ffprobe'), 0o755)
      return bin
    }
    const which = async () => (await readFile(join(dir, 'which'), 'utf8')).trim().split('\n')
    try {
      const first = await onPath('bin-a')
      const second = await onPath('bin-b')
      delete process.env.FFPROBE_PATH
      process.env.PATH = first
      const service = createProbeService({ ffprobePath: undefined, logger })
      const file = async (name: string) => {
        await writeFile(join(dir, name), name)
        return join(dir, name)
      }
      await service.probe(await file('path-1.mkv'))
      // Kept: a PATH that now names another ffprobe first does not move it (no walk per probe).
      process.env.PATH = `${second}:${first}`
      await service.probe(await file('path-2.mkv'))
      expect(await which()).toEqual(['bin-a', 'bin-a'])
      // Gone (an upgrade moved it): that probe fails with the usual advice, the next looks again.
      await rm(join(first, 'ffprobe'))
      await expect(service.probe(await file('path-3.mkv'))).rejects.toMatchObject({ code: 'MA_ERR_FFMPEG_NOT_FOUND' })
      await service.probe(await file('path-4.mkv'))
      expect(await which()).toEqual(['bin-a', 'bin-a', 'bin-b'])
    } finally {
      process.env.PATH = saved.PATH
      if (saved.FFPROBE_PATH === undefined) delete process.env.FFPROBE_PATH
      else process.env.FFPROBE_PATH = saved.FFPROBE_PATH
    }
  })

  it('URL sources get -rw_timeout, local files do not; URL queries never reach logs', () => {
    expect(ffprobeArgs('https://x.example/a.mkv')).toContain('-rw_timeout')
    expect(ffprobeArgs('/media/a.mkv')).not.toContain('-rw_timeout')
    expect(redact('https://x.example/a.mkv?token=secret')).toBe('https://x.example/a.mkv?…')
  })
})
