import { describe, expect, it } from 'vitest'
import { buildEncoderDelayProbeArgs, buildHlsArgs, hlsTimeSeconds, runFromZeroShiftSeconds, keyframeExpression, keyframeTimes, scaleFilter, seekSegmentKeyframes, type HlsArgsInput, type HlsEncoder } from '../../src/services/ffmpeg/hls-args.js'
import { outputGeometry } from '../../src/services/hls/quality-ladder.js'

const base: HlsArgsInput = {
  source: '/media/film.mkv',
  sourceGeometry: { width: 1920, height: 1080 },
  durationSeconds: 9,
  quality: '720p',
  encoder: 'libx264',
  audioIndex: 0,
  hasAudio: true,
  outputDir: '/cache/abc',
}

const argsOf = (overrides: Partial<HlsArgsInput> = {}) => buildHlsArgs({ ...base, ...overrides }).args
const valueAfter = (args: string[], flag: string) => {
  const index = args.indexOf(flag)
  return index < 0 ? undefined : args[index + 1]
}

describe('quality ladder: output height clamped, cap and level from the effective height', () => {
  it.each([
    // [quality, source WxH, expected WxH, cap kbps, level]
    ['2160p', [1280, 720], [1280, 720], 3500, '4.0'], // contract 4.3.3: 720p source asked for 2160p
    ['1080p', [1920, 1080], [1920, 1080], 8000, '4.1'],
    ['720p', [1920, 1080], [1280, 720], 3500, '4.0'],
    ['480p', [1920, 1080], [854, 480], 1500, '3.1'],
    ['1440p', [3840, 2160], [2560, 1440], 12000, '5.0'],
    ['2160p', [3840, 2160], [3840, 2160], 20000, '5.1'],
    ['720p', [1920, 804], [1720, 720], 3500, '4.0'], // anamorphic-wide 2.39:1 keeps its shape
    ['1080p', [640, 360], [640, 360], 1500, '3.1'],
  ] as const)('%s from %j gives %j at %i kbps, level %s', (quality, [w, h], [ow, oh], cap, level) => {
    const geometry = outputGeometry(quality, { width: w, height: h })
    expect([geometry.width, geometry.height]).toEqual([ow, oh])
    expect(geometry.videoBitrateKbps).toBe(cap)
    expect(geometry.rung?.level).toBe(level)
  })

  it('original keeps the source size and has no cap', () => {
    const geometry = outputGeometry('original', { width: 1920, height: 1080 })
    expect([geometry.width, geometry.height, geometry.videoBitrateKbps]).toEqual([1920, 1080, undefined])
  })

  it('a non-square-pixel source is scaled to its display aspect', () => {
    expect(outputGeometry('original', { width: 1440, height: 1080, sampleAspectRatio: 4 / 3 })).toMatchObject({ width: 1920, height: 1080 })
  })
})

describe('HLS output rules (contract 4.3)', () => {
  it('writes fMP4 HLS with uniform 2 s segments, no -hls_init_time, temp files and stable headers', () => {
    const args = argsOf()
    expect(valueAfter(args, '-f')).toBe('hls')
    expect(valueAfter(args, '-hls_segment_type')).toBe('fmp4')
    expect(valueAfter(args, '-hls_fmp4_init_filename')).toBe('init.mp4')
    expect(valueAfter(args, '-hls_segment_filename')).toBe('/cache/abc/seg-%d.m4s')
    expect(args).not.toContain('-hls_init_time')
    expect(valueAfter(args, '-hls_flags')).toContain('temp_file')
    expect(valueAfter(args, '-hls_segment_options')).toBe('movflags=+frag_discont+skip_sidx:use_editlist=0')
  })

  it('forces keyframes at every 2 s boundary: an expression from 0, an absolute list on a seek-run', () => {
    expect(valueAfter(argsOf(), '-force_key_frames')).toBe('expr:gte(t,2*n_forced-0.000001)')
    expect(keyframeExpression(2.5)).toBe('expr:gte(t,2.500*n_forced-0.000001)')
    expect(valueAfter(argsOf({ startSegment: 3 }), '-force_key_frames')).toBe('4,6,8,10')
    expect(keyframeTimes(4, 9, 2)).toBe('4,6,8,10')
  })

  it('a seek-run without warm-up adds keyframes every 0.5 s inside the wanted segment only, with an -hls_time that cuts at boundaries only', () => {
    const seek = argsOf({ startSegment: 3, warmupSegments: 0 })
    expect(valueAfter(seek, '-force_key_frames')).toBe('6,6.500,7,7.500,8,10')
    // Between the wanted segment's last inner keyframe (1.5 s in) and its end (2 s), and below 2 s after it.
    expect(valueAfter(seek, '-hls_time')).toBe('1.750')
    expect(seekSegmentKeyframes(7, 2, 0.5)).toEqual(['14.500', '15', '15.500'])
    expect(seekSegmentKeyframes(7, 2, 1)).toEqual(['15'])
    expect(seekSegmentKeyframes(7, 2, 2)).toEqual([]) // a spacing of the segment length adds none
    expect(keyframeTimes(6, 9, 2, ['6.500', '7', '7.500'])).toBe('6,6.500,7,7.500,8,10')
    expect(hlsTimeSeconds(2)).toBe(1)
    expect(hlsTimeSeconds(2, 0.5)).toBe(1.75)
  })

  it('a run from 0 and a seek-run with a warm-up keep one keyframe per segment and cut at every keyframe', () => {
    // A warm-up exists to make the wanted segment's frames those of a run from 0; extra keyframes would undo it.
    for (const args of [argsOf(), argsOf({ startSegment: 3, warmupSegments: 1 }), argsOf({ startSegment: 3, warmupSegments: 0, seekKeyframeSeconds: 2 })]) {
      expect(valueAfter(args, '-force_key_frames')).not.toContain('.5')
      expect(valueAfter(args, '-hls_time')).toBe('1')
    }
  })

  it('a run from 0 needs nothing the probe gives but the bitrate rung and the audio mapping', () => {
    // So it can start before ffprobe answers (docs/hls.md "Starting before the probe").
    const probed = argsOf({ sourceGeometry: { width: 1440, height: 1080, sampleAspectRatio: 4 / 3 }, durationSeconds: 5400 })
    const assumed = argsOf({ sourceGeometry: { width: 1920, height: 1080 }, durationSeconds: 0 })
    expect(probed).toEqual(assumed)
    expect(argsOf({ sourceGeometry: { width: 854, height: 480 } })).not.toEqual(assumed) // a lower rung: another cap
    expect(argsOf({ hasAudio: false })).not.toEqual(assumed)
  })

  it('gives reconnect flags and -rw_timeout to URL sources only', () => {
    const local = argsOf()
    const remote = argsOf({ source: 'https://debrid.example/file.mkv' })
    for (const flag of ['-reconnect', '-rw_timeout']) {
      expect(local).not.toContain(flag)
      expect(remote.indexOf(flag)).toBeLessThan(remote.indexOf('-i'))
    }
  })

  it('seek-restarts one segment early with an input seek on the timeline of a run from 0', () => {
    const result = buildHlsArgs({ ...base, startSegment: 3 })
    expect(result.firstWrittenSegment).toBe(2)
    expect(result.args.indexOf('-ss')).toBeLessThan(result.args.indexOf('-i'))
    expect(valueAfter(result.args, '-ss')).toBe('4')
    expect(result.args).toContain('-copyts')
    expect(valueAfter(result.args, '-start_number')).toBe('2')
    expect(valueAfter(result.args, '-force_key_frames')).toBe('4,6,8,10')
  })

  it.each([
    // [wanted segment, warm-up segments, first written, -ss]
    [10, 3, 7, '14'],
    [2, 3, 0, undefined], // never before the start: a run from 0
    [0, 3, 0, undefined],
    [5, 1, 4, '8'],
    [5, 0, 5, '10'], // no warm-up (the default): the run starts at the wanted segment
  ] as const)('a seek to segment %i with %i warm-up segments writes from %i (-ss %s)', (wanted, warmup, first, ss) => {
    const result = buildHlsArgs({ ...base, durationSeconds: 30, startSegment: wanted, warmupSegments: warmup })
    expect(result.firstWrittenSegment).toBe(first)
    expect(valueAfter(result.args, '-start_number')).toBe(String(first))
    expect(valueAfter(result.args, '-ss')).toBe(ss)
    // -start_at_zero: a source that does not start at 0 is cut on the same timeline as a run from 0.
    if (ss !== undefined) expect(result.args.slice(result.args.indexOf('-i'), result.args.indexOf('-i') + 4)).toEqual(['-i', base.source, '-copyts', '-start_at_zero'])
  })

  it.each([
    // [what, delay frames, fps, audio?, sample rate, shift seconds]
    ['libx264 at 30 fps: its two-frame delay, more than the AAC priming', 2, 30, true, 48_000, 2 / 30],
    ['23.976 fps', 2, 24_000 / 1001, true, 48_000, 2002 / 24_000],
    ['an encoder without B-frames: the AAC priming (1024 samples)', 0, 30, true, 44_100, 1024 / 44_100],
    ['a silent source without B-frames: none', 0, 30, false, undefined, 0],
    ['an unknown sample rate: 48 kHz assumed', 0, 25, true, undefined, 1024 / 48_000],
  ] as const)('a seek-run is shifted by what the muxer shifted the run from 0 by: %s', (_what, delay, fps, hasAudio, sampleRate, shift) => {
    expect(runFromZeroShiftSeconds({ encoderDelayFrames: delay, frameRate: fps, hasAudio, ...(sampleRate ? { audioSampleRate: sampleRate } : {}) })).toBeCloseTo(shift, 9)
    const seek = argsOf({ startSegment: 4, warmupSegments: 0, durationSeconds: 30, encoderDelayFrames: delay, frameRate: fps, hasAudio, ...(sampleRate ? { audioSampleRate: sampleRate } : {}) })
    expect(valueAfter(seek, '-output_ts_offset')).toBe(shift > 0 ? shift.toFixed(6) : undefined)
    if (shift > 0) expect(seek.indexOf('-output_ts_offset')).toBeLessThan(seek.indexOf('-f'))
    // make_non_negative: the segment muxer keeps a seek-run's (positive) timestamps instead of moving its start to 0.
    expect(valueAfter(seek, '-hls_segment_options')).toBe('movflags=+frag_discont+skip_sidx:use_editlist=0:avoid_negative_ts=make_non_negative')
  })

  it('lists a seek-run\'s boundaries as the first frame at or after each (what a run from 0\'s expression picks), so rounding to the frame grid cannot pull one a frame early', () => {
    // 22 s at 24000/1001 fps is frame 527.47: ffmpeg would round `22` to frame 527; the run from 0 cuts at 528 (22.022 s).
    expect(keyframeTimes(20, 24, 2, [], 24_000 / 1001)).toBe('20.020000,22.022000,24.024000')
    expect(keyframeTimes(20, 24, 2, [], 30)).toBe('20,22,24') // whole frames: unchanged
    expect(valueAfter(argsOf({ startSegment: 10, warmupSegments: 0, durationSeconds: 24, frameRate: 24_000 / 1001, seekKeyframeSeconds: 2 }), '-force_key_frames')).toBe('20.020000,22.022000,24.024000')
  })

  it('leaves a run from 0 to the muxer (its start is the timeline), whatever the delay', () => {
    const zero = argsOf({ encoderDelayFrames: 2, frameRate: 30 })
    expect(zero).not.toContain('-output_ts_offset')
    expect(valueAfter(zero, '-hls_segment_options')).toBe('movflags=+frag_discont+skip_sidx:use_editlist=0')
  })

  it.each(['libx264', 'h264_nvenc', 'h264_qsv', 'h264_videotoolbox', 'h264_vaapi'] as HlsEncoder[])('measures %s\'s delay with a session\'s own encoder options over enough frames to reorder', (encoder) => {
    const probe = buildEncoderDelayProbeArgs(encoder)
    const session = argsOf({ encoder, quality: '480p' }) // the rung the probe's 360-line frame falls in
    const encoderOptions = (args: string[]) => args.slice(args.indexOf('-c:v'), args.indexOf('-force_key_frames'))
    expect(probe.slice(probe.indexOf('-c:v'), probe.indexOf('-f', probe.indexOf('-c:v')))).toEqual([...encoderOptions(session), ...session.slice(session.indexOf('-force_key_frames') + 2, session.indexOf('-c:a'))])
    expect(Number(valueAfter(probe, '-frames:v'))).toBeGreaterThanOrEqual(8)
    expect(probe.slice(-3)).toEqual(['-f', 'framecrc', '-'])
  })

  it('maps the chosen audio track, and no audio at all for a silent source', () => {
    expect(valueAfter(argsOf({ audioIndex: 1 }), '-map', )).toBe('0:v:0')
    expect(argsOf({ audioIndex: 1 })).toContain('0:a:1?')
    const silent = argsOf({ hasAudio: false })
    expect(silent.join(' ')).not.toMatch(/0:a:|-c:a/)
  })
})

describe('encoder arguments (contract 4.3.5)', () => {
  const encoders: HlsEncoder[] = ['libx264', 'h264_nvenc', 'h264_qsv', 'h264_videotoolbox', 'h264_vaapi']
  const scale720 = "scale=w='max(2,2*round(iw*sar*max(2,2*round(min(720,ih)/2))/ih/2))':h='max(2,2*round(min(720,ih)/2))'"
  const softwareChain = `${scale720},format=yuv420p,setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709`

  it('libx264: preset superfast and the scale,format=yuv420p,setparams chain', () => {
    const args = argsOf({ encoder: 'libx264' })
    expect(valueAfter(args, '-preset')).toBe('superfast')
    expect(valueAfter(args, '-vf')).toBe(softwareChain)
    expect(valueAfter(args, '-maxrate')).toBe('3500k')
    expect(valueAfter(args, '-level:v')).toBe('4.0')
  })

  it('NVENC: -preset p3 and -rc vbr, never -tune ll, same chain', () => {
    const args = argsOf({ encoder: 'h264_nvenc' })
    expect(valueAfter(args, '-preset')).toBe('p3')
    expect(valueAfter(args, '-rc')).toBe('vbr')
    expect(args).not.toContain('-tune')
    expect(valueAfter(args, '-vf')).toBe(softwareChain)
  })

  it('QSV: preset veryfast, look_ahead 0, same chain', () => {
    const args = argsOf({ encoder: 'h264_qsv' })
    expect(valueAfter(args, '-preset')).toBe('veryfast')
    expect(valueAfter(args, '-look_ahead')).toBe('0')
    expect(valueAfter(args, '-vf')).toBe(softwareChain)
  })

  it('VideoToolbox: -realtime 1, bitrate arguments, never -q:v', () => {
    const args = argsOf({ encoder: 'h264_videotoolbox' })
    expect(valueAfter(args, '-realtime')).toBe('1')
    expect(valueAfter(args, '-b:v')).toBe('3500k')
    expect(args).not.toContain('-q:v')
  })

  it('VAAPI: -vaapi_device before the input, format=nv12,hwupload, no scale_vaapi, no setparams', () => {
    const args = argsOf({ encoder: 'h264_vaapi' })
    expect(valueAfter(args, '-vaapi_device')).toBe('/dev/dri/renderD128')
    expect(args.indexOf('-vaapi_device')).toBeLessThan(args.indexOf('-i'))
    expect(valueAfter(args, '-vf')).toBe(`${scale720},format=nv12,hwupload`)
    expect(args.join(' ')).not.toMatch(/scale_vaapi|setparams/)
  })

  it('original (and an unknown label) scales to the display aspect without a height clamp', () => {
    expect(scaleFilter('original')).toBe("scale=w='max(2,2*round(iw*sar/2))':h='max(2,2*round(ih/2))'")
    expect(scaleFilter('4320p')).toBe(scaleFilter('original'))
  })

  it.each(encoders)('%s: original quality carries no bitrate cap', (encoder) => {
    const result = buildHlsArgs({ ...base, encoder, quality: 'original' })
    if (encoder !== 'h264_videotoolbox') expect(result.args).not.toContain('-maxrate')
    expect(result.summary.bitrateKbps).toBe('uncapped')
  })

  it.each(encoders)('%s: the session log line names encoder, acceleration and preset', (encoder) => {
    const { summary } = buildHlsArgs({ ...base, encoder })
    expect(summary.encoder).toBe(encoder)
    expect(summary.acceleration).toBeTruthy()
    expect(summary.preset).toBeTruthy()
  })
})
