import { sseConnectTimeoutMs, wakeHeldReconnectMs } from '../../config/defaults.js'
import { AgentError, ServerResponseError, SseLimitError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { apiPaths, type WakeSignal } from '../../protocol/wire.js'
import { createHttpClient, type HttpClient, type HttpResponse } from './node-client.js'
import { createSseReader, type SseFrame } from './sse-reader.js'
import { agentRequestHeaders, endpointUrl, statusError, transportError, type ServerEndpoint } from './server-errors.js'

// The two held-open downlink connections (contract 4.1, 6; protocol.md 3). The transport is
// dumb on purpose: it reports facts (connected, a frame, ended, failed) and never decides
// whether a stream is healthy. No body timeout on either: SSE liveness is the downlink
// machine's timer (which also catches a "buffered connect" whose preamble never arrives), and
// the wake long-poll is held by the server for as long as it likes (the client has no timeout).

export interface SseStreamHandlers {
  /** The response headers arrived (200, text/event-stream) from this base URL. */
  onConnected(info: { baseUrl: string }): void
  onFrame(frame: SseFrame): void
  /** The server ended the stream cleanly. */
  onEnded(): void
  /** The connect failed on every URL, the stream dropped, or a limit was passed. */
  onFailed(error: AgentError): void
}

export interface WakeHandlers {
  /** `200 {"reason"}`: the server wants a sync now. */
  onWake(signal: WakeSignal): void
  /**
   * `204`: the server ended the hold without a wake. Also a hold of at least
   * `wakeHeldReconnectMs` that then ended in 502/503/504 or a cut socket: a proxy's read timeout
   * (nginx answers 504 after `proxy_read_timeout`, 60 s by default), not a server refusing.
   */
  onEnded(): void
  onFailed(error: AgentError): void
}

export interface DownlinkHandle {
  /** Aborts the connection; no handler is called after this. Idempotent. */
  close(): void
}

export interface DownlinkTransport {
  /** One SSE attempt. The initial connect walks base_url then each mirror in order. */
  openEvents(handlers: SseStreamHandlers): DownlinkHandle
  /** One wake long-poll (GET wake). Exactly one of the handlers is called, once. */
  openWake(handlers: WakeHandlers): DownlinkHandle
  close(): Promise<void>
}

export interface DownlinkTransportOptions extends ServerEndpoint {
  logger: Logger
  /** Per-URL wait for the SSE response headers. */
  connectTimeoutMs?: number
  maxLineBytes?: number
  maxEventBytes?: number
  /** See `WakeHandlers.onEnded`. */
  wakeHeldReconnectMs?: number
  /** Monotonic milliseconds, for how long a wake was held. */
  now?: () => number
}

/** What a proxy answers when its upstream read timed out or went away. */
const gatewayStatuses: ReadonlySet<number> = new Set([502, 503, 504])

export function createDownlinkTransport(options: DownlinkTransportOptions): DownlinkTransport {
  return new NodeDownlinkTransport(options)
}

class NodeDownlinkTransport implements DownlinkTransport {
  readonly #options: DownlinkTransportOptions
  readonly #log: Logger
  readonly #client: HttpClient

  constructor(options: DownlinkTransportOptions) {
    this.#options = options
    this.#log = options.logger
    // No body timeout on either connection (see above); the SSE connect bounds its headers.
    this.#client = createHttpClient()
  }

  openEvents(handlers: SseStreamHandlers): DownlinkHandle {
    const controller = new AbortController()
    let closed = false
    const connectTimeoutMs = this.#options.connectTimeoutMs ?? sseConnectTimeoutMs
    const bases = [this.#options.baseUrl, ...(this.#options.mirrors ?? [])]

    const run = async (): Promise<void> => {
      let firstError: AgentError | undefined
      for (const baseUrl of bases) {
        if (closed) return
        const endpoint: ServerEndpoint = { ...this.#options, baseUrl }
        let response: HttpResponse
        try {
          response = await this.#client.request(endpointUrl(baseUrl, apiPaths.events), {
            method: 'GET',
            headers: agentRequestHeaders(endpoint, { accept: 'text/event-stream', 'cache-control': 'no-cache' }),
            signal: controller.signal,
            headersTimeoutMs: connectTimeoutMs,
          })
        } catch (error) {
          if (closed) return
          firstError ??= transportError(baseUrl, 'events connect', error, connectTimeoutMs)
          this.#log.debug({ err: error, baseUrl }, 'downlink SSE connect failed; trying the next URL')
          continue
        }
        const contentType = String(response.headers['content-type'] ?? '')
        if (response.statusCode !== 200 || !contentType.toLowerCase().startsWith('text/event-stream')) {
          const text = await response.text().catch(() => '')
          if (closed) return
          firstError ??= response.statusCode !== 200
            ? statusError(endpoint, 'events', response.statusCode, text)
            : new ServerResponseError(`events: ${baseUrl} answered 200 with content type "${contentType}", not text/event-stream`)
          this.#log.debug({ baseUrl, status: response.statusCode, contentType }, 'downlink SSE connect refused; trying the next URL')
          continue
        }
        if (closed) {
          response.body.destroy()
          return
        }
        handlers.onConnected({ baseUrl })
        await this.#pump(response, baseUrl, handlers, () => closed)
        return
      }
      if (!closed) handlers.onFailed(firstError ?? new ServerResponseError('events: no base URL to connect to'))
    }

    void run().catch((error: unknown) => {
      if (!closed) handlers.onFailed(transportError(this.#options.baseUrl, 'events', error))
    })
    return {
      close: () => {
        closed = true
        controller.abort()
      },
    }
  }

  async #pump(response: HttpResponse, baseUrl: string, handlers: SseStreamHandlers, isClosed: () => boolean): Promise<void> {
    const reader = createSseReader({
      maxLineBytes: this.#options.maxLineBytes,
      maxEventBytes: this.#options.maxEventBytes,
      onFrame: (frame) => {
        if (!isClosed()) handlers.onFrame(frame)
      },
    })
    try {
      for await (const chunk of response.body) {
        if (isClosed()) break
        reader.feed(chunk as Uint8Array)
      }
    } catch (error) {
      response.body.destroy()
      if (isClosed()) return
      if (error instanceof SseLimitError) {
        this.#log.warn({ err: error, baseUrl }, 'downlink SSE frame over the limit; closing the stream')
        handlers.onFailed(error)
      } else {
        handlers.onFailed(transportError(baseUrl, 'events stream', error))
      }
      return
    }
    reader.end()
    if (!isClosed()) handlers.onEnded()
  }

  openWake(handlers: WakeHandlers): DownlinkHandle {
    const controller = new AbortController()
    let closed = false
    const endpoint: ServerEndpoint = this.#options
    const now = this.#options.now ?? (() => performance.now())
    const heldReconnectMs = this.#options.wakeHeldReconnectMs ?? wakeHeldReconnectMs
    const startedAt = now()
    // A long hold that a proxy then cut is the normal end of a hold behind that proxy: reported
    // as ended (reconnect at once) so the retry backoff does not grow by one step per timeout.
    const endedByProxy = (why: Record<string, unknown>): boolean => {
      const heldMs = Math.round(now() - startedAt)
      if (heldMs < heldReconnectMs) return false
      this.#log.debug({ ...why, heldMs }, 'wake hold cut after a long hold (a proxy timeout); reconnecting at once')
      handlers.onEnded()
      return true
    }
    const run = async (): Promise<void> => {
      let response: HttpResponse
      try {
        // Held open by the server; the client never times the hold out (contract 4.1), only the
        // connection: a server that drops packets fails the wake in seconds, not minutes.
        response = await this.#client.request(endpointUrl(endpoint.baseUrl, apiPaths.wake), {
          method: 'GET',
          headers: agentRequestHeaders(endpoint, { accept: 'application/json' }),
          signal: controller.signal,
          connectTimeoutMs: this.#options.connectTimeoutMs ?? sseConnectTimeoutMs,
        })
      } catch (error) {
        if (!closed && !endedByProxy({ err: error })) handlers.onFailed(transportError(endpoint, 'wake', error))
        return
      }
      let text: string
      try {
        text = await response.text()
      } catch (error) {
        if (!closed && !endedByProxy({ err: error })) handlers.onFailed(transportError(endpoint, 'wake', error))
        return
      }
      if (closed) return
      if (response.statusCode === 204) return handlers.onEnded()
      if (response.statusCode !== 200) {
        if (gatewayStatuses.has(response.statusCode) && endedByProxy({ status: response.statusCode })) return
        return handlers.onFailed(statusError(endpoint, 'wake', response.statusCode, text))
      }
      handlers.onWake({ reason: wakeReason(text) })
    }
    void run().catch((error: unknown) => {
      if (!closed) handlers.onFailed(transportError(endpoint, 'wake', error))
    })
    return {
      close: () => {
        closed = true
        controller.abort()
      },
    }
  }

  close(): Promise<void> {
    // destroy, not a graceful close: that would wait for the held-open SSE and wake requests.
    this.#client.destroy()
    return Promise.resolve()
  }
}

/** The wake body is `{"reason": "..."}`; anything else still is a wake. */
function wakeReason(text: string): string {
  try {
    const value = JSON.parse(text) as { reason?: unknown }
    if (value && typeof value.reason === 'string') return value.reason
  } catch {
    // a bare 200 is a wake too
  }
  return 'wake'
}
