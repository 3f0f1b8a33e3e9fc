// The agent downlink SSE (protocol.md 3): first frame `event: ping` data `{}`, a `: ping` comment
// every heartbeat, `event: command` with one Control, `event: sync` with `{"reason"}`. The wire
// carries no agent id here, so every frame goes to every open stream of the account.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from '../log.js'
import type { IncomingControl } from '../protocol/wire.js'
import type { FaultOptions } from './faults.js'
import { responseFinished } from './http.js'
import { commentFrame, dropConnection, eventFrame, sseHeaders, writeFrame } from './sse.js'

interface Client {
  id: number
  res: ServerResponse
  stalled: boolean
  timers: NodeJS.Timeout[]
}

export interface DownlinkStreamsOptions {
  heartbeatMs: number
  accelBufferingHeader: boolean
  faults: FaultOptions
  log: Logger
  onOpen: (info: { id: number; stalled: boolean; dropAfterMs: number | null }) => void
  onClose: (info: { id: number }) => void
}

export class DownlinkStreams {
  readonly #clients = new Map<number, Client>()
  #nextId = 1

  constructor(private readonly options: DownlinkStreamsOptions) {}

  /** Open streams that receive frames (stalled ones excluded). */
  get count(): number {
    let n = 0
    for (const client of this.#clients.values()) if (!client.stalled) n += 1
    return n
  }

  open(req: IncomingMessage, res: ServerResponse): void {
    const { faults } = this.options
    const stalled = faults.sseStall
    const dropAfterMs = faults.sseDropAfterMs
    const client: Client = { id: this.#nextId++, res, stalled, timers: [] }
    this.#clients.set(client.id, client)
    req.socket.setTimeout(0)
    req.socket.setNoDelay(true)
    res.on('close', () => this.#forget(client))
    res.writeHead(200, sseHeaders(this.options.accelBufferingHeader && !faults.omitAccelBufferingHeader))
    res.flushHeaders()
    this.options.onOpen({ id: client.id, stalled, dropAfterMs })
    if (dropAfterMs === 0) {
      dropConnection(res)
      return
    }
    if (dropAfterMs !== null && dropAfterMs > 0) client.timers.push(setTimeout(() => dropConnection(res), dropAfterMs))
    if (stalled) return
    writeFrame(res, eventFrame('ping', {}))
    client.timers.push(setInterval(() => writeFrame(res, commentFrame('ping')), this.options.heartbeatMs))
  }

  sendCommand(control: IncomingControl): number {
    return this.#broadcast(eventFrame('command', control))
  }

  sendSync(reason: string): number {
    return this.#broadcast(eventFrame('sync', { reason }))
  }

  /** Graceful end (server close): the terminating chunk is sent. */
  endAll(): Promise<void>[] {
    return [...this.#clients.values()].map((client) => {
      this.#forget(client)
      if (!client.res.writableEnded) client.res.end()
      return responseFinished(client.res)
    })
  }

  /** Abrupt end (restart): sockets are destroyed. */
  destroyAll(): void {
    for (const client of [...this.#clients.values()]) {
      this.#forget(client)
      client.res.socket?.destroy()
    }
  }

  #broadcast(frame: string): number {
    let sent = 0
    for (const client of this.#clients.values()) {
      if (client.stalled) continue
      if (writeFrame(client.res, frame)) sent += 1
    }
    return sent
  }

  #forget(client: Client): void {
    if (!this.#clients.delete(client.id)) return
    for (const timer of client.timers) clearTimeout(timer)
    this.options.log.debug({ id: client.id }, 'downlink stream closed')
    this.options.onClose({ id: client.id })
  }
}
