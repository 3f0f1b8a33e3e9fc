import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import { sessionKindOf, sessionMachine, sessionReportOf } from '../../src/machines/session.machine.js'
import { DirectUrlUnsupportedError } from '../../src/errors.js'
import { directSession, flush, hlsSession, readinessDeadlineMs, sessionHarness } from './session-fakes.js'

describe('a direct-play session', () => {
  it('opens its source at once and reports starting without hurrying the sync', () => {
    const h = sessionHarness(directSession)
    expect(h.state()).toBe('direct.opening')
    expect(h.source.running).toBe(1)
    expect(h.engine.started).toBe(0)
    expect(h.published).toEqual([{ report: { sessionId: 's-direct', state: 'starting', cacheHit: false }, urgent: false, at: 0 }])
  })

  it('becomes ready as soon as its source answers, tells the sync at once and calls session-ready once', async () => {
    const h = sessionHarness(directSession, { readyCall: 'ok' })
    h.source.send({ type: 'source.opened' })
    expect(h.lastReport()).toEqual({ sessionId: 's-direct', state: 'ready', cacheHit: false })
    expect(h.published.at(-1)?.urgent).toBe(true)
    expect(h.readyCalls.map((call) => call.sessionId)).toEqual(['s-direct'])
    await flush()
    expect(h.state()).toBe('direct.ready.announcement.announced')
    expect(h.source.running).toBe(1)
    expect(sessionReportOf(h.actor.getSnapshot()).state).toBe('ready')
  })

  it('logs a failed session-ready call, never retries it, and still reports ready', async () => {
    const h = sessionHarness(directSession, { readyCall: 'fail' })
    h.source.send({ type: 'source.opened' })
    await flush()
    expect(h.state()).toBe('direct.ready.announcement.notAnnounced')
    expect(h.logs.find((line) => line.msg === 'session-ready call failed; not retried')?.data).toMatchObject({ sessionId: 's-direct', error: 'connect ECONNREFUSED' })
    h.clock.increment(10 * readinessDeadlineMs)
    await flush()
    expect(h.readyCalls).toHaveLength(1)
    expect(sessionReportOf(h.actor.getSnapshot())).toEqual({ sessionId: 's-direct', state: 'ready', cacheHit: false })
  })

  it('fails with the source\'s own reason, reported at once, and lets the source go', () => {
    const h = sessionHarness({ ...directSession, filePath: undefined, DirectURL: 'https://debrid.example/movie.mkv' })
    h.source.send({ type: 'source.failed', error: new DirectUrlUnsupportedError('DirectURL names a .mkv file; direct play serves mp4/m4v only (use PlayMethod hls)') })
    expect(h.state()).toBe('failed')
    expect(h.source.running).toBe(0)
    expect(h.lastReport()).toEqual({ sessionId: 's-direct', state: 'failed', cacheHit: false, error: 'DirectURL names a .mkv file; direct play serves mp4/m4v only (use PlayMethod hls)' })
    expect(h.published.at(-1)?.urgent).toBe(true)
    expect(h.actor.getSnapshot().context.errorCode).toBe('MA_ERR_DIRECT_URL_UNSUPPORTED')
    expect(h.readyCalls).toHaveLength(0)
  })

  it('ends when told, from any state, stops serving its source and reports ended once', async () => {
    for (const step of ['opening', 'ready', 'failed'] as const) {
      const h = sessionHarness(directSession, { readyCall: 'ok' })
      if (step === 'ready') h.source.send({ type: 'source.opened' })
      if (step === 'failed') h.source.send({ type: 'source.failed', error: new Error('gone') })
      await flush()
      h.actor.send({ type: 'session.end', reason: 'removed' })
      const snapshot = h.actor.getSnapshot()
      expect(snapshot.status, step).toBe('done')
      expect(snapshot.context.endReason).toBe('removed')
      expect(h.source.running, step).toBe(0)
      expect(h.published.filter((entry) => entry.report.state === 'ended'), step).toHaveLength(1)
      expect(sessionReportOf(snapshot)).toEqual({ sessionId: 's-direct', state: 'ended', cacheHit: false })
    }
  })

  it('fails, instead of crashing, when the source actor itself throws', () => {
    const machine = sessionMachine.provide({ actors: { directSource: fromCallback(() => { throw new Error('boom') }) } })
    const actor = createActor(machine, { input: { session: directSession, readinessDeadlineMs } })
    const errors: unknown[] = []
    actor.subscribe({ error: (error) => errors.push(error) })
    actor.start()
    expect(errors).toEqual([])
    expect(actor.getSnapshot().value).toBe('failed')
    expect(sessionReportOf(actor.getSnapshot())).toMatchObject({ state: 'failed', error: 'boom' })
    actor.stop()
  })
})

describe('an HLS session', () => {
  it('starts the engine and waits for readiness without announcing anything', () => {
    const h = sessionHarness(hlsSession)
    expect(h.state()).toBe('hls.waitingForReadiness')
    expect(h.engine.running).toBe(1)
    expect(h.source.started).toBe(0)
    expect(h.readyCalls).toHaveLength(0)
  })

  it('is ready when the engine proves the first segment closed, reporting the cache hit', () => {
    const h = sessionHarness(hlsSession)
    h.clock.increment(readinessDeadlineMs - 1)
    h.engine.send({ type: 'engine.ready', cacheHit: true })
    expect(h.state()).toBe('hls.ready.announcement.announcing')
    expect(h.lastReport()).toEqual({ sessionId: 's-hls', state: 'ready', cacheHit: true })
    expect(h.readyCalls).toHaveLength(1)
  })

  it('logs mark-ready: timeout once at exactly 60 s and makes no call, whichever deadline comes first', () => {
    const h = sessionHarness(hlsSession)
    h.clock.increment(readinessDeadlineMs - 1)
    expect(h.state()).toBe('hls.waitingForReadiness')
    h.clock.increment(1)
    expect(h.state()).toBe('hls.notReady')
    h.engine.send({ type: 'engine.readinessTimeout' })
    expect(h.logs.filter((line) => line.msg === 'mark-ready: timeout')).toHaveLength(1)
    expect(h.readyCalls).toHaveLength(0)
    expect(sessionReportOf(h.actor.getSnapshot()).state).toBe('starting')
    expect(h.engine.running).toBe(1)
  })

  it('takes the engine\'s own readiness timeout the same way', () => {
    const h = sessionHarness(hlsSession)
    h.engine.send({ type: 'engine.readinessTimeout' })
    h.clock.increment(readinessDeadlineMs)
    expect(h.state()).toBe('hls.notReady')
    expect(h.logs.filter((line) => line.msg === 'mark-ready: timeout')).toHaveLength(1)
  })

  it('reports readiness that comes after the deadline but never announces it', () => {
    const h = sessionHarness(hlsSession)
    h.clock.increment(readinessDeadlineMs)
    h.engine.send({ type: 'engine.ready', cacheHit: false })
    expect(h.state()).toBe('hls.ready.announcement.notAnnounced')
    expect(h.lastReport()).toEqual({ sessionId: 's-hls', state: 'ready', cacheHit: false })
    expect(h.readyCalls).toHaveLength(0)
  })

  it('fails when the engine gives up, and the engine is stopped', () => {
    const h = sessionHarness(hlsSession)
    h.engine.send({ type: 'engine.failed', error: new Error('ffmpeg exited 1 after 3 restarts') })
    expect(h.state()).toBe('failed')
    expect(h.engine.running).toBe(0)
    expect(h.lastReport()).toMatchObject({ state: 'failed', error: 'ffmpeg exited 1 after 3 restarts' })
  })

  it('stops the engine when a stop_session ends it', () => {
    const h = sessionHarness(hlsSession)
    h.engine.send({ type: 'engine.ready', cacheHit: false })
    h.actor.send({ type: 'session.end', reason: 'stopped' })
    expect(h.actor.getSnapshot().status).toBe('done')
    expect(h.engine.running).toBe(0)
    expect(h.actor.getSnapshot().context.endReason).toBe('stopped')
  })
})

describe('playing', () => {
  const playingState = (h: ReturnType<typeof sessionHarness>) => h.actor.getSnapshot().matches({ [h.actor.getSnapshot().context.kind]: { ready: { playback: 'playing' } } })

  it('enters playing when a player first fetches media of a ready direct-play session, and still reports ready', async () => {
    const h = sessionHarness(directSession, { readyCall: 'pending' })
    h.source.send({ type: 'source.opened' })
    const published = h.published.length
    h.source.send({ type: 'media.fetched' })
    expect(playingState(h)).toBe(true)
    // The session-ready call in flight goes on: the player may start before it answered.
    expect(h.readyCalls).toHaveLength(1)
    h.readyCalls[0]!.resolve()
    await flush()
    expect(h.actor.getSnapshot().matches({ direct: { ready: { announcement: 'announced', playback: 'playing' } } })).toBe(true)
    // Nothing new on the wire: the report stays `ready` and nothing more was published.
    expect(h.published).toHaveLength(published)
    expect(sessionReportOf(h.actor.getSnapshot())).toEqual({ sessionId: 's-direct', state: 'ready', cacheHit: false })
    h.source.send({ type: 'media.fetched' })
    expect(h.logs.filter((line) => line.msg === 'stream session playing')).toHaveLength(1)
  })

  it('ignores a media fetch before the session is ready, and plays on the next one after', () => {
    const h = sessionHarness(hlsSession)
    h.engine.send({ type: 'media.fetched' })
    expect(h.state()).toBe('hls.waitingForReadiness')
    h.clock.increment(readinessDeadlineMs)
    h.engine.send({ type: 'media.fetched' })
    expect(h.state()).toBe('hls.notReady')
    h.engine.send({ type: 'engine.ready', cacheHit: false })
    expect(h.actor.getSnapshot().matches({ hls: { ready: { announcement: 'notAnnounced', playback: 'idle' } } })).toBe(true)
    h.engine.send({ type: 'media.fetched' })
    expect(playingState(h)).toBe(true)
    expect(h.readyCalls).toHaveLength(0)
  })

  it('ends from playing like from ready: the engine stops and ended is reported once', () => {
    const h = sessionHarness(hlsSession, { readyCall: 'ok' })
    h.engine.send({ type: 'engine.ready', cacheHit: true })
    h.engine.send({ type: 'media.fetched' })
    h.actor.send({ type: 'session.end', reason: 'removed' })
    expect(h.actor.getSnapshot().status).toBe('done')
    expect(h.engine.running).toBe(0)
    expect(h.published.filter((entry) => entry.report.state === 'ended')).toHaveLength(1)
  })

  it('does not leave failed for a media fetch', () => {
    const h = sessionHarness(directSession)
    h.source.send({ type: 'source.failed', error: new Error('gone') })
    h.actor.send({ type: 'media.fetched' })
    expect(h.state()).toBe('failed')
  })
})

describe('session kinds', () => {
  it('transcodes only PlayMethod hls; anything else direct-plays (contract 2.1)', () => {
    expect(sessionKindOf(hlsSession)).toBe('hls')
    expect(sessionKindOf(directSession)).toBe('direct')
    expect(sessionKindOf({ ...directSession, PlayMethod: 'DirectPlay' })).toBe('direct')
  })
})
