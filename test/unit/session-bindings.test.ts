import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { silentLogger } from '../../src/log.js'
import type { SessionReport, StreamSession } from '../../src/protocol/wire.js'
import type { ByteSource } from '../../src/services/media/byte-source.js'
import type { SessionSource } from '../../src/services/media/session-source.js'
import { hlsSourceOf } from '../../src/services/hls/inputs.js'
import { openDirectSource } from '../../src/services/media/direct-source.js'
import { createSessionRegistry } from '../../src/services/sessions/registry.js'
import { createSessionReportLedger } from '../../src/services/sessions/report-ledger.js'
import { createSessionLogic, type HlsEngine, type SessionLogicDeps } from '../../src/system/session-bindings.js'
import { deferred } from './control-plane-fakes.js'

const logger = silentLogger()
const direct: StreamSession = { sessionId: 's1', filePath: '/media/a.mp4', PlayMethod: 'direct', quality: 'original' }
const hls: StreamSession = { sessionId: 's2', filePath: '/media/b.mkv', PlayMethod: 'hls', quality: '720p' }


const fakeSource = (disposed: string[], id: string): SessionSource => ({
  source: { label: id, open: async () => { throw new Error('not read in this test') } } as ByteSource,
  dispose: async () => {
    disposed.push(id)
  },
})

function harness(overrides: Partial<SessionLogicDeps> = {}) {
  const registry = createSessionRegistry()
  const ledger = createSessionReportLedger()
  const changed: string[] = []
  const readyCalls: string[] = []
  const deps: SessionLogicDeps = {
    logger,
    registry,
    ledger,
    api: { sessionReady: async (sessionId) => { readyCalls.push(sessionId) } },
    changed: (reason) => changed.push(reason),
    openSource: async () => { throw new Error('no source in this test') },
    ...overrides,
  }
  const logic = createSessionLogic(deps)
  const start = (session: StreamSession) => createActor(logic.machine, { input: { session, readinessDeadlineMs: 60_000 } }).start()
  return { registry, ledger, changed, readyCalls, logic, start }
}

describe('the session report ledger', () => {
  const report = (state: SessionReport['state'], sessionId = 's1'): SessionReport => ({ sessionId, state, cacheHit: false })

  it('reports each session\'s latest state while it lives', () => {
    const ledger = createSessionReportLedger()
    ledger.publish(report('starting'))
    ledger.publish(report('starting', 's2'))
    ledger.publish(report('ready'))
    expect(ledger.collect()).toEqual([report('ready'), report('starting', 's2')])
    ledger.syncSucceeded([])
    expect(ledger.collect()).toEqual([report('ready'), report('starting', 's2')])
  })

  it('reports ended until one sync carrying it succeeded, then leaves the session out', () => {
    const ledger = createSessionReportLedger()
    ledger.publish(report('ended'))
    expect(ledger.collect()).toEqual([report('ended')])
    // That sync failed (no syncSucceeded): the retry carries it again.
    expect(ledger.collect()).toEqual([report('ended')])
    ledger.syncSucceeded([direct])
    expect(ledger.collect()).toEqual([])
  })

  it('keeps an ended report that arrived after the cycle started for the next sync', () => {
    const ledger = createSessionReportLedger()
    ledger.publish(report('ready'))
    expect(ledger.collect()).toEqual([report('ready')])
    ledger.publish(report('ended'))
    ledger.syncSucceeded([])
    expect(ledger.collect()).toEqual([report('ended')])
    ledger.syncSucceeded([])
    expect(ledger.collect()).toEqual([])
  })

  it('reports a crashed session failed while listed, then ended once', () => {
    const ledger = createSessionReportLedger()
    ledger.publish(report('ready'))
    ledger.crashed('s1', 'Error: boom')
    expect(ledger.collect()).toEqual([{ sessionId: 's1', state: 'failed', cacheHit: false, error: 'Error: boom' }])
    ledger.syncSucceeded([direct])
    expect(ledger.collect()[0]?.state).toBe('failed')
    ledger.syncSucceeded([])
    expect(ledger.collect()).toEqual([report('ended')])
    ledger.syncSucceeded([])
    expect(ledger.collect()).toEqual([])
  })
})

describe('the session logic, bound', () => {
  it('serves a direct-play session once its source answered, and withdraws and disposes it when it ends', async () => {
    const disposed: string[] = []
    const opening = deferred<SessionSource>()
    const h = harness({ openSource: () => opening.promise })
    const actor = h.start(direct)
    expect(h.registry.get('s1')).toBeUndefined()
    opening.resolve(fakeSource(disposed, 'a'))
    await waitFor(actor, (snapshot) => snapshot.matches({ direct: { ready: { announcement: 'announced' } } }))
    expect(h.registry.get('s1')?.session).toBe(direct)
    expect(h.readyCalls).toEqual(['s1'])
    expect(h.changed).toEqual(['session ready'])
    actor.send({ type: 'session.end', reason: 'removed' })
    expect(h.registry.get('s1')).toBeUndefined()
    await h.logic.settle()
    expect(disposed).toEqual(['a'])
    expect(h.ledger.collect()).toEqual([{ sessionId: 's1', state: 'ended', cacheHit: false }])
  })

  it('disposes a source that answers after its session already ended, and never serves it', async () => {
    const disposed: string[] = []
    const opening = deferred<SessionSource>()
    let signal: AbortSignal | undefined
    const h = harness({ openSource: (_session, s) => { signal = s; return opening.promise } })
    const actor = h.start(direct)
    actor.send({ type: 'session.end', reason: 'stopped' })
    expect(signal?.aborted).toBe(true)
    opening.resolve(fakeSource(disposed, 'late'))
    await h.logic.settle()
    expect(disposed).toEqual(['late'])
    expect(h.registry.size).toBe(0)
    expect(h.readyCalls).toEqual([])
  })

  it('releases the source of a session whose actor crashed', async () => {
    const disposed: string[] = []
    const h = harness({ openSource: async () => fakeSource(disposed, 'a') })
    const actor = h.start(direct)
    await waitFor(actor, (snapshot) => snapshot.matches({ direct: 'ready' }))
    h.logic.release('s1')
    expect(h.registry.size).toBe(0)
    await h.logic.settle()
    expect(disposed).toEqual(['a'])
    actor.stop()
    expect(disposed).toEqual(['a'])
  })

  it('fails an HLS session with a clear reason when this build has no HLS engine', () => {
    const h = harness()
    const actor = h.start(hls)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(h.ledger.collect()).toEqual([{ sessionId: 's2', state: 'failed', cacheHit: false, error: 'HLS transcoding is not available in this build' }])
    expect(actor.getSnapshot().context.errorCode).toBe('MA_ERR_HLS_UNAVAILABLE')
  })

  it('starts the HLS engine with the session\'s source and stops it when the session ends', async () => {
    const started: { sessionId: string; source: string }[] = []
    let stops = 0
    let events: Parameters<HlsEngine['start']>[1] | undefined
    const engine: HlsEngine = {
      start: (params, e) => {
        started.push({ sessionId: params.sessionId, source: typeof params.source === 'string' ? params.source : params.source.id })
        events = e
        return { stop: async () => { stops++ } }
      },
      routes: async () => {},
    }
    const h = harness({ hlsEngine: engine })
    const actor = h.start({ ...hls, DirectURL: 'https://debrid.example/b.mkv' })
    expect(started).toEqual([{ sessionId: 's2', source: 'https://debrid.example/b.mkv' }])
    events!.onReady({ cacheHit: true })
    await waitFor(actor, (snapshot) => snapshot.matches({ hls: { ready: { announcement: 'announced' } } }))
    expect(h.ledger.collect()).toEqual([{ sessionId: 's2', state: 'ready', cacheHit: true }])
    actor.send({ type: 'session.end', reason: 'removed' })
    await h.logic.settle()
    expect(stops).toBe(1)
    // Callbacks after the stop change nothing.
    events!.onFailed(new Error('late'))
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('feeds ffmpeg the direct link when there is one, else the local path', () => {
    expect(hlsSourceOf(hls)).toBe('/media/b.mkv')
    expect(hlsSourceOf({ ...hls, DirectURL: 'https://x.example/v' })).toBe('https://x.example/v')
  })
})

describe('opening a direct-play source', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-session-src-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('stats a local file before the session is ready', async () => {
    const path = join(dir, 'a.mp4')
    await writeFile(path, Buffer.alloc(1000, 1))
    const opened = await openDirectSource({ ...direct, filePath: path }, { logger }, new AbortController().signal)
    const handle = await opened.source.open(new AbortController().signal)
    expect(handle.size).toBe(1000)
    await handle.close()
    await opened.dispose()
  })

  it('fails for a file that is not there', async () => {
    await expect(openDirectSource({ ...direct, filePath: join(dir, 'missing.mp4') }, { logger }, new AbortController().signal)).rejects.toMatchObject({ code: 'MA_ERR_SOURCE_MISSING' })
  })

  it('refuses a DirectURL naming an .mkv before any request', async () => {
    const session = { ...direct, filePath: undefined, DirectURL: 'https://127.0.0.1:9/movie.mkv' } as StreamSession
    await expect(openDirectSource(session, { logger }, new AbortController().signal)).rejects.toMatchObject({
      code: 'MA_ERR_DIRECT_URL_UNSUPPORTED',
      message: expect.stringContaining('mp4/m4v only'),
    })
  })
})
