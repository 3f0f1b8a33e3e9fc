// Test sources for the HLS tests, generated with ffmpeg lavfi (testsrc2 + sine) at ultrafast
// presets, a few seconds each. Each fixture is made once per run under the run's temp dir and
// reused by the tests of that run; cleanup() removes the dir.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type FixtureName = 'h264-1080p' | 'h264-720p' | 'anamorphic' | 'hevc10-surround' | 'h264-360p'
  // 20 s clips for the browser tests (issue 17): long enough that the middle is a real seek.
  | 'h264-1080p-20s' | 'h264-540p-20s'
  // 23.976 fps (24000/1001): frames fall off the whole seconds, which is where segment cutting is fragile.
  | 'h264-ntsc-film-360p'
  // Variable frame rate (a phone's recording): 30 fps with 3 frames of every 10 dropped, so its
  // average rate (21.07) is not the rate ffmpeg encodes it at (30, its r_frame_rate).
  | 'h264-vfr-360p'

export interface MediaFixtures {
  dir: string
  /** Absolute path of the fixture, generated on first use. */
  get(name: FixtureName): Promise<string>
  cleanup(): Promise<void>
}

const srt = `1
00:00:00,500 --> 00:00:02,000
First line

2
00:00:02,500 --> 00:00:04,500
Second line
`

export async function createMediaFixtures(ffmpeg = 'ffmpeg'): Promise<MediaFixtures> {
  const dir = await mkdtemp(join(tmpdir(), 'media-agent-hls-fixtures-'))
  const made = new Map<FixtureName, Promise<string>>()
  const generate = async (name: FixtureName): Promise<string> => {
    const video = (size: string, seconds: number, rate: number | string = 30) => ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`]
    const tone = (seconds: number, layout = 'stereo', frequency = 440) => ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}:sample_rate=48000,aformat=channel_layouts=${layout}`]
    const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '48']
    let args: string[]
    let file: string
    switch (name) {
      case 'h264-1080p':
        file = join(dir, 'h264-1080p.mp4')
        args = [...video('1920x1080', 8), ...tone(8), ...h264, '-c:a', 'aac', '-b:a', '128k', '-shortest', file]
        break
      case 'h264-720p':
        file = join(dir, 'h264-720p.mp4')
        args = [...video('1280x720', 12), ...tone(12), ...h264, '-c:a', 'aac', '-b:a', '128k', '-shortest', file]
        break
      case 'h264-360p':
        file = join(dir, 'h264-360p.mp4')
        args = [...video('640x360', 20), ...tone(20), ...h264, '-c:a', 'aac', '-b:a', '96k', '-shortest', file]
        break
      case 'h264-1080p-20s':
        file = join(dir, 'h264-1080p-20s.mp4')
        args = [...video('1920x1080', 20), ...tone(20), ...h264, '-c:a', 'aac', '-b:a', '128k', '-shortest', file]
        break
      case 'h264-540p-20s':
        file = join(dir, 'h264-540p-20s.mp4')
        args = [...video('960x540', 20), ...tone(20), ...h264, '-c:a', 'aac', '-b:a', '96k', '-shortest', file]
        break
      case 'h264-ntsc-film-360p':
        file = join(dir, 'h264-ntsc-film-360p.mp4')
        args = [...video('640x360', 24, '24000/1001'), ...tone(24), ...h264, '-c:a', 'aac', '-b:a', '96k', '-shortest', file]
        break
      case 'h264-vfr-360p':
        file = join(dir, 'h264-vfr-360p.mp4')
        args = [...video('640x360', 24), ...tone(24), '-vf', String.raw`select='lt(mod(n\,10)\,7)'`, '-fps_mode', 'vfr', ...h264, '-c:a', 'aac', '-b:a', '96k', '-shortest', file]
        break
      case 'anamorphic':
        // 2.39:1 on screen from 960x536 storage with 4:3 pixels (display 1280x536).
        file = join(dir, 'anamorphic.mkv')
        args = [...video('960x536', 5, 24), ...tone(5), '-vf', 'setsar=4/3', ...h264, '-c:a', 'aac', '-shortest', file]
        break
      case 'hevc10-surround': {
        // HEVC Main 10, a 5.1 track and a stereo track, one SubRip subtitle, in Matroska.
        file = join(dir, 'hevc10-surround.mkv')
        const subtitle = join(dir, 'hevc10.srt')
        await writeFile(subtitle, srt)
        args = [
          ...video('640x360', 5), ...tone(5, '5.1', 330), ...tone(5, 'stereo', 660), '-i', subtitle,
          '-map', '0:v', '-map', '1:a', '-map', '2:a', '-map', '3:s',
          '-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-x265-params', 'log-level=error:keyint=48',
          '-c:a', 'aac', '-c:s', 'srt', '-metadata:s:s:0', 'language=eng', '-metadata:s:a:1', 'language=fra', '-t', '5', file,
        ]
        break
      }
    }
    await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args])
    return file
  }
  return {
    dir,
    get(name) {
      let pending = made.get(name)
      if (!pending) {
        pending = generate(name)
        made.set(name, pending)
      }
      return pending
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  }
}
