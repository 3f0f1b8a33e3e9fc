// Real ffmpeg: the segment a player seeks into has a keyframe every 0.5 s, so the browser decodes
// from near the asked time instead of from the segment's start (issue 17, docs/hls.md "Seeking"),
// and the seek-run still cuts uniform 2 s segments at the boundaries and nowhere else, also for a
// 23.976 fps source whose frames fall off the whole seconds (contract 4.3.1, 4.3.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMediaFixtures, type FixtureName, type MediaFixtures } from '../helpers/media-fixtures.js'
import { fetchBytes, playlistSegments, segmentFacts, startEngineKit, startSession, type EngineKit } from './hls-kit.js'

let fixtures: MediaFixtures
let kit: EngineKit

beforeAll(async () => {
  fixtures = await createMediaFixtures()
  // Encoding at twice real time, so the segment asked for is far ahead and restarts ffmpeg there.
  kit = await startEngineKit({ extraInputArgs: ['-readrate', '2'] })
}, 120_000)

afterAll(async () => {
  await kit?.close()
  await fixtures?.cleanup()
})

describe('the segment a seek lands in', () => {
  it.each([
    // [source, frames per second, quality, segment sought]
    ['h264-ntsc-film-360p', '24000/1001', 'original', 7],
    ['h264-ntsc-film-360p', '24000/1001', '720p', 5],
    ['h264-1080p', '30', 'original', 2],
    // Variable frame rate (average 21.07 fps): encoded at a constant 30, its r_frame_rate.
    ['h264-vfr-360p', '30', 'original', 7],
  ] as [FixtureName, string, string, number][])('%s (%s fps) at %s: segment %i has a keyframe every 0.5 s, and every segment after it is 2 s with one keyframe, first', async (fixture, fps, quality, sought) => {
    const [numerator, denominator = '1'] = fps.split('/')
    const frame = Number(denominator) / Number(numerator)
    const source = await fixtures.get(fixture)
    const sessionId = `seek-kf-${fixture}-${quality}`
    const session = startSession(kit, sessionId, source, { quality })
    try {
      await session.ready
      const base = kit.base(sessionId)
      const init = (await fetchBytes(`${base}/init.mp4`)).body
      const names = playlistSegments((await fetchBytes(`${base}/index.m3u8`)).body.toString('utf8'))

      const seek = await fetchBytes(`${base}/seg-${sought}.m4s`)
      expect(seek.status).toBe(200)
      expect(kit.engine.inspect().find((s) => s.sessionId === sessionId)?.run).toBeGreaterThanOrEqual(1) // a seek-run made it
      const facts = await segmentFacts(init, seek.body)
      expect(Math.abs(facts.durationSeconds - 2)).toBeLessThan(frame)
      expect(facts.firstIsKeyframe).toBe(true)
      expect(facts.keyframeOffsets).toHaveLength(4)
      facts.keyframeOffsets.forEach((offset, index) => expect(Math.abs(offset - index * 0.5), `keyframe ${index}`).toBeLessThan(frame + 0.001))
      // On the timeline of a run from 0 (docs/hls.md "One timeline for every run"): it decodes from
      // the first frame at or after 2N s and presents it libx264's two-frame delay later, as the run
      // from 0's seg-N does (hls-seek-timeline.test.ts compares the two runs directly).
      const boundaryFrame = (segment: number) => Math.ceil((segment * 2) / frame - 1e-6) * frame
      expect(Math.abs(facts.firstDtsSeconds - boundaryFrame(sought)), 'first dts').toBeLessThan(0.0005)
      expect(Math.abs(facts.firstPtsSeconds - (boundaryFrame(sought) + 2 * frame)), 'first pts').toBeLessThan(0.0005)

      // The same run goes on (the player reads in order): boundaries only, 2 s each.
      for (const name of names.slice(sought + 1)) {
        const segment = await fetchBytes(`${base}/${name}`)
        expect(segment.status, name).toBe(200)
        const after = await segmentFacts(init, segment.body)
        expect(after.firstIsKeyframe, name).toBe(true)
        expect(Math.abs(after.firstDtsSeconds - boundaryFrame(Number(/seg-(\d+)/.exec(name)![1]))), `${name} first dts`).toBeLessThan(0.0005)
        expect(after.keyframes, name).toBe(1)
        if (name !== names.at(-1)) expect(Math.abs(after.durationSeconds - 2), name).toBeLessThan(frame)
      }
      expect(kit.engine.inspect().find((s) => s.sessionId === sessionId)?.run).toBe(1) // no further restart
    } finally {
      await session.handle.stop()
    }
  }, 180_000)
})
