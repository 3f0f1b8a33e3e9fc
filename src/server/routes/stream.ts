// `/stream/<sessionId>/<fileName>?token=T`, scope `stream:<sessionId>` (protocol.md 2): direct
// play of a session whose PlayMethod is not `hls`. The file name is the player's label (it gives
// the URL an extension); the session alone decides which bytes are served, so no part of the
// URL ever reaches the file system.
import { streamMaxRanges } from '../../config/defaults.js'
import { hlsInputScope } from '../../services/hls/inputs.js'
import type { SessionEntry, SessionRegistry } from '../../services/sessions/registry.js'
import type { RouteContext } from './context.js'
import { singleParam } from './request-target.js'
import { sendNotFound } from './responses.js'
import { sendSource } from './send-source.js'

export interface StreamRouteOptions {
  sessions: SessionRegistry
  maxRanges: number
  /** The token scope of a session id; `stream:<id>` (players) unless given. */
  scope?: (sessionId: string) => string
  /** Whether an entry is served on this route; default: every session whose PlayMethod is not hls. */
  serves?: (entry: SessionEntry) => boolean
}

export function streamScope(sessionId: string): string {
  return `stream:${sessionId}`
}

const directPlayOnly = (entry: SessionEntry): boolean => entry.session.PlayMethod !== 'hls'

export function createStreamRoute(options: StreamRouteOptions) {
  const scope = options.scope ?? streamScope
  const serves = options.serves ?? directPlayOnly
  return async function streamRoute(context: RouteContext): Promise<void> {
    const { req, res, target, signal } = context
    const [, sessionId, fileName, ...rest] = target.segments
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendNotFound(req, res)
    if (sessionId === undefined || sessionId === '' || fileName === undefined || fileName === '' || rest.length > 0) return sendNotFound(req, res)
    // The token is checked before the registry is asked, so timing says nothing about sessions.
    if (!context.verifyToken(singleParam(target.query, 'token'), scope(sessionId))) return sendNotFound(req, res)
    const entry = options.sessions.get(sessionId)
    if (entry === undefined || !serves(entry)) return sendNotFound(req, res)
    const opened = await entry.source.open(signal)
    try {
      await sendSource(req, res, opened, { maxRanges: options.maxRanges, signal, ...(entry.onMedia ? { onBody: entry.onMedia } : {}) })
    } finally {
      await opened.close()
    }
  }
}

/**
 * `/source/<sessionId>/<name>?token=T`, scope `source:<sessionId>` (docs/hls.md "URL sources"):
 * the agent's own loopback input for ffmpeg, this route's code over the HLS inputs' registry, whose
 * every entry is served (they are all hls sessions, which `/stream` never serves).
 */
export function createSourceRoute(sessions: SessionRegistry) {
  return createStreamRoute({ sessions, maxRanges: streamMaxRanges, scope: hlsInputScope, serves: () => true })
}
