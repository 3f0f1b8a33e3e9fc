// The torrent and HLS engines are imported with their first use (docs/operations.md "Idle
// footprint"); calls made while the import is in flight must behave as if it were already there.
import { describe, expect, it } from 'vitest'
import { lazyEngine } from '../../src/services/torrent/lazy-engine.js'
import { lazyHlsEngine } from '../../src/services/hls/lazy-engine.js'
import type { TorrentEngine, TorrentEngineListener } from '../../src/services/torrent/engine.js'
import type { HlsEngine } from '../../src/services/hls/engine.js'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

function recordingTorrentEngine(started: string[]): TorrentEngine {
  const listeners = new Map<string, TorrentEngineListener>()
  return {
    resolveSource: async () => { throw new Error('unused') },
    start: (input, listener) => {
      started.push(input.infoHash)
      listeners.set(input.infoHash, listener)
      queueMicrotask(() => listener({ type: 'ready', infoHash: input.infoHash }))
      return () => { started.push(`unsubscribed ${input.infoHash}`) }
    },
    pause: async () => {},
    resume: async () => {},
    recheck: async () => {},
    remove: async () => {},
    stats: () => undefined,
    createReadStream: () => { throw new Error('unused') },
    listening: async () => ({ port: 1 }),
    close: async () => { started.push('closed') },
  }
}

describe('the lazily imported torrent engine', () => {
  it('creates nothing until a task needs it, then delivers events to a listener subscribed while it loaded', async () => {
    const started: string[] = []
    const module = deferred<TorrentEngine>()
    let creations = 0
    const engine = lazyEngine(() => { creations++; return module.promise })
    expect(engine.started).toBe(false)
    expect(engine.stats('a'.repeat(40))).toBeUndefined()
    expect(() => engine.createReadStream('a'.repeat(40), 0)).toThrow(/not active/)
    expect(creations).toBe(0)

    const events: string[] = []
    engine.start({ infoHash: 'a'.repeat(40) }, (event) => events.push(event.type))
    const cancelled = engine.start({ infoHash: 'b'.repeat(40) }, (event) => events.push(`b ${event.type}`))
    cancelled() // the task went away before the engine was there
    module.resolve(recordingTorrentEngine(started))
    await expect.poll(() => events).toEqual(['ready'])
    expect(started).toEqual(['a'.repeat(40)])
    expect(creations).toBe(1)
    await engine.close()
    expect(started.at(-1)).toBe('closed')
  })

  it('turns a failed import into an error event of the task, not a crash', async () => {
    const engine = lazyEngine(() => Promise.reject(new Error('cannot find module webtorrent')))
    const events: { type: string; message?: string }[] = []
    engine.start({ infoHash: 'c'.repeat(40) }, (event) => events.push({ type: event.type, ...(event.type === 'error' ? { message: event.error.message } : {}) }))
    await expect.poll(() => events).toEqual([{ type: 'error', message: 'the torrent engine could not be loaded: cannot find module webtorrent' }])
    await engine.close()
  })

  it('loads again for the next task after a failed import, instead of failing every task until a restart', async () => {
    const started: string[] = []
    let creations = 0
    const engine = lazyEngine(() => (++creations === 1 ? Promise.reject(new Error('EMFILE: too many open files')) : recordingTorrentEngine(started)))
    const events: string[] = []
    engine.start({ infoHash: 'd'.repeat(40) }, (event) => events.push(`d ${event.type}`))
    await expect.poll(() => events).toEqual(['d error'])
    expect(engine.started).toBe(false)
    engine.start({ infoHash: 'e'.repeat(40) }, (event) => events.push(`e ${event.type}`))
    await expect.poll(() => events).toEqual(['d error', 'e ready'])
    expect(engine.started).toBe(true)
    expect(creations).toBe(2)
    await engine.close()
    expect(started.at(-1)).toBe('closed')
  })
})

describe('the lazily imported HLS engine', () => {
  it('starts a session requested while it loads, and never one stopped before it was there', async () => {
    const started: string[] = []
    const module = deferred<HlsEngine>()
    const engine = lazyHlsEngine(() => module.promise)
    expect(engine.inspect()).toEqual([])
    const events = { onReady: () => {}, onReadinessTimeout: () => {}, onFailed: () => {} }
    const session = (sessionId: string) => ({ sessionId, session: { sessionId } as never, source: '/x.mkv' })
    engine.start(session('kept'), events)
    const dropped = engine.start(session('dropped'), events)
    const stopping = dropped.stop()
    module.resolve({
      start: (params) => { started.push(params.sessionId); return { stop: async () => { started.push(`stopped ${params.sessionId}`) } } },
      routes: async () => {},
      stopAll: async () => { started.push('all stopped') },
      inspect: () => [],
    })
    await stopping
    await expect.poll(() => started).toEqual(['kept'])
    expect(engine.loaded).toBe(true)
    await engine.stopAll()
    expect(started).toEqual(['kept', 'all stopped'])
  })

  it('fails a session with the import error when the engine cannot be loaded', async () => {
    const engine = lazyHlsEngine(() => Promise.reject(new Error('module missing')))
    const failures: string[] = []
    engine.start({ sessionId: 's', session: { sessionId: 's' } as never, source: '/x.mkv' }, { onReady: () => {}, onReadinessTimeout: () => {}, onFailed: (error) => failures.push(error.message) })
    await expect.poll(() => failures).toEqual(['module missing'])
  })

  it('loads again for the next session after a failed import', async () => {
    let creations = 0
    const started: string[] = []
    const engine = lazyHlsEngine(async () => {
      if (++creations === 1) throw new Error('module missing')
      return { start: (params) => { started.push(params.sessionId); return { stop: async () => {} } }, routes: async () => {}, stopAll: async () => {}, inspect: () => [] }
    })
    const failures: string[] = []
    const events = { onReady: () => {}, onReadinessTimeout: () => {}, onFailed: (error: Error) => failures.push(error.message) }
    engine.start({ sessionId: 's1', session: { sessionId: 's1' } as never, source: '/x.mkv' }, events)
    await expect.poll(() => failures).toEqual(['module missing'])
    engine.start({ sessionId: 's2', session: { sessionId: 's2' } as never, source: '/x.mkv' }, events)
    await expect.poll(() => started).toEqual(['s2'])
    expect(engine.loaded).toBe(true)
  })
})
