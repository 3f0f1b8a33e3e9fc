// Thumbnails with the real ffmpeg on a video the test makes (lavfi testsrc): a decodable JPEG of
// the asked width, 422 past the end, 400 for bad t/w, a hung ffmpeg killed at the timeout, and
// 503 + Retry-After once every slot and the queue are taken.
import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ThumbnailError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { resolveFfmpegBinaries, type FfmpegBinaries } from '../../src/services/ffmpeg/binaries.js'
import { createFfmpegThumbnailer, type Thumbnailer } from '../../src/services/ffmpeg/thumbnail.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { thumbScope } from '../../src/server/routes/thumbnail.js'
import { mapRegistry, rawRequest, testSecret, tokenFor } from './stream-kit.js'

const run = promisify(execFile)

describe('thumbnails', () => {
  let dir: string
  let video: string
  let binaries: FfmpegBinaries
  let server: StreamServer
  const logger = silentLogger()

  const url = (path: string, query: string) => `/thumbnail?path=${encodeURIComponent(path)}&${query}&token=${tokenFor(thumbScope(path))}`

  async function probe(jpeg: Buffer): Promise<{ codec_name: string; width: number; height: number }> {
    const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.jpg`)
    await writeFile(file, jpeg)
    const { stdout } = await run(binaries.ffprobe, ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file])
    return (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[] }).streams[0]!
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-thumbnail-'))
    binaries = resolveFfmpegBinaries()
    video = join(dir, 'test source.mp4')
    await run(binaries.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=4:size=320x240:rate=25', '-pix_fmt', 'yuv420p', video])
    server = await createStreamServer({
      host: '127.0.0.1', port: 0, logger, sessions: mapRegistry(), secret: () => testSecret,
      ffmpegPath: binaries.ffmpeg, allowedRoots: () => [dir],
    })
  })

  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('returns one decodable JPEG frame scaled to the asked width', async () => {
    const response = await rawRequest(server.url, 'GET', url(video, 't=2&w=160'))
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('image/jpeg')
    expect(Number(response.headers['content-length'])).toBe(response.body.length)
    expect([...response.body.subarray(0, 2)]).toEqual([0xff, 0xd8])
    expect([...response.body.subarray(-2)]).toEqual([0xff, 0xd9])
    expect(await probe(response.body)).toEqual({ codec_name: 'mjpeg', width: 160, height: 120 })
  })

  it('keeps the source size when no width is asked', async () => {
    const response = await rawRequest(server.url, 'GET', url(video, 't=0.5'))
    expect(response.status).toBe(200)
    expect(await probe(response.body)).toEqual({ codec_name: 'mjpeg', width: 320, height: 240 })
  })

  it('answers 422 for a timestamp past the end of the video', async () => {
    const response = await rawRequest(server.url, 'GET', url(video, 't=500'))
    expect(response.status).toBe(422)
  })

  it.each(['t=abc', 't=-1', 't=1e3', 't=', 't=1&w=8', 't=1&w=99999', 't=1&w=12.5', 't=1&w=100&w=200', 'w=100'])('answers 400 for the bad parameters %s', async (query) => {
    const response = await rawRequest(server.url, 'GET', url(video, query))
    expect(response.status).toBe(400)
  })

  it('kills ffmpeg by PID when it runs past the timeout', async () => {
    // A fifo nobody writes: ffmpeg blocks opening it, as on a dead network mount.
    const fifo = join(dir, 'stuck.mp4')
    execFileSync('mkfifo', [fifo])
    const pids: number[] = []
    const thumbnailer = createFfmpegThumbnailer({ ffmpegPath: binaries.ffmpeg, logger, timeoutMs: 200, onSpawn: (pid) => pids.push(pid) })
    const error = await thumbnailer.extract({ input: fifo, seconds: 1 }).then(() => undefined, (err: unknown) => err)
    expect(error).toBeInstanceOf(ThumbnailError)
    expect((error as ThumbnailError).reason).toBe('timeout')
    expect((error as ThumbnailError).code).toBe('MA_ERR_THUMBNAIL_TIMEOUT')
    expect(pids).toHaveLength(1)
    expect(() => process.kill(pids[0]!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }))
  })

  it('answers 503 with Retry-After once every slot and the queue are taken', async () => {
    let started!: () => void
    const running = new Promise<void>((resolve) => {
      started = resolve
    })
    let finish!: (image: Buffer) => void
    const blocking: Thumbnailer = {
      extract: () => {
        started()
        return new Promise<Buffer>((resolve) => {
          finish = resolve
        })
      },
    }
    const busy = await createStreamServer({
      host: '127.0.0.1', port: 0, logger, sessions: mapRegistry(), secret: () => testSecret,
      thumbnailer: blocking, allowedRoots: () => [dir], thumbnailMaxConcurrent: 1, thumbnailMaxQueue: 0, thumbnailRetryAfterSeconds: 3,
    })
    try {
      const first = rawRequest(busy.url, 'GET', url(video, 't=1'))
      await running
      const second = await rawRequest(busy.url, 'GET', url(video, 't=2'))
      expect(second.status).toBe(503)
      expect(second.headers['retry-after']).toBe('3')
      finish(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))
      expect((await first).status).toBe(200)
    } finally {
      await busy.close()
    }
  })
})
