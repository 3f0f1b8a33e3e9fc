// One HLS session's transcode (issue 6; contract 3 readiness rows, 4.3, 7, 8; docs/hls.md).
// Pure: the probe, the ffmpeg process and the readiness check are named actors bound by the HLS
// engine (src/services/hls/engine.ts); tests bind fakes the same way. The engine's probe may
// start run 0's ffmpeg while ffprobe runs, which the ffmpeg actor of run 0 then adopts (docs/hls.md
// "Starting before the probe"); the machine does not see the difference.
//
//   active (parallel)
//     work:      probing -> encoding <-> complete          (SEEK restarts ffmpeg at a segment)
//     readiness: watching (poll every readinessPoll, deadline readinessDeadline) -> ready | timedOut
//   failed (final): probe failed, or ffmpeg exited early more than maxRestarts times
//   stopped (final): STOP; leaving `active` stops the ffmpeg actor, whose cleanup kills it by PID
import { assign, fromCallback, fromPromise, setup } from 'xstate'

export interface HlsTranscodeInput {
  maxRestarts: number
  readinessPollMs: number
  readinessDeadlineMs: number
  /** Segment the first run starts at (0; a resumed cache entry could start later). */
  startSegment?: number
}

export interface FfmpegRunInput {
  /** Counts every ffmpeg start of the session (run directory `run-<run>`). */
  run: number
  /** First segment this run must produce (the args start one segment earlier: a warm-up). */
  startSegment: number
}

export interface ReadinessCheckInput {
  run: number
  startSegment: number
}

export interface HlsTranscodeContext {
  maxRestarts: number
  readinessPollMs: number
  readinessDeadlineMs: number
  run: number
  runStart: number
  /** Newest segment the current run has closed; -1 before the first. */
  highestSegment: number
  /** Early exits restarted so far (seek-restarts are not counted). */
  restarts: number
  /** Last stderr lines of the ffmpeg that exited last. */
  stderrTail: string[]
  readyPosted: boolean
  error: { code: string; message: string } | undefined
}

export type HlsTranscodeEvent =
  | { type: 'SEEK'; segment: number }
  | { type: 'STOP' }
  | { type: 'SEGMENT_WRITTEN'; run: number; segment: number }
  | { type: 'FFMPEG_EXITED'; run: number; code: number | null; signal: string | null; stderrTail: string[] }

export const hlsTranscodeMachine = setup({
  types: {
    context: {} as HlsTranscodeContext,
    events: {} as HlsTranscodeEvent,
    input: {} as HlsTranscodeInput,
  },
  actors: {
    // Bound by the engine with .provide(); these placeholders only fix the types.
    probe: fromPromise<unknown, void>(async () => {
      throw new Error('probe is not bound')
    }),
    ffmpeg: fromCallback<HlsTranscodeEvent, FfmpegRunInput>(() => undefined),
    checkReady: fromPromise<boolean, ReadinessCheckInput>(async () => false),
  },
  guards: {
    isCurrentRun: ({ context, event }) => 'run' in event && event.run === context.run,
    exitedCleanly: ({ context, event }) => event.type === 'FFMPEG_EXITED' && event.run === context.run && event.code === 0,
    canRestart: ({ context, event }) => event.type === 'FFMPEG_EXITED' && event.run === context.run && context.restarts < context.maxRestarts,
    isStaleExit: ({ context, event }) => event.type === 'FFMPEG_EXITED' && event.run !== context.run,
  },
  actions: {
    startSeekRun: assign(({ context, event }) => (event.type === 'SEEK'
      ? { run: context.run + 1, runStart: Math.max(0, event.segment), highestSegment: -1 }
      : {})),
    startResumeRun: assign(({ context, event }) => ({
      run: context.run + 1,
      restarts: context.restarts + 1,
      runStart: Math.max(context.runStart, context.highestSegment + 1),
      highestSegment: -1,
      stderrTail: event.type === 'FFMPEG_EXITED' ? event.stderrTail : context.stderrTail,
    })),
    notifyReady: () => {},
    notifyReadinessTimeout: () => {},
    notifyFailed: () => {},
    notifyRestart: () => {},
  },
  delays: {
    readinessPoll: ({ context }) => context.readinessPollMs,
    readinessDeadline: ({ context }) => context.readinessDeadlineMs,
  },
}).createMachine({
  id: 'hlsTranscode',
  context: ({ input }) => ({
    maxRestarts: input.maxRestarts,
    readinessPollMs: input.readinessPollMs,
    readinessDeadlineMs: input.readinessDeadlineMs,
    run: 0,
    runStart: input.startSegment ?? 0,
    highestSegment: -1,
    restarts: 0,
    stderrTail: [],
    readyPosted: false,
    error: undefined,
  }),
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      on: { STOP: { target: 'stopped' } },
      states: {
        work: {
          initial: 'probing',
          states: {
            probing: {
              invoke: {
                id: 'probe',
                src: 'probe',
                onDone: { target: 'encoding' },
                onError: {
                  target: '#hlsTranscode.failed',
                  actions: assign({ error: ({ event }) => describe(event.error, 'MA_ERR_PROBE_FAILED') }),
                },
              },
            },
            encoding: {
              invoke: {
                id: 'ffmpeg',
                src: 'ffmpeg',
                input: ({ context }): FfmpegRunInput => ({ run: context.run, startSegment: context.runStart }),
              },
              on: {
                SEGMENT_WRITTEN: {
                  guard: 'isCurrentRun',
                  actions: assign({ highestSegment: ({ context, event }) => Math.max(context.highestSegment, event.segment) }),
                },
                SEEK: {
                  target: 'encoding',
                  reenter: true,
                  actions: 'startSeekRun',
                },
                FFMPEG_EXITED: [
                  { guard: 'isStaleExit' },
                  { guard: 'exitedCleanly', target: 'complete', actions: assign({ stderrTail: ({ event }) => event.stderrTail }) },
                  {
                    guard: 'canRestart',
                    target: 'encoding',
                    reenter: true,
                    // Resume after the newest closed segment (its warm-up re-encodes the one before).
                    actions: ['startResumeRun', 'notifyRestart'],
                  },
                  {
                    target: '#hlsTranscode.failed',
                    actions: assign({
                      stderrTail: ({ event }) => event.stderrTail,
                      error: ({ context, event }) => ({
                        code: 'MA_ERR_TRANSCODE_FAILED',
                        message: `ffmpeg exited early ${context.restarts + 1} times (last: ${event.signal ?? `code ${String(event.code)}`}); restarted ${context.restarts} times, giving up. Last stderr lines:\n${event.stderrTail.join('\n')}`,
                      }),
                    }),
                  },
                ],
              },
            },
            complete: {
              on: {
                SEEK: { target: 'encoding', actions: 'startSeekRun' },
              },
            },
          },
        },
        readiness: {
          initial: 'watching',
          states: {
            watching: {
              initial: 'sleeping',
              after: {
                readinessDeadline: { target: 'timedOut', actions: 'notifyReadinessTimeout' },
              },
              states: {
                // The poll is the guarantee; a segment the ffmpeg actor saw appear (inotify) checks at once.
                sleeping: { after: { readinessPoll: 'checking' }, on: { SEGMENT_WRITTEN: { guard: 'isCurrentRun', target: 'checking' } } },
                checking: {
                  invoke: {
                    id: 'checkReady',
                    src: 'checkReady',
                    input: ({ context }): ReadinessCheckInput => ({ run: context.run, startSegment: context.runStart }),
                    onDone: [
                      { guard: ({ event }) => event.output, target: '#hlsTranscode.active.readiness.ready' },
                      { target: 'sleeping' },
                    ],
                    onError: { target: 'sleeping' },
                  },
                },
              },
            },
            ready: {
              entry: [assign({ readyPosted: true }), 'notifyReady'],
            },
            timedOut: {},
          },
        },
      },
    },
    failed: { type: 'final', entry: 'notifyFailed' },
    stopped: { type: 'final' },
  },
})

function describe(error: unknown, fallbackCode: string): { code: string; message: string } {
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : fallbackCode
  return { code, message: error instanceof Error ? error.message : String(error) }
}
