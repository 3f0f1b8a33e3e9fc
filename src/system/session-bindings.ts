import * as defaults from '../config/defaults.js'
import { basename } from 'node:path'
import { fromCallback, fromPromise } from 'xstate'
import type { Dispatcher } from 'undici'
import { streamMaxRanges, streamServerHost } from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import { HlsUnavailableError, InternalError, SourceMissingError } from '../errors.js'
import type { Logger } from '../log.js'
import { sessionMachine, type SessionEvent, type SessionInput, type SessionMediaInput, type SessionReadyInput } from '../machines/session.machine.js'
import type { SessionReport, StreamSession } from '../protocol/wire.js'
import type { RouteHandler } from '../server/routes/context.js'
import { createStreamServer, type SessionEntry, type SessionRegistry, type StreamServer, type StreamServerOptions } from '../server/stream-server.js'
import { createStreamRoute } from '../server/routes/stream.js'
import { mintStreamToken } from '../services/auth/stream-token.js'
import { resolveFfmpegBinary } from '../services/ffmpeg/binaries.js'
import type { HlsSource } from '../services/hls/engine.js'
import type { ByteSource } from '../services/media/byte-source.js'
import { createInProgressFileSource } from '../services/media/in-progress-file-source.js'
import { createLocalFileSource } from '../services/media/local-file-source.js'
import type { ServerApi } from '../services/http/server-api.js'
import { createSessionSource, type SessionSource, type SessionSourceDeps } from '../services/media/session-source.js'
import type { Closer } from './create-system.js'

// Binds the pure session machine (src/machines/session.machine.ts) to the stream server's
// registry, the byte sources, the HLS engine and the session-ready call, and starts the stream
// server (docs/sessions.md, docs/stream-server.md "Wiring"). implementations.ts builds this part.

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

// ---- the registry the stream server reads ------------------------------------------------------

export interface MutableSessionRegistry extends SessionRegistry {
  set(sessionId: string, entry: SessionEntry): void
  /** Removes the entry only when it is still `entry` (a newer one for the same id stays). */
  delete(sessionId: string, entry?: SessionEntry): void
  readonly size: number
}

export function createSessionRegistry(): MutableSessionRegistry {
  const entries = new Map<string, SessionEntry>()
  return {
    get: (sessionId) => entries.get(sessionId),
    set: (sessionId, entry) => {
      entries.set(sessionId, entry)
    },
    delete: (sessionId, entry) => {
      if (entry === undefined || entries.get(sessionId) === entry) entries.delete(sessionId)
    },
    get size() {
      return entries.size
    },
  }
}

// ---- what the next sync reports ----------------------------------------------------------------

/**
 * The `sessions` of the sync request (protocol.md 1), fed by the session actors' `publish`
 * action. A session reports its state while its actor lives; `ended` is reported until one sync
 * carrying it succeeded, then the session is left out (docs/sessions.md "Reporting").
 */
export interface SessionReportLedger {
  publish(report: SessionReport): void
  /** A session actor crashed: reported failed while the server lists it, then ended once. */
  crashed(sessionId: string, error: string): void
  /** Called when a cycle starts (SyncStateSource.collect). */
  collect(): SessionReport[]
  /** Called after every successful sync with the server's list. */
  syncSucceeded(listed: readonly StreamSession[]): void
  /** Whether a session is still starting (not ready, failed or ended); no side effect (library scans pause meanwhile, issue 16). */
  anyStarting(): boolean
  /** Calls `listener` whenever a session starts; returns the unsubscribe (library scans stop their ffprobe, issue 16). */
  onStarting(listener: () => void): () => void
}

export function createSessionReportLedger(): SessionReportLedger {
  const entries = new Map<string, { report: SessionReport; finalSent: boolean; crashed: boolean }>()
  const startListeners = new Set<() => void>()
  return {
    publish(report) {
      const wasStarting = entries.get(report.sessionId)?.report.state === 'starting'
      entries.set(report.sessionId, { report, finalSent: false, crashed: false })
      if (report.state === 'starting' && !wasStarting) for (const listener of startListeners) listener()
    },
    onStarting(listener) {
      startListeners.add(listener)
      return () => startListeners.delete(listener)
    },
    crashed(sessionId, error) {
      const cacheHit = entries.get(sessionId)?.report.cacheHit ?? false
      entries.set(sessionId, { report: { sessionId, state: 'failed', cacheHit, error }, finalSent: false, crashed: true })
    },
    collect() {
      const reports: SessionReport[] = []
      for (const entry of entries.values()) {
        if (entry.report.state === 'ended') entry.finalSent = true
        reports.push({ ...entry.report })
      }
      return reports
    },
    anyStarting() {
      for (const entry of entries.values()) if (entry.report.state === 'starting') return true
      return false
    },
    syncSucceeded(listed) {
      const ids = new Set(listed.map((session) => session.sessionId))
      for (const [sessionId, entry] of entries) {
        if (entry.finalSent) entries.delete(sessionId)
        else if (entry.crashed && !ids.has(sessionId)) {
          // No actor will say `ended` for a crashed session: say it here, once.
          entries.set(sessionId, { report: { sessionId, state: 'ended', cacheHit: entry.report.cacheHit }, finalSent: false, crashed: false })
        }
      }
    },
  }
}

// ---- sources ---------------------------------------------------------------------------------

export type OpenSourceDeps = Omit<SessionSourceDeps, 'signal'>

/**
 * The source of a direct-play session, proven to answer: a debrid link gets its one HEAD
 * (createSessionSource), a file is opened and fstat'ed (the descriptor then serves the first
 * player requests from the open-file cache). Throws what the source throws.
 */
export async function openDirectSource(session: StreamSession, deps: OpenSourceDeps, signal: AbortSignal): Promise<SessionSource> {
  const opened = await createSessionSource(session, { ...deps, signal })
  try {
    const probe = await opened.source.open(signal)
    await probe.close()
  } catch (error) {
    await opened.dispose().catch(() => undefined)
    throw error
  }
  return opened
}

/** What ffmpeg reads for an HLS session: the direct link when present, else the local path. */
export function hlsSourceOf(session: StreamSession): string {
  return session.DirectURL !== undefined && session.DirectURL !== '' ? session.DirectURL : session.filePath ?? ''
}

// ---- HLS input: a torrent file still downloading, served to the agent's own ffmpeg -----------

/**
 * Token scope of the agent's loopback input route `/source/<sessionId>/<name>`. Only the agent
 * mints it (for its own ffprobe/ffmpeg); a player's `stream:` or `hls:` token never opens it, so
 * `/stream` still never serves an hls session (docs/hls.md "URL sources").
 */
export const hlsInputScope = (sessionId: string): string => `source:${sessionId}`


export interface HlsInput {
  /** What the engine reads: the fixed path or DirectURL, or a reference minting loopback URLs. */
  source: HlsSource
  /** Withdraws the loopback input (the identical 404 from then on); idempotent. */
  release(): void
}

export interface HlsInputOptions {
  /** The torrent engine's incomplete files (tasks-part `inProgressFile`). */
  inProgress?: SessionSourceDeps['inProgress']
  /** True once every piece of a task's file is verified (it is then read from disk). */
  fileComplete?: (filePath: string) => boolean
  /** How a complete file is read (`[stream] inline_reads`). */
  localFile?: SessionSourceDeps['localFile']
  secret: () => string | undefined
  /** The stream server's local URL (`http://127.0.0.1:<port>`), known once it listens. */
  baseUrl: () => string | undefined
  now?: () => number
  tokenTtlSeconds?: number
}

export interface HlsInputs {
  /** The stream server's `routes.source` handler. */
  route: ReturnType<typeof createStreamRoute>
  registry: MutableSessionRegistry
  /** Throws when the file is in progress but no loopback URL can be made (no secret yet). */
  open(session: StreamSession): HlsInput
}

/**
 * The inputs of HLS sessions (contract 4.3.6; issue 6): a DirectURL or a local path as they are;
 * a torrent file still downloading as a loopback URL whose reads wait for (and prioritise) their
 * pieces, with Range, so ffprobe, every ffmpeg run and the subtitle extraction read real bytes
 * (the file on disk is sparse until then) and get the URL flags (reconnect, -rw_timeout).
 */
export function createHlsInputs(options: HlsInputOptions): HlsInputs {
  const registry = createSessionRegistry()
  const now = options.now ?? Date.now
  const ttl = options.tokenTtlSeconds ?? defaults.hlsInputTokenTtlSeconds
  const complete = (filePath: string): boolean => options.fileComplete?.(filePath) === true
  const route = createStreamRoute({ sessions: registry, maxRanges: streamMaxRanges, scope: hlsInputScope, serves: () => true })

  // The torrent's stream while the file is incomplete; the local file once it is complete (a
  // torrent that finished seeding leaves the engine, and a reconnecting ffmpeg must still read).
  const inputSource = (filePath: string): ByteSource => {
    const local = createLocalFileSource(filePath, options.localFile)
    return {
      label: `hls-input:${basename(filePath)}`,
      open(signal) {
        const torrent = options.inProgress?.(filePath)
        if (torrent !== undefined) return createInProgressFileSource(torrent).open(signal)
        if (complete(filePath)) return local.open(signal)
        return Promise.reject(new SourceMissingError(`${basename(filePath)} is neither downloading nor complete`, { details: { filePath } }))
      },
    }
  }

  return {
    route,
    registry,
    open(session) {
      const fixed = hlsSourceOf(session)
      const filePath = session.filePath
      const inProgress = session.DirectURL === undefined || session.DirectURL === ''
        ? (filePath !== undefined && filePath !== '' ? options.inProgress?.(filePath) : undefined)
        : undefined
      if (inProgress === undefined || filePath === undefined) return { source: fixed, release: () => {} }
      const { sessionId } = session
      const secret = options.secret()
      const base = options.baseUrl()
      if (secret === undefined || secret === '' || base === undefined) {
        throw new InternalError(`cannot serve ${basename(filePath)} (still downloading) to ffmpeg: the stream server or the signing secret is not there yet`)
      }
      const entry: SessionEntry = { session, source: inputSource(filePath) }
      registry.set(sessionId, entry)
      const path = `${base}/source/${encodeURIComponent(sessionId)}/${encodeURIComponent(basename(filePath))}`
      return {
        source: {
          id: filePath,
          current: () => {
            // Optional step of the issue: once complete, new runs read the file from disk.
            if (complete(filePath)) return filePath
            const token = mintStreamToken({ secret: options.secret() ?? secret, scope: hlsInputScope(sessionId), expiresAtSeconds: Math.floor(now() / 1000) + ttl })
            return `${path}?token=${token}`
          },
        },
        release: () => registry.delete(sessionId, entry),
      }
    },
  }
}

/**
 * `fileComplete` for createHlsInputs from the tasks part: the engine's live view first (it knows
 * the moment the last piece is verified), then the task's last report (a finished torrent has left
 * the engine; its files stay).
 */
export function fileCompleteIn(tasks: {
  reports(): readonly { infoHash?: string; files: readonly { path: string; progress: number }[] }[]
  engine: { stats(infoHash: string): { files: readonly { path: string; progress: number }[] } | undefined }
}): (filePath: string) => boolean {
  return (filePath) => tasks.reports().some((task) => {
    const live = task.infoHash ? tasks.engine.stats(task.infoHash)?.files.find((file) => file.path === filePath) : undefined
    const file = live ?? task.files.find((candidate) => candidate.path === filePath)
    return file !== undefined && file.progress >= 1
  })
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
    routes: options.hlsEngine ? { hls: options.hlsEngine.routes, source: hlsInputs.route } : {},
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
