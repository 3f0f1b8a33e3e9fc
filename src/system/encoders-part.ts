// Hardware encoders as a part of the agent (issue 12, docs/encoders.md): binds the `encoders`
// machine to the detection service and the log, and answers the two questions other parts ask:
// what goes into RegisterRequest.hwAccel, and which encoder (and cap) a new HLS session gets.
// Its admin route `POST /api/encoders/reprobe` probes again in the running daemon and answers the
// result: protocol.md names no command for it (`media-agent probe-hwaccel` runs its own detection
// and never asks the daemon); it is for a person (or the web's tooling) who fixed a driver and wants
// the daemon, and through its new register the server, to see it without a restart.
import { fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { hwDiagnosticGraceMs, softwareMaxTranscodeHeightPx } from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import type { Logger } from '../log.js'
import { effectiveChoice, hwAccelChange, type Detection, type EncoderChoice } from '../machines/encoder-choice.js'
import { encodersMachine, type DetectInput, type EncodersContext, type EncodersInput } from '../machines/encoders.machine.js'
import type { HwAccelDiagnostic } from '../protocol/wire.js'
import type { AdminRoute } from '../server/admin-server.js'
import { detectHwAccel, type DetectOptions } from '../services/encoders/detect.js'
import { summaryLine } from '../services/encoders/summary.js'

export interface EncodersPartOptions {
  config: Pick<AgentConfig, 'transcode' | 'testing'>
  logger: Logger
  /** The detection (tests: a counting wrapper); detectHwAccel by default. */
  detect?: (options: DetectOptions) => Promise<Detection>
  /** A probe's diagnostic differs from the one the last register body carried: register again (`reason` says what changed). */
  hwAccelChanged?: (reason: string) => void
}

/** `POST /api/encoders/reprobe` (docs/encoders.md): the new diagnostic, and why the agent registers again, if it does. */
export interface ReprobeResult {
  hwAccel: HwAccelDiagnostic | undefined
  /** The encoder a session starting now gets (unhealthy marks are cleared by a passing probe). */
  encoder: string
  /** What changed for the server, or null when the diagnostic it holds is still right. */
  reregister: string | null
}

export interface EncodersPart {
  logic: typeof encodersMachine
  input: EncodersInput
  /** Given the actor once the root has spawned it. */
  attach(actor: () => AnyActorRef | undefined): void
  /** The diagnostic for the register body; waits for the first probe (itself bounded). */
  hwAccel(): Promise<HwAccelDiagnostic | undefined>
  /** Encoder and resolution cap for a session starting now. */
  encoderFor(): Promise<EncoderChoice>
  /** A hardware encoder failed in a session (which fell back to libx264 by itself). */
  encoderFailed(encoder: string, reason: string): void
  /** Probes again now (after the one running, if any) and resolves once it finished. */
  reprobe(): Promise<ReprobeResult>
  /** `POST /api/encoders/reprobe`: reprobe() over the admin API. */
  adminRoutes: AdminRoute[]
}

export function createEncodersPart(options: EncodersPartOptions): EncodersPart {
  const { config } = options
  const log = options.logger.child({ component: 'encoders' })
  const detect = options.detect ?? detectHwAccel
  const timeoutMs = timing(config, 'hwDiagnosticTimeoutMs')
  const waitBoundMs = timeoutMs + hwDiagnosticGraceMs
  const limits = { softwareMaxHeight: softwareMaxTranscodeHeightPx }
  let actor: () => AnyActorRef | undefined = () => undefined
  // Resolved by the first finished probe (success or not); waiters never outwait the bound.
  let settle!: () => void
  const firstProbe = new Promise<void>((resolve) => (settle = resolve))
  const settled = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined
    // A second bound over the detect actor's own: if the actor is restarting, nobody waits forever.
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitBoundMs)))
    await Promise.race([firstProbe, grace])
    clearTimeout(timer)
  }
  // Once per process, also if the supervisor restarts the actor (its probe count starts again).
  let announced = false
  const context = (): EncodersContext | undefined => actor()?.getSnapshot()?.context as EncodersContext | undefined
  // What the last register body carried (undefined: none was collected yet, and the first one
  // reads the latest probe anyway), and what the latest probe changed for the server.
  let registered: { hwAccel: HwAccelDiagnostic | undefined } | undefined
  let lastChange: string | undefined

  const logic = encodersMachine.provide({
    actors: {
      // The signal aborts when the actor stops (shutdown): every ffmpeg of the probe is killed by PID.
      detect: fromPromise<Detection, DetectInput>(({ input, signal }) => detect({ preference: input.preference, ffmpegPath: config.transcode.ffmpegPath, timeoutMs, signal })),
    },
    actions: {
      announce: (_, { detection, first }) => {
        settle()
        const line = summaryLine(detection)
        // The one `[transcode]` line at start-up (contract 6.3); a re-probe logs without the prefix.
        const msg = first && !announced ? line : `re-probe: ${line.replace(/^\[transcode\] /, '')}`
        announced = true
        const fields = { hwAccel: detection.hwAccel, ...(detection.warning ? { warning: detection.warning } : {}) }
        if (detection.warning || detection.hwAccel.error) log.warn(fields, detection.warning ? `${msg}; ${detection.warning}` : msg)
        else log.info(fields, msg)
        // Only RegisterRequest carries hwAccel (protocol.md 1): a changed result needs a new register.
        lastChange = registered ? hwAccelChange(registered.hwAccel, detection.hwAccel) : undefined
        if (lastChange) {
          log.info({ change: lastChange }, `hwAccel changed (${lastChange}); registering again so that the server shows it`)
          options.hwAccelChanged?.(`hwAccel: ${lastChange}`)
        }
      },
      announceProbeError: (_, { error }) => {
        settle()
        lastChange = undefined
        log.error({ error }, `${announced ? '' : '[transcode] '}hardware detection failed: ${error}; sessions use libx264`)
        announced = true
      },
      reportUnhealthy: (_, { encoder, reason, unhealthy }) => {
        // The snapshot is not updated while the machine's actions run: the marks come as params.
        log.warn({ encoder, reason }, `${encoder} failed in a session; new sessions use ${choiceNow(unhealthy).encoder} until the next probe`)
      },
    },
  })

  const choiceNow = (unhealthy?: Record<string, string>): EncoderChoice => {
    const current = context()
    if (!current?.detection) return { encoder: 'libx264', maxHeight: limits.softwareMaxHeight }
    return effectiveChoice(current.preference, current.detection, limits, unhealthy ?? current.unhealthy)
  }

  const reprobe = async (): Promise<ReprobeResult> => {
    const ref = actor()
    if (!ref) throw new Error('the encoders actor is not running')
    // Each wait is bounded like the probe itself; a probe already running was asked before
    // this request (a person who just fixed a driver wants a fresh one): wait it out, then probe.
    const bound = { timeout: waitBoundMs }
    await waitFor(ref, (snapshot) => !snapshot.matches('probing'), bound)
    const before = (ref.getSnapshot().context as EncodersContext).probes
    ref.send({ type: 'encoders.reprobe' })
    await waitFor(ref, (snapshot) => (snapshot.context as EncodersContext).probes > before, bound)
    return { hwAccel: context()?.detection?.hwAccel, encoder: choiceNow().encoder, reregister: lastChange ?? null }
  }

  const adminRoutes: AdminRoute[] = [
    {
      method: 'POST',
      path: '/api/encoders/reprobe',
      handle: async () => {
        try {
          return { status: 200, json: await reprobe() }
        } catch (error) {
          // The actor is restarting, or the probe outlived its bound: say so, the daemon goes on.
          return { status: 503, json: { error: 'probe_unavailable', message: (error as Error).message } }
        }
      },
    },
  ]

  return {
    logic,
    input: { preference: config.transcode.encoder, reprobeAfterFailureMs: timing(config, 'hwReprobeAfterFailureMs') },
    attach(get) {
      actor = get
    },
    async hwAccel() {
      if (!context()?.detection) await settled()
      const hwAccel = context()?.detection?.hwAccel
      registered = { hwAccel }
      return hwAccel
    },
    async encoderFor() {
      if (!context()?.detection) await settled()
      return choiceNow()
    },
    encoderFailed(encoder, reason) {
      actor()?.send({ type: 'encoders.failed', encoder, reason })
    },
    reprobe,
    adminRoutes,
  }
}
