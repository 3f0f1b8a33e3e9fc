import { setup, assign, fromCallback, fromPromise, type SnapshotFrom } from 'xstate'
import type { SessionReport, SessionReportState, StreamSession } from '../protocol/wire.js'

// One stream session, `session:<sessionId>` (design.md "The actor tree"; contract 2.1, 3, 4.3.7,
// 6.3; protocol.md 1). The root spawns it when a sync lists a new StreamSession and sends it
// `session.end` when the session leaves the list (or on `stop_session`). The I/O is in three
// named actors bound in src/system/session-bindings.ts:
//
//   directSource  opens the source (HEAD for a debrid link, open + fstat for a file), serves it
//                 through the stream server's registry while invoked, disposes it on exit
//   hlsEngine     starts the HLS engine for the session, stops it on exit
//   sessionReady  POST session-ready (best effort: one call, never retried, contract 3)
//
//   start -> direct: opening -> ready
//         -> hls:    waitingForReadiness -> ready | notReady -> ready (announcement: notAnnounced)
//   ready (parallel): announcement: announcing -> announced | notAnnounced
//                     playback:     idle -> playing (a player fetched media: init.mp4 or a segment,
//                                   or body bytes of a direct-play range)
//   any -> failed (error kept) ; any -> ended (final)
//
// `playing` is the "ready -> playing" step. It changes nothing on the wire: protocol.md's
// SessionReport has no such state, so a playing session is reported `ready` (docs/sessions.md).
//
// The source/engine actor is invoked by `direct`/`hls`, so leaving them (failed, ended) stops it:
// an ended session never holds a source or an engine.

export type SessionKind = 'direct' | 'hls'

export interface SessionInput {
  session: StreamSession
  /** The readiness watcher's deadline (contract 3, 8: 60 s). */
  readinessDeadlineMs: number
}

export interface SessionContext {
  session: StreamSession
  kind: SessionKind
  readinessDeadlineMs: number
  cacheHit: boolean
  /** Set in `failed`: what went wrong, for the sync report and the log. */
  error?: string
  errorCode?: string
  /** Why the session ended: the server stopped listing it, or a `stop_session` control. */
  endReason?: SessionEndReason
}

export type SessionEndReason = 'removed' | 'stopped'

export type SessionEvent =
  /** directSource: the source answered (HEAD or stat) and the stream server serves it. */
  | { type: 'source.opened' }
  | { type: 'source.failed'; error: unknown }
  /** hlsEngine: init.mp4 and the first segment are proven closed, or a cache HIT. */
  | { type: 'engine.ready'; cacheHit: boolean }
  /** hlsEngine: its own watcher passed the deadline (the machine's deadline may come first). */
  | { type: 'engine.readinessTimeout' }
  | { type: 'engine.failed'; error: unknown }
  /**
   * From the stream server (bound in session-bindings.ts): a player fetched media of this session,
   * init.mp4 or a segment (hls) or body bytes of a range (direct). Only `ready` takes it.
   */
  | { type: 'media.fetched' }
  /** From the root: the session left the sync list (`removed`) or a `stop_session` (`stopped`). */
  | { type: 'session.end'; reason: SessionEndReason }

export interface SessionMediaInput {
  session: StreamSession
}

export interface SessionReadyInput {
  sessionId: string
}

export type SessionLogLevel = 'debug' | 'info' | 'warn' | 'error'

/** Whether a StreamSession is transcoded (contract 2.1: `hls` selects HLS, anything else direct-plays). */
export function sessionKindOf(session: StreamSession): SessionKind {
  return session.PlayMethod === 'hls' ? 'hls' : 'direct'
}

function describeError(error: unknown): { message: string; code: string } {
  if (error && typeof error === 'object') {
    const { message, code } = error as { message?: unknown; code?: unknown }
    return { message: typeof message === 'string' && message !== '' ? message : String(error), code: typeof code === 'string' ? code : 'MA_ERR_INTERNAL' }
  }
  return { message: String(error), code: 'MA_ERR_INTERNAL' }
}

function reportFor(context: SessionContext, state: SessionReportState): SessionReport {
  const report: SessionReport = { sessionId: context.session.sessionId, state, cacheHit: context.cacheHit }
  if (state === 'failed') report.error = context.error ?? 'unknown error'
  return report
}

const unbound = (name: string) => () => {
  throw new Error(`session actor "${name}" is not bound: provide it in src/system/session-bindings.ts`)
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
    events: {} as SessionEvent,
  },
  actors: {
    directSource: fromCallback<SessionEvent, SessionMediaInput>(unbound('directSource')),
    hlsEngine: fromCallback<SessionEvent, SessionMediaInput>(unbound('hlsEngine')),
    sessionReady: fromPromise<void, SessionReadyInput>(async () => unbound('sessionReady')()),
  },
  guards: {
    isHls: ({ context }) => context.kind === 'hls',
  },
  actions: {
    /**
     * Bound to the sync report ledger. `urgent`: the server must see it at once (ready, failed,
     * ended: `controlPlane.changed`); `starting` waits for the next cycle.
     */
    publish: (_, _params: { report: SessionReport; urgent: boolean }) => {},
    log: (_, _params: { level: SessionLogLevel; msg: string; data?: Record<string, unknown> }) => {},
    recordError: assign((_, params: { error: unknown }) => {
      const { message, code } = describeError(params.error)
      return { error: message, errorCode: code }
    }),
  },
  delays: {
    readinessDeadline: ({ context }) => context.readinessDeadlineMs,
  },
}).createMachine({
  id: 'session',
  description: 'One stream session (session:<id>): open the source or start the HLS engine, announce readiness once, end when the server drops it',
  context: ({ input }) => ({
    session: input.session,
    kind: sessionKindOf(input.session),
    readinessDeadlineMs: input.readinessDeadlineMs,
    cacheHit: false,
  }),
  initial: 'start',
  on: {
    // From anywhere, `failed` included: leaving `direct`/`hls` stops the source or the engine.
    'session.end': {
      target: '.ended',
      actions: assign({ endReason: ({ event }) => event.reason }),
    },
  },
  states: {
    start: {
      always: [{ guard: 'isHls', target: 'hls' }, { target: 'direct' }],
    },
    direct: {
      entry: { type: 'publish', params: ({ context }) => ({ report: reportFor(context, 'starting'), urgent: false }) },
      invoke: {
        id: 'source',
        src: 'directSource',
        input: ({ context }) => ({ session: context.session }),
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
      on: {
        'source.failed': { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
      initial: 'opening',
      states: {
        opening: {
          on: { 'source.opened': { target: 'ready' } },
        },
        ready: readyStates(),
      },
    },
    hls: {
      entry: { type: 'publish', params: ({ context }) => ({ report: reportFor(context, 'starting'), urgent: false }) },
      invoke: {
        id: 'engine',
        src: 'hlsEngine',
        input: ({ context }) => ({ session: context.session }),
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
      on: {
        'engine.failed': { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
      },
      initial: 'waitingForReadiness',
      states: {
        waitingForReadiness: {
          // Whichever deadline comes first (ours or the engine's) ends the watcher; the other finds
          // `notReady`, which ignores it, so `mark-ready: timeout` is logged once.
          after: { readinessDeadline: { target: 'notReady', actions: { type: 'log', params: readinessTimeoutLog } } },
          on: {
            'engine.readinessTimeout': { target: 'notReady', actions: { type: 'log', params: readinessTimeoutLog } },
            'engine.ready': { target: 'ready', actions: assign({ cacheHit: ({ event }) => event.cacheHit }) },
          },
        },
        // Contract 3: past the deadline no call is made; the player's HEAD probe finds readiness.
        // Readiness that still comes is reported in sync, but not announced.
        notReady: {
          on: {
            'engine.ready': { target: 'ready.announcement.notAnnounced', actions: assign({ cacheHit: ({ event }) => event.cacheHit }) },
          },
        },
        ready: readyStates(),
      },
    },
    failed: {
      entry: [
        { type: 'log', params: ({ context }) => ({ level: 'warn' as const, msg: 'stream session failed', data: { sessionId: context.session.sessionId, code: context.errorCode, error: context.error } }) },
        { type: 'publish', params: ({ context }) => ({ report: reportFor(context, 'failed'), urgent: true }) },
      ],
    },
    ended: {
      type: 'final',
      entry: [
        { type: 'log', params: ({ context }) => ({ level: 'info' as const, msg: 'stream session ended', data: { sessionId: context.session.sessionId, reason: context.endReason } }) },
        { type: 'publish', params: ({ context }) => ({ report: reportFor(context, 'ended'), urgent: true }) },
      ],
    },
  },
})

function readinessTimeoutLog({ context }: { context: SessionContext }) {
  return { level: 'warn' as const, msg: 'mark-ready: timeout', data: { sessionId: context.session.sessionId, deadlineMs: context.readinessDeadlineMs } }
}

// `ready` of either kind: reported at once, announced with one session-ready call (contract 3,
// 6.3). A failed call is logged and never retried; the report still says ready. In parallel, the
// playback region goes to `playing` when a player first fetches media; announcing goes on
// undisturbed (a player may start before the session-ready call has answered).
function readyStates() {
  return {
    type: 'parallel' as const,
    entry: { type: 'publish' as const, params: ({ context }: { context: SessionContext }) => ({ report: reportFor(context, 'ready'), urgent: true }) },
    states: {
      announcement: announcementStates(),
      playback: {
        initial: 'idle' as const,
        states: {
          idle: {
            on: { 'media.fetched': { target: 'playing' } },
          },
          playing: {
            entry: {
              type: 'log' as const,
              params: ({ context }: { context: SessionContext }) => ({ level: 'info' as const, msg: 'stream session playing', data: { sessionId: context.session.sessionId } }),
            },
          },
        },
      },
    },
  }
}

function announcementStates() {
  return {
    initial: 'announcing' as const,
    states: {
      announcing: {
        invoke: {
          id: 'sessionReady',
          src: 'sessionReady' as const,
          input: ({ context }: { context: SessionContext }) => ({ sessionId: context.session.sessionId }),
          onDone: { target: 'announced' },
          onError: {
            target: 'notAnnounced',
            actions: {
              type: 'log' as const,
              params: ({ context, event }: { context: SessionContext; event: { error: unknown } }) => ({
                level: 'warn' as const,
                msg: 'session-ready call failed; not retried',
                data: { sessionId: context.session.sessionId, error: describeError(event.error).message },
              }),
            },
          },
        },
      },
      announced: {},
      notAnnounced: {},
    },
  }
}

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

/** What the next sync reports for a session actor in this snapshot (protocol.md 1 `sessions`). */
export function sessionReportOf(snapshot: SessionSnapshot): SessionReport {
  const { context } = snapshot
  if (snapshot.status === 'done' || snapshot.matches('ended')) return reportFor(context, 'ended')
  if (snapshot.status === 'error') return { ...reportFor(context, 'failed'), error: describeError(snapshot.error).message }
  if (snapshot.matches('failed')) return reportFor(context, 'failed')
  if (snapshot.matches({ direct: 'ready' }) || snapshot.matches({ hls: 'ready' })) return reportFor(context, 'ready')
  return reportFor(context, 'starting')
}
