// Shared by the HLS integration tests: an engine behind a real stream server on loopback, a
// session starter that resolves on the engine's callbacks, and ffmpeg/ffprobe as the HLS client.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { pino } from 'pino'
import type { StreamSession } from '../../src/protocol/wire.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { createHlsEngine, type HlsEngine, type HlsEngineOptions, type HlsSessionHandle } from '../../src/services/hls/engine.js'
import { testSecret, tokenFor } from './stream-kit.js'

export const run = promisify(execFile)

export interface EngineKit {
  engine: HlsEngine
  server: StreamServer
  workDir: string
  base(sessionId: string): string
  close(): Promise<void>
}

export async function startEngineKit(overrides: Partial<HlsEngineOptions> = {}): Promise<EngineKit> {
  const workDir = await mkdtemp(join(tmpdir(), 'media-agent-hls-work-'))
  const logger = overrides.logger ?? pino({ level: process.env.HLS_TEST_LOG ?? 'silent' })
  const engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir, ...overrides, logger })
  const server = await createStreamServer({ host: '127.0.0.1', port: 0, logger, sessions: { get: () => undefined }, secret: () => testSecret, routes: { hls: engine.routes } })
  return {
    engine,
    server,
    workDir,
    base: (sessionId) => `${server.url}/hls/${encodeURIComponent(sessionId)}/${tokenFor(`hls:${sessionId}`)}`,
    async close() {
      // The work dir goes even when stopping fails, so a failed test leaves no temp dir behind.
      try {
        await engine.stopAll()
        await server.close()
      } finally {
        await rm(workDir, { recursive: true, force: true })
      }
    },
  }
}

export interface StartedSession {
  handle: HlsSessionHandle
  ready: Promise<{ cacheHit: boolean; afterMs: number }>
  failed: Promise<Error>
  readyCalls: () => number
}

export function startSession(kit: EngineKit, sessionId: string, source: string, extra: Partial<StreamSession> = {}): StartedSession {
  let readyCalls = 0
  let resolveReady!: (value: { cacheHit: boolean; afterMs: number }) => void
  let resolveFailed!: (error: Error) => void
  const ready = new Promise<{ cacheHit: boolean; afterMs: number }>((resolve) => (resolveReady = resolve))
  const failed = new Promise<Error>((resolve) => (resolveFailed = resolve))
  const started = performance.now()
  const session: StreamSession = { sessionId, PlayMethod: 'hls', quality: '720p', ...(source.startsWith('http') ? { DirectURL: source } : { filePath: source }), ...extra }
  const handle = kit.engine.start({ sessionId, session, source }, {
    onReady: (info) => {
      readyCalls++
      resolveReady({ ...info, afterMs: performance.now() - started })
    },
    onReadinessTimeout: () => {},
    onFailed: (error) => resolveFailed(error),
  })
  return { handle, ready, failed, readyCalls: () => readyCalls }
}

export async function fetchBytes(url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const response = await fetch(url)
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), headers: response.headers }
}

/** Frame checksums (video only) of init.mp4 + one segment, decoded by ffmpeg. */
export async function segmentFrameHashes(init: Buffer, segment: Buffer): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'media-agent-hls-seg-'))
  try {
    const file = join(dir, 'seg.mp4')
    await writeFile(file, Buffer.concat([init, segment]))
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v:0', '-f', 'framemd5', '-'], { maxBuffer: 16 * 1024 * 1024 })
    return stdout.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.split(',').at(-1)!.trim())
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export interface SegmentFacts {
  firstIsKeyframe: boolean
  durationSeconds: number
  frames: number
  keyframes: number
  /** Presentation times of the keyframes, in seconds from the segment's earliest frame. */
  keyframeOffsets: number[]
  /** Coded size of the video, as a player decodes it. */
  width: number
  height: number
  /** The first video packet's decode and presentation times, in seconds on the session's timeline. */
  firstDtsSeconds: number
  firstPtsSeconds: number
}

/** Video packets of init.mp4 + one segment: keyframe flags and total duration. */
export async function segmentFacts(init: Buffer, segment: Buffer): Promise<SegmentFacts> {
  const dir = await mkdtemp(join(tmpdir(), 'media-agent-hls-seg-'))
  try {
    const file = join(dir, 'seg.mp4')
    await writeFile(file, Buffer.concat([init, segment]))
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time,duration_time,flags', '-of', 'json', file], { maxBuffer: 16 * 1024 * 1024 })
    const packets = (JSON.parse(stdout) as { packets: { flags: string; pts_time?: string; dts_time?: string; duration_time?: string }[] }).packets
    const earliest = Math.min(...packets.map((packet) => Number(packet.pts_time ?? Infinity)))
    const size = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file])
    const [width, height] = size.stdout.trim().split(',').map(Number) as [number, number]
    return {
      width,
      height,
      firstDtsSeconds: Number(packets[0]?.dts_time),
      firstPtsSeconds: Number(packets[0]?.pts_time),
      firstIsKeyframe: packets[0]?.flags.includes('K') ?? false,
      durationSeconds: packets.reduce((sum, packet) => sum + Number(packet.duration_time ?? 0), 0),
      frames: packets.length,
      keyframes: packets.filter((packet) => packet.flags.includes('K')).length,
      keyframeOffsets: packets.filter((packet) => packet.flags.includes('K')).map((packet) => Number(packet.pts_time) - earliest).sort((a, b) => a - b),
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Segment names listed by a media playlist. */
export function playlistSegments(playlist: string): string[] {
  return playlist.split('\n').filter((line) => /^seg-\d+\.m4s$/.test(line))
}

/** ffmpeg as the HLS client: reads the whole session over HTTP and decodes every stream. */
export async function decodeWithFfmpeg(masterUrl: string): Promise<{ stderr: string; videoFrames: number }> {
  const { stderr } = await run('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-stats_period', '100', '-i', masterUrl, '-map', '0:v', '-map', '0:a?', '-f', 'null', '-'], { maxBuffer: 16 * 1024 * 1024 })
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', masterUrl])
  return { stderr: stderr.trim(), videoFrames: Number(stdout.trim().split('\n')[0]) }
}

/** Processes whose process group is `pgid` and that are not zombies. */
export async function liveGroupMembers(pgid: number): Promise<number[]> {
  const members: number[] = []
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(name))
    } catch { /* gone */ }
  }
  return members
}

/** PIDs of live ffmpeg processes whose command line mentions `needle`. */
export async function ffmpegProcessesMentioning(needle: string): Promise<number[]> {
  const found: number[] = []
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0')
      if (!cmdline[0]?.endsWith('ffmpeg') || !cmdline.some((arg) => arg.includes(needle))) continue
      const stat = await readFile(`/proc/${name}/stat`, 'utf8')
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue
      found.push(Number(name))
    } catch { /* gone */ }
  }
  return found
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return check()
}
