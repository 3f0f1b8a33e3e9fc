// What an HLS session needs from the encoder choice (issue 12, docs/encoders.md): the quality
// clamped to the chosen encoder's resolution cap, and whether an ffmpeg exit was the hardware
// encoder failing (the session then falls back to libx264). Pure.
import { qualityLadder } from '../hls/quality-ladder.js'

/**
 * The quality label a session encodes at under a cap of `maxHeight` lines: a rung above the cap
 * becomes the tallest rung within it, and `original` of a source taller than the cap does too
 * (its bitrate and level then come from that rung, contract 4.3.3). Anything within the cap, or
 * no cap, is left as asked.
 */
export function capQuality(quality: string, sourceHeight: number, maxHeight: number | undefined): string {
  if (maxHeight === undefined || maxHeight <= 0) return quality
  const within = [...qualityLadder].reverse().find((rung) => rung.maxHeight <= maxHeight)
  if (!within) return quality
  const rung = qualityLadder.find((candidate) => candidate.label === quality)
  if (rung) return rung.maxHeight > maxHeight ? within.label : quality
  return sourceHeight > maxHeight ? within.label : quality
}

/**
 * Whether an ffmpeg that exited non-zero failed in the hardware encoder (or its device), rather
 * than on its input or output: the encoder's own log context, ffmpeg's "opening encoder" line, or
 * a device set-up error. An input error (a URL gone, a bad file) must not mark a GPU unhealthy.
 */
export function isEncoderFailure(encoder: string, stderrTail: readonly string[]): boolean {
  const own = new RegExp(`\\[${encoder}\\s@`)
  return stderrTail.some((line) =>
    own.test(line) ||
    /Error while opening encoder|Error initializing output stream|Device creation failed|Failed to set value .* for option '(?:vaapi_device|init_hw_device|qsv_device)'|hwupload|\bhw(?:device|frames)\b|nvenc|MFX session|VideoToolbox/i.test(line))
}
