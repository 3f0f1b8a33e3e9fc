// Hardware encoder detection (issue 12; contract 1.5, 2.4, 6.3, 8; protocol.md 7.2;
// docs/encoders.md): which ffmpeg, which H.264 encoders it has, which GPU devices and drivers the
// host has, and a one-frame test encode per hardware encoder with the session's own options,
// because a listing proves nothing (Debian's ffmpeg lists NVENC, QSV and VAAPI with no GPU).
//
// Bounded in total (contract 8: 10 s): every ffmpeg runs in a process group of its own and is
// SIGKILLed by PID when the deadline passes; what had not finished is reported as timed out.
import { hwDiagnosticTimeoutMs, hwTestEncodeHeightsPx, softwareMaxTranscodeHeightPx } from '../../config/defaults.js'
import { chooseEncoder, hardwareEncoderOrder, type Detection, type EncoderPreference, type HardwareEncoder, type TestedCandidate } from '../../machines/encoder-choice.js'
import type { HwAccelCandidate, HwAccelDiagnostic } from '../../protocol/wire.js'
import { resolveFfmpegBinary } from '../ffmpeg/binaries.js'
import { buildTestEncodeArgs } from '../ffmpeg/hls-args.js'
import { startWatchedProcess, type ManagedProcess } from '../hls/process.js'
import { readHostFacts, type HostFactsOptions } from './host-facts.js'

export interface DetectOptions {
  preference: EncoderPreference
  /** `[transcode] ffmpeg_path` (empty: FFMPEG_PATH, then PATH). */
  ffmpegPath?: string
  env?: NodeJS.ProcessEnv
  /** The bound on the whole detection; contract 8's 10 s by default. */
  timeoutMs?: number
  testHeights?: readonly number[]
  softwareMaxHeight?: number
  host?: HostFactsOptions
  /** Aborting ends the detection at once like the deadline does (the daemon stopping mid-probe). */
  signal?: AbortSignal
  /** Starts one ffmpeg (tests: count or wrap them). */
  start?: typeof startWatchedProcess
  now?: () => number
}

type RunResult = Awaited<ManagedProcess['exited']> & { timedOut: boolean }

/** The H.264 encoders the agent can drive, in the order they are listed. */
const knownEncoders = ['libx264', ...hardwareEncoderOrder] as const
/** Enough stderr for VAAPI's verbose device set-up plus the errors after it. */
const testEncodeStderrLines = 200

export async function detectHwAccel(options: DetectOptions): Promise<Detection> {
  const now = options.now ?? (() => performance.now())
  const started = now()
  const timeoutMs = options.timeoutMs ?? hwDiagnosticTimeoutMs
  const start = options.start ?? startWatchedProcess
  const softwareMaxHeight = options.softwareMaxHeight ?? softwareMaxTranscodeHeightPx
  const heights = options.testHeights ?? hwTestEncodeHeightsPx

  const running = new Set<ManagedProcess>()
  let timedOut = false
  // The one deadline: every ffmpeg still running is killed by its process group, by PID.
  const stopAll = () => {
    timedOut = true
    for (const proc of running) proc.kill()
  }
  const timer = setTimeout(stopAll, timeoutMs)
  options.signal?.addEventListener('abort', stopAll, { once: true })
  if (options.signal?.aborted) stopAll()

  const finish = (partial: Omit<HwAccelDiagnostic, 'probeMs'>, caps: Record<string, number> = {}, warning?: string): Detection => {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', stopAll)
    const hwAccel: HwAccelDiagnostic = { ...partial, probeMs: Math.round(now() - started) }
    return warning === undefined ? { hwAccel, caps } : { hwAccel, caps, warning }
  }

  const hostFacts = readHostFacts(options.host).catch(() => ({ devices: [], drivers: [] }))
  let ffmpegPath: string
  try {
    ffmpegPath = resolveFfmpegBinary('ffmpeg', { configuredPath: options.ffmpegPath, ...(options.env ? { env: options.env } : {}) })
  } catch (err) {
    const host = await hostFacts
    return finish({ ...failedFfmpeg('', host), error: (err as Error).message })
  }

  const run = async (args: string[], captureStdout: boolean): Promise<RunResult> => {
    if (timedOut) return { code: null, signal: 'SIGKILL', stderrTail: [], timedOut: true }
    const proc = start(ffmpegPath, args, { captureStdout, tailLines: testEncodeStderrLines })
    running.add(proc)
    const result = await proc.exited
    running.delete(proc)
    return { ...result, timedOut }
  }

  const [version, listing, host] = await Promise.all([run(['-hide_banner', '-version'], true), run(['-hide_banner', '-encoders'], true), hostFacts])
  const broken = [version, listing].find((result) => result.code !== 0)
  if (broken) {
    const what = broken === version ? '-version' : '-encoders'
    const error = broken.timedOut
      ? `${ffmpegPath} ${what} did not answer within ${timeoutMs} ms; killed`
      : `${ffmpegPath} ${what} failed (${broken.signal ?? `exit code ${String(broken.code)}`}): ${errorLines(broken.stderrTail) || 'no output'}`
    return finish({ ...failedFfmpeg(ffmpegPath, host), ffmpegVersion: parseVersion(version.stdout ?? ''), error })
  }
  const ffmpegVersion = parseVersion(version.stdout ?? '')
  const compiled = parseEncoders(listing.stdout ?? '')
  const drivers = [...host.drivers]
  const deviceProblems = host.devices.filter((device) => device.error !== undefined && device.path.startsWith('/dev/dri/'))

  const testOne = async (encoder: HardwareEncoder): Promise<{ candidate: HwAccelCandidate; cap?: number }> => {
    const begun = now()
    let cap: number | undefined
    let error: string | undefined
    for (const height of heights) {
      const result = await run(buildTestEncodeArgs(encoder, height), false)
      const driver = result.stderrTail.map((line) => /VAAPI driver: (.+?)\.?\s*$/.exec(line)?.[1]).find((found) => found !== undefined)
      if (driver && !drivers.includes(`vaapi: ${driver}`)) drivers.push(`vaapi: ${driver}`)
      if (result.code === 0) {
        cap = height
        continue
      }
      // A taller frame that fails only lowers the cap; the first height decides whether it works.
      if (cap === undefined) {
        error = result.timedOut
          ? `test encode (${height}p) did not finish within ${timeoutMs} ms; killed`
          : errorLines(result.stderrTail) || `test encode (${height}p) exited with ${result.signal ?? `code ${String(result.code)}`}`
        if (!result.timedOut && encoder !== 'h264_nvenc' && encoder !== 'h264_videotoolbox' && deviceProblems.length > 0) {
          error += `; ${deviceProblems.map((device) => device.error).join('; ')}`
        }
      }
      break
    }
    const ms = Math.round(now() - begun)
    const candidate: HwAccelCandidate = cap === undefined ? { encoder, ok: false, ms, error: error ?? 'not tested' } : { encoder, ok: true, ms }
    return cap === undefined ? { candidate } : { candidate, cap }
  }

  const tested = await Promise.all(hardwareEncoderOrder.filter((encoder) => compiled.includes(encoder)).map(testOne))
  const caps: Record<string, number> = {}
  for (const { candidate, cap } of tested) if (cap !== undefined) caps[candidate.encoder] = cap
  const candidates = tested.map(({ candidate }) => candidate)
  const withCaps: TestedCandidate[] = candidates.map((candidate) => (caps[candidate.encoder] === undefined ? candidate : { ...candidate, maxHeight: caps[candidate.encoder]! }))
  const choice = chooseEncoder(options.preference, withCaps, { softwareMaxHeight })
  return finish({
    ffmpegVersion,
    ffmpegPath,
    encoders: compiled,
    devices: host.devices,
    drivers,
    chosenEncoder: choice.encoder,
    maxTranscodeHeight: choice.maxHeight,
    candidates,
  }, caps, choice.warning)
}

function failedFfmpeg(ffmpegPath: string, host: { devices: HwAccelDiagnostic['devices']; drivers: string[] }): Omit<HwAccelDiagnostic, 'probeMs'> {
  return { ffmpegVersion: '', ffmpegPath, encoders: [], devices: host.devices, drivers: host.drivers, chosenEncoder: 'none', maxTranscodeHeight: 0, candidates: [] }
}

/** `ffmpeg version 5.1.9-0+deb12u1 Copyright ...` -> `5.1.9-0+deb12u1`; `n7.1` and git builds as printed. */
export function parseVersion(stdout: string): string {
  return /^ffmpeg version (\S+)/m.exec(stdout)?.[1] ?? ''
}

/** The known H.264 encoders in `ffmpeg -encoders` (` V....D h264_nvenc   NVIDIA NVENC ...`). */
export function parseEncoders(stdout: string): string[] {
  const listed = new Set<string>()
  for (const line of stdout.split('\n')) {
    const match = /^\s*V[.A-Z]{5}\s+(\S+)/.exec(line)
    if (match) listed.add(match[1]!)
  }
  return knownEncoders.filter((name) => listed.has(name))
}

/**
 * The error lines of a `-loglevel level+...` run, without the level tag and the context's
 * address: `[h264_nvenc @ 0x55..] [error] Cannot load libcuda.so.1` -> `h264_nvenc: Cannot load
 * libcuda.so.1`. Output of a run without level tags falls back to its last three lines.
 */
export function errorLines(stderr: readonly string[]): string {
  const tagged = stderr
    .map((line) => /^(?:\[([^\]@]+?)(?: @ [^\]]+)?\] )?\[(error|fatal|panic)\] (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => (match[1] ? `${match[1]}: ${match[3]}` : match[3]!))
  const lines = tagged.length > 0 ? tagged : stderr.filter((line) => !/\[(verbose|info|debug|trace)\]/.test(line)).slice(-3)
  return lines.join('; ').trim()
}
