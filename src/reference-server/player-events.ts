// Player-facing readiness (protocol.md 4): `GET /api/stream-sessions/<id>/events?token=<playerToken>`
// streams `event: ready` data `{"sessionId","readyAt"}` once `ready_at` is set, at once when it
// already is. The stream opens with a `: connected` comment and keeps a `: ping` heartbeat; it
// ends when the session is removed.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PlayerReadyEvent } from '../protocol/wire.js'
import { responseFinished } from './http.js'
import type { SessionRecord } from './sessions.js'
import { commentFrame, eventFrame, sseHeaders, writeFrame } from './sse.js'

interface Subscriber {
  sessionId: string
  res: ServerResponse
  heartbeat: NodeJS.Timeout
}

export class PlayerStreams {
  readonly #subscribers = new Set<Subscriber>()

  constructor(private readonly heartbeatMs: number, private readonly onOpen: (info: { sessionId: string }) => void) {}

  open(req: IncomingMessage, res: ServerResponse, record: SessionRecord): void {
    req.socket.setTimeout(0)
    const subscriber: Subscriber = {
      sessionId: record.session.sessionId,
      res,
      heartbeat: setInterval(() => writeFrame(res, commentFrame('ping')), this.heartbeatMs),
    }
    this.#subscribers.add(subscriber)
    res.on('close', () => this.#forget(subscriber))
    res.writeHead(200, sseHeaders(true))
    writeFrame(res, commentFrame('connected'))
    if (record.readyAt !== null) writeFrame(res, eventFrame('ready', readyEvent(record)))
    this.onOpen({ sessionId: subscriber.sessionId })
  }

  ready(record: SessionRecord): void {
    for (const subscriber of this.#subscribers) {
      if (subscriber.sessionId === record.session.sessionId) writeFrame(subscriber.res, eventFrame('ready', readyEvent(record)))
    }
  }

  sessionRemoved(sessionId: string): void {
    for (const subscriber of [...this.#subscribers]) {
      if (subscriber.sessionId !== sessionId) continue
      this.#forget(subscriber)
      subscriber.res.end()
    }
  }

  endAll(): Promise<void>[] {
    return [...this.#subscribers].map((subscriber) => {
      this.#forget(subscriber)
      if (!subscriber.res.writableEnded) subscriber.res.end()
      return responseFinished(subscriber.res)
    })
  }

  destroyAll(): void {
    for (const subscriber of [...this.#subscribers]) {
      this.#forget(subscriber)
      subscriber.res.socket?.destroy()
    }
  }

  #forget(subscriber: Subscriber): void {
    clearInterval(subscriber.heartbeat)
    this.#subscribers.delete(subscriber)
  }
}

function readyEvent(record: SessionRecord): PlayerReadyEvent {
  return { sessionId: record.session.sessionId, readyAt: record.readyAt ?? '' }
}
