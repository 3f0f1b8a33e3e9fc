// Binds the pure session machine (src/machines/session.machine.ts) to the stream server's
// registry, the byte sources, the HLS engine and the session-ready call, and starts the stream
// server (docs/sessions.md, docs/stream-server.md "Wiring"). implementations.ts builds this part.
import type { Dispatcher } from 'undici'
import { fromCallback, fromPromise } from 'xstate'
import { streamServerHost } from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import { HlsUnavailableError } from '../errors.js'
import type { Logger } from '../log.js'
import { sessionMachine, type SessionEvent, type SessionInput, type SessionMediaInput, type SessionReadyInput } from '../machines/session.machine.js'
import type { StreamSession } from '../protocol/wire.js'
import type { RouteHandler } from '../server/routes/context.js'
import { createSourceRoute, createStreamServer, type StreamServer, type StreamServerOptions } from '../server/stream-server.js'
import { resolveFfmpegBinary } from '../services/ffmpeg/binaries.js'
import type { HlsSource } from '../services/hls/engine.js'
import { createHlsInputs, hlsSourceOf, type HlsInput } from '../services/hls/inputs.js'
import type { ServerApi } from '../services/http/server-api.js'
import { openDirectSource, type OpenSourceDeps } from '../services/media/direct-source.js'
import type { SessionSource, SessionSourceDeps } from '../services/media/session-source.js'
import { createSessionRegistry, type MutableSessionRegistry, type SessionEntry } from '../services/sessions/registry.js'
import type { SessionReportLedger } from '../services/sessions/report-ledger.js'
import type { Closer } from './create-system.js'

/** The HLS engine's contract (src/services/hls/engine.ts); an optional dependency of this part. */
export interface HlsEngine {
  start(
    params: { sessionId: string; session: StreamSession; source: HlsSource },
    events: {
      onReady(info: { cacheHit: boolean }): void
      onReadinessTimeout(): void
      onFailed(error: Error): void
      /** A player GOT init.mp4 or a segment (the session enters `playing` on the first). */
      onMediaFetched?(): void
    },
  ): HlsSessionHandle
  routes: RouteHandler
}

export interface HlsSessionHandle {
  stop(): Promise<void>
}

// ---- the machine, bound ------------------------------------------------------------------------

export interface SessionLogicDeps {
  logger: Logger
  registry: MutableSessionRegistry
  ledger: SessionReportLedger
  api: Pick<ServerApi, 'sessionReady'>
  /** A change the server must see now: `controlPlane.changed`. */
  changed: (reason: string) => void
  openSource: (session: StreamSession, signal: AbortSignal) => Promise<SessionSource>
  hlsEngine?: HlsEngine | undefined
  /** What an hls session's engine reads; default: `hlsSourceOf(session)` as it is. */
  hlsInput?: (session: StreamSession) => HlsInput
}

export interface SessionLogic {
  machine: typeof sessionMachine
  /**
   * Stops the source or engine of a session whose actor crashed: XState does not stop the
   * children of an actor that errors (they would be orphaned, still served and never disposed).
   */
  release(sessionId: string): void
  /** Resolves when every source dispose and engine stop started so far has finished. */
  settle(): Promise<void>
}

export function createSessionLogic(deps: SessionLogicDeps): SessionLogic {
  const log = deps.logger
  const pending = new Set<Promise<unknown>>()
  /** The cleanup of each session's running source or engine actor. */
  const running = new Map<string, () => void>()
  const hold = (sessionId: string, cleanup: () => void): (() => void) => {
    let done = false
    const once = () => {
      if (done) return
      done = true
      if (running.get(sessionId) === once) running.delete(sessionId)
      cleanup()
    }
    running.set(sessionId, once)
    return once
  }
  const track = (promise: Promise<unknown>) => {
    const tracked = promise.catch((err: unknown) => log.warn({ err }, 'stream session cleanup failed')).finally(() => pending.delete(tracked))
    pending.add(tracked)
  }

  const machine = sessionMachine.provide({
    actors: {
      directSource: fromCallback<SessionEvent, SessionMediaInput>(({ input, sendBack }) => {
        const { session } = input
        const controller = new AbortController()
        let stopped = false
        let held: { source: SessionSource; entry: SessionEntry } | undefined
        const opening = deps.openSource(session, controller.signal).then(
          (source) => {
            if (stopped) return source.dispose()
            // The first body bytes a player GETs: the session is ready (the entry exists only
            // then) and enters `playing`; once is enough.
            let playing = false
            const entry: SessionEntry = {
              session,
              source: source.source,
              onMedia: () => {
                if (playing || stopped) return
                playing = true
                sendBack({ type: 'media.fetched' })
              },
            }
            held = { source, entry }
            deps.registry.set(session.sessionId, entry)
            sendBack({ type: 'source.opened' })
            return undefined
          },
          (error: unknown) => {
            if (!stopped) sendBack({ type: 'source.failed', error })
          },
        )
        track(opening)
        return hold(session.sessionId, () => {
          stopped = true
          controller.abort()
          if (held === undefined) return
          deps.registry.delete(session.sessionId, held.entry)
          track(held.source.dispose())
          held = undefined
        })
      }),
      hlsEngine: fromCallback<SessionEvent, SessionMediaInput>(({ input, sendBack }) => {
        const { session } = input
        const engine = deps.hlsEngine
        if (engine === undefined) {
          sendBack({ type: 'engine.failed', error: new HlsUnavailableError('HLS transcoding is not available in this build') })
          return undefined
        }
        let hlsInput: HlsInput
        try {
          hlsInput = deps.hlsInput ? deps.hlsInput(session) : { source: hlsSourceOf(session), release: () => {} }
        } catch (error) {
          sendBack({ type: 'engine.failed', error })
          return undefined
        }
        let stopped = false
        // A player may GET init.mp4 or a segment a moment before the engine's readiness reaches
        // the session: `playing` then follows `engine.ready` (only `ready` takes it).
        let readySent = false
        let fetched = false
        let playingSent = false
        const playing = () => {
          if (playingSent || stopped) return
          playingSent = true
          sendBack({ type: 'media.fetched' })
        }
        let handle: HlsSessionHandle
        try {
          handle = engine.start({ sessionId: session.sessionId, session, source: hlsInput.source }, {
            onReady: (info) => {
              if (stopped) return
              readySent = true
              sendBack({ type: 'engine.ready', cacheHit: info.cacheHit })
              if (fetched) playing()
            },
            onMediaFetched: () => {
              fetched = true
              if (readySent) playing()
            },
            onReadinessTimeout: () => {
              if (!stopped) sendBack({ type: 'engine.readinessTimeout' })
            },
            onFailed: (error) => {
              if (!stopped) sendBack({ type: 'engine.failed', error })
            },
          })
        } catch (error) {
          hlsInput.release()
          throw error
        }
        return hold(session.sessionId, () => {
          stopped = true
          // Withdrawn first: from now on the loopback input answers the identical 404.
          hlsInput.release()
          track(handle.stop())
        })
      }),
      sessionReady: fromPromise<void, SessionReadyInput>(({ input }) => deps.api.sessionReady(input.sessionId)),
    },
    actions: {
      // A throw here would crash the session actor: report and carry on instead.
      publish: (_, { report, urgent }) => {
        try {
          deps.ledger.publish(report)
          if (urgent) deps.changed(`session ${report.state}`)
        } catch (err) {
          log.error({ err, sessionId: report.sessionId }, 'could not publish the session state')
        }
      },
      log: (_, { level, msg, data }) => {
        try {
          log[level](data ?? {}, msg)
        } catch {
          // a logger that throws must not take the session down
        }
      },
    },
  })

  return {
    machine,
    release: (sessionId) => running.get(sessionId)?.(),
    settle: async () => {
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}

// ---- the part: registry, logic, stream server ------------------------------------------------

export interface SessionPartOptions {
  config: Pick<AgentConfig, 'stream' | 'library' | 'downloads' | 'transcode' | 'testing'>
  logger: Logger
  api: Pick<ServerApi, 'sessionReady'>
  ledger: SessionReportLedger
  /** The signing secret in force: the config's override, else the one from register. */
  secret: () => string | undefined
  changed: (reason: string) => void
  /** The HLS engine; without it an hls session fails with MA_ERR_HLS_UNAVAILABLE. */
  hlsEngine?: HlsEngine | undefined
  /** The torrent engine's incomplete files (in-progress-file-source.ts). */
  inProgress?: SessionSourceDeps['inProgress']
  /** True once a task's file is complete on disk (`fileCompleteIn(tasks)`); HLS inputs switch to it. */
  fileComplete?: (filePath: string) => boolean
  /** Where the stream server binds; 0.0.0.0 (contract 1.11) unless a test says loopback. */
  streamHost?: string
  /** Extra trust for debrid links (tests with a self-signed upstream), or a dispatcher. */
  ca?: SessionSourceDeps['ca']
  dispatcher?: Dispatcher
  /** /metrics: the stream server reports every request here (services/metrics). */
  metrics?: StreamServerOptions['metrics']
}

export interface SessionPart {
  /** The root's `session` actor logic. */
  logic: typeof sessionMachine
  /** See SessionLogic.release: call when the root reports a session actor crashed. */
  release(sessionId: string): void
  sessionInput: Omit<SessionInput, 'session'>
  registry: MutableSessionRegistry
  server: StreamServer
  closers: Closer[]
}

/** Starts the stream server (throws MA_ERR_STREAM_LISTEN) and binds the session machine. */
export async function startSessionPart(options: SessionPartOptions): Promise<SessionPart> {
  const { config } = options
  const logger = options.logger.child({ component: 'sessions' })
  const registry = createSessionRegistry()
  let ffmpegPath: string | undefined
  try {
    ffmpegPath = resolveFfmpegBinary('ffmpeg', { configuredPath: config.transcode.ffmpegPath })
  } catch (err) {
    logger.warn({ err }, 'thumbnails are off: ffmpeg not found')
  }
  // `[stream] inline_reads = false`: every local read in the thread pool (docs/stream-server.md).
  const localFile = config.stream.inlineReads ? {} : { inlineReadBytes: 0 }
  const sourceDeps: OpenSourceDeps = {
    logger,
    localFile,
    ...(options.inProgress ? { inProgress: options.inProgress } : {}),
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  }
  // Filled once the stream server listens (it is created with the input route below).
  const listening: { server?: StreamServer } = {}
  const hlsInputs = createHlsInputs({
    localFile,
    ...(options.inProgress ? { inProgress: options.inProgress } : {}),
    ...(options.fileComplete ? { fileComplete: options.fileComplete } : {}),
    secret: options.secret,
    // ffmpeg runs on this host: the local URL (0.0.0.0 shown as 127.0.0.1).
    baseUrl: () => listening.server?.url,
  })
  const logic = createSessionLogic({
    logger,
    registry,
    ledger: options.ledger,
    api: options.api,
    changed: options.changed,
    openSource: (session, signal) => openDirectSource(session, sourceDeps, signal),
    hlsEngine: options.hlsEngine,
    hlsInput: (session) => hlsInputs.open(session),
  })
  const server = await createStreamServer({
    host: options.streamHost ?? streamServerHost,
    port: config.stream.port,
    logger: options.logger,
    sessions: registry,
    secret: options.secret,
    ...(ffmpegPath !== undefined ? { ffmpegPath } : {}),
    allowedRoots: () => [...config.library.paths, config.downloads.dir],
    routes: options.hlsEngine ? { hls: options.hlsEngine.routes, source: createSourceRoute(hlsInputs.registry) } : {},
    ...(options.metrics ? { metrics: options.metrics } : {}),
  })
  listening.server = server
  return {
    logic: logic.machine,
    release: logic.release,
    sessionInput: { readinessDeadlineMs: timing(config, 'readinessDeadlineMs') },
    registry,
    server,
    closers: [
      { name: 'streamServer', close: () => server.close() },
      // The session actors have stopped by now; their sources and engines finish stopping here.
      { name: 'sessions', close: () => logic.settle() },
    ],
  }
}
