// The `encoders` actor (issue 12; contract 1.5, 2.4, 6.3, 8; protocol.md 7.2; docs/encoders.md):
// detects the hardware encoders once at start-up (bounded by the detect actor, 10 s), holds the
// diagnostic that goes into RegisterRequest.hwAccel, and marks a hardware encoder that failed in
// a session unhealthy until the next probe, which runs a while after the failure.
//
//   probing --done/error--> ready --encoders.failed [hardware, healthy]--> degraded
//   degraded --after reprobeAfterFailure--> probing         (any --encoders.reprobe--> probing)
//   probing --error [marks left]--> degraded                (a failed probe clears no mark)
//
// Pure: the detection is the named actor `detect`, bound in src/system/encoders-part.ts.
import { assign, fromPromise, setup } from 'xstate'
import { isHardwareEncoder, type Detection, type EncoderPreference } from './encoder-choice.js'

export interface EncodersInput {
  preference: EncoderPreference
  reprobeAfterFailureMs: number
}

export interface EncodersContext {
  preference: EncoderPreference
  reprobeAfterFailureMs: number
  /** The last finished detection; kept while a re-probe runs. */
  detection: Detection | undefined
  /** Hardware encoders that failed in a session since the last probe, with the reason. */
  unhealthy: Record<string, string>
  /** Finished probes; the first one's summary is the one `[transcode]` start-up line. */
  probes: number
  /** Why the last detection itself failed (it normally reports failures inside the diagnostic). */
  probeError: string | undefined
}

export type EncodersEvent =
  /** A hardware encoder failed in a session; that session already fell back to libx264. */
  | { type: 'encoders.failed'; encoder: string; reason: string }
  | { type: 'encoders.reprobe' }

export interface DetectInput {
  preference: EncoderPreference
}

export const encodersMachine = setup({
  types: {
    context: {} as EncodersContext,
    events: {} as EncodersEvent,
    input: {} as EncodersInput,
  },
  actors: {
    detect: fromPromise<Detection, DetectInput>(async () => {
      throw new Error('detect is not bound')
    }),
  },
  guards: {
    hasMarks: ({ context }) => Object.keys(context.unhealthy).length > 0,
    isNewFailure: ({ context, event }) => event.type === 'encoders.failed' && isHardwareEncoder(event.encoder) && context.unhealthy[event.encoder] === undefined,
  },
  actions: {
    // Bound in encoders-part.ts: the log lines. `first` is true for the start-up probe only.
    announce: (_, _params: { detection: Detection; first: boolean }) => {},
    announceProbeError: (_, _params: { error: string }) => {},
    reportUnhealthy: (_, _params: { encoder: string; reason: string; unhealthy: Record<string, string> }) => {},
    recordProbeError: assign(({ context, event }) => {
      const error = (event as { error?: unknown }).error
      return { probes: context.probes + 1, probeError: error instanceof Error ? error.message : String(error) }
    }),
    markUnhealthy: assign({
      unhealthy: ({ context, event }) => (event.type === 'encoders.failed' ? { ...context.unhealthy, [event.encoder]: event.reason } : context.unhealthy),
    }),
  },
  delays: {
    reprobeAfterFailure: ({ context }) => context.reprobeAfterFailureMs,
  },
}).createMachine({
  id: 'encoders',
  description: 'Hardware encoder detection (bounded), the hwAccel diagnostic, and unhealthy marks after a session failure until the next probe.',
  context: ({ input }) => ({
    preference: input.preference,
    reprobeAfterFailureMs: input.reprobeAfterFailureMs,
    detection: undefined,
    unhealthy: {},
    probes: 0,
    probeError: undefined,
  }),
  initial: 'probing',
  states: {
    probing: {
      invoke: {
        id: 'detect',
        src: 'detect',
        input: ({ context }): DetectInput => ({ preference: context.preference }),
        onDone: {
          target: 'ready',
          actions: [
            assign({ detection: ({ event }) => event.output, unhealthy: () => ({}), probes: ({ context }) => context.probes + 1, probeError: () => undefined }),
            { type: 'announce', params: ({ context }) => ({ detection: context.detection!, first: context.probes === 1 }) },
          ],
        },
        // A probe that failed as a whole proves nothing about a marked encoder: it stays marked
        // and is tried again after the same delay.
        onError: [
          { guard: 'hasMarks', target: 'degraded', actions: ['recordProbeError', { type: 'announceProbeError', params: ({ context }) => ({ error: context.probeError ?? 'unknown' }) }] },
          { target: 'ready', actions: ['recordProbeError', { type: 'announceProbeError', params: ({ context }) => ({ error: context.probeError ?? 'unknown' }) }] },
        ],
      },
    },
    ready: {
      on: {
        'encoders.failed': {
          guard: 'isNewFailure',
          target: 'degraded',
          actions: ['markUnhealthy', { type: 'reportUnhealthy', params: ({ context, event }) => ({ encoder: event.encoder, reason: event.reason, unhealthy: context.unhealthy }) }],
        },
        'encoders.reprobe': { target: 'probing' },
      },
    },
    degraded: {
      after: { reprobeAfterFailure: { target: 'probing' } },
      on: {
        'encoders.failed': {
          guard: 'isNewFailure',
          actions: ['markUnhealthy', { type: 'reportUnhealthy', params: ({ context, event }) => ({ encoder: event.encoder, reason: event.reason, unhealthy: context.unhealthy }) }],
        },
        'encoders.reprobe': { target: 'probing' },
      },
    },
  },
})
