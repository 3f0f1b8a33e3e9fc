// The playlists of an HLS session, as pure functions (contract 4.3, protocol.md 2). The agent
// writes its own playlists instead of serving ffmpeg's: the media playlist is a VOD playlist that
// lists every segment of the whole duration from the start, so a player can seek anywhere before
// ffmpeg has reached that point (a segment not yet written answers 404 and the player retries,
// or the request restarts ffmpeg there: docs/hls.md "Seeking").

export interface SegmentPlan {
  /** Number of segments: seg-0 .. seg-(count-1). */
  count: number
  segmentSeconds: number
  /** Duration of the last segment (the others are all `segmentSeconds`). */
  lastSeconds: number
}

/**
 * Segments of a source of `durationSeconds`: boundaries at every multiple of `segmentSeconds`
 * (forced keyframes). A segment exists only if a frame starts inside it, so the last frame's
 * start decides the count when the frame rate is known.
 */
export function planSegments(durationSeconds: number, segmentSeconds: number, frameRate?: number): SegmentPlan {
  const frame = frameRate && frameRate > 0 ? 1 / frameRate : 0
  const lastFrameStart = Math.max(0, durationSeconds - frame)
  const count = Math.max(1, Math.floor(lastFrameStart / segmentSeconds + 1e-9) + 1)
  const lastSeconds = Math.max(0.001, durationSeconds - (count - 1) * segmentSeconds)
  return { count, segmentSeconds, lastSeconds: Math.min(lastSeconds, segmentSeconds) }
}

export function segmentDuration(plan: SegmentPlan, index: number): number {
  return index === plan.count - 1 ? plan.lastSeconds : plan.segmentSeconds
}

const seconds = (value: number) => value.toFixed(3)

/** VOD media playlist listing every segment from the start, fMP4 with `init.mp4`. */
export function mediaPlaylist(plan: SegmentPlan): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.ceil(plan.segmentSeconds)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    '#EXT-X-MAP:URI="init.mp4"',
  ]
  for (let index = 0; index < plan.count; index++) {
    lines.push(`#EXTINF:${seconds(segmentDuration(plan, index))},`, `seg-${index}.m4s`)
  }
  lines.push('#EXT-X-ENDLIST', '')
  return lines.join('\n')
}

export interface SubtitleRendition {
  /** Index among the source's subtitle streams; names `sub-<index>.m3u8` / `sub-<index>.vtt`. */
  index: number
  name: string
  language: string | undefined
  default: boolean
}

export interface MasterPlaylistInput {
  /** Peak bits per second of the variant (video cap + audio), as HLS wants it. */
  bandwidth: number
  width: number
  height: number
  /** RFC 6381 codecs, e.g. `avc1.640028,mp4a.40.2`. */
  codecs: string
  frameRate?: number | undefined
  subtitles: SubtitleRendition[]
}

const quoted = (value: string) => `"${value.replace(/["\r\n]/g, "'")}"`

/** One variant (`BANDWIDTH`, `RESOLUTION`, `CODECS`) and one subtitle rendition per text track. */
export function masterPlaylist(input: MasterPlaylistInput): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS']
  for (const subtitle of input.subtitles) {
    const attributes = [
      'TYPE=SUBTITLES',
      'GROUP-ID="subs"',
      `NAME=${quoted(subtitle.name)}`,
      ...(subtitle.language === undefined ? [] : [`LANGUAGE=${quoted(subtitle.language)}`]),
      `DEFAULT=${subtitle.default ? 'YES' : 'NO'}`,
      'AUTOSELECT=YES',
      `URI=${quoted(`sub-${subtitle.index}.m3u8`)}`,
    ]
    lines.push(`#EXT-X-MEDIA:${attributes.join(',')}`)
  }
  const variant = [
    `BANDWIDTH=${Math.round(input.bandwidth)}`,
    `RESOLUTION=${input.width}x${input.height}`,
    `CODECS=${quoted(input.codecs)}`,
    ...(input.frameRate ? [`FRAME-RATE=${input.frameRate.toFixed(3)}`] : []),
    ...(input.subtitles.length > 0 ? ['SUBTITLES="subs"'] : []),
  ]
  lines.push(`#EXT-X-STREAM-INF:${variant.join(',')}`, 'index.m3u8', '')
  return lines.join('\n')
}

/** A subtitle media playlist: the whole track as one WebVTT file spanning the duration. */
export function subtitlePlaylist(index: number, durationSeconds: number): string {
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(durationSeconds))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${seconds(durationSeconds)},`,
    `sub-${index}.vtt`,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n')
}

/** `avc1.64<level>`: High profile, no constraint flags, level as its two hex digits (4.0 -> 28). */
export function avcCodec(level: string | undefined): string {
  const value = level === undefined ? 51 : Math.round(Number(level) * 10)
  return `avc1.6400${value.toString(16).padStart(2, '0')}`
}

export function codecsString(level: string | undefined, hasAudio: boolean): string {
  return hasAudio ? `${avcCodec(level)},mp4a.40.2` : avcCodec(level)
}
