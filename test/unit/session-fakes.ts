import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate'
import { sessionMachine, type SessionEvent, type SessionLogLevel, type SessionMediaInput } from '../../src/machines/session.machine.js'
import type { SessionReport, StreamSession } from '../../src/protocol/wire.js'

// Fake actors for the session machine: the tests play the source, the HLS engine and the web
// server's session-ready endpoint by hand; time is a SimulatedClock (house rule 3).

export const readinessDeadlineMs = 60_000

export const directSession: StreamSession = { sessionId: 's-direct', filePath: '/media/movie.mp4', PlayMethod: 'direct', quality: 'original' }
export const hlsSession: StreamSession = { sessionId: 's-hls', filePath: '/media/movie.mkv', PlayMethod: 'hls', quality: '720p' }

/** A fake media actor (source or engine): how many run now, how many ever started. */
export class FakeMedia {
  started = 0
  stopped = 0
  #sendBack: ((event: SessionEvent) => void) | undefined

  get running(): number {
    return this.started - this.stopped
  }

  logic() {
    return fromCallback<SessionEvent, SessionMediaInput>(({ sendBack }) => {
      this.started++
      this.#sendBack = sendBack
      return () => {
        this.stopped++
        this.#sendBack = undefined
      }
    })
  }

  send(event: SessionEvent): void {
    if (!this.#sendBack) throw new Error(`no running media actor to send ${event.type}`)
    this.#sendBack(event)
  }
}

export interface ReadyCall {
  sessionId: string
  resolve: () => void
  reject: (error: Error) => void
}

export function sessionHarness(session: StreamSession = directSession, options: { readyCall?: 'pending' | 'ok' | 'fail' } = {}) {
  const clock = new SimulatedClock()
  const source = new FakeMedia()
  const engine = new FakeMedia()
  const readyCalls: ReadyCall[] = []
  const published: { report: SessionReport; urgent: boolean; at: number }[] = []
  const logs: { level: SessionLogLevel; msg: string; data?: Record<string, unknown> }[] = []
  const machine = sessionMachine.provide({
    actors: {
      directSource: source.logic(),
      hlsEngine: engine.logic(),
      sessionReady: fromPromise<void, { sessionId: string }>(({ input }) => new Promise<void>((resolve, reject) => {
        readyCalls.push({ sessionId: input.sessionId, resolve, reject })
        if (options.readyCall === 'ok') resolve()
        if (options.readyCall === 'fail') reject(new Error('connect ECONNREFUSED'))
      })),
    },
    actions: {
      publish: (_, params) => {
        published.push({ ...params, at: clock.now() })
      },
      log: (_, params) => {
        logs.push(params)
      },
    },
  })
  const actor = createActor(machine, { clock, input: { session, readinessDeadlineMs } })
  const errors: unknown[] = []
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return {
    actor,
    clock,
    source,
    engine,
    readyCalls,
    published,
    logs,
    errors,
    /** The state value as a dotted path. */
    state: () => stateString(actor.getSnapshot().value),
    lastReport: () => published.at(-1)?.report,
    stop: () => actor.stop(),
  }
}

export function stateString(value: unknown): string {
  if (typeof value === 'string') return value
  const [key, inner] = Object.entries(value as Record<string, unknown>)[0]!
  return `${key}.${stateString(inner)}`
}

/** Lets promise callbacks (the fake session-ready call) settle. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}
