// The long-poll wake (protocol.md 1): a GET held open, with no server timeout, until the server
// raises a wake (`200 {"reason"}`) or ends the hold (`204`, on close). A wake raised while no
// request is held is kept pending and answers the next wake request at once; any sync request
// clears it, because that sync's response already reflects the change.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { responseFinished, sendEmpty, sendJson } from './http.js'

interface Holder {
  id: number
  res: ServerResponse
}

export interface WakeHoldsOptions {
  onHold: (info: { id: number }) => void
  onRelease: (info: { id: number; status: 200 | 204 | 0; reason: string | undefined }) => void
}

export class WakeHolds {
  readonly #holders = new Map<number, Holder>()
  #nextId = 1
  #pending: string | undefined

  constructor(private readonly options: WakeHoldsOptions) {}

  get count(): number {
    return this.#holders.size
  }

  get pending(): string | undefined {
    return this.#pending
  }

  hold(req: IncomingMessage, res: ServerResponse): void {
    const holder: Holder = { id: this.#nextId++, res }
    if (this.#pending !== undefined) {
      const reason = this.#pending
      this.#pending = undefined
      sendJson(res, 200, { reason })
      this.options.onRelease({ id: holder.id, status: 200, reason })
      return
    }
    req.socket.setTimeout(0)
    this.#holders.set(holder.id, holder)
    res.on('close', () => {
      if (this.#holders.delete(holder.id)) this.options.onRelease({ id: holder.id, status: 0, reason: undefined })
    })
    this.options.onHold({ id: holder.id })
  }

  /** Answers every held request; returns how many were answered (0 leaves the wake pending). */
  raise(reason: string): number {
    const holders = [...this.#holders.values()]
    if (holders.length === 0) {
      this.#pending = reason
      return 0
    }
    for (const holder of holders) {
      this.#holders.delete(holder.id)
      sendJson(holder.res, 200, { reason })
      this.options.onRelease({ id: holder.id, status: 200, reason })
    }
    return holders.length
  }

  clearPending(): void {
    this.#pending = undefined
  }

  /** Server close: every hold ends with 204. */
  endAll(): Promise<void>[] {
    return [...this.#holders.values()].map((holder) => {
      this.#holders.delete(holder.id)
      sendEmpty(holder.res, 204)
      this.options.onRelease({ id: holder.id, status: 204, reason: undefined })
      return responseFinished(holder.res)
    })
  }

  /** Restart: held sockets are cut. */
  destroyAll(): void {
    for (const holder of [...this.#holders.values()]) {
      this.#holders.delete(holder.id)
      holder.res.socket?.destroy()
      this.options.onRelease({ id: holder.id, status: 0, reason: undefined })
    }
  }
}
