// What route handlers share: the state, the live connections and the server's settings.
import type { IncomingMessage } from 'node:http'
import type { Logger } from '../log.js'
import type { TypedEmitter } from './emitter.js'
import type { DownlinkStreams } from './events-sse.js'
import type { PlayerStreams } from './player-events.js'
import type { ReferenceServerEvents } from './records.js'
import type { ReferenceState, RequestMeta } from './state.js'
import type { WakeHolds } from './wake.js'

export interface RouteContext {
  state: ReferenceState
  events: TypedEmitter<ReferenceServerEvents>
  wake: WakeHolds
  downlink: DownlinkStreams
  players: PlayerStreams
  signingSecret: string
  minAgentVersion: string
  maxBodyBytes: number
  log: Logger
  /** Tells the agent something changed: wake holders answered, SSE `sync` sent. */
  notify(reason: string): void
}

export function requestMeta(req: IncomingMessage): RequestMeta {
  const version = req.headers['x-agent-version']
  return {
    agentVersion: Array.isArray(version) ? version[0] : version,
    userAgent: req.headers['user-agent'],
  }
}
