import type { Quality } from '../../protocol/wire.js'

// The quality ladder of protocol.md section 2. The bitrate cap and the H.264 level are taken from
// the effective (clamped) output height, never from the label: a 720p source asked for 2160p
// outputs 720p at the 720p cap and level (contract 4.3.3, 7: VBV above the level limit makes
// ffmpeg exit and master.m3u8 never appear).

export interface LadderRung {
  label: Exclude<Quality, 'original'>
  maxHeight: number
  videoBitrateKbps: number
  /** H.264 level hint as ffmpeg spells it. */
  level: string
}

export const qualityLadder: readonly LadderRung[] = [
  { label: '480p', maxHeight: 480, videoBitrateKbps: 1_500, level: '3.1' },
  { label: '720p', maxHeight: 720, videoBitrateKbps: 3_500, level: '4.0' },
  { label: '1080p', maxHeight: 1080, videoBitrateKbps: 8_000, level: '4.1' },
  { label: '1440p', maxHeight: 1440, videoBitrateKbps: 12_000, level: '5.0' },
  { label: '2160p', maxHeight: 2160, videoBitrateKbps: 20_000, level: '5.1' },
]

export interface SourceGeometry {
  width: number
  height: number
  /** Sample aspect ratio (anamorphic sources); 1 when square pixels. */
  sampleAspectRatio?: number
}

export interface OutputGeometry {
  width: number
  height: number
  /** Whether the output is scaled from the source (false for `original` or an equal height). */
  scaled: boolean
  /** Bitrate cap (`qcap.VideoBitrate`); undefined when the quality is `original` (no cap). */
  videoBitrateKbps: number | undefined
  /** The rung whose limits apply, from the effective height; undefined above the ladder. */
  rung: LadderRung | undefined
}

export function isQuality(value: string): value is Quality {
  return value === 'original' || qualityLadder.some((rung) => rung.label === value)
}

/** The rung that governs an output of this height: the smallest one that holds it. */
export function rungForHeight(height: number): LadderRung | undefined {
  return qualityLadder.find((rung) => height <= rung.maxHeight)
}

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2))

export function outputGeometry(quality: Quality | string, source: SourceGeometry): OutputGeometry {
  const sar = source.sampleAspectRatio && source.sampleAspectRatio > 0 ? source.sampleAspectRatio : 1
  const displayWidth = source.width * sar
  if (quality === 'original' || !isQuality(quality)) {
    // Unknown labels play safe as `original`: never upscale, never invent a cap.
    const height = even(source.height)
    return { width: even(displayWidth), height, scaled: sar !== 1, videoBitrateKbps: undefined, rung: rungForHeight(height) }
  }
  const asked = qualityLadder.find((rung) => rung.label === quality)!
  const height = even(Math.min(asked.maxHeight, source.height))
  const width = even((displayWidth * height) / source.height)
  const rung = rungForHeight(height)
  return { width, height, scaled: height !== source.height || sar !== 1, videoBitrateKbps: rung?.videoBitrateKbps, rung }
}
