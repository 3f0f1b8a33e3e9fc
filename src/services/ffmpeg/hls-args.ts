import { hlsAssumedAudioSampleRateHz, hlsEncoderDelayProbeFrames, hlsEncoderDelayProbeHeightPx, hlsSeekKeyframeSeconds, hlsSegmentSeconds, urlSourceRwTimeoutUs } from '../../config/defaults.js'
import { outputGeometry, qualityLadder, type OutputGeometry, type SourceGeometry } from '../hls/quality-ladder.js'
import type { Quality } from '../../protocol/wire.js'

// The ffmpeg command line of an HLS session, as a pure function (contract 4.3, all eight output
// rules). Everything that decides a flag is an input, so the table tests in
// test/unit/hls-args.test.ts pin every rule for every encoder, including the GPU encoders that
// cannot run here.

export type HlsEncoder = 'libx264' | 'h264_nvenc' | 'h264_qsv' | 'h264_videotoolbox' | 'h264_vaapi'

export const vaapiDevice = '/dev/dri/renderD128'

export interface HlsArgsInput {
  /** A local path or an http(s) URL: the same reference feeds ffprobe, `-i` and subtitle extraction. */
  source: string
  sourceGeometry: SourceGeometry
  /** Source duration, for a seek-run's forced keyframe list (a run from 0 needs none). */
  durationSeconds: number
  quality: Quality | string
  encoder: HlsEncoder
  audioIndex: number
  /** Whether the source has any audio stream at all. */
  hasAudio: boolean
  outputDir: string
  /** First segment this run writes (0 from the start; N on a seek-restart). */
  startSegment?: number
  /** Segments encoded and discarded before `startSegment` on a seek-restart (docs/hls.md "Seeking"); 0 starts at `startSegment`. */
  warmupSegments?: number
  segmentSeconds?: number
  /** Keyframe spacing inside a seek-run's wanted segment (default hlsSeekKeyframeSeconds; >= segmentSeconds: none extra). */
  seekKeyframeSeconds?: number
  /**
   * The encoder's reorder delay in frames: how far before the first frame's time its first packet's
   * decode time lies (libx264 superfast: 2, its B-pyramid). Measured once per encoder
   * (encoder-delay.ts); a seek-run needs it to land on the timeline of a run from 0 (runFromZeroShiftSeconds()).
   */
  encoderDelayFrames?: number
  /** Output frame rate (the source's), to turn the delay in frames into seconds. */
  frameRate?: number
  /** Sample rate of the audio track, for the AAC encoder's priming (1024 samples). */
  audioSampleRate?: number
}

export interface HlsArgs {
  args: string[]
  geometry: OutputGeometry
  /** The segment number ffmpeg writes first; below the wanted one on a seek (warm-up, discard it). */
  firstWrittenSegment: number
  /** What the one log line per session names (contract 4.3.8). */
  summary: { encoder: HlsEncoder; acceleration: string; preset: string; height: number; bitrateKbps: number | 'uncapped'; level: string | 'auto' }
}

export function isUrlSource(source: string): boolean {
  return /^https?:\/\//i.test(source)
}

export function buildHlsArgs(input: HlsArgsInput): HlsArgs {
  const segmentSeconds = input.segmentSeconds ?? hlsSegmentSeconds
  // A seek-restart begins `warmupSegments` early (the warm-up segments are discarded by the
  // caller): x264's one-pass rate control carries history across an IDR (the I-frame QP follows
  // a decaying average of past P-frame QPs), so a run's first segments differ from a run from 0;
  // after about 150 frames of the same input they converge (measured: docs/hls.md).
  const wanted = input.startSegment ?? 0
  const startSegment = wanted === 0 ? 0 : Math.max(0, wanted - Math.max(0, input.warmupSegments ?? 1))
  const startSeconds = startSegment * segmentSeconds
  const geometry = outputGeometry(input.quality, input.sourceGeometry)
  const encoder = encoderProfile(input.encoder)
  const args: string[] = ['-hide_banner', '-nostdin', '-loglevel', 'warning', '-y']

  if (input.encoder === 'h264_vaapi') args.push('-vaapi_device', vaapiDevice)
  // Reconnect flags and -rw_timeout only for URL sources (contract 4.3.6): on a local file they
  // are meaningless, and -rw_timeout would abort a read stalled on a slow disk.
  if (isUrlSource(input.source)) {
    args.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_on_network_error', '1', '-reconnect_delay_max', '5', '-rw_timeout', String(urlSourceRwTimeoutUs))
  }
  // Input seek (-ss before -i); -copyts keeps the source's timestamps through the encoder, so the
  // absolute forced keyframe times below cut at the same boundaries as a run from 0 (verified with
  // ffmpeg 5.1: uniform 2 s segments, identical init.mp4). The muxer's timeline is set below
  // (-output_ts_offset): -copyts alone does not reach the segments.
  if (startSeconds > 0) args.push('-ss', formatSeconds(startSeconds))
  args.push('-i', input.source)
  // -start_at_zero: the encoder sees the timestamps of a run from 0 (which subtracts the source's
  // start time), so the absolute keyframe list cuts at the same boundaries for sources that do
  // not start at 0.
  if (startSeconds > 0) args.push('-copyts', '-start_at_zero')

  args.push('-map', '0:v:0')
  if (input.hasAudio) args.push('-map', `0:a:${input.audioIndex}?`)
  args.push('-sn', '-dn')

  args.push('-vf', encoder.filter(scaleFilter(input.quality)))
  args.push('-c:v', input.encoder, ...encoder.options)
  const level = geometry.rung?.level
  if (level) args.push(...encoder.level(level))
  args.push(...encoder.rate(geometry.videoBitrateKbps ?? undefined))
  // Keyframes exactly at every segment boundary (contract 4.3.2), the same whichever run (from 0,
  // or a seek-restart) produced a segment. A seek-run gets the absolute list of boundary times (an
  // expression's `t` counts from the run's own start there, which drifts from the source timeline
  // when the source does not start at 0); a run from 0 gets the expression, which needs no
  // duration and so no probe (measured identical to the list: docs/hls.md "Starting before the probe").
  //
  // A seek-run also gets keyframes inside the wanted segment (the one the player seeks into), so
  // the browser decodes from a keyframe near the asked time, not from the segment's start. They
  // are not cut points: see hlsTimeSeconds().
  // Not after a warm-up: a warm-up exists to make the wanted segment's frames those of a run from
  // 0, which extra keyframes would undo (and the cut arithmetic below assumes the wanted segment is
  // the run's first).
  const extra = startSeconds > 0 && startSegment === wanted ? seekSegmentKeyframes(wanted, segmentSeconds, input.seekKeyframeSeconds ?? hlsSeekKeyframeSeconds) : []
  const extraSpacing = extra.length > 0 ? segmentSeconds / (extra.length + 1) : undefined
  args.push('-force_key_frames', startSeconds > 0 ? keyframeTimes(startSeconds, input.durationSeconds, segmentSeconds, extra, input.frameRate) : keyframeExpression(segmentSeconds))
  args.push(...encoder.noExtraKeyframes)

  if (input.hasAudio) args.push('-c:a', 'aac', '-b:a', '160k', '-ac', '2')

  // The timeline (docs/hls.md "One timeline for every run"). The mp4 muxer inside the hls muxer
  // (use_editlist=0) shifts a run's first decode time to 0 (avoid_negative_ts make_zero). A run from
  // 0 starts at minus the encoder's reorder delay (or the AAC priming), so its segments end up
  // shifted by that delay: seg-N's first decode time is exactly 2N s. A seek-run's first decode time
  // is 2N s minus the same delay; make_zero would move it to 0 (seg-N's tfdt 0, a timeline jump
  // back by the seek position). So a seek-run keeps its timestamps (make_non_negative: they are
  // positive) and is shifted by what the run from 0 was shifted by.
  const shiftSeconds = startSeconds > 0 ? runFromZeroShiftSeconds(input) : 0
  if (startSeconds > 0 && shiftSeconds > 0) args.push('-output_ts_offset', shiftSeconds.toFixed(6))

  // Uniform 2 s segments, no -hls_init_time (contract 4.3.1). -hls_time below the segment length
  // makes the muxer cut at each boundary keyframe and nowhere else (hlsTimeSeconds()).
  args.push(
    '-f', 'hls',
    '-hls_time', formatSeconds(hlsTimeSeconds(segmentSeconds, extraSpacing)),
    '-hls_segment_type', 'fmp4',
    '-hls_fmp4_init_filename', 'init.mp4',
    '-hls_segment_filename', `${input.outputDir}/seg-%d.m4s`,
    '-start_number', String(startSegment),
    '-hls_list_size', '0',
    '-hls_playlist_type', 'event',
    // temp_file: each segment appears by an atomic rename, so "seg-N exists" means "seg-N closed".
    '-hls_flags', 'temp_file+independent_segments',
    // Identical init.mp4 and segment headers across runs (no edit list, no sidx, discontinuous
    // fragments allowed), so a seek-restart's output splices into the cache.
    '-hls_segment_options', `movflags=+frag_discont+skip_sidx:use_editlist=0${startSeconds > 0 ? ':avoid_negative_ts=make_non_negative' : ''}`,
    `${input.outputDir}/ffmpeg.m3u8`,
  )

  return {
    args,
    geometry,
    firstWrittenSegment: startSegment,
    summary: {
      encoder: input.encoder,
      acceleration: encoder.acceleration,
      preset: encoder.preset,
      height: geometry.height,
      bitrateKbps: geometry.videoBitrateKbps ?? 'uncapped',
      level: level ?? 'auto',
    },
  }
}

/** AAC encoder priming: ffmpeg's aac encoder starts every stream 1024 samples early. */
const aacPrimingSamples = 1024

/**
 * What the mp4 muxer shifts a run from 0 by (make_zero moves its first decode time to 0): minus
 * the earliest first decode time of its streams, the video's `-delay frames` or the audio's
 * `-1024 samples`, whichever is earlier (it is the first packet the muxer sees).
 */
export function runFromZeroShiftSeconds(input: Pick<HlsArgsInput, 'encoderDelayFrames' | 'frameRate' | 'audioSampleRate' | 'hasAudio'>): number {
  const video = input.encoderDelayFrames && input.frameRate && input.frameRate > 0 ? input.encoderDelayFrames / input.frameRate : 0
  const audio = input.hasAudio ? aacPrimingSamples / (input.audioSampleRate && input.audioSampleRate > 0 ? input.audioSampleRate : hlsAssumedAudioSampleRateHz) : 0
  return Math.max(video, audio)
}

/**
 * The encoder-delay probe (encoder-delay.ts): `frames` frames through the encoder with exactly a
 * session's options, to `framecrc` (one line per packet: dts and pts in frames). One frame is not
 * enough: libx264 reports no delay until it has frames to reorder.
 */
export function buildEncoderDelayProbeArgs(encoder: HlsEncoder, height = hlsEncoderDelayProbeHeightPx, frames = hlsEncoderDelayProbeFrames): string[] {
  return testEncodeArgs(encoder, height, frames, ['-f', 'framecrc', '-'], 'error')
}

/**
 * The one-frame test encode of hardware detection (issue 12, docs/encoders.md): the encoder with
 * exactly the options, filter chain and rate arguments an HLS session gives it, on a synthetic
 * frame of `height` lines, to the null muxer. A listing proves nothing (Debian's ffmpeg lists
 * NVENC, QSV and VAAPI with no GPU); only opening the encoder with the session's own options does.
 * `level+verbose` tags every stderr line with its level, so the caller can pick out the errors
 * and the VAAPI driver line (`VAAPI driver: ...`, logged at verbose).
 */
export function buildTestEncodeArgs(encoder: HlsEncoder, height: number): string[] {
  return testEncodeArgs(encoder, height, 1, ['-f', 'null', '-'], 'level+verbose')
}

function testEncodeArgs(encoder: HlsEncoder, height: number, frames: number, output: string[], loglevel: string): string[] {
  const profile = encoderProfile(encoder)
  const rung = qualityLadder.find((candidate) => candidate.maxHeight >= height) ?? qualityLadder[qualityLadder.length - 1]!
  const width = Math.round((height * 16) / 9 / 2) * 2
  const args = ['-hide_banner', '-nostdin', '-loglevel', loglevel]
  if (encoder === 'h264_vaapi') args.push('-vaapi_device', vaapiDevice)
  args.push('-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`, '-frames:v', String(frames))
  args.push('-vf', profile.filter(`scale=w=${width}:h=${height}`))
  args.push('-c:v', encoder, ...profile.options, ...profile.level(rung.level), ...profile.rate(rung.videoBitrateKbps), ...profile.noExtraKeyframes)
  args.push(...output)
  return args
}

interface EncoderProfile {
  acceleration: string
  preset: string
  options: string[]
  filter(scale: string): string
  level(level: string): string[]
  rate(capKbps: number | undefined): string[]
  noExtraKeyframes: string[]
}

// setparams pins the colour description so every segment (and every run) declares the same one.
const softwareChain = (scale: string) => `${scale},format=yuv420p,setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709`
const cappedRate = (capKbps: number) => ['-b:v', `${capKbps}k`, '-maxrate', `${capKbps}k`, '-bufsize', `${capKbps * 2}k`]

function encoderProfile(encoder: HlsEncoder): EncoderProfile {
  switch (encoder) {
    case 'libx264':
      return {
        acceleration: 'none',
        preset: 'superfast',
        options: ['-preset', 'superfast', '-profile:v', 'high'],
        filter: softwareChain,
        level: (level) => ['-level:v', level],
        rate: (cap) => (cap === undefined ? ['-crf', '20'] : ['-crf', '21', '-maxrate', `${cap}k`, '-bufsize', `${cap * 2}k`]),
        noExtraKeyframes: ['-sc_threshold', '0'],
      }
    case 'h264_nvenc':
      // Never `-tune ll`: it keeps the first segment from closing (contract 4.3.5, 7).
      return {
        acceleration: 'nvenc',
        preset: 'p3',
        options: ['-preset', 'p3', '-rc', 'vbr', '-profile:v', 'high'],
        filter: softwareChain,
        level: (level) => ['-level:v', level],
        rate: (cap) => (cap === undefined ? ['-cq', '21'] : cappedRate(cap)),
        noExtraKeyframes: ['-no-scenecut', '1'],
      }
    case 'h264_qsv':
      return {
        acceleration: 'qsv',
        preset: 'veryfast',
        options: ['-preset', 'veryfast', '-look_ahead', '0', '-profile:v', 'high'],
        filter: softwareChain,
        level: (level) => ['-level:v', level],
        rate: (cap) => (cap === undefined ? ['-global_quality', '21'] : cappedRate(cap)),
        noExtraKeyframes: [],
      }
    case 'h264_videotoolbox':
      // Bitrate arguments drive VideoToolbox's rate control; it is never given -q:v.
      return {
        acceleration: 'videotoolbox',
        preset: 'realtime',
        options: ['-realtime', '1', '-profile:v', 'high'],
        filter: softwareChain,
        level: () => [],
        rate: (cap) => cappedRate(cap ?? 20_000),
        noExtraKeyframes: [],
      }
    case 'h264_vaapi':
      // Hybrid path: software scale, then upload; no scale_vaapi, no setparams (contract 4.3.5).
      return {
        acceleration: 'vaapi',
        preset: 'default',
        options: ['-profile:v', 'high'],
        filter: (scale) => `${scale},format=nv12,hwupload`,
        level: (level) => ['-level:v', level],
        rate: (cap) => (cap === undefined ? ['-qp', '21'] : cappedRate(cap)),
        noExtraKeyframes: [],
      }
  }
}

/**
 * The scale filter of outputGeometry() in ffmpeg's own arithmetic: the same height clamp, display
 * aspect and even rounding (`even(v) = max(2, 2*round(v/2))`, operations in the same order), so
 * the numbers come from the decoded frames and a run can start before ffprobe has answered. The
 * master playlist's RESOLUTION comes from outputGeometry(); test/integration/hls-scale-expression
 * checks with real ffmpeg that both agree.
 */
export function scaleFilter(quality: Quality | string): string {
  const even = (value: string) => `max(2,2*round(${value}/2))`
  const rung = qualityLadder.find((candidate) => candidate.label === quality)
  if (!rung) return `scale=w='${even('iw*sar')}':h='${even('ih')}'` // original, and unknown labels
  const height = even(`min(${rung.maxHeight},ih)`)
  return `scale=w='${even(`iw*sar*${height}/ih`)}':h='${height}'`
}

/**
 * A keyframe at the first frame at or after every boundary of a run from 0: what the absolute
 * list does (one forced frame per boundary, in order), without needing the duration. The
 * microsecond keeps a frame exactly on a boundary from being missed by `pts * time_base`
 * rounding just below it.
 */
export function keyframeExpression(segmentSeconds: number): string {
  return `expr:gte(t,${formatSeconds(segmentSeconds)}*n_forced-0.000001)`
}

/**
 * `0,2,4,…` up to the duration, from the first boundary at or after `fromSeconds`; `extra` times
 * (inside a segment) in order among them. With the frame rate, each boundary is written as the
 * time of the first frame at or after it (what the expression of a run from 0 picks): ffmpeg
 * rounds a listed time to the nearest tick of the encoder's time base (1/fps), so at 23.976 fps
 * `22` became frame 527 (21.980 s) where the run from 0 cuts at frame 528 (22.022 s), and `24` a
 * keyframe on the last frame (an extra one-frame segment). Measured, docs/hls.md.
 */
export function keyframeTimes(fromSeconds: number, durationSeconds: number, segmentSeconds: number, extra: readonly string[] = [], frameRate?: number): string {
  const times: { at: number; text: string }[] = extra.map((text) => ({ at: Number(text), text }))
  const first = Math.ceil(fromSeconds / segmentSeconds)
  const last = Math.max(first, Math.ceil(durationSeconds / segmentSeconds))
  const boundary = (seconds: number) => (frameRate && frameRate > 0 && !Number.isInteger(seconds * frameRate) ? (Math.ceil(seconds * frameRate - 1e-6) / frameRate).toFixed(6) : formatSeconds(seconds))
  for (let index = first; index <= last; index++) times.push({ at: index * segmentSeconds, text: boundary(index * segmentSeconds) })
  return times.sort((a, b) => a.at - b.at).map((time) => time.text).join(',')
}

/** The keyframe times strictly inside segment `segment`, every `spacingSeconds` (none when the spacing is not below the segment length). */
export function seekSegmentKeyframes(segment: number, segmentSeconds: number, spacingSeconds: number): string[] {
  const perSegment = Math.round(segmentSeconds / spacingSeconds)
  if (!(spacingSeconds > 0) || perSegment < 2) return []
  const times: string[] = []
  for (let step = 1; step < perSegment; step++) times.push(formatSeconds(segment * segmentSeconds + (step * segmentSeconds) / perSegment))
  return times
}

/**
 * -hls_time for a run. ffmpeg 5.1's hls muxer cuts at the first keyframe whose time since the
 * run's first packet is at least `hls_time * (segments written so far + 1)`: a threshold that
 * grows by hls_time per segment from the run's start, not from the last cut. Below the segment
 * length the threshold lags behind the boundaries, so the muxer cuts at every keyframe; with
 * keyframes only at boundaries that is every boundary, whatever the frame grid (a run's first
 * frame is up to a frame after its boundary, so a threshold of exactly the segment length would
 * miss boundaries of a 23.976 fps source). Hence half the segment length without extra keyframes.
 *
 * With keyframes inside the run's first segment (a seek-run's wanted one, `spacingSeconds` apart,
 * the last one a spacing before the segment's end), the first cut's threshold must
 * fall between that last inner keyframe and the end boundary: S - spacing/2 (1.75 s for 2 s and
 * 0.5 s), which leaves half a spacing either side for the frame grid. Every later threshold lags
 * (n * hls_time < n * S) and no later segment has an inner keyframe, so the muxer cuts at every
 * boundary and nowhere else (test/integration/hls-seek-keyframes.test.ts, 23.976 fps included).
 */
export function hlsTimeSeconds(segmentSeconds: number, spacingSeconds?: number): number {
  return spacingSeconds === undefined ? segmentSeconds / 2 : segmentSeconds - spacingSeconds / 2
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(3)
}
