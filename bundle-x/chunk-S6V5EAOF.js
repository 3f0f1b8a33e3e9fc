import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  and,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  sendParent,
  setup,
  stateIn,
  stopChild
} from "./chunk-OFW74AZP.js";

// dist/machines/agent.machine.js
var unbound = (name) => fromPromise(async () => {
  throw new Error(`actor "${name}" is not bound: provide it in src/system/implementations.ts`);
});
function restartDelayMs(settings, restartCount) {
  const exponent = Math.min(restartCount, 16);
  return Math.min(settings.childRestartMaxMs, settings.childRestartBaseMs * 2 ** exponent);
}
var childErrorPrefix = "xstate.error.actor.";
var childDonePrefix = "xstate.done.actor.";
var sessionPrefix = "session:";
function sessionActorId(sessionId) {
  return `${sessionPrefix}${sessionId}`;
}
var agentMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    controlPlane: unbound("controlPlane"),
    tasks: unbound("tasks"),
    upgrade: unbound("upgrade"),
    encoders: unbound("encoders"),
    addresses: unbound("addresses"),
    funnel: unbound("funnel"),
    // The HLS segment cache (issue 11): absent from `children` when [downloads.hls_cache] enabled = false.
    cache: unbound("cache"),
    vpn: unbound("vpn"),
    library: unbound("library"),
    session: unbound("session"),
    shutdownServices: unbound("shutdownServices")
  },
  actions: {
    // Bound to the root logger in implementations.ts; pure here.
    logChildFailure: (_, _params) => {
    },
    logShutdown: (_, _params) => {
    },
    /** A session actor crashed (threw); it is not restarted. Bound to the log and the sync report. */
    reportSessionCrash: (_, _params) => {
    }
  }
}).createMachine({
  id: "agent",
  context: ({ input }) => ({
    children: input.children,
    childInputs: input.childInputs,
    supervisor: input.supervisor,
    restarts: {},
    lastFailure: {},
    sessionInput: input.sessionInput ?? {},
    sessions: {},
    listedSessions: []
  }),
  initial: "running",
  states: {
    running: {
      entry: enqueueActions(({ context, enqueue }) => {
        for (const child of context.children) {
          enqueue.spawnChild(child, { id: child, systemId: child, input: context.childInputs[child] ?? {} });
        }
      }),
      on: {
        "agent.shutdown": { target: "stopping" },
        "agent.respawn": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.spawnChild(event.child, { id: event.child, systemId: event.child, input: context.childInputs[event.child] ?? {} });
          })
        },
        "sessions.update": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const listed = event.sessions.map((session) => session.sessionId);
            const sessions = { ...context.sessions };
            for (const session of event.sessions) {
              if (sessions[session.sessionId] !== void 0)
                continue;
              const id = sessionActorId(session.sessionId);
              enqueue.spawnChild("session", { id, systemId: id, input: { ...context.sessionInput, session } });
              sessions[session.sessionId] = "live";
            }
            const stillListed = new Set(listed);
            for (const [sessionId, phase] of Object.entries(sessions)) {
              if (stillListed.has(sessionId))
                continue;
              if (phase === "live") {
                enqueue.sendTo(sessionActorId(sessionId), { type: "session.end", reason: "removed" });
                sessions[sessionId] = "ending";
              } else if (phase === "finished") {
                delete sessions[sessionId];
              }
            }
            enqueue.assign({ sessions, listedSessions: listed });
          })
        },
        "session.stop": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (context.sessions[event.sessionId] !== "live")
              return;
            enqueue.sendTo(sessionActorId(event.sessionId), { type: "session.end", reason: "stopped" });
            enqueue.assign({ sessions: { ...context.sessions, [event.sessionId]: "ending" } });
          })
        },
        // A session reached `ended`: drop its actor; remember the id while the server lists it.
        "xstate.done.actor.*": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice(childDonePrefix.length);
            if (!id.startsWith(sessionPrefix))
              return;
            enqueue(stopChild(id));
            enqueue.assign({ sessions: finishSession(context, id.slice(sessionPrefix.length)) });
          })
        },
        // An unhandled child error would otherwise put the root in its error state (XState v5).
        "xstate.error.actor.*": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const failed = event.type.slice(childErrorPrefix.length);
            if (failed.startsWith(sessionPrefix)) {
              const sessionId = failed.slice(sessionPrefix.length);
              const error2 = describeError(event.error);
              enqueue({ type: "reportSessionCrash", params: { sessionId, error: error2 } });
              enqueue(stopChild(failed));
              enqueue.assign({ sessions: finishSession(context, sessionId) });
              return;
            }
            const child = failed;
            if (!context.children.includes(child))
              return;
            const count = context.restarts[child] ?? 0;
            const delay = restartDelayMs(context.supervisor, count);
            const error = describeError(event.error);
            enqueue({ type: "logChildFailure", params: { child, error, restartInMs: delay } });
            enqueue.assign({
              restarts: { ...context.restarts, [child]: count + 1 },
              lastFailure: { ...context.lastFailure, [child]: error }
            });
            enqueue.raise({ type: "agent.respawn", child }, { id: `respawn:${child}`, delay });
          })
        }
      }
    },
    stopping: {
      entry: [
        { type: "logShutdown", params: { phase: "begin" } },
        // Sessions first (they use the others), then reverse start order.
        enqueueActions(({ context, enqueue }) => {
          for (const sessionId of Object.keys(context.sessions))
            enqueue(stopChild(sessionActorId(sessionId)));
          for (const child of [...context.children].reverse())
            enqueue(stopChild(child));
        })
      ],
      invoke: {
        id: "shutdownServices",
        src: "shutdownServices",
        onDone: { target: "stopped" },
        onError: { target: "stopped", actions: assign({ lastFailure: ({ context, event }) => ({ ...context.lastFailure, shutdown: describeError(event.error) }) }) }
      },
      on: {
        // A child being stopped can still fail (its cleanup throws, e.g. kill() of a process that
        // already exited, or its failure was queued behind agent.shutdown). Unhandled, that would
        // put the root in its error state halfway through shutdown and the services would never
        // flush (test/property/agent-supervision.property.test.ts). shutdownServices' own error
        // still goes to onError above: an exact descriptor wins over the wildcard.
        "xstate.error.actor.*": {
          actions: assign({
            lastFailure: ({ context, event }) => ({ ...context.lastFailure, [event.type.slice(childErrorPrefix.length)]: describeError(event.error) })
          })
        }
      }
    },
    stopped: {
      type: "final",
      entry: { type: "logShutdown", params: { phase: "done" } }
    }
  }
});
function finishSession(context, sessionId) {
  const sessions = { ...context.sessions };
  if (context.listedSessions.includes(sessionId))
    sessions[sessionId] = "finished";
  else
    delete sessions[sessionId];
  return sessions;
}
function describeError(error) {
  if (error instanceof Error)
    return `${error.code ?? error.name}: ${error.message}`;
  return String(error);
}

// dist/machines/downlink.machine.js
function describeProblem(error) {
  if (error instanceof Error)
    return `${error.code ?? error.name}: ${error.message}`;
  if (error && typeof error === "object" && "message" in error)
    return String(error.message);
  return String(error);
}
function parseCommandFrame(data) {
  let value;
  try {
    value = JSON.parse(data);
  } catch {
    return { problem: "command data is not JSON" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { problem: "command data is not a JSON object" };
  const record = value;
  if (typeof record.id !== "string" || record.id === "")
    return { problem: "command has no id" };
  if (typeof record.kind !== "string")
    return { problem: "command has no kind" };
  return { control: record };
}
function syncReason(data) {
  try {
    const value = JSON.parse(data);
    if (value && typeof value.reason === "string")
      return value.reason;
  } catch {
  }
  return "sse";
}
function doublingDelayMs(failures, baseMs, maxMs) {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}
var unbound2 = (name) => fromCallback(() => {
  throw new Error(`actor "${name}" is not bound: provide it in src/system/control-plane-bindings.ts`);
});
var downlinkMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    sseStream: unbound2("sseStream"),
    wakeListener: unbound2("wakeListener")
  },
  delays: {
    liveness: ({ context }) => context.settings.livenessTimeoutMs,
    longPollReprobe: ({ context }) => context.settings.longPollReprobeMs,
    sseReconnect: ({ context }) => doublingDelayMs(context.failures, context.settings.sseReconnectDelayMs, context.settings.sseReconnectMaxMs),
    wakeRetry: ({ context }) => doublingDelayMs(context.wakeFailures, context.settings.wakeRetryDelayMs, context.settings.wakeRetryMaxMs)
  },
  guards: {
    pollOnly: ({ context }) => context.mode === "poll",
    isAuto: ({ context }) => context.mode === "auto",
    failureCountReached: ({ context }) => context.mode === "auto" && context.failures >= context.settings.sseFailuresBeforeFallback
  },
  actions: {
    // The parent is the control plane; a downlink started alone (a test) has none, and
    // sendParent would throw, so these check first. Tests may also replace them with spies.
    requestSync: enqueueActions(({ enqueue, self }, params) => {
      if (self._parent)
        enqueue.sendParent({ type: "downlink.syncRequested", ...params });
    }),
    deliverCommand: enqueueActions(({ enqueue, self }, params) => {
      if (self._parent)
        enqueue.sendParent({ type: "downlink.command", control: params.control });
    }),
    // Bound to the control plane's child logger in the bindings.
    log: (_, _params) => {
    }
  }
}).createMachine({
  id: "downlink",
  context: ({ input }) => ({
    settings: input.settings,
    mode: input.mode ?? "auto",
    failures: 0,
    attempts: 0,
    frames: 0,
    fallbacks: 0,
    wakes: 0,
    wakeFailures: 0,
    connectedTo: void 0,
    lastProblem: void 0
  }),
  initial: "choosing",
  on: {
    "downlink.setMode": {
      target: ".choosing",
      actions: [
        assign({ mode: ({ event }) => event.mode, failures: 0 }),
        { type: "log", params: ({ event }) => ({ level: "info", msg: "downlink mode changed", data: { mode: event.mode } }) }
      ]
    }
  },
  states: {
    choosing: {
      always: [{ guard: "pollOnly", target: "poll" }, { target: "sse" }]
    },
    sse: {
      initial: "attempt",
      states: {
        attempt: {
          type: "parallel",
          entry: assign({ attempts: ({ context }) => context.attempts + 1, frames: 0, connectedTo: void 0 }),
          exit: assign({ connectedTo: void 0 }),
          invoke: { id: "sseStream", src: "sseStream" },
          on: {
            // The server does not replay on connect what it pushed while no stream was open (a
            // `command` or `sync` raised during an outage, a restart or before the first connect
            // is gone), so every connect asks for one sync: it catches up on anything missed.
            // During a cycle the request coalesces into the one follow-up.
            "downlink.sse.connected": {
              actions: [
                assign({ connectedTo: ({ event }) => event.baseUrl }),
                { type: "log", params: ({ event }) => ({ level: "debug", msg: "downlink SSE connected", data: { baseUrl: event.baseUrl } }) },
                { type: "requestSync", params: { source: "sse", reason: "connected" } }
              ]
            },
            "downlink.sse.ended": {
              target: "unhealthy",
              actions: assign({ lastProblem: "the SSE stream ended" })
            },
            "downlink.sse.failed": {
              target: "unhealthy",
              actions: assign({ lastProblem: ({ event }) => describeProblem(event.error) })
            },
            "xstate.error.actor.sseStream": {
              target: "unhealthy",
              actions: assign({ lastProblem: ({ event }) => describeProblem(event.error) })
            }
          },
          states: {
            liveness: {
              initial: "waiting",
              states: {
                waiting: {
                  after: {
                    liveness: {
                      target: "#downlink.sse.unhealthy",
                      actions: assign({ lastProblem: ({ context }) => `no SSE frame within ${context.settings.livenessTimeoutMs} ms` })
                    }
                  },
                  on: {
                    // Re-entering restarts the liveness timer; the stream (invoked on the
                    // parallel parent) is untouched.
                    "downlink.sse.frame": {
                      target: "waiting",
                      reenter: true,
                      actions: [
                        assign({ frames: ({ context }) => context.frames + 1 }),
                        enqueueActions(({ event, enqueue }) => {
                          const frame = event.frame;
                          if (frame.event === "sync") {
                            enqueue({ type: "requestSync", params: { source: "sse", reason: syncReason(frame.data) } });
                          } else if (frame.event === "command") {
                            const parsed = parseCommandFrame(frame.data);
                            if ("control" in parsed)
                              enqueue({ type: "deliverCommand", params: { control: parsed.control } });
                            else
                              enqueue({ type: "log", params: { level: "warn", msg: "downlink SSE command ignored", data: { problem: parsed.problem } } });
                          }
                        })
                      ]
                    }
                  }
                }
              }
            },
            proof: {
              initial: "probation",
              states: {
                probation: { after: { liveness: "window" } },
                window: {
                  on: {
                    "downlink.sse.frame": {
                      target: "proven",
                      actions: assign({ failures: 0 })
                    }
                  }
                },
                proven: {}
              }
            }
          }
        },
        unhealthy: {
          entry: [
            assign({ failures: ({ context }) => context.failures + 1 }),
            { type: "log", params: ({ context }) => ({ level: "warn", msg: "downlink SSE attempt unhealthy", data: { failures: context.failures, mode: context.mode, problem: context.lastProblem } }) }
          ],
          always: [
            {
              guard: "failureCountReached",
              target: "#downlink.poll",
              actions: [
                assign({ fallbacks: ({ context }) => context.fallbacks + 1 }),
                { type: "log", params: ({ context }) => ({ level: "warn", msg: "downlink falls back to the wake long-poll", data: { failures: context.failures, reprobeInMs: context.settings.longPollReprobeMs } }) }
              ]
            },
            { target: "reopening" }
          ]
        },
        reopening: {
          after: { sseReconnect: "attempt" }
        }
      }
    },
    poll: {
      initial: "listening",
      after: {
        longPollReprobe: {
          guard: "isAuto",
          target: "sse",
          actions: [
            assign({ failures: 0 }),
            { type: "log", params: { level: "info", msg: "downlink re-probes SSE" } }
          ]
        }
      },
      states: {
        listening: {
          invoke: { id: "wakeListener", src: "wakeListener" },
          on: {
            // A returned wake asks for a sync and reconnects (re-entering restarts the poll).
            "downlink.wake.woke": {
              target: "listening",
              reenter: true,
              actions: [
                assign({ wakes: ({ context }) => context.wakes + 1, wakeFailures: 0 }),
                { type: "requestSync", params: ({ event }) => ({ source: "wake", reason: event.reason }) }
              ]
            },
            "downlink.wake.ended": { target: "listening", reenter: true, actions: assign({ wakeFailures: 0 }) },
            "downlink.wake.failed": {
              target: "retrying",
              actions: assign({ wakeFailures: ({ context }) => context.wakeFailures + 1, lastProblem: ({ event }) => describeProblem(event.error) })
            },
            "xstate.error.actor.wakeListener": {
              target: "retrying",
              actions: assign({ wakeFailures: ({ context }) => context.wakeFailures + 1, lastProblem: ({ event }) => describeProblem(event.error) })
            }
          }
        },
        retrying: {
          after: { wakeRetry: "listening" }
        }
      }
    }
  }
});

// dist/machines/control-ledger.js
var knownControlKinds = [
  "pause_task",
  "resume_task",
  "stop_session",
  "scan_library",
  "set_funnel",
  "set_vpn",
  "set_downlink"
];
var knownActionTypes = ["add_task", "delete_task"];
var emptyLedger = () => ({ seen: [], pendingAcks: [], unknownKinds: [] });
function remember(list, key, limit) {
  const next = list.length >= limit ? list.slice(list.length - limit + 1) : list.slice();
  next.push(key);
  return next;
}
function admitIncoming(ledger, incoming, limits) {
  let { seen, pendingAcks, unknownKinds } = ledger;
  const seenSet = new Set(seen);
  const effects = [];
  let admitted = 0;
  const admitKey = (key) => {
    if (seenSet.has(key))
      return false;
    seen = remember(seen, key, limits.memory);
    seenSet.add(key);
    if (seenSet.size > seen.length) {
      seenSet.clear();
      for (const item of seen)
        seenSet.add(item);
    }
    admitted++;
    return true;
  };
  const logUnknown = (kind, data) => {
    if (unknownKinds.includes(kind))
      return;
    unknownKinds = remember(unknownKinds, kind, limits.unknownKindMemory);
    effects.push({ type: "log", level: "warn", msg: "unknown control kind acknowledged without effect (logged once per kind)", data });
  };
  for (const raw of incoming.actions ?? []) {
    const action = raw;
    if (!action || typeof action !== "object" || typeof action.type !== "string") {
      effects.push({ type: "log", level: "warn", msg: "sync action without a type ignored", data: {} });
      continue;
    }
    if (!knownActionTypes.includes(action.type)) {
      logUnknown(`action:${action.type}`, { actionType: action.type });
      continue;
    }
    if (typeof action.taskId !== "string" || action.taskId === "") {
      effects.push({ type: "log", level: "warn", msg: "sync action without a taskId ignored", data: { actionType: action.type } });
      continue;
    }
    if (admitKey(`action:${action.type}:${action.taskId}`))
      effects.push({ type: "action", action });
  }
  for (const raw of incoming.controls ?? []) {
    const control = raw;
    if (!control || typeof control !== "object" || typeof control.id !== "string" || control.id === "") {
      effects.push({ type: "log", level: "warn", msg: "control without an id dropped (it cannot be acknowledged)", data: { kind: control?.kind } });
      continue;
    }
    if (!admitKey(`control:${control.id}`))
      continue;
    if (!pendingAcks.includes(control.id))
      pendingAcks = remember(pendingAcks, control.id, limits.memory);
    const kind = typeof control.kind === "string" ? control.kind : "(none)";
    if (knownControlKinds.includes(kind)) {
      effects.push({ type: "control", control });
    } else {
      logUnknown(kind, { kind, controlId: control.id });
    }
  }
  return { ledger: { seen, pendingAcks, unknownKinds }, effects, admitted };
}
function acknowledge(ledger, sent) {
  if (sent.length === 0)
    return ledger;
  const done = new Set(sent);
  return { ...ledger, pendingAcks: ledger.pendingAcks.filter((id) => !done.has(id)) };
}

// dist/machines/control-plane-policy.js
function problemOf(error) {
  const code = error?.code;
  return { code: typeof code === "string" ? code : void 0, message: describeProblem(error) };
}
function errorDetail(error, key) {
  const direct = error?.[key];
  if (direct !== void 0)
    return direct;
  return (error?.details ?? {})[key];
}
var isCode = (error, code) => problemOf(error).code === code;
var isUnauthorizedError = (error) => isCode(error, "MA_ERR_SERVER_UNAUTHORIZED");
var isTooOldError = (error) => isCode(error, "MA_ERR_AGENT_TOO_OLD");
var isUnknownAgentError = (error) => isCode(error, "MA_ERR_SERVER_REQUEST") && (errorDetail(error, "serverCode") === "unknown_agent" || errorDetail(error, "status") === 404);
function backoffDelayMs(failures, baseMs, maxMs, jitterRatio, random) {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const step = Math.min(maxMs, baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  return Math.min(maxMs, Math.round(step * (1 - jitterRatio) + step * jitterRatio * r));
}
function syncIntervalMs(context) {
  return context.watching || context.sessionsLive ? context.settings.syncIntervalWatchingMs : context.settings.syncIntervalIdleMs;
}
function controlPlaneDelays(random) {
  return {
    syncInterval: ({ context }) => syncIntervalMs(context),
    syncBackoff: ({ context }) => backoffDelayMs(context.syncFailures, context.settings.syncFailureBackoffBaseMs, context.settings.syncFailureBackoffMaxMs, context.settings.backoffJitterRatio, random()),
    registerBackoff: ({ context }) => backoffDelayMs(context.registerFailures, context.settings.registerRetryBaseMs, context.settings.registerRetryMaxMs, context.settings.backoffJitterRatio, random()),
    unauthorizedRetry: ({ context }) => context.settings.unauthorizedRetryMs,
    versionTooOldRetry: ({ context }) => context.settings.versionTooOldRetryMs,
    downlinkRestart: ({ context }) => context.settings.sseReconnectDelayMs
  };
}

// dist/machines/control-plane.machine.js
var downlinkModes = ["auto", "sse", "poll"];
var unbound3 = (name) => fromPromise(async () => {
  throw new Error(`actor "${name}" is not bound: provide it in src/system/control-plane-bindings.ts`);
});
function admit(enqueue, check, context, ledger, incoming, origin) {
  const result = admitIncoming(ledger, incoming, { memory: context.settings.appliedControlMemory, unknownKindMemory: context.settings.unknownControlKindMemory });
  for (const effect of result.effects) {
    if (effect.type === "action") {
      enqueue({ type: "applyAction", params: { action: effect.action, origin } });
    } else if (effect.type === "control") {
      enqueue({ type: "applyControl", params: { control: effect.control, origin } });
      const control = effect.control;
      if (control.kind === "set_downlink" && downlinkModes.includes(control.mode)) {
        enqueue.assign({ downlinkMode: control.mode });
        if (check(stateIn("#controlPlane.running.downlink.active")))
          enqueue.sendTo("downlink", { type: "downlink.setMode", mode: control.mode });
      }
    } else {
      enqueue({ type: "log", params: { level: effect.level, msg: effect.msg, data: { ...effect.data, origin } } });
    }
  }
  return { ledger: result.ledger, admitted: result.admitted };
}
var controlPlaneMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    register: unbound3("register"),
    sync: unbound3("sync"),
    downlink: downlinkMachine
  },
  delays: controlPlaneDelays(() => 0.5),
  guards: {
    followUpWanted: ({ context }) => context.followUp,
    reregisterWanted: ({ context }) => context.reregister !== void 0
  },
  actions: {
    // All bound in the bindings; no-ops here so the machine stays pure.
    applyControl: (_, _params) => {
    },
    applyAction: (_, _params) => {
    },
    deliverStreamSessions: (_, _params) => {
    },
    deliverUpgrade: (_, _params) => {
    },
    reportRegistered: (_, _params) => {
    },
    log: (_, _params) => {
    }
  }
}).createMachine({
  id: "controlPlane",
  context: ({ input }) => {
    if (!input || typeof input.agentId !== "string" || !input.settings) {
      throw new Error("controlPlane needs input { agentId, settings }: build it with controlPlaneInput() from src/system/control-plane-bindings.ts");
    }
    return {
      settings: input.settings,
      agentId: input.agentId,
      downlinkMode: input.downlinkMode ?? "auto",
      minAgentVersion: void 0,
      registerFailures: 0,
      syncFailures: 0,
      watching: false,
      sessionsLive: false,
      followUp: false,
      inFlightAcks: [],
      ledger: emptyLedger(),
      cycles: 0,
      lastProblem: void 0,
      reregister: void 0
    };
  },
  // Wherever it arrives (a cycle in flight, a backoff, a register attempt): remembered, and acted
  // on where a register fits in, so it never cuts a sync short.
  on: {
    "controlPlane.reregister": { actions: assign({ reregister: ({ event }) => event.reason }) }
  },
  initial: "registering",
  states: {
    registering: {
      initial: "attempt",
      states: {
        attempt: {
          // This attempt collects the register body afresh, so it carries every change asked so far.
          entry: assign({ reregister: void 0 }),
          invoke: {
            id: "register",
            src: "register",
            input: ({ context }) => ({ agentId: context.agentId }),
            onDone: {
              target: "#controlPlane.running",
              actions: [
                assign(({ event }) => {
                  const response = event.output;
                  return { agentId: response.agentId, minAgentVersion: response.minAgentVersion, registerFailures: 0, lastProblem: void 0 };
                }),
                { type: "reportRegistered", params: ({ event }) => event.output },
                { type: "log", params: ({ context }) => ({ level: "info", msg: "registered with the web server", data: { agentId: context.agentId, minAgentVersion: context.minAgentVersion } }) }
              ]
            },
            onError: [
              {
                guard: ({ event }) => isUnauthorizedError(event.error),
                target: "unauthorized",
                actions: [
                  assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: "log", params: ({ context }) => ({ level: "error", msg: context.lastProblem?.message ?? "unauthorized", data: { code: context.lastProblem?.code, retryInMs: context.settings.unauthorizedRetryMs } }) }
                ]
              },
              {
                guard: ({ event }) => isTooOldError(event.error),
                target: "tooOld",
                actions: [
                  assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: "log", params: ({ context }) => ({ level: "error", msg: context.lastProblem?.message ?? "agent too old", data: { code: context.lastProblem?.code, retryInMs: context.settings.versionTooOldRetryMs } }) }
                ]
              },
              {
                target: "backoff",
                actions: [
                  assign({ registerFailures: ({ context }) => context.registerFailures + 1, lastProblem: ({ event }) => problemOf(event.error) }),
                  { type: "log", params: ({ context }) => ({ level: "warn", msg: "register failed; retrying with backoff", data: { failures: context.registerFailures, problem: context.lastProblem } }) }
                ]
              }
            ]
          }
        },
        backoff: { after: { registerBackoff: "attempt" } },
        unauthorized: { after: { unauthorizedRetry: "attempt" } },
        tooOld: { after: { versionTooOldRetry: "attempt" } }
      }
    },
    running: {
      type: "parallel",
      on: {
        "controlPlane.setDownlinkMode": {
          actions: enqueueActions(({ event, enqueue, check }) => {
            if (!downlinkModes.includes(event.mode))
              return;
            enqueue.assign({ downlinkMode: event.mode });
            if (check(stateIn("#controlPlane.running.downlink.active")))
              enqueue.sendTo("downlink", { type: "downlink.setMode", mode: event.mode });
          })
        },
        // An SSE command or a locally injected control: the same callback as a sync response;
        // a new one asks for a cycle so that its acknowledgement and effect reach the server.
        "downlink.command": {
          actions: enqueueActions(({ context, event, enqueue, check }) => {
            const result = admit(enqueue, check, context, context.ledger, { controls: [event.control] }, "sse");
            enqueue.assign({ ledger: result.ledger });
            if (result.admitted > 0)
              enqueue.raise({ type: "controlPlane.changed", reason: "control" });
          })
        },
        "controlPlane.control": {
          actions: enqueueActions(({ context, event, enqueue, check }) => {
            const result = admit(enqueue, check, context, context.ledger, { controls: [event.control] }, "local");
            enqueue.assign({ ledger: result.ledger });
            if (result.admitted > 0)
              enqueue.raise({ type: "controlPlane.changed", reason: "control" });
          })
        }
      },
      states: {
        sync: {
          initial: "syncing",
          states: {
            idle: {
              after: { syncInterval: "syncing" },
              on: {
                "controlPlane.changed": "syncing",
                "downlink.syncRequested": "syncing",
                "controlPlane.reregister": {
                  target: "#controlPlane.registering",
                  actions: { type: "log", params: ({ event }) => ({ level: "info", msg: "registering again: the register body changed", data: { reason: event.reason } }) }
                }
              }
            },
            syncing: {
              entry: assign(({ context }) => ({ followUp: false, inFlightAcks: context.ledger.pendingAcks.slice() })),
              invoke: {
                id: "sync",
                src: "sync",
                input: ({ context }) => ({ agentId: context.agentId, appliedControls: context.inFlightAcks }),
                onDone: {
                  target: "settled",
                  actions: enqueueActions(({ context, event, enqueue, check }) => {
                    const { response, sessionsLive } = event.output;
                    enqueue({ type: "deliverStreamSessions", params: { sessions: response.streamSessions } });
                    const acknowledged = acknowledge(context.ledger, context.inFlightAcks);
                    const result = admit(enqueue, check, context, acknowledged, { controls: response.controls, actions: response.actions }, "sync");
                    enqueue.assign({
                      ledger: result.ledger,
                      inFlightAcks: [],
                      watching: response.watching,
                      sessionsLive: sessionsLive || response.streamSessions.length > 0,
                      syncFailures: 0,
                      cycles: context.cycles + 1,
                      lastProblem: void 0,
                      // New controls: one prompt follow-up carries their acknowledgement.
                      followUp: context.followUp || result.admitted > 0
                    });
                    enqueue({ type: "deliverUpgrade", params: { requested: response.upgradeRequested, offer: response.upgrade } });
                  })
                },
                onError: [
                  {
                    guard: ({ event }) => isUnknownAgentError(event.error),
                    target: "#controlPlane.registering",
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: "log", params: ({ context }) => ({ level: "warn", msg: "the web server no longer knows this agent; registering again", data: { problem: context.lastProblem } }) }
                    ]
                  },
                  {
                    guard: ({ event }) => isUnauthorizedError(event.error),
                    target: "unauthorized",
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: "log", params: ({ context }) => ({ level: "error", msg: context.lastProblem?.message ?? "unauthorized", data: { code: context.lastProblem?.code, retryInMs: context.settings.unauthorizedRetryMs } }) }
                    ]
                  },
                  {
                    guard: ({ event }) => isTooOldError(event.error),
                    target: "tooOld",
                    actions: [
                      assign({ lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: "log", params: ({ context }) => ({ level: "error", msg: context.lastProblem?.message ?? "agent too old", data: { code: context.lastProblem?.code, retryInMs: context.settings.versionTooOldRetryMs } }) }
                    ]
                  },
                  {
                    target: "backoff",
                    actions: [
                      assign({ syncFailures: ({ context }) => context.syncFailures + 1, lastProblem: ({ event }) => problemOf(event.error), inFlightAcks: [] }),
                      { type: "log", params: ({ context }) => ({ level: "warn", msg: "sync failed; retrying with backoff", data: { failures: context.syncFailures, problem: context.lastProblem } }) }
                    ]
                  }
                ]
              },
              on: {
                "controlPlane.changed": { actions: assign({ followUp: true }) },
                "downlink.syncRequested": { actions: assign({ followUp: true }) }
              }
            },
            settled: {
              always: [
                {
                  guard: "reregisterWanted",
                  target: "#controlPlane.registering",
                  actions: { type: "log", params: ({ context }) => ({ level: "info", msg: "registering again: the register body changed", data: { reason: context.reregister } }) }
                },
                { guard: "followUpWanted", target: "syncing" },
                { target: "idle" }
              ]
            },
            // A local change waits for the pending retry (which will carry it); a wake or an
            // SSE `sync` proves the server is reachable again and cuts the backoff short.
            backoff: {
              after: { syncBackoff: "syncing" },
              on: { "downlink.syncRequested": "syncing" }
            },
            unauthorized: { after: { unauthorizedRetry: "syncing" } },
            tooOld: { after: { versionTooOldRetry: "syncing" } }
          }
        },
        downlink: {
          initial: "active",
          states: {
            active: {
              invoke: {
                id: "downlink",
                systemId: "downlink",
                src: "downlink",
                input: ({ context }) => ({ mode: context.downlinkMode, settings: context.settings }),
                onError: {
                  target: "restarting",
                  actions: [
                    assign({ lastProblem: ({ event }) => problemOf(event.error) }),
                    { type: "log", params: ({ context }) => ({ level: "error", msg: "downlink failed; restarting it", data: { problem: context.lastProblem } }) }
                  ]
                }
              }
            },
            restarting: { after: { downlinkRestart: "active" } }
          }
        }
      }
    }
  }
});

// dist/machines/task.machine.js
var unbound4 = (name) => async () => {
  throw new Error(`task actor "${name}" is not bound: provide it in src/system/task-bindings.ts`);
};
function describe(error) {
  if (error && typeof error === "object") {
    const { message, code } = error;
    return { message: typeof message === "string" ? message : String(error), code: typeof code === "string" ? code : "MA_ERR_INTERNAL" };
  }
  return { message: String(error), code: "MA_ERR_INTERNAL" };
}
var idle = { downloadSpeed: 0, uploadSpeed: 0, peers: 0 };
var taskMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    resolveSource: fromPromise(unbound4("resolveSource")),
    torrent: fromCallback(() => {
      throw new Error('task actor "torrent" is not bound: provide it in src/system/task-bindings.ts');
    }),
    removeTask: fromPromise(unbound4("removeTask")),
    /** Forgets the verified pieces and restarts the torrent; resolves once its data is hashed again. */
    recheck: fromPromise(unbound4("recheck"))
  },
  actions: {
    /** Bound to the tasks store: immediate on a state change, coalesced for progress. */
    persist: (_, _params) => {
    },
    /** Bound to "sync soon": a state change the server must see (protocol.md 1). */
    reportChange: (_, _params) => {
    },
    /** Bound to the engine: a stopped task's verified-piece map is dropped, its next start hashes every piece. */
    forgetPieces: (_, _params) => {
    },
    setState: assign((_, params) => ({ state: params.state })),
    clearError: assign({ error: void 0, errorCode: void 0 }),
    stopTraffic: assign((_, params) => ({ ...idle, etaSeconds: params.eta })),
    startRun: assign(({ context }) => ({ uploadedBase: context.uploaded })),
    assignMetadata: assign(({ context, event }) => {
      if (event.type !== "engine.metadata")
        return {};
      return { name: event.name || context.name, size: event.size, files: event.files, hasMetadata: true };
    }),
    assignProgress: assign(({ context, event }) => {
      if (event.type !== "engine.progress")
        return {};
      const p = event.progress;
      return {
        name: p.name || context.name,
        hasMetadata: context.hasMetadata || p.hasMetadata,
        // Until the pieces on disk are verified the engine's `done` means nothing.
        done: p.ready ? p.done : context.done,
        progress: p.hasMetadata ? p.progress : context.progress,
        size: p.hasMetadata ? p.size : context.size,
        downloaded: p.hasMetadata ? p.downloaded : context.downloaded,
        uploaded: Math.max(context.uploaded, context.uploadedBase + p.uploaded),
        downloadSpeed: p.downloadSpeed,
        uploadSpeed: p.uploadSpeed,
        peers: p.peers,
        etaSeconds: p.etaSeconds,
        files: p.files.length > 0 ? p.files : context.files
      };
    }),
    assignDone: assign(({ context }) => ({
      done: true,
      progress: 1,
      downloaded: context.size,
      files: context.files.map((file) => ({ ...file, progress: 1 }))
    })),
    assignError: assign((_, params) => ({ error: params.message, errorCode: params.code }))
  },
  guards: {
    restoredAs: ({ context }, params) => context.restoredState === params.state,
    hasInfoHash: ({ context }) => context.infoHash !== "",
    hasMetadata: ({ context }) => context.hasMetadata,
    isDone: ({ context }) => context.done,
    isNotDone: ({ context }) => !context.done,
    seedsNotAtAll: ({ context }) => context.seedRatio <= 0,
    ratioReached: ({ context }) => context.seedRatio <= 0 || context.size > 0 && context.uploaded >= context.seedRatio * context.size
  }
}).createMachine({
  id: "task",
  context: ({ input }) => {
    const r = input.restored;
    return {
      id: input.taskId,
      source: r?.source ?? input.source,
      infoHash: r?.infoHash ?? "",
      name: r?.name ?? "",
      state: r?.state ?? "queued",
      size: r?.size ?? 0,
      downloaded: r?.downloaded ?? 0,
      uploaded: r?.uploaded ?? 0,
      progress: r?.progress ?? 0,
      files: r?.files ?? [],
      error: r?.error,
      errorCode: r?.errorCode,
      addedAt: r?.addedAt ?? input.addedAt,
      seedRatio: input.seedRatio,
      uploadedBase: r?.uploaded ?? 0,
      hasMetadata: Boolean(r && (r.files.length > 0 || r.size > 0)),
      done: r?.state === "seeding" || r?.state === "completed",
      ...idle,
      etaSeconds: null,
      restoredState: r?.state ?? null
    };
  },
  initial: "boot",
  on: {
    "task.delete": { target: ".deleting" }
  },
  states: {
    boot: {
      always: [
        { guard: { type: "restoredAs", params: { state: "completed" } }, target: "completed" },
        { guard: { type: "restoredAs", params: { state: "paused" } }, target: "paused" },
        { guard: { type: "restoredAs", params: { state: "error" } }, target: "error" },
        // A known info hash restarts from saved metadata: no tracker, URL or magnet lookup.
        { guard: "hasInfoHash", target: "active" },
        { target: "queued" }
      ]
    },
    queued: {
      entry: [
        { type: "setState", params: { state: "queued" } },
        { type: "persist", params: { immediate: true } },
        { type: "reportChange", params: { state: "queued" } }
      ],
      invoke: {
        id: "resolveSource",
        src: "resolveSource",
        input: ({ context }) => ({ taskId: context.id, source: context.source }),
        onDone: {
          target: "active",
          actions: assign(({ context, event }) => ({ infoHash: event.output.infoHash, name: event.output.name || context.name }))
        },
        onError: {
          target: "error",
          actions: { type: "assignError", params: ({ event }) => describe(event.error) }
        }
      },
      on: { "task.pause": { target: "paused" } }
    },
    active: {
      entry: ["clearError", "startRun"],
      invoke: {
        id: "torrent",
        src: "torrent",
        input: ({ context }) => ({ taskId: context.id, infoHash: context.infoHash, source: context.source }),
        onError: {
          target: "error",
          actions: { type: "assignError", params: ({ event }) => describe(event.error) }
        }
      },
      initial: "fetching_metadata",
      on: {
        "engine.metadata": { actions: ["assignMetadata", { type: "persist", params: { immediate: true } }] },
        "engine.progress": { actions: ["assignProgress", { type: "persist", params: { immediate: false } }] },
        "engine.done": { actions: "assignDone" },
        "engine.error": {
          target: "error",
          actions: { type: "assignError", params: ({ event }) => ({ message: event.message, code: event.code }) }
        },
        "task.pause": { target: "paused" },
        "task.recheck": { guard: "hasMetadata", target: ".checking" }
      },
      states: {
        fetching_metadata: {
          entry: [
            { type: "setState", params: { state: "fetching_metadata" } },
            { type: "persist", params: { immediate: true } },
            { type: "reportChange", params: { state: "fetching_metadata" } }
          ],
          always: { guard: "hasMetadata", target: "downloading" }
        },
        downloading: {
          entry: [
            { type: "setState", params: { state: "downloading" } },
            { type: "persist", params: { immediate: true } },
            { type: "reportChange", params: { state: "downloading" } }
          ],
          always: [
            { guard: and(["isDone", "seedsNotAtAll"]), target: "#task.completed" },
            { guard: "isDone", target: "seeding" }
          ]
        },
        checking: {
          // The engine restarts the torrent (its upload count from 0) and hashes every piece;
          // until then nothing counts as done.
          entry: [
            "startRun",
            assign({ done: false }),
            { type: "setState", params: { state: "downloading" } },
            { type: "persist", params: { immediate: true } },
            { type: "reportChange", params: { state: "downloading" } }
          ],
          invoke: {
            id: "recheck",
            src: "recheck",
            input: ({ context }) => ({ infoHash: context.infoHash }),
            onDone: { target: "downloading" },
            onError: {
              target: "#task.error",
              actions: { type: "assignError", params: ({ event }) => describe(event.error) }
            }
          }
        },
        seeding: {
          entry: [
            { type: "setState", params: { state: "seeding" } },
            { type: "persist", params: { immediate: true } },
            { type: "reportChange", params: { state: "seeding" } }
          ],
          always: [
            // Files went missing on disk since the last run: fetch them again.
            { guard: "isNotDone", target: "downloading" },
            { guard: "ratioReached", target: "#task.completed" }
          ]
        }
      }
    },
    paused: {
      entry: [
        { type: "stopTraffic", params: { eta: null } },
        { type: "setState", params: { state: "paused" } },
        { type: "persist", params: { immediate: true } },
        { type: "reportChange", params: { state: "paused" } }
      ],
      on: {
        "task.resume": [{ guard: "hasInfoHash", target: "active" }, { target: "queued" }],
        "task.recheck": { guard: "hasInfoHash", actions: { type: "forgetPieces", params: ({ context }) => ({ infoHash: context.infoHash }) } }
      }
    },
    completed: {
      entry: [
        { type: "stopTraffic", params: { eta: 0 } },
        { type: "setState", params: { state: "completed" } },
        { type: "persist", params: { immediate: true } },
        { type: "reportChange", params: { state: "completed" } }
      ],
      on: {
        // The data is hashed again; what is missing or damaged is fetched, then it completes again.
        "task.recheck": { guard: "hasMetadata", target: "#task.active.checking" }
      }
    },
    error: {
      entry: [
        { type: "stopTraffic", params: { eta: null } },
        { type: "setState", params: { state: "error" } },
        { type: "persist", params: { immediate: true } },
        { type: "reportChange", params: { state: "error" } }
      ],
      on: {
        // Retrying is the user's way out of a full disk or an unreachable URL.
        "task.resume": [{ guard: "hasInfoHash", target: "active" }, { target: "queued", actions: "clearError" }],
        "task.recheck": { guard: "hasInfoHash", actions: { type: "forgetPieces", params: ({ context }) => ({ infoHash: context.infoHash }) } }
      }
    },
    deleting: {
      on: { "task.delete": {} },
      invoke: {
        id: "removeTask",
        src: "removeTask",
        input: ({ context, event }) => ({
          taskId: context.id,
          infoHash: context.infoHash,
          deleteFiles: event.type === "task.delete" ? event.deleteFiles : false
        }),
        onDone: { target: "deleted" },
        onError: { target: "deleted" }
      }
    },
    deleted: { type: "final" }
  }
});
function taskStateOf(snapshot) {
  if (snapshot.matches("deleting") || snapshot.matches("deleted"))
    return null;
  if (snapshot.matches("boot"))
    return "queued";
  return snapshot.context.state;
}
function taskRecordOf(context) {
  const record = {
    id: context.id,
    source: context.source,
    infoHash: context.infoHash,
    name: context.name,
    state: context.state,
    size: context.size,
    downloaded: context.downloaded,
    uploaded: context.uploaded,
    progress: context.progress,
    files: context.files,
    addedAt: context.addedAt
  };
  if (context.state === "error" && context.error !== void 0) {
    record.error = context.error;
    if (context.errorCode)
      record.errorCode = context.errorCode;
  }
  return record;
}
function taskReportOf(snapshot) {
  const state = taskStateOf(snapshot);
  if (state === null)
    return null;
  const c = snapshot.context;
  const report = {
    id: c.id,
    infoHash: c.infoHash,
    name: c.name,
    state,
    progress: c.progress,
    size: c.size,
    downloaded: c.downloaded,
    uploaded: c.uploaded,
    downloadSpeed: c.downloadSpeed,
    uploadSpeed: c.uploadSpeed,
    peers: c.peers,
    etaSeconds: c.etaSeconds,
    files: c.files
  };
  if (state === "error")
    report.error = c.error ?? "unknown error";
  return report;
}

// dist/machines/tasks.machine.js
var taskPrefix = "task:";
var taskActorId = (taskId) => `${taskPrefix}${taskId}`;
var tasksMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    task: fromPromise(async () => {
      throw new Error('actor "task" is not bound: provide it in src/system/implementations.ts');
    }),
    /** The tasks tasks.json holds now, as task inputs. */
    loadTasks: fromPromise(async () => {
      throw new Error('actor "loadTasks" is not bound: provide it in src/system/implementations.ts');
    })
  },
  actions: {
    logUnknownTask: (_, _params) => {
    },
    logTaskCrash: (_, _params) => {
    }
  }
}).createMachine({
  id: "tasks",
  context: ({ input }) => ({ seedRatio: input.seedRatio, taskIds: [] }),
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "loadTasks",
        src: "loadTasks",
        input: ({ context }) => ({ seedRatio: context.seedRatio }),
        onDone: {
          target: "running",
          actions: enqueueActions(({ event, enqueue }) => {
            const ids = [];
            for (const input of event.output) {
              if (ids.includes(input.taskId))
                continue;
              enqueue.spawnChild("task", { id: taskActorId(input.taskId), systemId: taskActorId(input.taskId), input });
              ids.push(input.taskId);
            }
            enqueue.assign({ taskIds: ids });
          })
        },
        // tasks.json could not be read at all (a corrupt file has already been moved aside):
        // run without the old tasks rather than refuse new ones.
        onError: { target: "running" }
      }
      // Actions that arrive while loading wait for the tasks on disk: the server resends them.
    },
    running: {
      on: {
        "tasks.add": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (context.taskIds.includes(event.taskId))
              return;
            const input = { taskId: event.taskId, source: event.source, seedRatio: context.seedRatio, addedAt: event.addedAt };
            enqueue.spawnChild("task", { id: taskActorId(event.taskId), systemId: taskActorId(event.taskId), input });
            enqueue.assign({ taskIds: [...context.taskIds, event.taskId] });
          })
        },
        "tasks.command": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (!context.taskIds.includes(event.taskId)) {
              enqueue({ type: "logUnknownTask", params: { taskId: event.taskId, what: event.what } });
              return;
            }
            enqueue.sendTo(taskActorId(event.taskId), event.command);
          })
        },
        // A deleted task's actor reaches its final state: drop it.
        "xstate.done.actor.*": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice("xstate.done.actor.".length);
            if (!id.startsWith(taskPrefix))
              return;
            enqueue(stopChild(id));
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskActorId(taskId) !== id) });
          })
        },
        // A task actor that throws is a bug; it must not take the other tasks down. Its record in
        // tasks.json stays, so the next start resumes it.
        "xstate.error.actor.*": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice("xstate.error.actor.".length);
            if (!id.startsWith(taskPrefix))
              return;
            const error = event.error;
            enqueue({ type: "logTaskCrash", params: { taskId: id.slice(taskPrefix.length), error: error instanceof Error ? error.message : String(error) } });
            enqueue(stopChild(id));
            enqueue.assign({ taskIds: context.taskIds.filter((taskId) => taskActorId(taskId) !== id) });
          })
        }
      }
    }
  }
});

// dist/machines/upgrade.machine.js
var errorText = (error) => error instanceof Error ? error.message : String(error);
var failure = (context, offer, error) => ({
  outcome: "failure",
  fromVersion: context.currentVersion,
  toVersion: offer.targetVersion,
  error
});
var manualDue = (context, event) => context.manualAfter !== void 0 && event.type === "upgrade.sync" && (event.cycle ?? Number.POSITIVE_INFINITY) > context.manualAfter;
var offerOf = (event) => event.type === "upgrade.sync" ? event.offer : void 0;
var upgradeMachine = setup({
  types: {
    context: {},
    events: {},
    input: {}
  },
  actors: {
    download: fromPromise(async () => {
      throw new Error("upgrade: download is not bound");
    }),
    install: fromPromise(async () => {
      throw new Error("upgrade: install is not bound");
    }),
    report: fromPromise(async () => {
      throw new Error("upgrade: report is not bound");
    })
  },
  actions: {
    /** Exit with 75 so the supervisor starts the version `versions/current` now names. */
    exitForRestart: (_, _params) => {
    },
    /** Drop the remembered targets from the state dir: the server's flag is down. */
    forgetReported: () => {
    },
    /** Ask the control plane for a sync now (`media-agent update`). */
    requestSync: () => {
    },
    log: (_, _params) => {
    }
  },
  guards: {
    flagDown: ({ event }) => event.type === "upgrade.sync" && !event.requested,
    noOffer: ({ event }) => event.type === "upgrade.sync" && event.offer === void 0,
    alreadyReported: ({ context, event }) => {
      const offer = offerOf(event);
      return !manualDue(context, event) && offer !== void 0 && context.reported.includes(offer.targetVersion);
    },
    isCurrent: ({ context, event }) => offerOf(event)?.targetVersion === context.currentVersion,
    inContainer: ({ context }) => context.supervisor === "container",
    noSupervisor: ({ context }) => context.supervisor === "none",
    hasUnposted: ({ context }) => context.queue.length > 0,
    justInstalled: ({ context }) => context.justInstalled !== void 0
  },
  delays: {
    reportRetry: 5e3
  }
}).createMachine({
  id: "upgrade",
  description: "Self-upgrade: one result per requested targetVersion (noop, failure or, from the new version, success); install side by side and exit 75 for the supervisor.",
  context: ({ input }) => ({
    currentVersion: input.currentVersion,
    supervisor: input.supervisor,
    reported: [...input.reported ?? []],
    queue: [...input.unposted ?? []],
    justInstalled: input.justInstalled,
    offer: void 0,
    artifactPath: void 0,
    manualAfter: void 0,
    last: void 0,
    attempts: 0,
    forgetInFlight: false
  }),
  initial: "boot",
  // The flag seen down in any state (idle handles it itself): the server has its result, or
  // withdrew the request, so a later request for the same target is a new one.
  on: {
    "upgrade.sync": {
      guard: "flagDown",
      actions: [assign({ reported: [] }), "forgetReported"]
    }
  },
  states: {
    boot: {
      always: [
        { guard: "hasUnposted", target: "reporting" },
        { guard: "justInstalled", target: "confirming" },
        { target: "idle" }
      ]
    },
    // The version just installed: its success counts once it has registered with the server.
    confirming: {
      on: {
        "upgrade.registered": {
          target: "reporting",
          actions: assign(({ context }) => ({
            queue: [...context.queue, { outcome: "success", fromVersion: context.justInstalled.fromVersion, toVersion: context.justInstalled.toVersion }],
            justInstalled: void 0
          }))
        }
      }
    },
    idle: {
      on: {
        "upgrade.manual": {
          actions: [assign({ manualAfter: ({ event }) => event.afterCycle }), "requestSync"]
        },
        "upgrade.sync": [
          {
            guard: "flagDown",
            actions: [
              assign(({ context, event }) => ({
                reported: [],
                ...manualDue(context, event) ? { manualAfter: void 0, last: { seq: context.attempts + 1, outcome: "none" }, attempts: context.attempts + 1 } : {}
              })),
              "forgetReported"
            ]
          },
          {
            // protocol.md 1: `upgrade` is present with the flag; without it there is no target to report on.
            guard: "noOffer",
            actions: [
              assign(({ context, event }) => ({
                ...manualDue(context, event) ? { manualAfter: void 0, last: { seq: context.attempts + 1, outcome: "failure", error: "the server requests an upgrade but offers no artifact" }, attempts: context.attempts + 1 } : {}
              })),
              { type: "log", params: { level: "warn", msg: "the server requests an upgrade without an offer (targetVersion, artifactUrl, sha256); nothing to apply" } }
            ]
          },
          // The result for this target is already in: the flag is just not down yet (no loop).
          { guard: "alreadyReported" },
          {
            guard: "isCurrent",
            target: "reporting",
            actions: assign(({ context, event }) => ({
              manualAfter: void 0,
              queue: [...context.queue, { outcome: "noop", fromVersion: context.currentVersion, toVersion: offerOf(event).targetVersion }]
            }))
          },
          {
            guard: "inContainer",
            target: "reporting",
            actions: assign(({ context, event }) => ({ manualAfter: void 0, queue: [...context.queue, failure(context, offerOf(event), "managed externally")] }))
          },
          {
            guard: "noSupervisor",
            target: "reporting",
            actions: assign(({ context, event }) => ({
              manualAfter: void 0,
              queue: [...context.queue, failure(context, offerOf(event), "no supervisor would restart media-agent after exit 75 (run it under systemd, or set MEDIA_AGENT_SUPERVISOR=restart-on-75)")]
            }))
          },
          {
            target: "downloading",
            actions: assign(({ event }) => ({ manualAfter: void 0, offer: offerOf(event) }))
          }
        ]
      }
    },
    downloading: {
      entry: { type: "log", params: ({ context }) => ({ level: "info", msg: "downloading the upgrade artifact", data: { targetVersion: context.offer.targetVersion } }) },
      invoke: {
        id: "download",
        src: "download",
        input: ({ context }) => ({ offer: context.offer }),
        onDone: { target: "installing", actions: assign({ artifactPath: ({ event }) => event.output.artifactPath }) },
        onError: {
          target: "reporting",
          actions: assign(({ context, event }) => ({ queue: [...context.queue, failure(context, context.offer, errorText(event.error))], offer: void 0 }))
        }
      }
    },
    installing: {
      invoke: {
        id: "install",
        src: "install",
        input: ({ context }) => ({ offer: context.offer, artifactPath: context.artifactPath, fromVersion: context.currentVersion }),
        onDone: "restarting",
        onError: {
          target: "reporting",
          actions: assign(({ context, event }) => ({ queue: [...context.queue, failure(context, context.offer, errorText(event.error))], offer: void 0, artifactPath: void 0 }))
        }
      }
    },
    // `versions/current` names the new version: the old process reports nothing; the new one
    // posts `success` once it has registered, or the next start rolls it back (docs/upgrade.md).
    restarting: {
      entry: [
        assign(({ context }) => ({ last: { seq: context.attempts + 1, outcome: "applied", targetVersion: context.offer.targetVersion }, attempts: context.attempts + 1 })),
        { type: "exitForRestart", params: ({ context }) => ({ toVersion: context.offer.targetVersion }) }
      ]
    },
    reporting: {
      on: {
        "upgrade.sync": { guard: "flagDown", actions: [assign({ reported: [], forgetInFlight: true }), "forgetReported"] }
      },
      invoke: {
        id: "report",
        src: "report",
        input: ({ context }) => ({ result: context.queue[0] }),
        onDone: {
          target: "reported",
          actions: assign(({ context }) => {
            const result = context.queue[0];
            return {
              queue: context.queue.slice(1),
              reported: context.forgetInFlight || context.reported.includes(result.toVersion) ? context.reported : [...context.reported, result.toVersion],
              forgetInFlight: false,
              offer: void 0,
              artifactPath: void 0,
              attempts: context.attempts + 1,
              last: { seq: context.attempts + 1, outcome: result.outcome, targetVersion: result.toVersion, ...result.error === void 0 ? {} : { error: result.error } }
            };
          })
        },
        onError: {
          target: "reportBackoff",
          actions: { type: "log", params: ({ event }) => ({ level: "warn", msg: "posting the upgrade result failed; retrying", data: { error: errorText(event.error) } }) }
        }
      }
    },
    reported: {
      always: [{ guard: "hasUnposted", target: "reporting" }, { guard: "justInstalled", target: "confirming" }, { target: "idle" }]
    },
    // The result is decided and kept in the state dir; only the post is retried.
    reportBackoff: {
      on: {
        "upgrade.sync": { guard: "flagDown", actions: [assign({ reported: [], forgetInFlight: true }), "forgetReported"] }
      },
      after: { reportRetry: "reporting" }
    }
  }
});
function upgradeStatusOf(snapshot) {
  return {
    state: snapshot.value,
    currentVersion: snapshot.context.currentVersion,
    supervisor: snapshot.context.supervisor,
    ...snapshot.context.offer ? { targetVersion: snapshot.context.offer.targetVersion } : {},
    ...snapshot.context.last ? { last: snapshot.context.last } : {}
  };
}

// dist/machines/encoder-choice.js
var hardwareEncoderOrder = ["h264_nvenc", "h264_qsv", "h264_vaapi", "h264_videotoolbox"];
function isHardwareEncoder(name) {
  return hardwareEncoderOrder.includes(name);
}
function testedCandidates(detection) {
  return detection.hwAccel.candidates.map((candidate) => {
    const cap = detection.caps[candidate.encoder];
    return cap === void 0 ? candidate : { ...candidate, maxHeight: cap };
  });
}
function chooseEncoder(preference, candidates, limits, unhealthy = {}) {
  const usable = (encoder) => candidates.find((candidate) => candidate.encoder === encoder && candidate.ok && unhealthy[encoder] === void 0);
  const software = { encoder: "libx264", maxHeight: limits.softwareMaxHeight };
  if (preference === "libx264")
    return software;
  if (preference !== "auto") {
    const forced = usable(preference);
    if (forced)
      return { encoder: preference, maxHeight: forced.maxHeight ?? 1080 };
    const tried = candidates.find((candidate) => candidate.encoder === preference);
    const why = unhealthy[preference] !== void 0 ? `it failed in a session (${unhealthy[preference]})` : tried ? `its test encode failed (${tried.error ?? "no error text"})` : "this ffmpeg does not have it";
    return { ...software, warning: `[transcode] encoder = "${preference}" is not usable: ${why}; using libx264` };
  }
  for (const encoder of hardwareEncoderOrder) {
    const found = usable(encoder);
    if (found)
      return { encoder, maxHeight: found.maxHeight ?? 1080 };
  }
  return software;
}
function effectiveChoice(preference, detection, limits, unhealthy) {
  const chosen = detection.hwAccel.chosenEncoder;
  if (Object.keys(unhealthy).length === 0 && (chosen === "libx264" || isHardwareEncoder(chosen))) {
    return { encoder: chosen, maxHeight: detection.hwAccel.maxTranscodeHeight || limits.softwareMaxHeight };
  }
  return chooseEncoder(preference, testedCandidates(detection), limits, unhealthy);
}
function hwAccelChange(before, after) {
  if (!before)
    return `diagnostic ready (encoder ${after.chosenEncoder})`;
  const changes = [];
  if (before.chosenEncoder !== after.chosenEncoder || before.maxTranscodeHeight !== after.maxTranscodeHeight) {
    changes.push(`chosen encoder ${before.chosenEncoder} (cap ${before.maxTranscodeHeight}p) -> ${after.chosenEncoder} (cap ${after.maxTranscodeHeight}p)`);
  }
  const results = (d) => new Map(d.candidates.map((candidate) => [candidate.encoder, candidate.ok]));
  const was = results(before);
  for (const [encoder, ok] of results(after)) {
    if (was.get(encoder) !== ok)
      changes.push(`${encoder} ${ok ? "passes" : "fails"} its test encode${was.has(encoder) ? "" : " (new)"}`);
  }
  for (const encoder of was.keys())
    if (!after.candidates.some((candidate) => candidate.encoder === encoder))
      changes.push(`${encoder} no longer listed`);
  if (before.ffmpegPath !== after.ffmpegPath || before.ffmpegVersion !== after.ffmpegVersion)
    changes.push(`ffmpeg ${after.ffmpegVersion || "?"} at ${after.ffmpegPath || "?"}`);
  if (before.error === void 0 !== (after.error === void 0))
    changes.push(after.error === void 0 ? "ffmpeg runs again" : "ffmpeg no longer runs");
  const same = (a, b) => a.length === b.length && a.every((item, i) => item === b[i]);
  if (!same(before.encoders, after.encoders))
    changes.push(`encoders compiled in: ${after.encoders.join(", ")}`);
  const devices = (d) => d.devices.map((device) => `${device.path} ${device.driver}${device.error === void 0 ? "" : " (not usable)"}`);
  if (!same(devices(before), devices(after)))
    changes.push(`devices: ${devices(after).join(", ") || "none"}`);
  if (!same(before.drivers, after.drivers))
    changes.push(`drivers: ${after.drivers.join(", ") || "none"}`);
  return changes.length > 0 ? changes.join("; ") : void 0;
}

// dist/machines/encoders.machine.js
var encodersMachine = setup({
  types: {
    context: {},
    events: {},
    input: {}
  },
  actors: {
    detect: fromPromise(async () => {
      throw new Error("detect is not bound");
    })
  },
  guards: {
    hasMarks: ({ context }) => Object.keys(context.unhealthy).length > 0,
    isNewFailure: ({ context, event }) => event.type === "encoders.failed" && isHardwareEncoder(event.encoder) && context.unhealthy[event.encoder] === void 0
  },
  actions: {
    // Bound in encoders-part.ts: the log lines. `first` is true for the start-up probe only.
    announce: (_, _params) => {
    },
    announceProbeError: (_, _params) => {
    },
    reportUnhealthy: (_, _params) => {
    },
    recordProbeError: assign(({ context, event }) => {
      const error = event.error;
      return { probes: context.probes + 1, probeError: error instanceof Error ? error.message : String(error) };
    }),
    markUnhealthy: assign({
      unhealthy: ({ context, event }) => event.type === "encoders.failed" ? { ...context.unhealthy, [event.encoder]: event.reason } : context.unhealthy
    })
  },
  delays: {
    reprobeAfterFailure: ({ context }) => context.reprobeAfterFailureMs
  }
}).createMachine({
  id: "encoders",
  description: "Hardware encoder detection (bounded), the hwAccel diagnostic, and unhealthy marks after a session failure until the next probe.",
  context: ({ input }) => ({
    preference: input.preference,
    reprobeAfterFailureMs: input.reprobeAfterFailureMs,
    detection: void 0,
    unhealthy: {},
    probes: 0,
    probeError: void 0
  }),
  initial: "probing",
  states: {
    probing: {
      invoke: {
        id: "detect",
        src: "detect",
        input: ({ context }) => ({ preference: context.preference }),
        onDone: {
          target: "ready",
          actions: [
            assign({ detection: ({ event }) => event.output, unhealthy: () => ({}), probes: ({ context }) => context.probes + 1, probeError: () => void 0 }),
            { type: "announce", params: ({ context }) => ({ detection: context.detection, first: context.probes === 1 }) }
          ]
        },
        // A probe that failed as a whole proves nothing about a marked encoder: it stays marked
        // and is tried again after the same delay.
        onError: [
          { guard: "hasMarks", target: "degraded", actions: ["recordProbeError", { type: "announceProbeError", params: ({ context }) => ({ error: context.probeError ?? "unknown" }) }] },
          { target: "ready", actions: ["recordProbeError", { type: "announceProbeError", params: ({ context }) => ({ error: context.probeError ?? "unknown" }) }] }
        ]
      }
    },
    ready: {
      on: {
        "encoders.failed": {
          guard: "isNewFailure",
          target: "degraded",
          actions: ["markUnhealthy", { type: "reportUnhealthy", params: ({ context, event }) => ({ encoder: event.encoder, reason: event.reason, unhealthy: context.unhealthy }) }]
        },
        "encoders.reprobe": { target: "probing" }
      }
    },
    degraded: {
      after: { reprobeAfterFailure: { target: "probing" } },
      on: {
        "encoders.failed": {
          guard: "isNewFailure",
          actions: ["markUnhealthy", { type: "reportUnhealthy", params: ({ context, event }) => ({ encoder: event.encoder, reason: event.reason, unhealthy: context.unhealthy }) }]
        },
        "encoders.reprobe": { target: "probing" }
      }
    }
  }
});

// dist/machines/funnel.machine.js
function funnelRestartDelayMs(context) {
  const exponent = Math.min(Math.max(context.failures - 1, 0), 30);
  const delay = Math.min(context.restartMaxMs, context.restartBaseMs * 2 ** exponent);
  return context.rateLimited ? Math.min(context.restartMaxMs, Math.max(delay, context.rateLimitedRestartMs)) : delay;
}
var funnelMachine = setup({
  types: {
    context: {},
    events: {},
    input: {}
  },
  actors: {
    ensureHelper: fromPromise(async () => {
      throw new Error("ensureHelper is not bound");
    }),
    helper: fromCallback(() => void 0)
  },
  guards: {
    enabled: ({ context }) => context.enabled,
    urlChanged: ({ context, event }) => event.type === "funnel.helper.ready" && event.url !== context.url
  },
  actions: {
    /** Bound by the part: the sync state source and an immediate sync. */
    reportUrl: (_, _params) => {
    },
    /** One more failure: the exponent of the next backoff, and why (for status and the log). */
    countFailure: assign(({ context, event }) => ({
      failures: context.failures + 1,
      rateLimited: event.type === "funnel.helper.exited" && event.rateLimited,
      lastError: failureReason(event)
    })),
    /** Bound by the part: logs `lastError` and the delay before the restart. */
    logExit: () => {
    }
  },
  delays: {
    restart: ({ context }) => funnelRestartDelayMs(context),
    healthyReset: ({ context }) => context.healthyResetMs,
    startTimeout: ({ context }) => context.startTimeoutMs
  }
}).createMachine({
  id: "funnel",
  description: "Public tunnel supervisor: gets the helper, runs it, reports its URL, restarts it with backoff (protocol.md 7.4).",
  context: ({ input }) => ({ ...input, url: "", failures: 0, restarts: 0, rateLimited: false, lastError: void 0, helperPath: void 0 }),
  initial: "booting",
  states: {
    booting: {
      always: [{ guard: "enabled", target: "on" }, { target: "off" }]
    },
    off: {
      entry: assign({ enabled: false }),
      on: { "funnel.enable": { target: "on" } }
    },
    on: {
      entry: assign({ enabled: true }),
      initial: "preparing",
      // Leaving `on` leaves `live` too: the helper is killed and the URL cleared there.
      on: { "funnel.disable": { target: "off" } },
      states: {
        preparing: {
          invoke: {
            id: "ensureHelper",
            src: "ensureHelper",
            onDone: { target: "live", actions: assign({ helperPath: ({ event }) => event.output }) },
            onError: {
              target: "backoff",
              actions: ["countFailure", "logExit"]
            }
          }
        },
        live: {
          invoke: {
            id: "helper",
            src: "helper",
            input: ({ context }) => ({ helperPath: context.helperPath ?? "" }),
            // The binding threw while starting the process: counted like an exit.
            onError: {
              target: "backoff",
              actions: ["countFailure", "logExit"]
            }
          },
          initial: "starting",
          on: {
            "funnel.helper.exited": {
              target: "backoff",
              actions: ["countFailure", "logExit"]
            }
          },
          // The URL is cleared the moment the helper is gone, before the backoff starts.
          exit: [assign({ url: "" }), { type: "reportUrl", params: { url: "" } }],
          states: {
            starting: {
              on: {
                "funnel.helper.ready": {
                  target: "up",
                  actions: [assign({ url: ({ event }) => event.url }), { type: "reportUrl", params: ({ event }) => ({ url: event.url }) }]
                }
              },
              after: {
                startTimeout: {
                  target: "#funnel.on.backoff",
                  actions: ["countFailure", "logExit"]
                }
              }
            },
            up: {
              after: {
                // Healthy for an hour: the next failure starts the backoff at the base again.
                healthyReset: { actions: assign({ failures: 0, rateLimited: false }) }
              },
              on: {
                // The provider rotated the tunnel: the helper printed (and confirmed) a new URL.
                "funnel.helper.ready": {
                  guard: "urlChanged",
                  actions: [assign({ url: ({ event }) => event.url }), { type: "reportUrl", params: ({ event }) => ({ url: event.url }) }]
                }
              }
            }
          }
        },
        backoff: {
          after: {
            restart: { target: "preparing", actions: assign({ restarts: ({ context }) => context.restarts + 1 }) }
          }
        }
      }
    }
  }
});
function funnelStateName(value) {
  if (value === "off" || value === "booting")
    return "off";
  const on = value?.on;
  if (on === "preparing" || on === "backoff")
    return on;
  const live = on?.live;
  return live === "up" ? "up" : "starting";
}
function failureReason(event) {
  if (event.type === "funnel.helper.exited") {
    const exit = event;
    return `helper exited (${exit.signal ?? `code ${String(exit.code)}`})${exit.rateLimited ? ", rate-limited by the provider" : ""}: ${exit.stderrTail.slice(-3).join(" | ")}`;
  }
  if ("error" in event)
    return describe2(event.error);
  return "the helper gave no ready URL in time";
}
function describe2(error) {
  if (error instanceof Error)
    return `${error.code ?? error.name}: ${error.message}`;
  return String(error);
}

// dist/machines/addresses.machine.js
var addressesMachine = setup({
  types: {
    context: {},
    input: {}
  },
  actors: {
    mapPort: fromPromise(async () => {
      throw new Error("mapPort is not bound");
    })
  },
  guards: {
    upnpEnabled: ({ context }) => context.upnp
  },
  actions: {
    /** Bound by the part: the UPnP address of the next sync (undefined: none), and a sync when it changed. */
    reportUpnp: (_, _params) => {
    },
    logMappingFailed: (_, _params) => {
    }
  },
  delays: {
    refresh: ({ context }) => context.refreshMs,
    retry: ({ context }) => context.retryMs
  }
}).createMachine({
  id: "addresses",
  description: "Stream-server addresses: keeps the UPnP mapping of the stream port and reports its public IP (contract 1.11).",
  context: ({ input }) => ({ ...input, upnpIp: void 0, lastError: void 0 }),
  initial: "booting",
  states: {
    booting: {
      always: [{ guard: "upnpEnabled", target: "mapping" }, { target: "off" }]
    },
    off: {},
    mapping: {
      invoke: {
        id: "mapPort",
        src: "mapPort",
        onDone: {
          target: "mapped",
          actions: [
            assign({ upnpIp: ({ event }) => event.output.externalIp, lastError: void 0 }),
            { type: "reportUpnp", params: ({ event }) => ({ ip: event.output.externalIp }) }
          ]
        },
        onError: {
          target: "unmapped",
          actions: [
            assign({ upnpIp: void 0, lastError: ({ event }) => event.error instanceof Error ? event.error.message : String(event.error) }),
            { type: "reportUpnp", params: { ip: void 0 } },
            { type: "logMappingFailed", params: ({ event }) => ({ error: event.error instanceof Error ? event.error.message : String(event.error) }) }
          ]
        }
      }
    },
    mapped: {
      after: { refresh: { target: "mapping" } }
    },
    unmapped: {
      after: { retry: { target: "mapping" } }
    }
  }
});

// dist/machines/cache-entry.machine.js
var without = (list, item) => list.filter((entry) => entry !== item);
var cacheEntryMachine = setup({
  types: {
    context: {},
    events: {},
    input: {}
  },
  actors: {
    // Bound in src/system/cache-part.ts; these placeholders fix the types.
    acquire: fromPromise(async () => false),
    commit: fromPromise(async () => {
      throw new Error("commit is not bound");
    }),
    verify: fromPromise(async () => ({ ok: false, collision: false, reason: "verify is not bound" })),
    tidy: fromPromise(async () => {
    }),
    remove: fromPromise(async () => false)
  },
  guards: {
    foundComplete: ({ context }) => context.foundOnDisk,
    isWriter: ({ context, event }) => "sessionId" in event && event.sessionId === context.writer,
    writerLeft: ({ context }) => context.writer !== void 0 && !context.pins.includes(context.writer),
    hasPins: ({ context }) => context.pins.length > 0,
    hasWaiting: ({ context }) => context.waiting.length > 0,
    outputTrue: ({ event }) => event.output === true,
    removedWithWaiting: ({ context, event }) => event.output === true && context.waiting.length > 0,
    verifiedOk: ({ event }) => event.output?.ok === true,
    verifiedCollision: ({ event }) => {
      const output = event.output;
      return output?.ok === false && output.collision;
    }
  },
  actions: {
    answer: (_, _params) => {
    },
    logInvalid: (_, _params) => {
    },
    report: sendParent(({ context }, params) => ({
      type: "cache.entryChanged",
      key: context.key,
      bytes: context.bytes,
      lastUsedAt: context.lastUsedAt,
      evictable: params.evictable
    })),
    queue: assign({ waiting: ({ context, event }) => event.type === "entry.open" ? [...context.waiting, event.request] : context.waiting }),
    unpin: assign({ pins: ({ context, event }) => event.type === "entry.release" ? without(context.pins, event.sessionId) : context.pins }),
    clearWaiting: assign({ waiting: [] })
  }
}).createMachine({
  id: "cacheEntry",
  description: "One HLS segment cache entry: writing -> complete (idle | pinned, verified on every HIT) -> evicted | invalid",
  context: ({ input }) => ({
    key: input.key,
    bytes: input.complete ? input.bytes : 0,
    lastUsedAt: input.lastUsedAt,
    pins: [],
    writer: void 0,
    waiting: [],
    payload: void 0,
    foundOnDisk: input.complete
  }),
  initial: "start",
  states: {
    start: {
      always: [{ guard: "foundComplete", target: "complete" }, { target: "absent" }]
    },
    absent: {
      on: { "entry.open": { target: "acquiring", actions: "queue" } }
    },
    acquiring: {
      invoke: {
        id: "acquire",
        src: "acquire",
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          {
            guard: "outputTrue",
            target: "writing",
            // The first asker writes; anyone else with the same key transcodes uncached.
            actions: enqueueActions(({ context, enqueue }) => {
              const [first, ...rest] = context.waiting;
              if (!first)
                return;
              enqueue.assign({ writer: first.sessionId, pins: [first.sessionId], waiting: [], bytes: 0, lastUsedAt: first.at, payload: void 0 });
              enqueue({ type: "answer", params: { requests: [first], outcome: "write" } });
              if (rest.length > 0)
                enqueue({ type: "answer", params: { requests: rest, outcome: "bypass" } });
            })
          },
          // Another process writes this key: its writer lock stands.
          { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
        ],
        onError: { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
      },
      on: { "entry.open": { actions: "queue" } }
    },
    writing: {
      entry: { type: "report", params: { evictable: false } },
      on: {
        "entry.open": { actions: { type: "answer", params: ({ event }) => ({ requests: [event.request], outcome: "bypass" }) } },
        "entry.written": { guard: "isWriter", target: "committing", actions: assign({ payload: ({ event }) => event.payload }) },
        // The writer stopped before the last segment: no `.complete`, the entry goes.
        "entry.release": { guard: "isWriter", target: "discarding", actions: "unpin" }
      }
    },
    committing: {
      invoke: {
        id: "commit",
        src: "commit",
        input: ({ context }) => ({ key: context.key, payload: context.payload }),
        onDone: { target: "complete", actions: assign({ bytes: ({ event }) => event.output.bytes, payload: void 0 }) },
        onError: {
          target: "abandoned",
          actions: [
            assign({ payload: void 0 }),
            { type: "logInvalid", params: ({ context, event }) => ({ key: context.key, reason: `commit failed: ${event.error instanceof Error ? event.error.message : String(event.error)}` }) }
          ]
        }
      },
      on: {
        "entry.open": { actions: { type: "answer", params: ({ event }) => ({ requests: [event.request], outcome: "bypass" }) } },
        "entry.release": { actions: "unpin" }
      }
    },
    // The commit failed (a full disk): the session goes on uncached from its runs; the entry goes when it ends.
    abandoned: {
      always: { guard: "writerLeft", target: "discarding" },
      on: {
        "entry.open": { actions: { type: "answer", params: ({ event }) => ({ requests: [event.request], outcome: "bypass" }) } },
        "entry.release": { actions: "unpin" }
      }
    },
    discarding: {
      invoke: { id: "discard", src: "remove", input: ({ context }) => ({ key: context.key }), onDone: "gone", onError: "gone" },
      on: { "entry.open": { actions: { type: "answer", params: ({ event }) => ({ requests: [event.request], outcome: "bypass" }) } } }
    },
    gone: { type: "final" },
    complete: {
      initial: "settle",
      on: { "entry.release": { actions: "unpin" } },
      states: {
        // Where a complete entry goes after any step: tidy a departed writer, serve the queue, or rest.
        settle: {
          always: [
            { guard: "writerLeft", target: "tidying" },
            { guard: "hasWaiting", target: "verifying" },
            { guard: "hasPins", target: "pinned" },
            { target: "idle" }
          ]
        },
        idle: {
          entry: { type: "report", params: { evictable: true } },
          on: {
            "entry.open": { target: "verifying", actions: "queue" },
            "entry.evict": { target: "#cacheEntry.evicting" }
          }
        },
        pinned: {
          entry: { type: "report", params: { evictable: false } },
          on: {
            "entry.open": { target: "verifying", actions: "queue" },
            "entry.release": { target: "settle", actions: "unpin" }
          }
        },
        // VerifyComplete on every HIT, before it is served.
        verifying: {
          invoke: {
            id: "verify",
            src: "verify",
            input: ({ context }) => ({ key: context.key, source: context.waiting[0].source }),
            onDone: [
              {
                guard: "verifiedOk",
                target: "settle",
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const output = event.output;
                  const hits = context.waiting.filter((request) => request.source === output.source);
                  enqueue({ type: "answer", params: { requests: hits, outcome: "hit" } });
                  const others = context.waiting.filter((request) => !hits.includes(request));
                  if (others.length > 0)
                    enqueue({ type: "answer", params: { requests: others, outcome: "collision" } });
                  enqueue.assign({
                    pins: [...context.pins, ...hits.map((request) => request.sessionId)],
                    lastUsedAt: Math.max(context.lastUsedAt, ...hits.map((request) => request.at)),
                    waiting: []
                  });
                })
              },
              {
                // A key collision: the entry is another source's; it stays, the asker goes uncached.
                guard: "verifiedCollision",
                target: "settle",
                actions: enqueueActions(({ context, enqueue }) => {
                  enqueue({ type: "answer", params: { requests: context.waiting, outcome: "collision" } });
                  enqueue.assign({ waiting: [] });
                })
              },
              {
                target: "#cacheEntry.invalid",
                actions: { type: "logInvalid", params: ({ context, event }) => ({ key: context.key, reason: event.output.reason ?? "verification failed" }) }
              }
            ],
            onError: {
              target: "#cacheEntry.invalid",
              actions: { type: "logInvalid", params: ({ context, event }) => ({ key: context.key, reason: event.error instanceof Error ? event.error.message : String(event.error) }) }
            }
          },
          on: { "entry.open": { actions: "queue" } }
        },
        // The writer ended after its commit: its run directories go and the lock is dropped.
        tidying: {
          invoke: {
            id: "tidy",
            src: "tidy",
            input: ({ context }) => ({ key: context.key }),
            onDone: { target: "settle", actions: assign({ writer: void 0 }) },
            onError: { target: "settle", actions: assign({ writer: void 0 }) }
          },
          on: { "entry.open": { actions: "queue" } }
        }
      }
    },
    // Failed VerifyComplete: removed, and the session that asked re-encodes into a fresh entry.
    invalid: {
      entry: [{ type: "report", params: { evictable: false } }, assign({ pins: [], bytes: 0 })],
      invoke: {
        id: "removeInvalid",
        src: "remove",
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          { guard: "removedWithWaiting", target: "acquiring" },
          // Not removed (a live writer elsewhere took the key): whoever asked transcodes uncached.
          { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
        ],
        onError: { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
      },
      on: { "entry.open": { actions: "queue" } }
    },
    evicting: {
      invoke: {
        id: "evict",
        src: "remove",
        input: ({ context }) => ({ key: context.key }),
        onDone: [
          { guard: "removedWithWaiting", target: "acquiring" },
          { guard: "outputTrue", target: "evicted" },
          { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
        ],
        onError: { target: "gone", actions: [{ type: "answer", params: ({ context }) => ({ requests: context.waiting, outcome: "bypass" }) }, "clearWaiting"] }
      },
      on: { "entry.open": { actions: "queue" } }
    },
    evicted: { type: "final" }
  }
});

// dist/machines/cache-shard.machine.js
var entryPrefix = "cacheEntry:";
var cacheEntryActorId = (key) => `${entryPrefix}${key}`;
var cacheShardActorId = (key) => `cacheShard:${key.slice(0, 2)}`;
var childOf = (self, id) => self.getSnapshot().children[id];
var liveChild = (self, id) => {
  const child = childOf(self, id);
  return child !== void 0 && child.getSnapshot().status === "active" ? child : void 0;
};
var cacheShardMachine = setup({
  types: { events: {} },
  actors: { entry: cacheEntryMachine }
}).createMachine({
  id: "cacheShard",
  description: "A slice of the cache entries (by the key's first two hex characters): spawns, forwards to and stops cacheEntry:<key> actors",
  initial: "running",
  states: {
    running: {
      on: {
        "shard.load": {
          actions: enqueueActions(({ self, event, enqueue }) => {
            for (const input of event.entries) {
              const id = cacheEntryActorId(input.key);
              if (!childOf(self, id))
                enqueue.spawnChild("entry", { id, systemId: id, input });
            }
          })
        },
        "shard.open": {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = cacheEntryActorId(event.key);
            if (!liveChild(self, id)) {
              if (childOf(self, id))
                enqueue(stopChild(id));
              enqueue.spawnChild("entry", { id, systemId: id, input: { key: event.key, complete: false, bytes: 0, lastUsedAt: event.request.at } });
            }
            enqueue.sendTo(id, { type: "entry.open", request: event.request });
          })
        },
        "shard.forward": {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = cacheEntryActorId(event.key);
            if (liveChild(self, id))
              enqueue.sendTo(id, event.event);
          })
        },
        "cache.entryChanged": { actions: sendParent(({ event }) => event) },
        "xstate.done.actor.*": {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = event.type.slice("xstate.done.actor.".length);
            if (!id.startsWith(entryPrefix) || liveChild(self, id))
              return;
            enqueue(stopChild(id));
            enqueue.sendParent({ type: "cache.entryGone", key: id.slice(entryPrefix.length) });
          })
        },
        // An entry actor that throws is a bug; the others go on, and the entry is rescanned at the next start.
        "xstate.error.actor.*": {
          actions: enqueueActions(({ self, event, enqueue }) => {
            const id = event.type.slice("xstate.error.actor.".length);
            if (!id.startsWith(entryPrefix) || liveChild(self, id))
              return;
            const error = event.error;
            enqueue(stopChild(id));
            enqueue.sendParent({ type: "cache.entryGone", key: id.slice(entryPrefix.length), error: error instanceof Error ? error.message : String(error) });
          })
        }
      }
    }
  }
});

// dist/machines/cache-budget.js
function totalBytes(entries) {
  let total = 0;
  for (const entry of entries)
    total += entry.bytes;
  return total;
}
function planEviction(entries, budgetBytes, total = totalBytes(entries)) {
  if (total <= budgetBytes)
    return [];
  const candidates = entries.filter((entry) => entry.evictable).sort((a, b) => a.lastUsedAt - b.lastUsedAt || (a.key < b.key ? -1 : 1));
  const victims = [];
  let left = total;
  for (const entry of candidates) {
    if (left <= budgetBytes)
      break;
    victims.push(entry.key);
    left -= entry.bytes;
  }
  return victims;
}

// dist/machines/cache.machine.js
function toShard(enqueue, started, key, event) {
  const id = cacheShardActorId(key);
  if (!started.has(id)) {
    started.add(id);
    enqueue.spawnChild("shard", { id, systemId: id });
    enqueue.assign({ shards: [...started] });
  }
  enqueue.sendTo(id, event);
}
var cacheMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    shard: cacheShardMachine,
    /** Reaps orphans and lists the complete entries on disk. */
    scan: fromPromise(async () => []),
    /** Removes entries the budget cannot hold at load (no actor was started for them). */
    removeMany: fromPromise(async () => {
    })
  },
  actions: {
    logStats: (_, _params) => {
    },
    logEntryCrash: (_, _params) => {
    },
    logScanFailed: (_, _params) => {
    },
    toShard: enqueueActions(({ context, enqueue }, params) => toShard(enqueue, new Set(context.shards), params.key, params.event)),
    /** LRU within budget; the chosen leave the index at once (their removal is under way). */
    evictOverBudget: enqueueActions(({ context, enqueue }) => {
      if (context.totalBytes <= context.budgetBytes)
        return;
      const victims = planEviction(Object.values(context.index), context.budgetBytes, context.totalBytes);
      if (victims.length === 0)
        return;
      const index = { ...context.index };
      let total = context.totalBytes;
      const started = new Set(context.shards);
      for (const key of victims) {
        total -= index[key].bytes;
        delete index[key];
        toShard(enqueue, started, key, { type: "shard.forward", key, event: { type: "entry.evict" } });
      }
      enqueue.assign({ index, totalBytes: total });
    })
  },
  delays: {
    statsLogInterval: ({ context }) => context.statsLogIntervalMs
  }
}).createMachine({
  id: "cache",
  description: "The HLS segment cache: loads the dir, one cacheEntry:<key> actor per entry (in cacheShard:<xx> children), LRU eviction within size_gb",
  context: ({ input }) => ({ budgetBytes: input.budgetBytes, statsLogIntervalMs: input.statsLogIntervalMs, index: {}, totalBytes: 0, pending: [], loaded: [], overBudget: [], shards: [] }),
  initial: "loading",
  on: {
    "cache.open": { actions: assign({ pending: ({ context, event }) => [...context.pending, { key: event.key, request: event.request }] }) }
  },
  states: {
    loading: {
      initial: "scanning",
      states: {
        scanning: {
          invoke: {
            id: "scan",
            src: "scan",
            onDone: {
              target: "trimming",
              actions: assign(({ context, event }) => {
                const seen = /* @__PURE__ */ new Set();
                const found = event.output.filter((entry) => !seen.has(entry.key) && seen.add(entry.key));
                const overBudget = planEviction(found.map((entry) => ({ ...entry, evictable: true })), context.budgetBytes);
                const dropped = new Set(overBudget);
                return { loaded: found.filter((entry) => !dropped.has(entry.key)), overBudget };
              })
            },
            // The dir could not be read at all: run with an empty cache rather than not at all.
            onError: { target: "#cache.running", actions: { type: "logScanFailed", params: ({ event }) => ({ error: event.error instanceof Error ? event.error.message : String(event.error) }) } }
          }
        },
        trimming: {
          invoke: {
            id: "removeMany",
            src: "removeMany",
            input: ({ context }) => ({ keys: context.overBudget }),
            onDone: "#cache.running",
            onError: "#cache.running"
          }
        }
      }
    },
    running: {
      entry: enqueueActions(({ context, enqueue }) => {
        const index = {};
        let total = 0;
        const byShard = /* @__PURE__ */ new Map();
        for (const found of context.loaded) {
          index[found.key] = { key: found.key, bytes: found.bytes, lastUsedAt: found.lastUsedAt, evictable: true };
          total += found.bytes;
          const shard = cacheShardActorId(found.key);
          if (!byShard.has(shard))
            byShard.set(shard, []);
          byShard.get(shard).push({ key: found.key, complete: true, bytes: found.bytes, lastUsedAt: found.lastUsedAt });
        }
        const started = new Set(context.shards);
        for (const entries of byShard.values())
          toShard(enqueue, started, entries[0].key, { type: "shard.load", entries });
        enqueue.assign({ index, totalBytes: total, loaded: [], overBudget: [] });
        for (const item of context.pending)
          enqueue.raise({ type: "cache.open", key: item.key, request: item.request });
        enqueue.assign({ pending: [] });
      }),
      initial: "counting",
      states: {
        counting: {
          after: {
            statsLogInterval: {
              target: "counting",
              reenter: true,
              actions: { type: "logStats", params: ({ context }) => ({ entries: Object.keys(context.index).length, bytes: context.totalBytes }) }
            }
          }
        }
      },
      on: {
        "cache.open": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (!context.index[event.key])
              enqueue.assign({ index: { ...context.index, [event.key]: { key: event.key, bytes: 0, lastUsedAt: event.request.at, evictable: false } } });
            enqueue({ type: "toShard", params: { key: event.key, event: { type: "shard.open", key: event.key, request: event.request } } });
          })
        },
        "cache.release": { actions: { type: "toShard", params: ({ event }) => ({ key: event.key, event: { type: "shard.forward", key: event.key, event: { type: "entry.release", sessionId: event.sessionId } } }) } },
        "cache.written": { actions: { type: "toShard", params: ({ event }) => ({ key: event.key, event: { type: "shard.forward", key: event.key, event: { type: "entry.written", sessionId: event.sessionId, payload: event.payload } } }) } },
        // `cache clear`: every entry is asked; only idle ones go (pinned and writing never).
        "cache.clear": {
          actions: enqueueActions(({ context, enqueue }) => {
            const started = new Set(context.shards);
            for (const key of Object.keys(context.index))
              toShard(enqueue, started, key, { type: "shard.forward", key, event: { type: "entry.evict" } });
          })
        },
        "cache.entryChanged": {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const before = context.index[event.key];
              if (!before && event.evictable)
                return;
              if (before && before.bytes === event.bytes && before.lastUsedAt === event.lastUsedAt && before.evictable === event.evictable)
                return;
              enqueue.assign({
                index: { ...context.index, [event.key]: { key: event.key, bytes: event.bytes, lastUsedAt: event.lastUsedAt, evictable: event.evictable } },
                totalBytes: context.totalBytes - (before?.bytes ?? 0) + event.bytes
              });
            }),
            "evictOverBudget"
          ]
        },
        "cache.entryGone": {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (event.error !== void 0)
              enqueue({ type: "logEntryCrash", params: { key: event.key, error: event.error } });
            const gone = context.index[event.key];
            if (!gone)
              return;
            const index = { ...context.index };
            delete index[event.key];
            enqueue.assign({ index, totalBytes: context.totalBytes - gone.bytes });
          })
        }
      }
    }
  }
});

// dist/machines/vpn.machine.js
var unbound5 = (name) => fromCallback(() => {
  throw new Error(`actor "${name}" is not bound: provide it in src/system/vpn-part.ts`);
});
function failureOf(error) {
  const failure2 = error;
  return { ...failure2?.refusal ? { refusal: failure2.refusal } : {}, message: String(failure2?.message ?? error) };
}
function refusalReport(error, previous) {
  const failure2 = failureOf(error);
  return {
    // The same refusal asked again (every refusalRetryMs) is not news: said once at warn.
    level: previous.refused && previous.error === failure2.refusal ? "info" : "warn",
    msg: failure2.refusal === "slot_on_device" ? "the WireGuard slot of this account is held by another agent: run OpenVPN on its own host; torrents download in the clear" : `vpn-config refused (${failure2.refusal}): torrents download in the clear`,
    ...failure2.refusal ? { error: failure2.refusal } : {}
  };
}
var vpnMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    fetchConfig: fromPromise(() => Promise.reject(new Error("fetchConfig is not bound"))),
    tunnel: unbound5("tunnel")
  },
  delays: {
    retry: ({ context }) => context.refused ? context.settings.refusalRetryMs : doublingDelayMs(context.failures, context.settings.retryBaseMs, context.settings.retryMaxMs),
    refetch: ({ context }) => context.settings.refetchAfterMs
  },
  guards: {
    healthy: ({ context, event }) => vpnMachineHealthy(context, event),
    refusal: ({ event }) => failureOf(event.error).refusal !== void 0
  },
  actions: {
    // Bound in vpn-part.ts: the torrent engine's route, the tunnel gate, the log, a sync now.
    applyRoute: (_, _params) => {
    },
    setGate: (_, _params) => {
    },
    report: (_, _params) => {
    },
    /** Something the server must see at once (VPNActive changed): a sync now. */
    changed: (_, _params) => {
    },
    // A typed refusal (of the first fetch, or of the claim once up): the clear route, the reason logged.
    recordRefusal: assign(({ event }) => ({
      error: failureOf(event.error).refusal,
      refused: true,
      refusal: failureOf(event.error).refusal,
      failures: 0,
      route: "clear",
      exitServer: ""
    }))
  }
}).createMachine({
  id: "vpn",
  context: ({ input }) => ({
    enabled: input.enabled,
    agentId: input.agentId,
    settings: input.settings,
    route: "clear",
    privateConfig: void 0,
    exitServer: "",
    error: void 0,
    refused: false,
    refusal: void 0,
    failures: 0
  }),
  initial: "start",
  on: {
    "vpn.disable": {
      target: ".off",
      actions: assign({ enabled: false })
    }
  },
  states: {
    start: {
      always: [
        { guard: ({ context }) => context.enabled, target: "fetching", actions: [assign({ route: "tunnel" }), { type: "applyRoute", params: { route: "tunnel" } }] },
        { target: "off" }
      ]
    },
    off: {
      entry: [
        assign({ route: "clear", privateConfig: void 0, exitServer: "", error: void 0, refused: false, refusal: void 0, failures: 0 }),
        { type: "applyRoute", params: { route: "clear" } },
        { type: "report", params: { level: "info", msg: "VPN off: torrent traffic goes in the clear" } }
      ],
      on: {
        // From the moment the user asks for the tunnel, torrent traffic waits for it.
        "vpn.enable": { target: "fetching", actions: [assign({ enabled: true, route: "tunnel" }), { type: "applyRoute", params: { route: "tunnel" } }] }
      }
    },
    fetching: {
      // The route stays what it was: held for the tunnel, or the clear of an earlier typed
      // refusal until a config is accepted. A failure that is not a typed refusal never changes it.
      invoke: {
        id: "fetchConfig",
        src: "fetchConfig",
        input: ({ context }) => ({ agentId: context.agentId }),
        onDone: {
          target: "tunnel",
          actions: assign({
            privateConfig: ({ event }) => event.output.privateConfig,
            exitServer: ({ event }) => event.output.exitServer,
            error: void 0,
            refused: false,
            refusal: void 0,
            failures: 0
          })
        },
        onError: [
          {
            guard: "refusal",
            target: "failed",
            actions: [{ type: "report", params: ({ context, event }) => refusalReport(event.error, context) }, "recordRefusal", { type: "applyRoute", params: { route: "clear" } }]
          },
          {
            target: "failed",
            actions: [
              assign({ error: ({ event }) => failureOf(event.error).message, refused: false, failures: ({ context }) => context.failures + 1 }),
              {
                type: "report",
                params: ({ event }) => ({
                  level: "warn",
                  msg: "vpn-config could not be fetched; torrent traffic waits for the tunnel and the fetch is retried",
                  error: failureOf(event.error).message
                })
              }
            ]
          }
        ]
      }
    },
    tunnel: {
      entry: [assign({ route: "tunnel" }), { type: "applyRoute", params: { route: "tunnel" } }],
      invoke: {
        id: "tunnel",
        src: "tunnel",
        input: ({ context }) => ({ privateConfig: context.privateConfig ?? "" })
      },
      on: {
        "vpn.tunnelFailed": {
          target: "failed",
          actions: [
            assign({ error: ({ event }) => event.message, refused: false, failures: ({ context }) => context.failures + 1 }),
            { type: "report", params: ({ event }) => ({ level: "warn", msg: "the tunnel could not start; torrent traffic waits and the config is fetched again", error: event.message }) }
          ]
        }
      },
      initial: "connecting",
      states: {
        connecting: {
          on: { "vpn.sample": { guard: "healthy", target: "up" } },
          after: { refetch: "#vpn.fetching" }
        },
        up: {
          entry: [
            { type: "setGate", params: { open: true } },
            { type: "report", params: { level: "info", msg: "VPN up: torrent peer and tracker traffic goes through the tunnel" } },
            { type: "changed", params: { reason: "vpn up" } }
          ],
          exit: [{ type: "setGate", params: { open: false } }, { type: "changed", params: { reason: "vpn no longer up" } }],
          // Our own syncs while connecting (VPNActive false) freed the slot we claimed (protocol.md
          // vpn-config): claim it again now that we are up; another agent holding it by now means
          // the clear, as at the first fetch.
          invoke: {
            id: "claim",
            src: "fetchConfig",
            input: ({ context }) => ({ agentId: context.agentId }),
            onDone: { actions: assign({ exitServer: ({ event }) => event.output.exitServer }) },
            onError: [
              {
                guard: "refusal",
                target: "#vpn.failed",
                actions: [{ type: "report", params: ({ context, event }) => refusalReport(event.error, context) }, "recordRefusal", { type: "applyRoute", params: { route: "clear" } }]
              },
              { actions: { type: "report", params: ({ event }) => ({ level: "warn", msg: "claiming the VPN slot again failed; staying up", error: failureOf(event.error).message }) } }
            ]
          },
          on: { "vpn.sample": { guard: not("healthy"), target: "down" } }
        },
        down: {
          entry: { type: "report", params: { level: "warn", msg: "VPN down: torrent traffic waits until the tunnel is back" } },
          on: { "vpn.sample": { guard: "healthy", target: "up" } },
          after: { refetch: "#vpn.fetching" }
        }
      }
    },
    failed: {
      after: { retry: "fetching" }
    }
  }
});
function vpnMachineHealthy(context, event) {
  return event.type === "vpn.sample" && event.handshakeAgeMs !== null && event.handshakeAgeMs < context.settings.handshakeMaxAgeMs && event.retryingForMs <= context.settings.retryUnansweredMaxMs;
}
function vpnStateName(value) {
  if (value === "fetching" || value === "failed" || value === "off")
    return value;
  if (typeof value === "object" && value !== null && "tunnel" in value) {
    const inner = value.tunnel;
    if (inner === "up" || inner === "down" || inner === "connecting")
      return inner;
  }
  return "off";
}

// dist/machines/library.machine.js
function libraryRetryDelayMs(context) {
  const exponent = Math.min(Math.max(context.failures - 1, 0), 20);
  return Math.min(context.retryMaxMs, context.retryBaseMs * 2 ** exponent);
}
function isBaseMismatch(error) {
  const details = error?.details;
  return details?.status === 409 && details.serverCode === "base_mismatch";
}
function describe3(error) {
  if (error instanceof Error)
    return `${error.code ?? error.name}: ${error.message}`;
  return String(error);
}
var libraryMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    scan: fromPromise(async () => {
      throw new Error("scan is not bound");
    }),
    upload: fromPromise(async () => {
      throw new Error("upload is not bound");
    })
  },
  guards: {
    hasRoots: ({ context }) => context.roots.length > 0,
    periodicRescan: ({ context }) => context.roots.length > 0 && context.periodic && context.rescanMs > 0,
    mustUpload: ({ context, event }) => context.fullOwed || (event.output?.changes ?? 0) > 0,
    baseMismatch: ({ context, event }) => !context.fullOwed && isBaseMismatch(event.error),
    retryScan: ({ context }) => context.retry === "scan",
    scanAgain: ({ context }) => context.scanAgain,
    changedAgain: ({ context }) => context.changedAgain
  },
  actions: {
    rememberScanRequest: assign(({ context, event }) => ({
      scanAgain: true,
      fullOwed: context.fullOwed || event.type === "library.scan" && event.full === true
    })),
    rememberChange: assign({ changedAgain: true }),
    markUnreliable: assign({ periodic: true }),
    /** What failed is retried after the backoff; `library scan` waiting on this scan reports it. */
    recordFailure: assign(({ context, event }, params) => ({
      failures: context.failures + 1,
      retry: params.what,
      failedSeq: params.what === "scan" ? context.scanSeq : context.pendingSeq,
      lastOutcome: "failed",
      error: describe3(event.error)
    })),
    // Bound to the log in library-part.ts.
    logScanned: (_, _params) => {
    },
    logUploaded: (_, _params) => {
    },
    /** Reads the error and the retry delay from the context `recordFailure` just updated. */
    logFailed: (_, _params) => {
    },
    logBaseMismatch: () => {
    }
  },
  delays: {
    debounce: ({ context }) => context.debounceMs,
    rescanInterval: ({ context }) => context.rescanMs,
    backoff: ({ context }) => libraryRetryDelayMs(context)
  }
}).createMachine({
  id: "library",
  description: "Library sync: scan the library roots (index keyed by path, size, mtime; only new or changed files probed) and upload full or delta LibrarySyncs, with debounce, periodic rescan and retry backoff.",
  context: ({ input }) => ({
    ...input,
    fullOwed: true,
    baseScanId: void 0,
    scanAgain: false,
    changedAgain: false,
    scanSeq: 0,
    pendingSeq: 0,
    settledSeq: 0,
    failedSeq: 0,
    lastOutcome: void 0,
    failures: 0,
    retry: "scan",
    lastScan: void 0,
    lastUpload: void 0,
    error: void 0
  }),
  initial: "starting",
  on: {
    "library.unreliable": { actions: "markUnreliable" }
  },
  states: {
    // Scans on start (issue 16) when there is anything to scan.
    starting: {
      always: [{ guard: "hasRoots", target: "scanning" }, { target: "idle" }]
    },
    idle: {
      after: { rescanInterval: { guard: "periodicRescan", target: "scanning" } },
      on: {
        "library.scan": { guard: "hasRoots", target: "scanning", actions: "rememberScanRequest" },
        "library.changed": { guard: "hasRoots", target: "debouncing" },
        // Re-entering starts the rescan timer, which did not count while every root was watched.
        "library.unreliable": { target: "idle", reenter: true, actions: "markUnreliable" }
      }
    },
    debouncing: {
      after: { debounce: { target: "scanning" } },
      on: {
        // Re-entering restarts the debounce timer: the scan waits until the roots are quiet.
        "library.changed": { target: "debouncing", reenter: true },
        "library.scan": { target: "scanning", actions: "rememberScanRequest" }
      }
    },
    scanning: {
      entry: assign(({ context }) => ({ scanSeq: context.scanSeq + 1, scanAgain: false, changedAgain: false })),
      invoke: {
        id: "scan",
        src: "scan",
        input: ({ context }) => ({ roots: context.roots }),
        onDone: [
          {
            guard: "mustUpload",
            target: "uploading",
            actions: [
              assign(({ context, event }) => ({ lastScan: event.output, pendingSeq: context.scanSeq, error: void 0 })),
              { type: "logScanned", params: ({ event }) => ({ output: event.output }) }
            ]
          },
          {
            target: "settled",
            actions: [
              assign(({ context, event }) => ({
                lastScan: event.output,
                settledSeq: context.scanSeq,
                lastOutcome: "nothing",
                lastUpload: { mode: "delta", uploadedItems: 0, removed: 0, parts: 0, bytes: 0 },
                failures: 0,
                error: void 0
              })),
              { type: "logScanned", params: ({ event }) => ({ output: event.output }) }
            ]
          }
        ],
        onError: { target: "failed", actions: [{ type: "recordFailure", params: { what: "scan" } }, { type: "logFailed", params: { what: "scan" } }] }
      },
      on: {
        "library.scan": { actions: "rememberScanRequest" },
        "library.changed": { actions: "rememberChange" }
      }
    },
    uploading: {
      invoke: {
        id: "upload",
        src: "upload",
        input: ({ context }) => ({ scanId: context.lastScan?.scanId ?? "", full: context.fullOwed || context.baseScanId === void 0, baseScanId: context.baseScanId }),
        onDone: {
          target: "settled",
          actions: [
            assign(({ context, event }) => ({
              baseScanId: context.lastScan?.scanId,
              // A full asked for during a delta upload is still owed.
              fullOwed: context.fullOwed && event.output.mode !== "full",
              lastUpload: event.output,
              settledSeq: context.pendingSeq,
              lastOutcome: "acknowledged",
              failures: 0,
              error: void 0
            })),
            { type: "logUploaded", params: ({ context, event }) => ({ output: event.output, scanId: context.lastScan?.scanId ?? "" }) }
          ]
        },
        onError: [
          // The server lost (or never had) the base: send everything, at once (protocol.md 7.6).
          { guard: "baseMismatch", target: "uploading", reenter: true, actions: [assign({ fullOwed: true, baseScanId: void 0 }), "logBaseMismatch"] },
          { target: "failed", actions: [{ type: "recordFailure", params: { what: "upload" } }, { type: "logFailed", params: { what: "upload" } }] }
        ]
      },
      on: {
        "library.scan": { actions: "rememberScanRequest" },
        "library.changed": { actions: "rememberChange" }
      }
    },
    failed: {
      after: {
        backoff: [{ guard: "retryScan", target: "scanning" }, { target: "uploading" }]
      },
      on: {
        // A new scan supersedes the retry: its upload carries everything not yet acknowledged.
        "library.scan": { target: "scanning", actions: "rememberScanRequest" },
        "library.changed": { actions: "rememberChange" }
      }
    },
    // Where a finished scan or upload goes next: requests that arrived meanwhile come first.
    settled: {
      always: [
        { guard: "scanAgain", target: "scanning" },
        { guard: "changedAgain", target: "debouncing" },
        { target: "idle" }
      ]
    }
  }
});
function libraryStateOf(value) {
  if (value === "scanning" || value === "uploading" || value === "failed")
    return value;
  return "idle";
}

// dist/machines/session.machine.js
function sessionKindOf(session) {
  return session.PlayMethod === "hls" ? "hls" : "direct";
}
function describeError2(error) {
  if (error && typeof error === "object") {
    const { message, code } = error;
    return { message: typeof message === "string" && message !== "" ? message : String(error), code: typeof code === "string" ? code : "MA_ERR_INTERNAL" };
  }
  return { message: String(error), code: "MA_ERR_INTERNAL" };
}
function reportFor(context, state) {
  const report = { sessionId: context.session.sessionId, state, cacheHit: context.cacheHit };
  if (state === "failed")
    report.error = context.error ?? "unknown error";
  return report;
}
var unbound6 = (name) => () => {
  throw new Error(`session actor "${name}" is not bound: provide it in src/system/session-bindings.ts`);
};
var sessionMachine = setup({
  types: {
    context: {},
    input: {},
    events: {}
  },
  actors: {
    directSource: fromCallback(unbound6("directSource")),
    hlsEngine: fromCallback(unbound6("hlsEngine")),
    sessionReady: fromPromise(async () => unbound6("sessionReady")())
  },
  guards: {
    isHls: ({ context }) => context.kind === "hls"
  },
  actions: {
    /**
     * Bound to the sync report ledger. `urgent`: the server must see it at once (ready, failed,
     * ended: `controlPlane.changed`); `starting` waits for the next cycle.
     */
    publish: (_, _params) => {
    },
    log: (_, _params) => {
    },
    recordError: assign((_, params) => {
      const { message, code } = describeError2(params.error);
      return { error: message, errorCode: code };
    })
  },
  delays: {
    readinessDeadline: ({ context }) => context.readinessDeadlineMs
  }
}).createMachine({
  id: "session",
  description: "One stream session (session:<id>): open the source or start the HLS engine, announce readiness once, end when the server drops it",
  context: ({ input }) => ({
    session: input.session,
    kind: sessionKindOf(input.session),
    readinessDeadlineMs: input.readinessDeadlineMs,
    cacheHit: false
  }),
  initial: "start",
  on: {
    // From anywhere, `failed` included: leaving `direct`/`hls` stops the source or the engine.
    "session.end": {
      target: ".ended",
      actions: assign({ endReason: ({ event }) => event.reason })
    }
  },
  states: {
    start: {
      always: [{ guard: "isHls", target: "hls" }, { target: "direct" }]
    },
    direct: {
      entry: { type: "publish", params: ({ context }) => ({ report: reportFor(context, "starting"), urgent: false }) },
      invoke: {
        id: "source",
        src: "directSource",
        input: ({ context }) => ({ session: context.session }),
        onError: { target: "failed", actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) } }
      },
      on: {
        "source.failed": { target: "failed", actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) } }
      },
      initial: "opening",
      states: {
        opening: {
          on: { "source.opened": { target: "ready" } }
        },
        ready: readyStates()
      }
    },
    hls: {
      entry: { type: "publish", params: ({ context }) => ({ report: reportFor(context, "starting"), urgent: false }) },
      invoke: {
        id: "engine",
        src: "hlsEngine",
        input: ({ context }) => ({ session: context.session }),
        onError: { target: "failed", actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) } }
      },
      on: {
        "engine.failed": { target: "failed", actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) } }
      },
      initial: "waitingForReadiness",
      states: {
        waitingForReadiness: {
          // Whichever deadline comes first (ours or the engine's) ends the watcher; the other finds
          // `notReady`, which ignores it, so `mark-ready: timeout` is logged once.
          after: { readinessDeadline: { target: "notReady", actions: { type: "log", params: readinessTimeoutLog } } },
          on: {
            "engine.readinessTimeout": { target: "notReady", actions: { type: "log", params: readinessTimeoutLog } },
            "engine.ready": { target: "ready", actions: assign({ cacheHit: ({ event }) => event.cacheHit }) }
          }
        },
        // Contract 3: past the deadline no call is made; the player's HEAD probe finds readiness.
        // Readiness that still comes is reported in sync, but not announced.
        notReady: {
          on: {
            "engine.ready": { target: "ready.announcement.notAnnounced", actions: assign({ cacheHit: ({ event }) => event.cacheHit }) }
          }
        },
        ready: readyStates()
      }
    },
    failed: {
      entry: [
        { type: "log", params: ({ context }) => ({ level: "warn", msg: "stream session failed", data: { sessionId: context.session.sessionId, code: context.errorCode, error: context.error } }) },
        { type: "publish", params: ({ context }) => ({ report: reportFor(context, "failed"), urgent: true }) }
      ]
    },
    ended: {
      type: "final",
      entry: [
        { type: "log", params: ({ context }) => ({ level: "info", msg: "stream session ended", data: { sessionId: context.session.sessionId, reason: context.endReason } }) },
        { type: "publish", params: ({ context }) => ({ report: reportFor(context, "ended"), urgent: true }) }
      ]
    }
  }
});
function readinessTimeoutLog({ context }) {
  return { level: "warn", msg: "mark-ready: timeout", data: { sessionId: context.session.sessionId, deadlineMs: context.readinessDeadlineMs } };
}
function readyStates() {
  return {
    type: "parallel",
    entry: { type: "publish", params: ({ context }) => ({ report: reportFor(context, "ready"), urgent: true }) },
    states: {
      announcement: announcementStates(),
      playback: {
        initial: "idle",
        states: {
          idle: {
            on: { "media.fetched": { target: "playing" } }
          },
          playing: {
            entry: {
              type: "log",
              params: ({ context }) => ({ level: "info", msg: "stream session playing", data: { sessionId: context.session.sessionId } })
            }
          }
        }
      }
    }
  };
}
function announcementStates() {
  return {
    initial: "announcing",
    states: {
      announcing: {
        invoke: {
          id: "sessionReady",
          src: "sessionReady",
          input: ({ context }) => ({ sessionId: context.session.sessionId }),
          onDone: { target: "announced" },
          onError: {
            target: "notAnnounced",
            actions: {
              type: "log",
              params: ({ context, event }) => ({
                level: "warn",
                msg: "session-ready call failed; not retried",
                data: { sessionId: context.session.sessionId, error: describeError2(event.error).message }
              })
            }
          }
        }
      },
      announced: {},
      notAnnounced: {}
    }
  };
}
function sessionReportOf(snapshot) {
  const { context } = snapshot;
  if (snapshot.status === "done" || snapshot.matches("ended"))
    return reportFor(context, "ended");
  if (snapshot.status === "error")
    return { ...reportFor(context, "failed"), error: describeError2(snapshot.error).message };
  if (snapshot.matches("failed"))
    return reportFor(context, "failed");
  if (snapshot.matches({ direct: "ready" }) || snapshot.matches({ hls: "ready" }))
    return reportFor(context, "ready");
  return reportFor(context, "starting");
}

export {
  agentMachine,
  downlinkMachine,
  controlPlaneDelays,
  controlPlaneMachine,
  taskMachine,
  taskRecordOf,
  taskReportOf,
  tasksMachine,
  upgradeMachine,
  upgradeStatusOf,
  hardwareEncoderOrder,
  chooseEncoder,
  effectiveChoice,
  hwAccelChange,
  encodersMachine,
  funnelRestartDelayMs,
  funnelMachine,
  funnelStateName,
  addressesMachine,
  cacheEntryMachine,
  cacheShardMachine,
  cacheMachine,
  vpnMachine,
  vpnStateName,
  libraryRetryDelayMs,
  libraryMachine,
  libraryStateOf,
  sessionMachine,
  sessionReportOf
};
