// What an HLS session's ffmpeg reads (contract 4.3.6; docs/hls.md "URL sources"): a DirectURL or
// a local path as they are, or a torrent file still downloading through a loopback URL of the
// agent's own stream server.
import { basename } from 'node:path'
import { hlsInputTokenTtlSeconds } from '../../config/defaults.js'
import { InternalError, SourceMissingError } from '../../errors.js'
import type { StreamSession } from '../../protocol/wire.js'
import { mintStreamToken } from '../auth/stream-token.js'
import type { ByteSource } from '../media/byte-source.js'
import { createInProgressFileSource } from '../media/in-progress-file-source.js'
import { createLocalFileSource } from '../media/local-file-source.js'
import type { SessionSourceDeps } from '../media/session-source.js'
import { createSessionRegistry, type MutableSessionRegistry, type SessionEntry } from '../sessions/registry.js'
import type { HlsSource } from './engine.js'

/** What ffmpeg reads for an HLS session: the direct link when present, else the local path. */
export function hlsSourceOf(session: StreamSession): string {
  return session.DirectURL !== undefined && session.DirectURL !== '' ? session.DirectURL : session.filePath ?? ''
}

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
  /** What the stream server's `routes.source` serves (createSourceRoute in src/server/routes/stream.ts). */
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
  const ttl = options.tokenTtlSeconds ?? hlsInputTokenTtlSeconds
  const complete = (filePath: string): boolean => options.fileComplete?.(filePath) === true

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
