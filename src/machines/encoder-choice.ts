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

/**
 * What changed between the diagnostic the server was sent and a new one, in words, or undefined
 * when nothing it shows did: the chosen encoder and its cap, each candidate's result, the ffmpeg,
 * its encoders, devices (and whether each is usable) and drivers. Timings (`probeMs`, each
 * candidate's `ms`) and the wording of errors differ between two probes of the same host and are
 * not a change. `before` undefined: the server was sent no diagnostic (the first probe outlasted
 * the register request's wait).
 */
export function hwAccelChange(before: HwAccelDiagnostic | undefined, after: HwAccelDiagnostic): string | undefined {
  if (!before) return `diagnostic ready (encoder ${after.chosenEncoder})`
  const changes: string[] = []
  if (before.chosenEncoder !== after.chosenEncoder || before.maxTranscodeHeight !== after.maxTranscodeHeight) {
    changes.push(`chosen encoder ${before.chosenEncoder} (cap ${before.maxTranscodeHeight}p) -> ${after.chosenEncoder} (cap ${after.maxTranscodeHeight}p)`)
  }
  const results = (d: HwAccelDiagnostic) => new Map(d.candidates.map((candidate) => [candidate.encoder, candidate.ok]))
  const was = results(before)
  for (const [encoder, ok] of results(after)) {
    if (was.get(encoder) !== ok) changes.push(`${encoder} ${ok ? 'passes' : 'fails'} its test encode${was.has(encoder) ? '' : ' (new)'}`)
  }
  for (const encoder of was.keys()) if (!after.candidates.some((candidate) => candidate.encoder === encoder)) changes.push(`${encoder} no longer listed`)
  if (before.ffmpegPath !== after.ffmpegPath || before.ffmpegVersion !== after.ffmpegVersion) changes.push(`ffmpeg ${after.ffmpegVersion || '?'} at ${after.ffmpegPath || '?'}`)
  if ((before.error === undefined) !== (after.error === undefined)) changes.push(after.error === undefined ? 'ffmpeg runs again' : 'ffmpeg no longer runs')
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i])
  if (!same(before.encoders, after.encoders)) changes.push(`encoders compiled in: ${after.encoders.join(', ')}`)
  const devices = (d: HwAccelDiagnostic) => d.devices.map((device) => `${device.path} ${device.driver}${device.error === undefined ? '' : ' (not usable)'}`)
  if (!same(devices(before), devices(after))) changes.push(`devices: ${devices(after).join(', ') || 'none'}`)
  if (!same(before.drivers, after.drivers)) changes.push(`drivers: ${after.drivers.join(', ') || 'none'}`)
  return changes.length > 0 ? changes.join('; ') : undefined
}
