// GET/HEAD /hls/<sessionId>/<T>/<name> (protocol.md 2, contract 4.2; docs/hls.md). The token is
// checked before anything else (scope `hls:<sessionId>`), so timing does not tell whether a
// session exists; every miss is the stream server's one 404. What a name resolves to (playlists,
// init.mp4, segments, subtitles, waiting for ffmpeg or restarting it) is the HLS engine's.
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { hlsReadChunkBytes } from '../../config/defaults.js'
import type { RouteContext, RouteHandler } from './context.js'
import { commonHeaders, sendNotFound } from './responses.js'

export type HlsResource =
  | { kind: 'text'; body: string; contentType: string }
  | { kind: 'file'; path: string; contentType: string; immutable: boolean }

export interface HlsResourceProvider {
  /** undefined: a miss (unknown session, unknown name, not written yet): the one 404. */
  resolve(sessionId: string, name: string, signal: AbortSignal): Promise<HlsResource | undefined>
  /** A GET of a file resource (init.mp4, a segment, a subtitle file) is being answered with its body. */
  served?(sessionId: string, name: string): void
}

export const hlsScope = (sessionId: string): string => `hls:${sessionId}`

/** Names a session can serve; anything else is a miss before the engine is asked. */
export const hlsNamePattern = /^(?:master\.m3u8|index\.m3u8|init\.mp4|seg-(?:0|[1-9]\d{0,8})\.m4s|sub-(?:0|[1-9]\d{0,3})\.(?:m3u8|vtt))$/

export function createHlsRoute(provider: HlsResourceProvider): RouteHandler {
  return async (context: RouteContext) => {
    const { req, res, target } = context
    const [, sessionId, token, name, ...rest] = target.segments
    if ((req.method !== 'GET' && req.method !== 'HEAD') || rest.length > 0 || sessionId === undefined || name === undefined) {
      sendNotFound(req, res)
      return
    }
    if (!context.verifyToken(token, hlsScope(sessionId)) || !hlsNamePattern.test(name)) {
      sendNotFound(req, res)
      return
    }
    const resource = await provider.resolve(sessionId, name, context.signal)
    if (context.signal.aborted) return
    if (resource === undefined) {
      sendNotFound(req, res)
      return
    }
    if (resource.kind === 'text') {
      const body = Buffer.from(resource.body, 'utf8')
      res.writeHead(200, {
        ...commonHeaders,
        'content-type': resource.contentType,
        'content-length': String(body.length),
        'cache-control': 'no-cache',
      })
      res.end(req.method === 'HEAD' ? undefined : body)
      return
    }
    // One descriptor: the size and the bytes come from the same file even if it is replaced.
    let handle
    try {
      handle = await open(resource.path, 'r')
    } catch {
      sendNotFound(req, res)
      return
    }
    try {
      const { size } = await handle.stat()
      res.writeHead(200, {
        ...commonHeaders,
        'content-type': resource.contentType,
        'content-length': String(size),
        'cache-control': resource.immutable ? 'private, max-age=3600' : 'no-cache',
      })
      if (req.method === 'HEAD' || size === 0) {
        res.end()
        return
      }
      // The session learns that a player fetches its media (session.machine.ts `playing`).
      provider.served?.(sessionId, name)
      const stream = createReadStream('', { fd: handle, autoClose: false, start: 0, end: size - 1, highWaterMark: hlsReadChunkBytes })
      await pipeline(stream, res, { signal: context.signal }).catch(() => res.destroy())
    } finally {
      await handle.close().catch(() => {})
    }
  }
}
