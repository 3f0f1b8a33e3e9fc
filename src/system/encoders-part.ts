// Hardware encoders as a part of the agent (issue 12, docs/encoders.md): binds the `encoders`
// machine to the detection service and the log, and answers the two questions other parts ask:
// what goes into RegisterRequest.hwAccel, and which encoder (and cap) a new HLS session gets.
import { fromPromise, type AnyActorRef } from 'xstate'
import { hwDiagnosticTimeoutMs as defaultDiagnosticTimeoutMs, softwareMaxTranscodeHeightPx } from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import type { Logger } from '../log.js'
import { effectiveChoice, type Detection, type EncoderChoice } from '../machines/encoder-choice.js'
import { encodersMachine, type DetectInput, type EncodersContext, type EncodersInput } from '../machines/encoders.machine.js'
import type { HwAccelDiagnostic } from '../protocol/wire.js'
import { detectHwAccel, type DetectOptions } from '../services/encoders/detect.js'
import { summaryLine } from '../services/encoders/summary.js'

export interface EncodersPartOptions {
  config: Pick<AgentConfig, 'transcode' | 'testing'>
  logger: Logger
  /** The detection (tests: a counting wrapper); detectHwAccel by default. */
  detect?: (options: DetectOptions) => Promise<Detection>
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
}

export function createEncodersPart(options: EncodersPartOptions): EncodersPart {
  const { config } = options
  const log = options.logger.child({ component: 'encoders' })
  const detect = options.detect ?? detectHwAccel
  const timeoutMs = timing(config, 'hwDiagnosticTimeoutMs')
  const limits = { softwareMaxHeight: softwareMaxTranscodeHeightPx }
  let actor: () => AnyActorRef | undefined = () => undefined
  // Resolved by the first finished probe (success or not); waiters never outwait the bound.
  let settle!: () => void
  const firstProbe = new Promise<void>((resolve) => (settle = resolve))
  const settled = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined
    // A second bound over the detect actor's own: if the actor is restarting, nobody waits forever.
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs + defaultDiagnosticTimeoutMs / 5)))
    await Promise.race([firstProbe, grace])
    clearTimeout(timer)
  }
  // Once per process, also if the supervisor restarts the actor (its probe count starts again).
  let announced = false
  const context = (): EncodersContext | undefined => actor()?.getSnapshot()?.context as EncodersContext | undefined

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
      },
      announceProbeError: (_, { error }) => {
        settle()
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

  return {
    logic,
    input: { preference: config.transcode.encoder, reprobeAfterFailureMs: timing(config, 'hwReprobeAfterFailureMs') },
    attach(get) {
      actor = get
    },
    async hwAccel() {
      if (!context()?.detection) await settled()
      return context()?.detection?.hwAccel
    },
    async encoderFor() {
      if (!context()?.detection) await settled()
      return choiceNow()
    },
    encoderFailed(encoder, reason) {
      actor()?.send({ type: 'encoders.failed', encoder, reason })
    },
  }
}
