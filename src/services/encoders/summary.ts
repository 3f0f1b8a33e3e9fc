// The diagnostic in words: the one `[transcode]` start-up line (contract 6.3) and the table of
// `media-agent probe-hwaccel` (protocol.md 7.2). Pure.
import type { Detection } from '../../machines/encoder-choice.js'
import type { HwAccelDiagnostic } from '../../protocol/wire.js'

/** Long ffmpeg errors are cut in the one-liner; the full text stays in the log line's `hwAccel`. */
const lineErrorChars = 120

export function summaryLine(detection: Detection): string {
  const d = detection.hwAccel
  if (d.error) return `[transcode] no usable ffmpeg: ${d.error}`
  const candidates = d.candidates.length === 0
    ? 'no hardware encoder compiled in'
    : d.candidates.map((c) => (c.ok ? `${c.encoder} ok` : `${c.encoder} failed (${shorten(c.error ?? 'no error text')})`)).join(', ')
  const devices = d.devices.length === 0 ? 'none' : d.devices.map((device) => `${device.path}${device.error ? ' (no access)' : ''}`).join(' ')
  return `[transcode] encoder ${d.chosenEncoder}, cap ${d.maxTranscodeHeight}p; ffmpeg ${d.ffmpegVersion} at ${d.ffmpegPath}; ` +
    `${candidates}; devices: ${devices}; drivers: ${d.drivers.length === 0 ? 'none' : d.drivers.join(', ')}; ${d.probeMs} ms`
}

function shorten(text: string): string {
  return text.length > lineErrorChars ? `${text.slice(0, lineErrorChars - 1)}…` : text
}

/** The table for people: every field of the diagnostic, errors in full. */
export function diagnosticTable(d: HwAccelDiagnostic, warning?: string): string[] {
  const out: string[] = []
  const row = (label: string, value: string) => out.push(`${label.padEnd(16)}${value}`)
  row('ffmpeg', d.ffmpegPath === '' ? '(not found)' : `${d.ffmpegPath} (version ${d.ffmpegVersion || 'unknown'})`)
  if (d.error) row('error', d.error)
  row('encoders', d.encoders.length === 0 ? '(none)' : d.encoders.join(', '))
  row('devices', d.devices.length === 0 ? '(none)' : d.devices.map((device) => `${device.path} [${device.driver}]`).join(', '))
  for (const device of d.devices) if (device.error) row('', `${device.path}: ${device.error}`)
  row('drivers', d.drivers.length === 0 ? '(none)' : d.drivers.join(', '))
  out.push('')
  out.push('test encodes (one frame each, with the options a session uses):')
  if (d.candidates.length === 0) out.push('  (no hardware encoder compiled into this ffmpeg)')
  for (const candidate of d.candidates) {
    out.push(`  ${candidate.encoder.padEnd(18)}${candidate.ok ? 'ok' : 'FAILED'}  ${candidate.ms} ms`)
    if (candidate.error) out.push(`    ${candidate.error}`)
  }
  out.push('')
  row('chosen encoder', d.chosenEncoder)
  row('resolution cap', d.maxTranscodeHeight > 0 ? `${d.maxTranscodeHeight}p` : '(none)')
  if (warning) row('warning', warning)
  row('probe time', `${d.probeMs} ms`)
  return out
}
