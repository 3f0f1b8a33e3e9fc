import { SimulatedClock, createActor } from 'xstate'
import { describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import type { Control, RegisterRequest, SyncAction, SyncRequest, SyncResponse } from '../../src/protocol/wire.js'
import type { DownlinkTransport, SseStreamHandlers, WakeHandlers } from '../../src/services/http/downlink-transport.js'
import type { ServerApi } from '../../src/services/http/server-api.js'
import {
  createControlPlanePart,
  controlPlaneInput,
  controlPlaneSettingsFrom,
  createControlPlaneLogic,
  defaultControlPlaneSettings,
  type ControlSink,
  type RegisteredInfo,
  type SyncCounter,
  type SyncStateParts,
} from '../../src/system/control-plane-bindings.js'
import { flush, syncResponse } from './control-plane-fakes.js'

function capturingLogger() {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>)
      done()
    },
  })
  return { logger: pino({ level: 'debug' }, destination), lines }
}

const state: SyncStateParts = {
  tasks: [],
  sessions: [{ sessionId: 's1', state: 'ready', cacheHit: false }],
  FunnelURL: 'https://x.trycloudflare.com',
  VPNActive: false,
  VPNMode: 'off',
  VPNExitServer: '',
  streamServer: { port: 7890, publicUrl: 'http://192.0.2.1:7890', addresses: [{ kind: 'lan', url: 'http://192.0.2.1:7890' }] },
}

function setup(options: { sink?: Partial<ControlSink>; responses?: SyncResponse[]; syncs?: SyncCounter } = {}) {
  const registers: RegisterRequest[] = []
  const syncs: SyncRequest[] = []
  const responses = options.responses ?? []
  const api: ServerApi = {
    register: async (body) => {
      registers.push(body)
      return { agentId: body.agentId, signingSecret: 'from-server', minAgentVersion: '0.9.4' }
    },
    sync: async (body) => {
      syncs.push(body)
      return responses.shift() ?? syncResponse()
    },
    sessionReady: async () => {},
    upgradeResult: async () => {},
    vpnConfig: async () => ({ config: '', exitServer: '' }),
    uploadLibrary: async () => ({ bytes: 0 }),
    close: async () => {},
  }
  let sse: SseStreamHandlers | undefined
  let wake: WakeHandlers | undefined
  const transport: DownlinkTransport = {
    openEvents: (handlers) => {
      sse = handlers
      return { close: () => void (sse = undefined) }
    },
    openWake: (handlers) => {
      wake = handlers
      return { close: () => void (wake = undefined) }
    },
    close: async () => {},
  }
  const applied: Control[] = []
  const actions: SyncAction[] = []
  const sink: ControlSink = {
    applyControl: (control) => void applied.push(control),
    applyAction: (action) => void actions.push(action),
    streamSessions: () => {},
    upgrade: () => {},
    ...options.sink,
  }
  const registered: RegisteredInfo[] = []
  const { logger, lines } = capturingLogger()
  const settings = controlPlaneSettingsFrom({})
  const logic = createControlPlaneLogic({
    api,
    transport,
    source: { collect: () => state },
    registerSource: { collect: () => ({ hostname: 'nas', platform: { os: 'linux', arch: 'arm64', node: '20.20.0', container: true }, hwAccel: { ffmpegVersion: '7', ffmpegPath: '/usr/bin/ffmpeg', encoders: ['libx264'], devices: [], drivers: [], chosenEncoder: 'libx264', maxTranscodeHeight: 1080, probeMs: 5, candidates: [] } }) },
    sink,
    logger,
    settings,
    random: () => 0.5,
    version: '0.14.0',
    onRegistered: (info) => registered.push(info),
    ...(options.syncs ? { syncs: options.syncs } : {}),
  })
  const clock = new SimulatedClock()
  const actor = createActor(logic, { clock, input: controlPlaneInput({ agentId: 'agent-7', downlinkMode: 'sse', settings }) }).start()
  return { actor, clock, registers, syncs, applied, actions, registered, lines, sse: () => sse, wake: () => wake }
}

describe('control plane bindings', () => {
  it('builds the register body from the state source and the host facts, and reports the secret', async () => {
    const h = setup()
    await flush()
    expect(h.registers).toEqual([{
      agentId: 'agent-7', version: '0.14.0', hostname: 'nas', platform: { os: 'linux', arch: 'arm64', node: '20.20.0', container: true },
      streamServer: state.streamServer, FunnelURL: state.FunnelURL, VPNActive: false, VPNMode: 'off', VPNExitServer: '',
      hwAccel: expect.objectContaining({ chosenEncoder: 'libx264' }),
    }])
    expect(h.registered).toEqual([{ agentId: 'agent-7', signingSecret: 'from-server', minAgentVersion: '0.9.4' }])
    expect(JSON.stringify(h.lines)).not.toContain('from-server')
  })

  it('sends agent id, version, acknowledgements and the collected state in every sync, with VPNActive always present', async () => {
    const h = setup({ responses: [syncResponse({ controls: [{ id: 'c1', kind: 'scan_library' }] })] })
    await flush()
    await flush()
    expect(h.syncs[0]).toEqual({ ...state, agentId: 'agent-7', version: '0.14.0', appliedControls: [] })
    expect(h.syncs[1]!.appliedControls).toEqual(['c1'])
    expect('VPNActive' in h.syncs[1]!).toBe(true)
  })

  it('treats a live session as watching: the next sync comes after 3 s', async () => {
    const h = setup()
    await flush()
    expect(h.syncs).toHaveLength(1)
    h.clock.increment(3_000)
    await flush()
    expect(h.syncs).toHaveLength(2)
  })

  it('logs a control whose handler throws or rejects, and still acknowledges it', async () => {
    const h = setup({
      sink: {
        applyControl: (control) => {
          if (control.kind === 'pause_task') throw new Error('no such task')
          return Promise.reject(new Error('later failure'))
        },
      },
      responses: [syncResponse({ controls: [{ id: 'c1', kind: 'pause_task', taskId: 't' }, { id: 'c2', kind: 'scan_library' }] })],
    })
    await flush()
    await flush()
    expect(h.syncs[1]!.appliedControls).toEqual(['c1', 'c2'])
    const failures = h.lines.filter((line) => line.msg === 'control handler failed; acknowledged anyway')
    expect(failures.map((line) => line.controlId)).toEqual(['c1', 'c2'])
  })

  it('labels each upgrade answer with the number of the sync that asked; registering is not a sync', async () => {
    const answers: { requested: boolean; cycle: number | undefined }[] = []
    const syncs: SyncCounter = { started: 0 }
    const h = setup({
      syncs,
      sink: { upgrade: (requested, _offer, cycle) => void answers.push({ requested, cycle }) },
      // The first answer brings a control, so a follow-up sync carries its acknowledgement.
      responses: [syncResponse({ controls: [{ id: 'c1', kind: 'scan_library' }] }), syncResponse({ upgradeRequested: true })],
    })
    await flush()
    await flush()
    expect(h.registers).toHaveLength(1)
    expect(h.syncs).toHaveLength(2)
    expect(answers).toEqual([{ requested: false, cycle: 1 }, { requested: true, cycle: 2 }])
    expect(syncs.started).toBe(2)
  })

  it('applies an SSE command through the same sink and deduplicates it against the sync response', async () => {
    const h = setup({ responses: [syncResponse({ controls: [{ id: 'c1', kind: 'set_funnel', enabled: true }] })] })
    await flush()
    await flush()
    h.sse()!.onFrame({ event: 'command', data: '{"id":"c1","kind":"set_funnel","enabled":true}' })
    h.sse()!.onFrame({ event: 'command', data: '{"id":"c2","kind":"set_vpn","enabled":false}' })
    expect(h.applied.map((control) => control.id)).toEqual(['c1', 'c2'])
  })
})

describe('control plane part', () => {
  it('builds the API, the transport and the spawn input from the config, [testing] overrides included', async () => {
    const part = createControlPlanePart({
      config: {
        server: { baseUrl: 'http://127.0.0.1:9', mirrors: ['http://127.0.0.1:10'], accessToken: 't' },
        daemon: { downlink: 'poll', stateDir: '/tmp/x' },
        testing: { livenessTimeoutMs: 1_000, syncIntervalIdleMs: 2_000 },
      },
      logger: capturingLogger().logger,
      agentId: 'agent-3',
      source: { collect: () => state },
      sink: { applyAction: () => {}, applyControl: () => {}, streamSessions: () => {}, upgrade: () => {} },
      onRegistered: () => {},
    })
    expect(part.input).toMatchObject({ agentId: 'agent-3', downlinkMode: 'poll', settings: { livenessTimeoutMs: 1_000, syncIntervalIdleMs: 2_000, syncIntervalWatchingMs: 3_000 } })
    expect(part.closers.map((closer) => closer.name)).toEqual(['downlinkTransport', 'serverApi'])
    for (const closer of part.closers) await closer.close()
  })
})

describe('control plane settings', () => {
  it('starts from defaults.ts and takes numeric overrides of its own keys only', () => {
    const settings = controlPlaneSettingsFrom({ livenessTimeoutMs: 500, syncIntervalIdleMs: 1_000, somethingElse: 3, longPollReprobeMs: 'soon' })
    expect(settings.livenessTimeoutMs).toBe(500)
    expect(settings.syncIntervalIdleMs).toBe(1_000)
    expect(settings.longPollReprobeMs).toBe(300_000)
    expect(settings).not.toHaveProperty('somethingElse')
    expect(defaultControlPlaneSettings).toMatchObject({ syncIntervalWatchingMs: 3_000, syncIntervalIdleMs: 60_000, livenessTimeoutMs: 40_000, sseFailuresBeforeFallback: 3, appliedControlMemory: 1_000 })
  })

  it('refuses to start without the input it needs, with a message saying how to build it', () => {
    const errors: unknown[] = []
    const logic = createControlPlaneLogic({
      api: {} as ServerApi, transport: {} as DownlinkTransport, source: { collect: () => state }, sink: {} as ControlSink,
      logger: capturingLogger().logger, settings: controlPlaneSettingsFrom(), onRegistered: () => {},
    })
    const actor = createActor(logic, { input: {} as never })
    actor.subscribe({ error: (error) => errors.push(error) })
    actor.start()
    expect(String(errors[0])).toContain('controlPlaneInput()')
  })
})
