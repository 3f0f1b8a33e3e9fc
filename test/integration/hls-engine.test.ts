// Real ffmpeg on sources made by the test, read over HTTP from the agent's stream server by a
// real HLS client (ffmpeg/ffprobe). Contract 3, 4.2, 4.3, 7, 8; docs/hls.md.
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import { startHttpsUpstream, type HttpsUpstream } from '../helpers/https-upstream.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import {
  decodeWithFfmpeg,
  fetchBytes,
  ffmpegProcessesMentioning,
  liveGroupMembers,
  playlistSegments,
  segmentFacts,
  segmentFrameHashes,
  startEngineKit,
  startSession,
  waitUntil,
  type EngineKit,
} from './hls-kit.js'
import { rawRequest, tokenFor } from './stream-kit.js'

let fixtures: MediaFixtures
let kit: EngineKit

beforeAll(async () => {
  fixtures = await createMediaFixtures()
  kit = await startEngineKit()
}, 120_000)

afterAll(async () => {
  await kit?.close()
  await fixtures?.cleanup()
})

/** Plays a session end to end and checks every segment: 2 s (the last may be shorter), keyframe first. */
/**
 * What `list` finds once the processes the engine SIGKILLed have finished exiting. stop() returns
 * when the watchdog's pipe has closed, which a dying ffmpeg does before the kernel has torn it
 * down (seen once under load on Node 24: a member still in state R). Bounded, so a process that
 * was never killed still fails the test.
 */
async function allGone(list: () => Promise<number[]>): Promise<number[]> {
  await waitUntil(async () => (await list()).length === 0, 3_000)
  return list()
}

async function playAndCheck(base: string, options: { seeked?: boolean } = {}): Promise<{ master: string; segments: number }> {
  const master = await fetchBytes(`${base}/master.m3u8`)
  expect(master.status).toBe(200)
  expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
  const decoded = await decodeWithFfmpeg(`${base}/master.m3u8`)
  expect(decoded.stderr).toBe('')
  const playlist = (await fetchBytes(`${base}/index.m3u8`)).body.toString('utf8')
  const names = playlistSegments(playlist)
  const init = (await fetchBytes(`${base}/init.mp4`)).body
  const resolution = /RESOLUTION=(\d+)x(\d+)/.exec(master.body.toString('utf8'))!
  for (const [index, name] of names.entries()) {
    const segment = await fetchBytes(`${base}/${name}`)
    expect(segment.status, name).toBe(200)
    const facts = await segmentFacts(init, segment.body)
    // What the player is told is what it decodes (the scale is an ffmpeg expression, the playlist's figure is not).
    expect([facts.width, facts.height], name).toEqual([Number(resolution[1]), Number(resolution[2])])
    expect(facts.firstIsKeyframe, name).toBe(true)
    // After seeks, a segment ffmpeg was restarted at (by the test's seek, or by this read going
    // back behind the new run's start) has a keyframe every 0.5 s (docs/hls.md "Seeking"); any
    // other segment has its one keyframe only.
    if (options.seeked && facts.keyframes !== 1) expect(facts.keyframeOffsets.map((offset) => Math.round(offset * 2) / 2), name).toEqual([0, 0.5, 1, 1.5])
    else expect(facts.keyframes, name).toBe(1)
    if (index < names.length - 1) expect(facts.durationSeconds, name).toBeCloseTo(2, 2)
    else expect(facts.durationSeconds, name).toBeLessThanOrEqual(2.0001)
  }
  return { master: master.body.toString('utf8'), segments: names.length }
}

describe('HLS sessions read end to end by a real HLS client', () => {
  it('a 1080p H.264 + AAC source at 1080p plays to the end in uniform 2 s segments that start on keyframes', async () => {
    const source = await fixtures.get('h264-1080p')
    const session = startSession(kit, 'h1080', source, { quality: '1080p' })
    await session.ready
    const { master, segments } = await playAndCheck(kit.base('h1080'))
    expect(master).toContain('RESOLUTION=1920x1080')
    expect(master).toContain('CODECS="avc1.640029,mp4a.40.2"') // level 4.1
    expect(master).toContain('BANDWIDTH=8160000')
    expect(segments).toBe(4)
    expect(session.readyCalls()).toBe(1)
    // ffmpeg started beside ffprobe, and the probe confirmed its command line.
    expect(kit.engine.inspect().find((s) => s.sessionId === 'h1080')).toMatchObject({ firstStart: 'before-probe', run: 0 })
    await session.handle.stop()
  }, 120_000)

  it('a 720p source asked for 2160p is served at 720p with the 720p cap and level', async () => {
    const source = await fixtures.get('h264-720p')
    const session = startSession(kit, 'h720', source, { quality: '2160p' })
    await session.ready
    const { master, segments } = await playAndCheck(kit.base('h720'))
    expect(master).toContain('RESOLUTION=1280x720')
    expect(master).toContain('CODECS="avc1.640028,mp4a.40.2"') // level 4.0
    expect(master).toContain('BANDWIDTH=3660000') // 3500k video + 160k audio
    expect(segments).toBe(6)
    // Started before the probe on the 2160p rung; the probe found 720p, so that run was replaced.
    expect(kit.engine.inspect().find((s) => s.sessionId === 'h720')).toMatchObject({ firstStart: 'discarded', run: 0 })
    await session.handle.stop()
  }, 120_000)

  it('an anamorphic 2.39:1 source keeps its display shape', async () => {
    const source = await fixtures.get('anamorphic')
    const session = startSession(kit, 'wide', source, { quality: '720p' })
    await session.ready
    const { master, segments } = await playAndCheck(kit.base('wide'))
    expect(master).toContain('RESOLUTION=1280x536')
    expect(segments).toBe(3) // 5 s: 2 + 2 + 1
    await session.handle.stop()
  }, 120_000)

  it('an HEVC 10-bit source with 5.1 audio, two audio tracks and a text subtitle plays with the chosen track and a WebVTT rendition', async () => {
    const source = await fixtures.get('hevc10-surround')
    const session = startSession(kit, 'hevc', source, { quality: '1080p', audioIndex: 1 })
    await session.ready
    const base = kit.base('hevc')
    const { master } = await playAndCheck(base)
    expect(master).toMatch(/#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="eng",LANGUAGE="eng",DEFAULT=NO,AUTOSELECT=YES,URI="sub-0.m3u8"/)
    expect(master).toContain('SUBTITLES="subs"')
    expect(master).toContain('RESOLUTION=640x360')
    const subtitles = await fetchBytes(`${base}/sub-0.m3u8`)
    expect(subtitles.body.toString('utf8')).toContain('sub-0.vtt')
    const vtt = await fetchBytes(`${base}/sub-0.vtt`)
    expect(vtt.status).toBe(200)
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8')
    expect(vtt.body.toString('utf8')).toMatch(/^WEBVTT[\s\S]*First line[\s\S]*Second line/)
    // The second audio track (stereo, 660 Hz) was mapped, downmixed to stereo AAC.
    const init = (await fetchBytes(`${base}/init.mp4`)).body
    const segment = (await fetchBytes(`${base}/seg-0.m4s`)).body
    const facts = await segmentFacts(init, segment)
    expect(facts.firstIsKeyframe).toBe(true)
    await session.handle.stop()
  }, 120_000)
})

describe('seeking', () => {
  it('a segment far ahead restarts ffmpeg there, and with a rate-control warm-up its frames match a run from 0', async () => {
    const source = await fixtures.get('h264-360p') // 20 s: 10 segments
    // Reference: a run from 0, read in order.
    const reference = startSession(kit, 'seek-ref', source, { quality: '720p' })
    await reference.ready
    const refBase = kit.base('seek-ref')
    await decodeWithFfmpeg(`${refBase}/master.m3u8`)
    const refInit = (await fetchBytes(`${refBase}/init.mp4`)).body
    const refSegment = (await fetchBytes(`${refBase}/seg-8.m4s`)).body
    expect(kit.engine.inspect().find((s) => s.sessionId === 'seek-ref')?.run).toBe(0)
    await reference.handle.stop()

    // The seeking session encodes at 2x real time, so segment 8 is far ahead of it when asked.
    // The warm-up is off by default (a seek starts at the wanted segment); with 150 frames of it
    // a seek-run's frames are those of a run from 0 (docs/hls.md "Seeking").
    const slow = await startEngineKit({ extraInputArgs: ['-readrate', '2'], seekWarmupFrames: 150 })
    try {
      const seeking = startSession(slow, 'seek', source, { quality: '720p' })
      await seeking.ready
      const base = slow.base('seek')
      const asked = performance.now()
      const segment = await fetchBytes(`${base}/seg-8.m4s`)
      const waitedMs = performance.now() - asked
      expect(segment.status).toBe(200)
      const state = slow.engine.inspect().find((s) => s.sessionId === 'seek')
      expect(state?.run).toBeGreaterThanOrEqual(1) // restarted, not waited for
      expect(waitedMs).toBeLessThan(10_000)
      const init = (await fetchBytes(`${base}/init.mp4`)).body
      expect(init.equals(refInit)).toBe(true)
      const [mine, theirs] = await Promise.all([segmentFrameHashes(init, segment.body), segmentFrameHashes(refInit, refSegment)])
      expect(mine.length).toBe(60)
      expect(mine).toEqual(theirs)
      const facts = await segmentFacts(init, segment.body)
      expect(facts.firstIsKeyframe).toBe(true)
      expect(facts.durationSeconds).toBeCloseTo(2, 2)
      // A segment behind the new run's start restarts again and is served too.
      const behind = await fetchBytes(`${base}/seg-1.m4s`)
      expect(behind.status).toBe(200)
      await seeking.handle.stop()
    } finally {
      await slow.close()
    }
  }, 180_000)
})

describe('URL sources', () => {
  let upstream: HttpsUpstream
  afterAll(async () => upstream?.close())

  it('a URL source over HTTPS plays the same, and a seek reopens the URL with a Range request', async () => {
    const source = await fixtures.get('h264-720p')
    upstream = await startHttpsUpstream({ content: await readFile(source) })
    const url = `${upstream.origin}/debrid/film.mp4`
    const slow = await startEngineKit({ extraInputArgs: ['-readrate', '2'], seekAheadSegments: 1 })
    try {
      const session = startSession(slow, 'url', url, { quality: '480p', cacheId: 'a'.repeat(40) })
      await session.ready
      const base = slow.base('url')
      const before = upstream.requests.length
      const far = await fetchBytes(`${base}/seg-5.m4s`)
      expect(far.status).toBe(200)
      expect(slow.engine.inspect()[0]?.run).toBeGreaterThanOrEqual(1)
      const ranged = upstream.requests.slice(before).filter((request) => request.method === 'GET' && request.range !== undefined && !/^bytes=0-/.test(request.range))
      expect(ranged.length).toBeGreaterThan(0)
      const { segments } = await playAndCheck(base, { seeked: true })
      expect(segments).toBe(6)
      await session.handle.stop()
    } finally {
      await slow.close()
    }
  }, 180_000)

  it('ffprobe failing on a URL fails the session with ffprobe\'s own stderr', async () => {
    const failing = await startHttpsUpstream({ content: Buffer.alloc(1000), failGetWith: 404 })
    try {
      const session = startSession(kit, 'url-404', `${failing.origin}/gone.mp4`)
      const error = await session.failed
      expect(error.message).toMatch(/ffprobe failed on https:\/\/127\.0\.0\.1:\d+\/gone\.mp4: .*404/)
      expect((error as { code?: string }).code).toBe('MA_ERR_PROBE_FAILED')
      await session.handle.stop()
    } finally {
      await failing.close()
    }
  }, 60_000)
})

describe('failures and processes', () => {
  it('ffmpeg exiting early is restarted 3 times, then the session fails with its last stderr lines', async () => {
    const fake = join(kit.workDir, 'fake-ffmpeg.sh')
    const counter = join(kit.workDir, 'starts')
    // Counts the HLS runs only (the session's encoder-delay probe, a framecrc encode, fails the same way).
    await writeFile(fake, `#!/bin/sh\ncase "$*" in *" -f hls "*) echo start >> '${counter}';; esac\necho "Error initializing output stream 0:0 -- VBV bitrate above level limit" >&2\nexit 1\n`)
    await chmod(fake, 0o755)
    const broken = await startEngineKit({ ffmpegPath: fake })
    try {
      const source = await fixtures.get('h264-360p')
      // 480p: the rung ffmpeg is started on before the probe is the one the probe confirms.
      const session = startSession(broken, 'broken', source, { quality: '480p' })
      const error = await session.failed
      expect((error as { code?: string }).code).toBe('MA_ERR_TRANSCODE_FAILED')
      expect(error.message).toContain('VBV bitrate above level limit')
      expect((await readFile(counter, 'utf8')).trim().split('\n')).toHaveLength(4) // 1 + 3 restarts
      expect(session.readyCalls()).toBe(0)
      await session.handle.stop()
    } finally {
      await broken.close()
    }
  }, 60_000)

  it('a failing probe leaves no ffmpeg behind, though ffmpeg was started beside it', async () => {
    const fakeProbe = join(kit.workDir, 'failing-ffprobe.sh')
    await writeFile(fakeProbe, '#!/bin/sh\nsleep 0.3\necho "moov atom not found" >&2\nexit 1\n')
    await chmod(fakeProbe, 0o755)
    // ffmpeg at real time would run 20 s: it is still running when the probe fails.
    const probing = await startEngineKit({ ffprobePath: fakeProbe, extraInputArgs: ['-readrate', '1'] })
    try {
      const session = startSession(probing, 'badprobe', await fixtures.get('h264-360p'), { quality: '480p' })
      const error = await session.failed
      expect((error as { code?: string }).code).toBe('MA_ERR_PROBE_FAILED')
      expect(await allGone(() => ffmpegProcessesMentioning(probing.workDir))).toEqual([])
      expect(session.readyCalls()).toBe(0)
      await session.handle.stop()
    } finally {
      await probing.close()
    }
  }, 30_000)

  it('ffprobe missing fails the session with advice naming FFPROBE_PATH', async () => {
    const missing = await startEngineKit({ ffprobePath: '/nonexistent/ffprobe' })
    try {
      const session = startSession(missing, 'noprobe', await fixtures.get('h264-360p'))
      const error = await session.failed
      expect((error as { code?: string }).code).toBe('MA_ERR_FFMPEG_NOT_FOUND')
      expect(error.message).toContain('FFPROBE_PATH')
      expect(error.message).toContain('ffprobe_path')
    } finally {
      await missing.close()
    }
  }, 30_000)

  it('without a closed segment after 60 s the engine reports the readiness timeout once and never reports ready', async () => {
    const fake = join(kit.workDir, 'silent-ffmpeg.sh')
    await writeFile(fake, '#!/bin/sh\nexec sleep 120\n')
    await chmod(fake, 0o755)
    const clock = new SimulatedClock()
    const lines: string[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    const stalled = await startEngineKit({ ffmpegPath: fake, clock, logger, segmentWaitMs: 300 })
    try {
      let timeouts = 0
      let ready = 0
      const handle = stalled.engine.start({ sessionId: 'stalled', session: { sessionId: 'stalled', PlayMethod: 'hls', quality: '480p' }, source: await fixtures.get('h264-360p') }, {
        onReady: () => void ready++,
        onReadinessTimeout: () => void timeouts++,
        onFailed: () => {},
      })
      expect(await waitUntil(async () => stalled.engine.inspect()[0]?.state === 'encoding', 10_000)).toBe(true)
      // Not ready: the playlists are not there yet, so a player's HEAD probe keeps retrying.
      expect((await fetch(`${stalled.base('stalled')}/master.m3u8`, { method: 'HEAD' })).status).toBe(404)
      // init.mp4 waits for a closed segment like a segment ahead of the encoder (segmentWaitMs), then 404s.
      expect((await fetchBytes(`${stalled.base('stalled')}/init.mp4`)).status).toBe(404)
      // The simulated clock fires due timers inside increment(), so each outcome is there at once.
      clock.increment(59_999)
      expect(timeouts).toBe(0)
      clock.increment(1)
      expect(timeouts).toBe(1)
      clock.increment(120_000)
      expect(timeouts).toBe(1)
      expect(ready).toBe(0)
      // The user-facing `mark-ready: timeout` line is the session actor's (test/unit/session-machine.test.ts).
      expect(lines.filter((line) => line.includes('mark-ready: timeout'))).toHaveLength(0)
      await handle.stop()
    } finally {
      await stalled.close()
    }
  }, 30_000)

  it('init.mp4 and the first segment asked for before readiness arrive when the segment closes, while the playlists still answer 404', async () => {
    const early = await startEngineKit()
    try {
      const source = await fixtures.get('h264-360p')
      // Asked the moment the session starts (before the probe has answered), as the reference player does.
      const session = startSession(early, 'early', source)
      const [init, segment, master] = await Promise.all([
        fetchBytes(`${early.base('early')}/init.mp4`),
        fetchBytes(`${early.base('early')}/seg-0.m4s`),
        fetch(`${early.base('early')}/master.m3u8`, { method: 'HEAD' }),
      ])
      expect(master.status).toBe(404)
      expect(init.status).toBe(200)
      expect(segment.status).toBe(200)
      await session.ready
      // The same files a player gets after readiness, and they decode: 2 s of frames.
      expect((await fetchBytes(`${early.base('early')}/init.mp4`)).body.equals(init.body)).toBe(true)
      expect(await segmentFrameHashes(init.body, segment.body)).toHaveLength(60)
      await session.handle.stop()
    } finally {
      await early.close()
    }
  }, 60_000)

  it('a segment not written within the bounded wait answers 404, so the player retries', async () => {
    const slow = await startEngineKit({ extraInputArgs: ['-readrate', '1'], segmentWaitMs: 300, seekAheadSegments: 100 })
    try {
      const session = startSession(slow, 'notyet', await fixtures.get('h264-360p'))
      await session.ready
      const asked = performance.now()
      const answer = await fetchBytes(`${slow.base('notyet')}/seg-9.m4s`)
      expect(answer.status).toBe(404)
      expect(performance.now() - asked).toBeGreaterThanOrEqual(250)
      expect(slow.engine.inspect()[0]?.run).toBe(0) // within reach of the encoder: no restart
      await session.handle.stop()
    } finally {
      await slow.close()
    }
  }, 60_000)

  it('a stopped session leaves no ffmpeg behind and removes its files', async () => {
    const slow = await startEngineKit({ extraInputArgs: ['-readrate', '1'] })
    try {
      const session = startSession(slow, 'orphan', await fixtures.get('h264-360p'))
      await session.ready
      const [state] = slow.engine.inspect()
      const groups = state!.pids
      expect(groups.length).toBeGreaterThan(0)
      expect((await ffmpegProcessesMentioning(slow.workDir)).length).toBeGreaterThan(0)
      await session.handle.stop()
      for (const pgid of groups) expect(await allGone(() => liveGroupMembers(pgid))).toEqual([])
      expect(await allGone(() => ffmpegProcessesMentioning(slow.workDir))).toEqual([])
      expect(slow.engine.inspect()).toEqual([])
      const gone = await fetchBytes(`${slow.base('orphan')}/master.m3u8`)
      expect(gone.status).toBe(404)
    } finally {
      await slow.close()
    }
  }, 60_000)

  it('a session stopped while it is still being probed leaves no process and no directory', async () => {
    const quick = await startEngineKit()
    try {
      const source = await fixtures.get('hevc10-surround') // has a subtitle track: extraction must not start either
      for (let index = 0; index < 3; index++) {
        const session = startSession(quick, `early-${index}`, source)
        await new Promise((resolve) => setTimeout(resolve, index * 40))
        await session.handle.stop()
      }
      expect(await allGone(() => ffmpegProcessesMentioning(quick.workDir))).toEqual([])
      expect(await readdir(join(quick.workDir, 'hls-sessions')).catch(() => [])).toEqual([])
      expect(quick.engine.inspect()).toEqual([])
    } finally {
      await quick.close()
    }
  }, 30_000)

  it('every miss is the stream server\'s one 404: bad token, unknown session, other session\'s token, a segment not in the playlist, a wrong method', async () => {
    const session = startSession(kit, 'misses', await fixtures.get('h264-360p'))
    await session.ready
    const origin = kit.server.url
    const good = tokenFor('hls:misses')
    const answers = await Promise.all([
      rawRequest(origin, 'GET', '/unknown-route'),
      rawRequest(origin, 'GET', `/hls/misses/v1.0.AAAA/master.m3u8`),
      rawRequest(origin, 'GET', `/hls/nobody/${tokenFor('hls:nobody')}/master.m3u8`),
      rawRequest(origin, 'GET', `/hls/misses/${tokenFor('hls:other')}/master.m3u8`),
      rawRequest(origin, 'GET', `/hls/misses/${tokenFor('stream:misses')}/master.m3u8`),
      rawRequest(origin, 'GET', `/hls/misses/${good}/seg-99.m4s`),
      rawRequest(origin, 'GET', `/hls/misses/${good}/seg-01.m4s`),
      rawRequest(origin, 'GET', `/hls/misses/${good}/../master.m3u8`),
      rawRequest(origin, 'POST', `/hls/misses/${good}/master.m3u8`),
      rawRequest(origin, 'GET', `/hls/misses/${good}/sub-0.vtt`),
    ])
    for (const answer of answers) {
      expect(answer.status).toBe(404)
      expect(answer.head).toBe(answers[0]!.head)
      expect(answer.body.equals(answers[0]!.body)).toBe(true)
    }
    const head = await rawRequest(origin, 'HEAD', `/hls/misses/${good}/seg-0.m4s`)
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe('video/iso.segment')
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
    expect(head.body.length).toBe(0)
    await session.handle.stop()
  }, 60_000)
})
