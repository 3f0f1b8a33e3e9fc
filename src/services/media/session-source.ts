// Which ByteSource serves a direct-play StreamSession (contract 2.1): the DirectURL when present
// (HEAD now, at registration), else the torrent file still downloading when the engine says the
// path is one of its incomplete files, else the local file.
import type { Dispatcher } from 'undici'
import { InternalError } from '../../errors.js'
import type { Logger } from '../../log.js'
import type { StreamSession } from '../../protocol/wire.js'
import type { ByteSource } from './byte-source.js'
import { createDirectUrlSource } from './direct-url-source.js'
import { createInProgressFileSource, type InProgressFileSourceOptions } from './in-progress-file-source.js'
import { createLocalFileSource, type LocalFileSourceOptions } from './local-file-source.js'

export interface SessionSourceDeps {
  logger: Logger
  dispatcher?: Dispatcher
  ca?: string | Buffer | (string | Buffer)[]
  signal?: AbortSignal
  /** The torrent engine's view of a path: its file while incomplete, else undefined. */
  inProgress?: (filePath: string) => InProgressFileSourceOptions | undefined
  /** How local files are read (`[stream] inline_reads = false`: `{ inlineReadBytes: 0 }`). */
  localFile?: LocalFileSourceOptions
}

export interface SessionSource {
  source: ByteSource
  /** Releases what the source holds (a private HTTPS agent); call when the session ends. */
  dispose(): Promise<void>
}

/** Throws DirectUrlUnsupportedError, UpstreamError, or InternalError for a session with neither URL nor path. */
export async function createSessionSource(session: StreamSession, deps: SessionSourceDeps): Promise<SessionSource> {
  if (session.DirectURL !== undefined && session.DirectURL !== '') {
    const source = await createDirectUrlSource({
      url: session.DirectURL,
      logger: deps.logger,
      ...(deps.dispatcher === undefined ? {} : { dispatcher: deps.dispatcher }),
      ...(deps.ca === undefined ? {} : { ca: deps.ca }),
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    })
    return { source, dispose: () => source.dispose() }
  }
  if (session.filePath === undefined || session.filePath === '') {
    throw new InternalError(`stream session ${session.sessionId} has neither DirectURL nor filePath`)
  }
  const torrent = deps.inProgress?.(session.filePath)
  const source = torrent === undefined ? createLocalFileSource(session.filePath, deps.localFile) : createInProgressFileSource(torrent)
  return { source, dispose: () => Promise.resolve() }
}
