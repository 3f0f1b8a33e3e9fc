// Which H.264 encoder a session gets (issue 12; contract 1.5, 4.3.5; protocol.md 7.2;
// docs/encoders.md). Pure: the detection service computes the diagnostic's choice with it, the
// `encoders` machine the effective choice once a hardware encoder has failed in a session.
import type { HwAccelCandidate, HwAccelDiagnostic } from '../protocol/wire.js'

export type HardwareEncoder = 'h264_nvenc' | 'h264_qsv' | 'h264_vaapi' | 'h264_videotoolbox'
export type ChosenEncoder = 'libx264' | HardwareEncoder
/** `[transcode] encoder` (protocol.md 5). */
export type EncoderPreference = 'auto' | ChosenEncoder

/**
 * The order `auto` tries hardware encoders in: discrete NVIDIA first (its own silicon, no
 * sharing with the display), then Intel's two paths (QSV is the faster of them where both
 * work), then VideoToolbox, which exists only on macOS.
 */
export const hardwareEncoderOrder: readonly HardwareEncoder[] = ['h264_nvenc', 'h264_qsv', 'h264_vaapi', 'h264_videotoolbox']

export function isHardwareEncoder(name: string): name is HardwareEncoder {
  return (hardwareEncoderOrder as readonly string[]).includes(name)
}

export interface EncoderChoice {
  encoder: ChosenEncoder
  /** The tallest output this encoder is given (the web shows it as the transcode-resolution cap). */
  maxHeight: number
  /** Set when a forced encoder failed its test encode and libx264 stands in (protocol.md 7.2). */
  warning?: string
}

export interface ChoiceLimits {
  /** libx264's cap: real-time software encoding above it needs more cores than most hosts have. */
  softwareMaxHeight: number
}

/** A passed candidate's cap is the tallest test frame it encoded; `ok` alone means the 1080p frame. */
export interface TestedCandidate extends HwAccelCandidate {
  maxHeight?: number
}

/** What one detection found: the wire object, each passed candidate's cap, and a forced encoder's warning. */
export interface Detection {
  hwAccel: HwAccelDiagnostic
  /** Tallest test frame each passed hardware encoder encoded. */
  caps: Record<string, number>
  warning?: string
}

/** The candidates with their caps, as chooseEncoder takes them. */
export function testedCandidates(detection: Detection): TestedCandidate[] {
  return detection.hwAccel.candidates.map((candidate) => {
    const cap = detection.caps[candidate.encoder]
    return cap === undefined ? candidate : { ...candidate, maxHeight: cap }
  })
}

/**
 * `auto`: the first hardware encoder, in `hardwareEncoderOrder`, whose test encode passed and that
 * is not marked unhealthy, else libx264. A forced encoder: itself when it passed and is healthy,
 * else libx264 with a warning. Never a hardware encoder that was not test-encoded.
 */
export function chooseEncoder(
  preference: EncoderPreference,
  candidates: readonly TestedCandidate[],
  limits: ChoiceLimits,
  unhealthy: Readonly<Record<string, string>> = {},
): EncoderChoice {
  const usable = (encoder: string) => candidates.find((candidate) => candidate.encoder === encoder && candidate.ok && unhealthy[encoder] === undefined)
  const software: EncoderChoice = { encoder: 'libx264', maxHeight: limits.softwareMaxHeight }
  if (preference === 'libx264') return software
  if (preference !== 'auto') {
    const forced = usable(preference)
    if (forced) return { encoder: preference, maxHeight: forced.maxHeight ?? 1080 }
    const tried = candidates.find((candidate) => candidate.encoder === preference)
    const why = unhealthy[preference] !== undefined
      ? `it failed in a session (${unhealthy[preference]})`
      : tried ? `its test encode failed (${tried.error ?? 'no error text'})` : 'this ffmpeg does not have it'
    return { ...software, warning: `[transcode] encoder = "${preference}" is not usable: ${why}; using libx264` }
  }
  for (const encoder of hardwareEncoderOrder) {
    const found = usable(encoder)
    if (found) return { encoder, maxHeight: found.maxHeight ?? 1080 }
  }
  return software
}

/**
 * The choice a new session gets now: the detection's, unless an encoder failed in a session since
 * (then the next one by the same rule). A detection whose ffmpeg could not run chose `none`: the
 * session then tries libx264, whose own failure is the clearest report.
 */
export function effectiveChoice(
  preference: EncoderPreference,
  detection: Detection,
  limits: ChoiceLimits,
  unhealthy: Readonly<Record<string, string>>,
): EncoderChoice {
  const chosen = detection.hwAccel.chosenEncoder
  if (Object.keys(unhealthy).length === 0 && (chosen === 'libx264' || isHardwareEncoder(chosen))) {
    return { encoder: chosen, maxHeight: detection.hwAccel.maxTranscodeHeight || limits.softwareMaxHeight }
  }
  return chooseEncoder(preference, testedCandidates(detection), limits, unhealthy)
}
