// What every route of the stream server receives for one request.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from '../../log.js'
import type { RequestTarget } from './request-target.js'

export interface RouteContext {
  req: IncomingMessage
  res: ServerResponse
  target: RequestTarget
  /** Aborted when the response closes, finished or not: sources and ffmpeg stop with it. */
  signal: AbortSignal
  log: Logger
  /** True for a token minted for `scope` with the current secret, unexpired (60 s skew). */
  verifyToken: (token: string | undefined, scope: string) => boolean
}

/** A route answers the request itself; a rejection before any header becomes a status. */
export type RouteHandler = (context: RouteContext) => Promise<void>
