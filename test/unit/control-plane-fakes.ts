import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate'
import { controlPlaneDelays, controlPlaneMachine, type SyncActorInput, type SyncCycleResult } from '../../src/machines/control-plane.machine.js'
import { downlinkMachine, type DownlinkEvent, type DownlinkSettings } from '../../src/machines/downlink.machine.js'
import type { Control, DownlinkMode, IncomingControl, RegisterResponse, StreamSession, SyncAction, SyncResponse } from '../../src/protocol/wire.js'
import { controlPlaneSettingsFrom } from '../../src/system/control-plane-bindings.js'

// Fake actors for the control-plane and downlink machines: the tests play the transport and the
// server by hand, and time is a SimulatedClock (house rule 3).

export const downlinkSettings: DownlinkSettings = {
  livenessTimeoutMs: 40_000,
  sseFailuresBeforeFallback: 3,
  longPollReprobeMs: 300_000,
  sseReconnectDelayMs: 1_000,
  sseReconnectMaxMs: 60_000,
  wakeRetryDelayMs: 1_000,
  wakeRetryMaxMs: 60_000,
}

/** One fake held-open connection kind (SSE or wake): who is open now and what it was told. */
export class FakeLink {
  opened = 0
  closed = 0
  #sendBack: ((event: DownlinkEvent) => void) | undefined

  /** Called on every open and close (the property tests keep a timeline with it). */
  constructor(readonly onChange: (change: 'open' | 'close') => void = () => {}) {}

  get isOpen(): boolean {
    return this.#sendBack !== undefined
  }

  logic() {
    return fromCallback<DownlinkEvent>(({ sendBack }) => {
      this.opened++
      this.#sendBack = sendBack
      this.onChange('open')
      return () => {
        this.closed++
        this.#sendBack = undefined
        this.onChange('close')
      }
    })
  }

  send(event: DownlinkEvent): void {
    if (!this.#sendBack) throw new Error(`no open connection to send ${event.type} on`)
    this.#sendBack(event)
  }
}

/**
 * Moves a SimulatedClock forward timer by timer. `SimulatedClock.increment` jumps to the end
 * first, so a timer started by another timer's callback would be scheduled from the end time;
 * stepping keeps every timer relative to the moment it was really started.
 */
export function advanceClock(clock: SimulatedClock, ms: number): void {
  const target = clock.now() + ms
  const timeouts = (clock as unknown as { timeouts: Map<number, { start: number; timeout: number }> }).timeouts
  for (let guard = 0; guard < 100_000; guard++) {
    let next = Number.POSITIVE_INFINITY
    for (const timeout of timeouts.values()) next = Math.min(next, timeout.start + timeout.timeout)
    if (next > target) break
    clock.set(Math.max(next, clock.now()))
  }
  clock.set(target)
}

export const frame = (event: string, data = '{}'): DownlinkEvent => ({ type: 'downlink.sse.frame', frame: { event, data } })

export interface TimelineEntry {
  at: number
  link: 'sse' | 'wake'
  /** `frame` entries are added by tests that deliver frames. */
  change: 'open' | 'close' | 'frame'
}

export function downlinkHarness(mode: DownlinkMode = 'auto', settings: DownlinkSettings = downlinkSettings) {
  const clock = new SimulatedClock()
  const timeline: TimelineEntry[] = []
  const sse = new FakeLink((change) => timeline.push({ at: clock.now(), link: 'sse', change }))
  const wake = new FakeLink((change) => timeline.push({ at: clock.now(), link: 'wake', change }))
  const syncs: { source: string; reason: string }[] = []
  const commands: IncomingControl[] = []
  const machine = downlinkMachine.provide({
    actors: { sseStream: sse.logic(), wakeListener: wake.logic() },
    actions: {
      requestSync: (_, params) => void syncs.push(params),
      deliverCommand: (_, params) => void commands.push(params.control),
    },
  })
  const actor = createActor(machine, { clock, input: { mode, settings } }).start()
  return {
    clock,
    actor,
    sse,
    wake,
    syncs,
    commands,
    timeline,
    advance: (ms: number) => advanceClock(clock, ms),
    state: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
  }
}

interface Deferred<T> {
  promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Lets settled promises deliver their results to the actors (no time passes). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

export function syncResponse(partial: Partial<SyncResponse> = {}): SyncResponse {
  return { watching: false, streamSessions: [], actions: [], controls: [], upgradeRequested: false, ...partial }
}

export const registered: RegisterResponse = { agentId: 'agent-1', signingSecret: 'secret', minAgentVersion: '0.9.4' }

export function controlPlaneHarness(options: { mode?: DownlinkMode; random?: () => number; settings?: Parameters<typeof controlPlaneSettingsFrom>[0] } = {}) {
  const clock = new SimulatedClock()
  const sse = new FakeLink()
  const wake = new FakeLink()
  const registers: { input: { agentId: string }; reply: Deferred<RegisterResponse>; at: number }[] = []
  const syncs: { input: SyncActorInput; reply: Deferred<SyncCycleResult>; at: number }[] = []
  const applied: { control: Control; origin: string }[] = []
  const actions: SyncAction[] = []
  const sessions: StreamSession[][] = []
  const upgrades: { requested: boolean }[] = []
  const logs: { level: string; msg: string; data?: Record<string, unknown> }[] = []
  const registeredWith: RegisterResponse[] = []
  let inFlight = 0
  let maxInFlight = 0

  const machine = controlPlaneMachine.provide({
    actors: {
      register: fromPromise<RegisterResponse, { agentId: string }>(({ input }) => {
        const reply = deferred<RegisterResponse>()
        registers.push({ input, reply, at: clock.now() })
        return reply.promise
      }),
      sync: fromPromise<SyncCycleResult, SyncActorInput>(({ input }) => {
        const reply = deferred<SyncCycleResult>()
        syncs.push({ input, reply, at: clock.now() })
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        return reply.promise.finally(() => {
          inFlight--
        })
      }),
      downlink: downlinkMachine.provide({ actors: { sseStream: sse.logic(), wakeListener: wake.logic() } }),
    },
    actions: {
      applyControl: (_, params) => void applied.push(params),
      applyAction: (_, params) => void actions.push(params.action),
      deliverStreamSessions: (_, params) => void sessions.push(params.sessions),
      deliverUpgrade: (_, params) => void upgrades.push({ requested: params.requested }),
      reportRegistered: (_, params) => void registeredWith.push(params),
      log: (_, params) => void logs.push(params),
    },
    delays: controlPlaneDelays(options.random ?? (() => 0.5)),
  })
  const settings = controlPlaneSettingsFrom(options.settings ?? {})
  const actor = createActor(machine, { clock, input: { agentId: 'agent-1', downlinkMode: options.mode ?? 'poll', settings } }).start()

  const lastSync = () => {
    const sync = syncs.at(-1)
    if (!sync) throw new Error('no sync started')
    return sync
  }
  return {
    clock,
    actor,
    sse,
    wake,
    registers,
    syncs,
    applied,
    actions,
    sessions,
    upgrades,
    logs,
    registeredWith,
    settings,
    maxInFlight: () => maxInFlight,
    inFlight: () => inFlight,
    advance: (ms: number) => advanceClock(clock, ms),
    state: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    async register(response: RegisterResponse = registered) {
      const attempt = registers.at(-1)
      if (!attempt) throw new Error('no register attempt')
      attempt.reply.resolve(response)
      await flush()
    },
    async failRegister(error: unknown) {
      const attempt = registers.at(-1)
      if (!attempt) throw new Error('no register attempt')
      attempt.reply.reject(error)
      await flush()
    },
    async answerSync(response: Partial<SyncResponse> = {}, sessionsLive = false) {
      lastSync().reply.resolve({ response: syncResponse(response), sessionsLive })
      await flush()
    },
    async failSync(error: unknown) {
      lastSync().reply.reject(error)
      await flush()
    },
  }
}
