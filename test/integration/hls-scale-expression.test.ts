// The scale filter of an HLS run is an ffmpeg expression (so run 0 can start before ffprobe has
// answered), while the master playlist's RESOLUTION comes from outputGeometry() in TypeScript.
// Real ffmpeg evaluates the expression on frames of each shape here, and both must agree, or a
// player would be told one size and given another.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { scaleFilter } from '../../src/services/ffmpeg/hls-args.js'
import { outputGeometry } from '../../src/services/hls/quality-ladder.js'

const run = promisify(execFile)

/** The size ffmpeg's scale expression gives one frame of `width`x`height` with the sample aspect `sar` ("num/den"). */
async function scaledSize(quality: string, width: number, height: number, sar: string): Promise<[number, number]> {
  const { stderr } = await run('ffmpeg', [
    // testsrc (RGB) keeps odd sizes; a YUV 4:2:0 source would round them down before the scale.
    '-hide_banner', '-nostdin', '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=1:duration=1,setsar=${sar}`,
    '-vf', `showinfo,${scaleFilter(quality)},showinfo`, '-frames:v', '1', '-f', 'null', '-',
  ])
  const sizes = [...stderr.matchAll(/ s:(\d+)x(\d+) /g)].map((match) => [Number(match[1]), Number(match[2])] as [number, number])
  if (sizes.length !== 2) throw new Error(`expected two showinfo lines in ffmpeg's output:\n${stderr}`)
  expect(sizes[0]).toEqual([width, height]) // the frame entering the scale has the shape under test
  return sizes[1]!
}

describe('the scale expression agrees with outputGeometry()', () => {
  it.each([
    // [quality, width, height, sample aspect ratio]
    ['720p', 1920, 1080, '1/1'],
    ['2160p', 1280, 720, '1/1'],
    ['720p', 1920, 804, '1/1'], // 2.39:1
    ['1080p', 1440, 1080, '4/3'], // anamorphic HDV
    ['480p', 720, 576, '64/45'], // PAL 16:9 DVD
    ['720p', 720, 480, '32/27'], // NTSC 16:9 DVD, below the asked height
    ['480p', 1000, 563, '1/1'], // odd height
    ['original', 1440, 1080, '4/3'],
    ['original', 853, 479, '1/1'],
    ['1440p', 3840, 1600, '1/1'],
  ] as const)('%s from %ix%i (SAR %s)', async (quality, width, height, sar) => {
    const [num, den] = sar.split('/').map(Number) as [number, number]
    const expected = outputGeometry(quality, { width, height, sampleAspectRatio: num / den })
    expect(await scaledSize(quality, width, height, sar)).toEqual([expected.width, expected.height])
  })
})
