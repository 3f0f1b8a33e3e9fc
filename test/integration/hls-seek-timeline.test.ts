// Real ffmpeg: a seek-run's segments are on the timeline of a run from 0 (docs/hls.md "One
// timeline for every run"): seg-N's first decode time (`tfdt`) and first presentation time are
// those of the run from 0's seg-N, for a 30 fps and a 23.976 fps source with audio, so a player
// moving between segments of different runs sees no jump and a cache entry spliced from both runs
// verifies. Before the fix the mp4 muxer moved a seek-run's first decode time to 0.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { segmentStart, verifyEntry, videoTrackOf } from '../../src/services/cache/verify-entry.js'
import { encoderDelayFrames } from '../../src/services/ffmpeg/encoder-delay.js'
import { buildHlsArgs } from '../../src/services/ffmpeg/hls-args.js'
import { createProbeService } from '../../src/services/ffmpeg/probe.js'
import { mediaPlaylist, planSegments } from '../../src/services/hls/playlists.js'
import { pino } from 'pino'
import { createMediaFixtures, type FixtureName, type MediaFixtures } from '../helpers/media-fixtures.js'
import { run } from './hls-kit.js'

let fixtures: MediaFixtures
let work: string

beforeAll(async () => {
  fixtures = await createMediaFixtures()
  work = await mkdtemp(join(tmpdir(), 'ma17-timeline-'))
}, 120_000)

afterAll(async () => {
  await fixtures?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

interface Encoded { dir: string; durationSeconds: number; frameRate: number }

/** One run of the session's own argv (buildHlsArgs, libx264, 360p), from segment `start`. */
async function encode(fixture: FixtureName, start: number, name: string, transform: (args: string[]) => string[] = (args) => args): Promise<Encoded> {
  const source = await fixtures.get(fixture)
  const { result: probe } = await createProbeService({ ffprobePath: 'ffprobe', logger: pino({ level: 'silent' }) }).probe(source)
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  const { args } = buildHlsArgs({
    source, sourceGeometry: probe.video, durationSeconds: probe.durationSeconds, quality: '360p', encoder: 'libx264',
    audioIndex: 0, hasAudio: probe.audio.length > 0, outputDir: dir, startSegment: start, warmupSegments: 0,
    encoderDelayFrames: await encoderDelayFrames('ffmpeg', 'libx264'), frameRate: probe.video.encodeFrameRate ?? probe.video.frameRate!, audioSampleRate: probe.audio[0]?.sampleRate,
  })
  await run('ffmpeg', transform(args), { maxBuffer: 1 << 24 })
  return { dir, durationSeconds: probe.durationSeconds, frameRate: probe.video.frameRate! }
}

async function videoStart(dir: string, segment: number): Promise<number> {
  const track = videoTrackOf(await readFile(join(dir, 'init.mp4')))!
  const start = await segmentStart(join(dir, `seg-${segment}.m4s`), track.trackId)
  if ('reason' in start) throw new Error(start.reason)
  return start.ticks
}

/** First video packet's pts and dts (seconds, as ffprobe prints them) of init.mp4 + seg-N. */
async function firstVideoPacket(dir: string, segment: number): Promise<string> {
  const joined = join(dir, `joined-${segment}.mp4`)
  await writeFile(joined, Buffer.concat([await readFile(join(dir, 'init.mp4')), await readFile(join(dir, `seg-${segment}.m4s`))]))
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time,dts_time', '-of', 'csv=p=0', joined])
  await rm(joined)
  return String(stdout).split('\n')[0]!
}

/** A cache entry (the files cache-disk commits) from run 0's segments below `seek` and the seek-run's from it. */
async function splice(name: string, zero: Encoded, seekRun: Encoded, seek: number): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  const plan = planSegments(zero.durationSeconds, 2, zero.frameRate)
  await copyFile(join(zero.dir, 'init.mp4'), join(dir, 'init.mp4'))
  for (let n = 0; n < plan.count; n++) await copyFile(join(n < seek ? zero.dir : seekRun.dir, `seg-${n}.m4s`), join(dir, `seg-${n}.m4s`))
  await writeFile(join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000\nindex.m3u8\n')
  await writeFile(join(dir, 'index.m3u8'), mediaPlaylist(plan))
  let bytes = 0
  for (const file of await readdir(dir)) bytes += (await stat(join(dir, file))).size
  await writeFile(join(dir, 'entry.json'), JSON.stringify({
    source: 'timeline-test', quality: '360p', audioIndex: 0, durationSeconds: zero.durationSeconds, segmentSeconds: 2,
    segments: plan.count, bytes, agentVersion: 'test', frameRate: zero.frameRate,
  }))
  return dir
}

describe('a seek-run on the timeline of a run from 0', () => {
  it('measures libx264\'s reorder delay as the two frames of its B-pyramid', async () => {
    expect(await encoderDelayFrames('ffmpeg', 'libx264')).toBe(2)
  })

  it.each([
    ['h264-360p', 7],
    ['h264-ntsc-film-360p', 5],
    // Average 21.07 fps, encoded at 30: counted at the average, seg-7 was 28 ms and seg-8 62 ms late.
    ['h264-vfr-360p', 7],
  ] as [FixtureName, number][])('%s: every segment of the seek-run from %i starts at the decode and presentation times of the run from 0\'s, and an entry spliced from both runs verifies', async (fixture, seek) => {
    const zero = await encode(fixture, 0, `${fixture}-zero`)
    const seekRun = await encode(fixture, seek, `${fixture}-seek`)
    expect(await readFile(join(seekRun.dir, 'init.mp4'))).toEqual(await readFile(join(zero.dir, 'init.mp4')))
    // Every segment of the seek-run, to the last (at 23.976 fps its 22 s boundary was once a frame early), and none past it.
    const count = planSegments(zero.durationSeconds, 2, zero.frameRate).count
    const written = (await readdir(seekRun.dir)).filter((name) => /^seg-\d+\.m4s$/.test(name)).length
    expect(written).toBe(count - seek)
    for (let n = seek; n < count; n++) {
      expect(await videoStart(seekRun.dir, n), `seg-${n} tfdt`).toBe(await videoStart(zero.dir, n))
      expect(await firstVideoPacket(seekRun.dir, n), `seg-${n} first pts,dts`).toBe(await firstVideoPacket(zero.dir, n))
    }
    const spliced = await splice(`${fixture}-spliced`, zero, seekRun, seek)
    expect(await verifyEntry(spliced, 'timeline-test')).toMatchObject({ ok: true })

    // The seek-run as main made it (the muxer's default make_zero, no shift): seg-N at 0 s. An
    // entry holding it is rejected, and the cache re-encodes it (cache-part: "removed and re-encoded").
    const old = await encode(fixture, seek, `${fixture}-old`, (args) => {
      const kept = args.filter((arg, index) => arg !== '-output_ts_offset' && args[index - 1] !== '-output_ts_offset')
      return kept.map((arg) => arg.replace(':avoid_negative_ts=make_non_negative', ''))
    })
    expect(await videoStart(old.dir, seek)).toBe(0)
    const wrong = await splice(`${fixture}-wrong`, zero, old, seek)
    // Verification checks segments 8 at a time and names whichever wrong one it finds first: any
    // of the seek-run's, each of them off its 2N s (naming only seg-N failed one run in a few).
    const rejected = await verifyEntry(wrong, 'timeline-test')
    expect(rejected).toMatchObject({ ok: false })
    const named = /^seg-(\d+)\.m4s starts at ([\d.]+) s, not (\d+) s$/.exec('reason' in rejected ? rejected.reason : '')
    expect(named, 'reason' in rejected ? rejected.reason : 'no reason').not.toBeNull()
    expect(Number(named![1])).toBeGreaterThanOrEqual(seek)
    expect(Number(named![2])).toBeCloseTo((Number(named![1]) - seek) * 2, 2)
  }, 120_000)
})
