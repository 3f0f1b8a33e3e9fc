import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  assign,
  fromCallback,
  fromPromise,
  setup
} from "./chunk-OFW74AZP.js";

// dist/machines/hls-transcode.machine.js
var hlsTranscodeMachine = setup({
  types: {
    context: {},
    events: {},
    input: {}
  },
  actors: {
    // Bound by the engine with .provide(); these placeholders only fix the types.
    probe: fromPromise(async () => {
      throw new Error("probe is not bound");
    }),
    ffmpeg: fromCallback(() => void 0),
    checkReady: fromPromise(async () => false)
  },
  guards: {
    isCurrentRun: ({ context, event }) => "run" in event && event.run === context.run,
    exitedCleanly: ({ context, event }) => event.type === "FFMPEG_EXITED" && event.run === context.run && event.code === 0,
    canRestart: ({ context, event }) => event.type === "FFMPEG_EXITED" && event.run === context.run && context.restarts < context.maxRestarts,
    isStaleExit: ({ context, event }) => event.type === "FFMPEG_EXITED" && event.run !== context.run
  },
  actions: {
    startSeekRun: assign(({ context, event }) => event.type === "SEEK" ? { run: context.run + 1, runStart: Math.max(0, event.segment), highestSegment: -1 } : {}),
    startResumeRun: assign(({ context, event }) => ({
      run: context.run + 1,
      restarts: context.restarts + 1,
      runStart: Math.max(context.runStart, context.highestSegment + 1),
      highestSegment: -1,
      stderrTail: event.type === "FFMPEG_EXITED" ? event.stderrTail : context.stderrTail
    })),
    notifyReady: () => {
    },
    notifyReadinessTimeout: () => {
    },
    notifyFailed: () => {
    },
    notifyRestart: () => {
    }
  },
  delays: {
    readinessPoll: ({ context }) => context.readinessPollMs,
    readinessDeadline: ({ context }) => context.readinessDeadlineMs
  }
}).createMachine({
  id: "hlsTranscode",
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
    error: void 0
  }),
  initial: "active",
  states: {
    active: {
      type: "parallel",
      on: { STOP: { target: "stopped" } },
      states: {
        work: {
          initial: "probing",
          states: {
            probing: {
              invoke: {
                id: "probe",
                src: "probe",
                onDone: { target: "encoding" },
                onError: {
                  target: "#hlsTranscode.failed",
                  actions: assign({ error: ({ event }) => describe(event.error, "MA_ERR_PROBE_FAILED") })
                }
              }
            },
            encoding: {
              invoke: {
                id: "ffmpeg",
                src: "ffmpeg",
                input: ({ context }) => ({ run: context.run, startSegment: context.runStart })
              },
              on: {
                SEGMENT_WRITTEN: {
                  guard: "isCurrentRun",
                  actions: assign({ highestSegment: ({ context, event }) => Math.max(context.highestSegment, event.segment) })
                },
                SEEK: {
                  target: "encoding",
                  reenter: true,
                  actions: "startSeekRun"
                },
                FFMPEG_EXITED: [
                  { guard: "isStaleExit" },
                  { guard: "exitedCleanly", target: "complete", actions: assign({ stderrTail: ({ event }) => event.stderrTail }) },
                  {
                    guard: "canRestart",
                    target: "encoding",
                    reenter: true,
                    // Resume after the newest closed segment (its warm-up re-encodes the one before).
                    actions: ["startResumeRun", "notifyRestart"]
                  },
                  {
                    target: "#hlsTranscode.failed",
                    actions: assign({
                      stderrTail: ({ event }) => event.stderrTail,
                      error: ({ context, event }) => ({
                        code: "MA_ERR_TRANSCODE_FAILED",
                        message: `ffmpeg exited early ${context.restarts + 1} times (last: ${event.signal ?? `code ${String(event.code)}`}); restarted ${context.restarts} times, giving up. Last stderr lines:
${event.stderrTail.join("\n")}`
                      })
                    })
                  }
                ]
              }
            },
            complete: {
              on: {
                SEEK: { target: "encoding", actions: "startSeekRun" }
              }
            }
          }
        },
        readiness: {
          initial: "watching",
          states: {
            watching: {
              initial: "sleeping",
              after: {
                readinessDeadline: { target: "timedOut", actions: "notifyReadinessTimeout" }
              },
              states: {
                // The poll is the guarantee; a segment the ffmpeg actor saw appear (inotify) checks at once.
                sleeping: { after: { readinessPoll: "checking" }, on: { SEGMENT_WRITTEN: { guard: "isCurrentRun", target: "checking" } } },
                checking: {
                  invoke: {
                    id: "checkReady",
                    src: "checkReady",
                    input: ({ context }) => ({ run: context.run, startSegment: context.runStart }),
                    onDone: [
                      { guard: ({ event }) => event.output, target: "#hlsTranscode.active.readiness.ready" },
                      { target: "sleeping" }
                    ],
                    onError: { target: "sleeping" }
                  }
                }
              }
            },
            ready: {
              entry: [assign({ readyPosted: true }), "notifyReady"]
            },
            timedOut: {}
          }
        }
      }
    },
    failed: { type: "final", entry: "notifyFailed" },
    stopped: { type: "final" }
  }
});
function describe(error, fallbackCode) {
  const code = typeof error === "object" && error !== null && typeof error.code === "string" ? error.code : fallbackCode;
  return { code, message: error instanceof Error ? error.message : String(error) };
}

export {
  hlsTranscodeMachine
};
