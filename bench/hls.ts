// `npm run bench -- hls`: time to readiness of an HLS session against bare ffmpeg with the same
// arguments producing the same first segment, in one run, 1080p source to 720p, interleaved so
// both see the same page cache and load. Also the time to serve a seek (a segment far ahead of
// the encoder) against bare ffmpeg started at that segment with the same arguments.
// Prints ONE JSON line. Goal (docs/hls.md): readiness ratio <= 1.10.
//
// The engine's clock starts when HlsEngine.start() is called, which the session actor does as
// soon as the session arrives in a sync response, and stops at onReady, where the session actor
// posts session-ready (the POST itself is the web server's round trip and is not counted).
// Bare ffmpeg's clock starts at spawn and stops when init.mp4 and seg-0.m4s exist (inotify plus a
// 2 ms poll: the best any watcher could do). BENCH_HLS_ROUNDS (default 5), BENCH_HLS_SECONDS (30).
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { silentLogger } from '../src/log.js'
import { mintStreamToken } from '../src/services/auth/stream-token.js'
import { buildHlsArgs } from '../src/services/ffmpeg/hls-args.js'
import { createProbeService } from '../src/services/ffmpeg/probe.js'
import { createHlsEngine } from '../src/services/hls/engine.js'
import { createStreamServer } from '../src/server/stream-server.js'
import { hlsSeekWarmupFrames, hlsSeekWarmupMaxSegments } from '../src/config/defaults.js'
import { bareFfmpeg, median } from './_bare-ffmpeg.js'

const run = promisify(execFile)
const rounds = Number(process.env.BENCH_HLS_ROUNDS ?? 6)
const seconds = Number(process.env.BENCH_HLS_SECONDS ?? 30)
const seekSegment = Math.floor(seconds / 2 / 2) + 3

const round = (value: number) => Math.round(value * 10) / 10

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'media-agent-bench-hls-'))
  try {
    const source = join(root, 'source-1080p.mp4')
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '48', '-c:a', 'aac', '-shortest', source])

    const probe = (await createProbeService({ ffprobePath: 'ffprobe', logger: silentLogger() }).probe(source)).result
    const argsAt = (outputDir: string, startSegment: number) => buildHlsArgs({
      source,
      sourceGeometry: { width: probe.video.width, height: probe.video.height, sampleAspectRatio: probe.video.sampleAspectRatio },
      durationSeconds: probe.durationSeconds,
      quality: '720p',
      encoder: 'libx264',
      audioIndex: 0,
      hasAudio: probe.audio.length > 0,
      outputDir,
      startSegment,
      // As the engine does: no warm-up unless hlsSeekWarmupFrames asks for one.
      warmupSegments: hlsSeekWarmupFrames <= 0 ? 0 : Math.min(hlsSeekWarmupMaxSegments, Math.max(1, Math.ceil(hlsSeekWarmupFrames / ((probe.video.frameRate ?? 30) * 2)))),
    }).args

    // An engine per round: its probe cache starts empty, as for a session of a file not played
    // in the last 30 minutes (a cached probe would make the engine look better than it is).
    let engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir: join(root, 'engine'), logger: silentLogger() })
    const secret = 'bench-secret'
    const server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), sessions: { get: () => undefined }, secret: () => secret, routes: { hls: (context) => engine.routes(context) } })

    const engineReady: number[] = []
    const bareReady: number[] = []
    const engineSeek: number[] = []
    const engineWarmReady: number[] = []
    const bareSeek: number[] = []
    const startReady = async (sessionId: string): Promise<{ ms: number; stop: () => Promise<void> }> => {
      const started = performance.now()
      let stop!: () => Promise<void>
      const ms = await new Promise<number>((resolve, reject) => {
        const handle = engine.start({ sessionId, session: { sessionId, PlayMethod: 'hls', quality: '720p', filePath: source }, source }, {
          onReady: () => resolve(performance.now() - started),
          onReadinessTimeout: () => reject(new Error('readiness timeout')),
          onFailed: reject,
        })
        stop = () => handle.stop()
        stops.push(stop)
      })
      return { ms, stop }
    }
    for (let index = 0; index < rounds; index++) {
      engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir: join(root, 'engine'), logger: silentLogger() })
      const bareDir = join(root, `bare-${index}`)
      await mkdir(bareDir, { recursive: true })
      const bareFirst = async () => bareReady.push(await bareFfmpeg(argsAt(bareDir, 0), bareDir, ['init.mp4', 'seg-0.m4s']))
      // Bare ffmpeg before the engine on even rounds, after it on odd ones.
      if (index % 2 === 0) await bareFirst()
      const first = await startReady(`ready-${index}`)
      engineReady.push(first.ms)
      await first.stop()
      if (index % 2 === 1) await bareFirst()
      // The same file again within 30 minutes: the probe comes from the cache.
      const warm = await startReady(`warm-${index}`)
      engineWarmReady.push(warm.ms)
      await warm.stop()

      // Seek: a ready session asked for a segment far ahead of its encoder.
      const sessionId = `seek-${index}`
      const seeking = await startReady(sessionId)
      const token = mintStreamToken({ secret, scope: `hls:${sessionId}`, expiresAtSeconds: Math.floor(Date.now() / 1000) + 600 })
      const asked = performance.now()
      const response = await fetch(`${server.url}/hls/${sessionId}/${token}/seg-${seekSegment}.m4s`)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`seek answered ${response.status}`)
      engineSeek.push(performance.now() - asked)
      await seeking.stop()
      const bareSeekDir = join(root, `bare-seek-${index}`)
      await mkdir(bareSeekDir, { recursive: true })
      bareSeek.push(await bareFfmpeg(argsAt(bareSeekDir, seekSegment), bareSeekDir, ['init.mp4', `seg-${seekSegment}.m4s`]))
    }
    await server.close()
    await engine.stopAll()

    const engineMs = median(engineReady)
    const bareMs = median(bareReady)
    process.stdout.write(`${JSON.stringify({
      bench: 'hls',
      node: process.version,
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
      source: '1920x1080 H.264 30 fps', output: '1280x720 libx264 superfast', rounds,
      readiness: { engineMs: round(engineMs), bareFfmpegMs: round(bareMs), ratio: Math.round((engineMs / bareMs) * 1000) / 1000, engineAllMs: engineReady.map(round), bareAllMs: bareReady.map(round) },
      readinessProbeCached: { engineMs: round(median(engineWarmReady)), ratio: Math.round((median(engineWarmReady) / bareMs) * 1000) / 1000 },
      seek: { segment: seekSegment, engineMs: round(median(engineSeek)), bareFfmpegMs: round(median(bareSeek)), ratio: Math.round((median(engineSeek) / median(bareSeek)) * 1000) / 1000 },
      goals: { readinessRatioAtMost: 1.1 },
    })}\n`)
  } finally {
    for (const stop of stops) await stop().catch(() => {})
    await rm(root, { recursive: true, force: true })
  }
}

const stops: (() => Promise<void>)[] = []
await main()
