import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { silentLogger } from '../../src/log.js'
import type { StreamSession } from '../../src/protocol/wire.js'
import { createSourceRoute, createStreamServer, streamScope, type StreamServer } from '../../src/server/stream-server.js'
import { mintStreamToken, verifyStreamToken } from '../../src/services/auth/stream-token.js'
import { scrubUrls, type HlsSourceReference } from '../../src/services/hls/engine.js'
import type { InProgressFileSourceOptions } from '../../src/services/media/in-progress-file-source.js'
import { createHlsInputs, fileCompleteIn, hlsInputScope, type HlsInputs } from '../../src/services/hls/inputs.js'
import { createSessionRegistry } from '../../src/services/sessions/registry.js'
import { createSessionReportLedger } from '../../src/services/sessions/report-ledger.js'
import { createSessionLogic, type HlsEngine } from '../../src/system/session-bindings.js'

// Issue 6 "URL sources": an HLS session on a torrent file still downloading reads it through a
// loopback URL the agent serves (`/source/<id>/<name>`, scope `source:<id>`), minted afresh for
// every process; and the stream server's notifications put a session into `playing`.

const logger = silentLogger()
const secret = 'unit-secret'
const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251))

let dir = ''
let filePath = ''
let server: StreamServer
let inputs: HlsInputs
let nowMs = Date.UTC(2026, 0, 1)
let complete = false
let torrentHeld = true
const reads: { start: number; end: number }[] = []

const torrent = (): InProgressFileSourceOptions => ({
  provider: {
    createReadStream: (_infoHash, _index, range) => {
      reads.push(range)
      return Readable.from([data.subarray(range.start, range.end + 1)])
    },
  },
  infoHash: 'a'.repeat(40),
  fileIndex: 0,
  size: data.length,
  name: 'clip.mkv',
})

const session: StreamSession = { sessionId: 'h 1', filePath: '', PlayMethod: 'hls', quality: '720p' }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-hls-input-'))
  filePath = join(dir, 'clip.mkv')
  session.filePath = filePath
  // What is on disk while downloading: the right size, zeros where pieces are missing.
  await writeFile(filePath, Buffer.alloc(data.length))
  inputs = createHlsInputs({
    inProgress: (path) => (path === filePath && torrentHeld && !complete ? torrent() : undefined),
    fileComplete: (path) => path === filePath && complete,
    secret: () => secret,
    baseUrl: () => server.url,
    now: () => nowMs,
    tokenTtlSeconds: 600,
  })
  server = await createStreamServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    sessions: createSessionRegistry(),
    secret: () => secret,
    now: () => nowMs,
    routes: { source: createSourceRoute(inputs.registry) },
  })
})

afterAll(async () => {
  await server?.close()
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

describe('the input of an HLS session', () => {
  it('is the DirectURL or the local path as they are when the file is not downloading', () => {
    const debrid = inputs.open({ ...session, DirectURL: 'https://debrid.example/x.mkv' })
    expect(debrid.source).toBe('https://debrid.example/x.mkv')
    const library = inputs.open({ ...session, filePath: '/library/film.mkv' })
    expect(library.source).toBe('/library/film.mkv')
    expect(inputs.registry.size).toBe(0)
  })

  it('is a loopback URL with a fresh short-lived token per process while the torrent file downloads, served with Range', async () => {
    complete = false
    const input = inputs.open(session)
    const reference = input.source as HlsSourceReference
    expect(reference.id).toBe(filePath)
    const first = reference.current()
    expect(first.startsWith(`${server.url}/source/h%201/clip.mkv?token=`)).toBe(true)
    const token = new URL(first).searchParams.get('token')!
    expect(verifyStreamToken({ secret, token, scope: hlsInputScope('h 1'), nowSeconds: nowMs / 1000 })).toBe(true)
    expect(verifyStreamToken({ secret, token, scope: streamScope('h 1'), nowSeconds: nowMs / 1000 })).toBe(false)
    expect(verifyStreamToken({ secret, token, scope: hlsInputScope('h 1'), nowSeconds: nowMs / 1000 + 600 + 61 })).toBe(false)
    nowMs += 5_000
    expect(reference.current()).not.toBe(first)

    const whole = await request(first)
    expect(whole.statusCode).toBe(200)
    expect(Buffer.from(await whole.body.arrayBuffer())).toEqual(data)
    const ranged = await request(first, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.statusCode).toBe(206)
    expect(ranged.headers['content-range']).toBe(`bytes 1000-1999/${data.length}`)
    expect(Buffer.from(await ranged.body.arrayBuffer())).toEqual(data.subarray(1000, 2000))
    // The bytes came from the torrent, not from the sparse file.
    expect(reads).toContainEqual({ start: 1000, end: 1999 })

    input.release()
    const gone = await request(first)
    expect(gone.statusCode).toBe(404)
    expect(await gone.body.text()).toBe('Not Found\n')
  })

  it('answers the one 404 to a player token, another session\'s token or an expired one', async () => {
    const input = inputs.open(session)
    const base = `${server.url}/source/h%201/clip.mkv`
    const tokens = [
      mintStreamToken({ secret, scope: streamScope('h 1'), expiresAtSeconds: nowMs / 1000 + 600 }),
      mintStreamToken({ secret, scope: `hls:h 1`, expiresAtSeconds: nowMs / 1000 + 600 }),
      mintStreamToken({ secret, scope: hlsInputScope('other'), expiresAtSeconds: nowMs / 1000 + 600 }),
      mintStreamToken({ secret, scope: hlsInputScope('h 1'), expiresAtSeconds: nowMs / 1000 - 120 }),
    ]
    for (const token of tokens) {
      const answer = await request(`${base}?token=${token}`)
      expect(answer.statusCode).toBe(404)
      expect(await answer.body.text()).toBe('Not Found\n')
    }
    input.release()
  })

  it('reads the complete file from disk: new processes get the path, a reconnecting one the file behind the URL', async () => {
    complete = false
    torrentHeld = true
    const input = inputs.open(session)
    const reference = input.source as HlsSourceReference
    const url = reference.current()
    await writeFile(filePath, data)
    complete = true
    torrentHeld = false // a torrent that finished seeding leaves the engine
    expect(reference.current()).toBe(filePath)
    const ranged = await request(url, { headers: { range: 'bytes=10-19' } })
    expect(ranged.statusCode).toBe(206)
    expect(Buffer.from(await ranged.body.arrayBuffer())).toEqual(data.subarray(10, 20))
    // Neither downloading nor complete (paused, deleted): the one 404, never the sparse file.
    complete = false
    const missing = await request(url)
    expect(missing.statusCode).toBe(404)
    await missing.body.text()
    input.release()
    torrentHeld = true
  })

  it('never lets its token reach a log line or a failure message through ffmpeg\'s stderr', () => {
    const line = '[http @ 0x1] HTTP error 404 Not Found\nhttp://127.0.0.1:7890/source/h%201/clip.mkv?token=v1.123.abc: Server returned 404 Not Found'
    expect(scrubUrls(line)).toBe('[http @ 0x1] HTTP error 404 Not Found\nhttp://127.0.0.1:7890/source/h%201/clip.mkv?…: Server returned 404 Not Found')
    expect(scrubUrls("Error opening input 'https://debrid.example/f.mkv?key=s3cret'")).toBe("Error opening input 'https://debrid.example/f.mkv?…'")
    expect(scrubUrls('/downloads/clip.mkv: Invalid data')).toBe('/downloads/clip.mkv: Invalid data')
  })

  it('cannot be made before the stream server listens or without a signing secret', () => {
    const early = createHlsInputs({ inProgress: () => torrent(), secret: () => undefined, baseUrl: () => undefined })
    expect(() => early.open(session)).toThrow(/signing secret/)
    expect(early.registry.size).toBe(0)
  })

  it('takes completeness from the engine first, then from the last report', () => {
    const reports = [{ infoHash: 'b'.repeat(40), files: [{ path: '/d/a.mkv', progress: 0.5 }, { path: '/d/b.mkv', progress: 1 }] }]
    let live: { files: { path: string; progress: number }[] } | undefined = { files: [{ path: '/d/a.mkv', progress: 1 }, { path: '/d/b.mkv', progress: 1 }] }
    const complete = fileCompleteIn({ reports: () => reports, engine: { stats: () => live } })
    expect(complete('/d/a.mkv')).toBe(true)
    live = undefined
    expect(complete('/d/a.mkv')).toBe(false)
    expect(complete('/d/b.mkv')).toBe(true)
    expect(complete('/d/c.mkv')).toBe(false)
  })
})

describe('the session bound to its input and to the stream server', () => {
  const harness = (engine: HlsEngine, hlsInput?: Parameters<typeof createSessionLogic>[0]['hlsInput']) => {
    const registry = createSessionRegistry()
    const logic = createSessionLogic({
      logger,
      registry,
      ledger: createSessionReportLedger(),
      api: { sessionReady: async () => {} },
      changed: () => {},
      openSource: async () => ({ source: { label: 'x', open: async () => { throw new Error('unused') } }, dispose: async () => {} }),
      hlsEngine: engine,
      ...(hlsInput ? { hlsInput } : {}),
    })
    return { registry, logic }
  }
  const fakeEngine = () => {
    const calls: { source: unknown; events: Parameters<HlsEngine['start']>[1] }[] = []
    const engine: HlsEngine = {
      start: (params, events) => {
        calls.push({ source: params.source, events })
        return { stop: async () => {} }
      },
      routes: async () => {},
    }
    return { engine, calls }
  }

  it('hands the engine the minted input and withdraws it when the session ends', async () => {
    const { engine, calls } = fakeEngine()
    const h = harness(engine, (s) => inputs.open(s))
    const actor = createActor(h.logic.machine, { input: { session, readinessDeadlineMs: 60_000 } }).start()
    expect(typeof (calls[0]!.source as HlsSourceReference).current).toBe('function')
    expect(inputs.registry.get('h 1')).toBeDefined()
    actor.send({ type: 'session.end', reason: 'removed' })
    expect(inputs.registry.get('h 1')).toBeUndefined()
    await h.logic.settle()
  })

  it('fails the session with the reason when no input can be made', () => {
    const { engine, calls } = fakeEngine()
    const h = harness(engine, () => { throw new Error('no stream server yet') })
    const actor = createActor(h.logic.machine, { input: { session, readinessDeadlineMs: 60_000 } }).start()
    expect(calls).toHaveLength(0)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toBe('no stream server yet')
  })

  it('plays an HLS session on the first media fetch, also when the fetch came just before readiness', async () => {
    const { engine, calls } = fakeEngine()
    const h = harness(engine)
    const actor = createActor(h.logic.machine, { input: { session: { ...session, filePath: '/library/a.mkv' }, readinessDeadlineMs: 60_000 } }).start()
    const events = calls[0]!.events
    events.onMediaFetched?.()
    expect(actor.getSnapshot().matches({ hls: 'waitingForReadiness' })).toBe(true)
    events.onReady({ cacheHit: false })
    await waitFor(actor, (snapshot) => snapshot.matches({ hls: { ready: { playback: 'playing' } } }))
    events.onMediaFetched?.()
    actor.send({ type: 'session.end', reason: 'removed' })
    await h.logic.settle()
  })

  it('plays a direct-play session when the stream server sends body bytes of its source', async () => {
    const { engine } = fakeEngine()
    const h = harness(engine)
    const actor = createActor(h.logic.machine, { input: { session: { ...session, PlayMethod: 'direct' }, readinessDeadlineMs: 60_000 } }).start()
    await waitFor(actor, (snapshot) => snapshot.matches({ direct: 'ready' }))
    expect(actor.getSnapshot().matches({ direct: { ready: { playback: 'idle' } } })).toBe(true)
    const entry = h.registry.get('h 1')!
    entry.onMedia?.()
    entry.onMedia?.()
    expect(actor.getSnapshot().matches({ direct: { ready: { playback: 'playing' } } })).toBe(true)
    actor.send({ type: 'session.end', reason: 'removed' })
    await h.logic.settle()
  })
})
