// The HLS engine (issue 6; contract 3, 4.2, 4.3, 6.3, 7, 8; docs/hls.md): runs one
// hls-transcode machine per session (probe -> ffmpeg -> readiness), serves its playlists,
// init.mp4, segments and subtitles through the stream server's `routes.hls` slot, and restarts
// ffmpeg at a segment a player seeks to. The session actor (session.machine.ts) calls start()
// and stop(); it posts session-ready and reports failures to the sync.
import { EventEmitter } from 'node:events'
import { existsSync, mkdirSync, watch, type FSWatcher } from 'node:fs'
import { readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createActor, fromCallback, fromPromise, type Actor } from 'xstate'
import {
  ffmpegMaxRestarts,
  hlsSeekAheadSegments,
  hlsSeekWarmupFrames,
  hlsSeekWarmupMaxSegments,
  hlsSegmentScanMs,
  hlsSegmentSeconds,
  hlsSegmentWaitMs,
  readinessDeadlineMs,
  readinessPollMs,
  urlSourceRwTimeoutUs,
} from '../../config/defaults.js'
import { AgentError, ProbeFailedError, TranscodeFailedError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { hlsTranscodeMachine, type FfmpegRunInput, type HlsTranscodeEvent, type ReadinessCheckInput } from '../../machines/hls-transcode.machine.js'
import type { StreamSession } from '../../protocol/wire.js'
import type { RouteHandler } from '../../server/routes/context.js'
import { createHlsRoute, type HlsResource } from '../../server/routes/hls.js'
import { encoderDelayFrames, knownEncoderDelayFrames } from '../ffmpeg/encoder-delay.js'
import { buildHlsArgs, isUrlSource, type HlsArgs, type HlsEncoder } from '../ffmpeg/hls-args.js'
import { capQuality, isEncoderFailure } from '../encoders/session-encoder.js'
import { createProbeService, redact, type ProbeResult, type ProbeService, type ProbedSubtitle } from '../ffmpeg/probe.js'
import type { SourceGeometry } from './quality-ladder.js'
import { codecsString, masterPlaylist, mediaPlaylist, planSegments, subtitlePlaylist, type SegmentPlan } from './playlists.js'
import { startWatchedProcess, type ManagedProcess } from './process.js'
import { createDirectorySegmentStore, type SegmentStore, type SegmentStoreEntry } from './segment-store.js'
import { readFile } from 'node:fs/promises'

export type { HlsEncoder } from '../ffmpeg/hls-args.js'

export interface HlsEngineEvents {
  /** init.mp4 + first segment proven closed (the 200 ms watcher), or a cache HIT. Called at most once. */
  onReady(info: { cacheHit: boolean }): void
  /** The 60 s deadline passed without readiness; the session actor logs `mark-ready: timeout`. */
  onReadinessTimeout(): void
  /** Probe failed, or ffmpeg gave up after 3 restarts (its last stderr lines in the message). */
  onFailed(error: Error): void
  /** A player GOT init.mp4 or a segment of the session (every time; the caller keeps what it needs). */
  onMediaFetched?(): void
}

/**
 * What a session reads when one fixed string will not do: a loopback URL the agent serves for a
 * torrent file still downloading, whose token is short-lived, so every process (ffprobe, each
 * ffmpeg run, subtitle extraction) gets a freshly minted reference (docs/hls.md "URL sources").
 */
export interface HlsSourceReference {
  /** Stable identity without credentials: logs, the segment store's key, the probe cache's id. */
  id: string
  /** The path or URL a process started now reads (may change from a URL to the local path). */
  current(): string
}

/** A local path or an http(s) URL fixed for the session, or a reference minted per process. */
export type HlsSource = string | HlsSourceReference

export interface HlsEngine {
  start(params: { sessionId: string; session: StreamSession; source: HlsSource }, events: HlsEngineEvents): HlsSessionHandle
  /** The handler for the stream server's `routes.hls` slot. */
  routes: RouteHandler
  /** Stops every session (daemon shutdown). */
  stopAll(): Promise<void>
  /** Live sessions and their ffmpeg PIDs (diagnostics, tests). */
  inspect(): Array<{ sessionId: string; state: string; pids: number[]; run: number; restarts: number; firstStart: FirstStart | undefined }>
}

/** How run 0 started: before the probe answered (kept), restarted after it (the guess was wrong), or after it. */
export type FirstStart = 'before-probe' | 'discarded' | 'after-probe'

export interface HlsSessionHandle {
  stop(): Promise<void>
}

/** What the machines' `clock` option takes (xstate's SimulatedClock in tests). */
export interface EngineClock {
  setTimeout(fn: (...args: unknown[]) => void, timeout: number): unknown
  clearTimeout(id: unknown): void
}

export interface HlsEngineOptions {
  ffmpegPath: string
  /** undefined: resolved at first probe (a missing ffprobe fails the session with advice). */
  ffprobePath: string | undefined
  /** Session directories go under `<workDir>/hls-sessions/` (unless `store` is given). */
  workDir: string
  logger: Logger
  /** The encoder of every session when `encoderFor` is not given (libx264 by default). */
  encoder?: HlsEncoder
  /**
   * Issue 12 (docs/encoders.md): the encoder and resolution cap of a session starting now, from
   * the hardware detection (may wait for it; bounded there). Overrides `encoder`.
   */
  encoderFor?: () => Promise<{ encoder: HlsEncoder; maxHeight?: number }>
  /** Issue 12: a hardware encoder failed in a session, which has fallen back to libx264. */
  onEncoderFailed?: (encoder: HlsEncoder, reason: string) => void
  /** Drives the readiness poll (200 ms) and deadline (60 s) of every session's machine. */
  clock?: EngineClock
  now?: () => number
  store?: SegmentStore
  probe?: ProbeService
  segmentSeconds?: number
  readinessPollMs?: number
  readinessDeadlineMs?: number
  maxRestarts?: number
  segmentWaitMs?: number
  seekAheadSegments?: number
  /** Frames a seek-restart encodes and discards first (default hlsSeekWarmupFrames: none). */
  seekWarmupFrames?: number
  /** Extra ffmpeg input options (tests: e.g. `-re` to slow an encode down). */
  extraInputArgs?: string[]
  /** Counts ffmpeg restarts for /metrics (services/metrics). */
  metrics?: { ffmpegRestarted(): void }
}

/**
 * Run 0's ffmpeg started while ffprobe is still running, on assumed source facts (docs/hls.md
 * "Starting before the probe"): adopted by the ffmpeg actor of run 0 when the probe yields the
 * same command line, killed and removed otherwise.
 */
interface Speculation {
  dir: string
  /** The input reference this process reads (a minted URL differs per process). */
  source: string
  built: HlsArgs
  proc: ManagedProcess
}

/** The source facts that decide a command line: the probe's, or the ones assumed before it. */
interface SourceFacts {
  sourceGeometry: SourceGeometry
  durationSeconds: number
  audioTracks: number
}

const probedFacts = (probe: ProbeResult): SourceFacts => ({
  sourceGeometry: { width: probe.video.width, height: probe.video.height, sampleAspectRatio: probe.video.sampleAspectRatio },
  durationSeconds: probe.durationSeconds,
  audioTracks: probe.audio.length,
})

/**
 * The most common source (1080p, square pixels, an audio track at the session's index). A run
 * from 0 takes from these facts only the bitrate rung, the level and the audio mapping (its scale
 * and keyframes are ffmpeg expressions), so the guess is right whenever the source is at least
 * as tall as the asked quality and has the asked audio track.
 */
const assumedFacts = (session: StreamSession): SourceFacts => ({
  sourceGeometry: { width: 1920, height: 1080 },
  durationSeconds: 0,
  audioTracks: (session.audioIndex ?? 0) + 1,
})

const sameArgs = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((arg, index) => arg === b[index])

interface Run {
  run: number
  dir: string
  /** Segments below it are warm-up output of this run and never served. */
  keepFrom: number
}

interface LiveSession {
  sessionId: string
  session: StreamSession
  /** Identity of the source (no credentials): logs, store, probe cache. */
  sourceId: string
  /** The reference a process started now reads (the same for every process of a fixed source). */
  sourceNow: () => string
  /** Whether sourceNow may change (a minted reference): the probe is then cached by sourceId. */
  minted: boolean
  events: HlsEngineEvents
  log: Logger
  /** This session's encoder: the choice at its start, libx264 after a hardware failure (issue 12). */
  encoder: HlsEncoder
  /** The chosen encoder's resolution cap (issue 12); undefined: none. */
  maxHeight: number | undefined
  entry: SegmentStoreEntry | undefined
  /** The store's answer, awaited by stop() so an entry opened late is still released. */
  opening: Promise<unknown> | undefined
  /** A cache HIT: the entry's files are served as they are; no probe, no ffmpeg. */
  hit: boolean
  /** The finished output was handed to the cache entry (once). */
  committed: boolean
  probe: ProbeResult | undefined
  probeError: Error | undefined
  /** Run 0 started before the probe answered, until the ffmpeg actor adopts it (or it is discarded). */
  speculation: Speculation | undefined
  /** How run 0 started: before the probe (kept), restarted after it (discarded), or after it. */
  firstStart: FirstStart | undefined
  plan: SegmentPlan | undefined
  firstArgs: HlsArgs | undefined
  textSubtitles: ProbedSubtitle[]
  subtitlesDone: Set<number>
  subtitlesFinished: boolean
  runs: Map<number, Run>
  processes: Set<ManagedProcess>
  actor: Actor<typeof hlsTranscodeMachine> | undefined
  readySeen: boolean
  stopping: Promise<void> | undefined
  /** The store + probe step, awaited by stop() so nothing it opens outlives the session. */
  probing: Promise<unknown> | undefined
  subtitling: Promise<unknown> | undefined
  /** Fires when a run closes a segment or the subtitles are done: waiting requests look again. */
  written: EventEmitter
}

const segmentName = /^seg-(\d+)\.m4s$/

/**
 * ffmpeg names its input in error lines; a URL's query carries credentials (a debrid link's, or
 * the token of the agent's loopback input). Cut it before a line reaches a log or the sync report.
 */
export function scrubUrls(text: string): string {
  // The query runs to the next blank or quote; a colon right before it is ffmpeg's (`<url>: error`).
  return text.replace(/(https?:\/\/[^\s?#'"]+)\?[^\s'"]*?(?=:?(?:[\s'"]|$))/gim, '$1?…')
}

export function createHlsEngine(options: HlsEngineOptions): HlsEngine {
  const log = options.logger.child({ component: 'hls' })
  const defaultEncoder = options.encoder ?? 'libx264'
  const segmentSeconds = options.segmentSeconds ?? hlsSegmentSeconds
  const store = options.store ?? createDirectorySegmentStore(options.workDir)
  const probeService = options.probe ?? createProbeService({ ffprobePath: options.ffprobePath, logger: log.child({ part: 'probe' }), ...(options.now ? { now: options.now } : {}) })
  const segmentWaitMs = options.segmentWaitMs ?? hlsSegmentWaitMs
  const seekAhead = options.seekAheadSegments ?? hlsSeekAheadSegments
  const sessions = new Map<string, LiveSession>()

  const seekWarmupFrames = options.seekWarmupFrames ?? hlsSeekWarmupFrames
  const warmupSegments = (live: LiveSession): number => {
    if (seekWarmupFrames <= 0) return 0
    const fps = live.probe?.video.frameRate ?? 30
    return Math.min(hlsSeekWarmupMaxSegments, Math.max(1, Math.ceil(seekWarmupFrames / (fps * segmentSeconds))))
  }

  // Ends a running encoder-delay probe when the engine stops (stopAll), like the sessions' ffmpeg.
  let delayProbes = new AbortController()
  /** The encoder's reorder delay for this session, measured off the seek's path (a run from 0 starts it). */
  const encoderDelay = async (live: LiveSession, encoder = live.encoder): Promise<void> => {
    await encoderDelayFrames(options.ffmpegPath, encoder, { signal: delayProbes.signal }).catch((err: unknown) => {
      live.log.warn({ encoder, err: String(err) }, 'encoder delay probe failed: a seek-run is shifted by the audio priming only and its segments may start a few frames early')
    })
  }
  const seekTimeline = (live: LiveSession) => {
    const delay = knownEncoderDelayFrames(options.ffmpegPath, live.encoder)
    // The rate ffmpeg encodes at, not the average: a variable-frame-rate source's output is
    // constant at its r_frame_rate, and the delay and boundary frames are counted on that grid.
    const frameRate = live.probe?.video.encodeFrameRate ?? live.probe?.video.frameRate
    const audio = live.probe?.audio.find((track) => track.index === (live.session.audioIndex ?? 0)) ?? live.probe?.audio[0]
    return {
      ...(delay === undefined ? {} : { encoderDelayFrames: delay }),
      ...(frameRate === undefined ? {} : { frameRate }),
      ...(audio?.sampleRate === undefined ? {} : { audioSampleRate: audio.sampleRate }),
    }
  }

  const argsFor = (live: LiveSession, startSegment: number, outputDir: string, facts = probedFacts(live.probe!), source = live.sourceNow()): HlsArgs => {
    const audioIndex = live.session.audioIndex !== undefined && live.session.audioIndex < facts.audioTracks ? live.session.audioIndex : 0
    const built = buildHlsArgs({
      source,
      sourceGeometry: facts.sourceGeometry,
      durationSeconds: facts.durationSeconds,
      quality: capQuality(String(live.session.quality), facts.sourceGeometry.height, live.maxHeight),
      encoder: live.encoder,
      audioIndex,
      hasAudio: facts.audioTracks > 0,
      outputDir,
      startSegment,
      warmupSegments: warmupSegments(live),
      segmentSeconds,
      // A seek-run's shift onto the timeline of a run from 0 (measured delay: encoder-delay.ts).
      ...seekTimeline(live),
    })
    if (options.extraInputArgs && options.extraInputArgs.length > 0) {
      const at = built.args.indexOf('-i')
      built.args.splice(at, 0, ...options.extraInputArgs)
    }
    return built
  }

  // Files are looked for with existsSync: the readiness check and a held segment request look for
  // files that mostly do not exist yet, every 100 ms and on each write, and a rejected `access()`
  // cost a thread-pool trip and an error with a stack trace each time (~0.5 ms of the event loop);
  // a name lookup in the session's directory is a dentry-cache hit on any local disk.

  /** The newest run that holds `seg-<index>` closed (final name: temp_file renames it on close). */
  const locateSegment = async (live: LiveSession, index: number): Promise<string | undefined> => {
    const runs = [...live.runs.values()].sort((a, b) => b.run - a.run)
    for (const run of runs) {
      if (index < run.keepFrom) continue
      const path = join(run.dir, `seg-${index}.m4s`)
      if (existsSync(path)) return path
    }
    return undefined
  }

  /** init.mp4 of a run that has closed a segment (so init.mp4 is complete); identical across runs. */
  const locateInit = async (live: LiveSession): Promise<string | undefined> => {
    for (const run of [...live.runs.values()].sort((a, b) => a.run - b.run)) {
      const init = join(run.dir, 'init.mp4')
      if (!existsSync(init)) continue
      const names = await readdir(run.dir).catch(() => [] as string[])
      if (names.some((name) => segmentName.test(name))) return init
    }
    return undefined
  }

  /** Looks again whenever a segment is written (inotify-driven), and every 100 ms regardless. */
  const waitFor = async <T>(live: LiveSession, probe: () => Promise<T | undefined>, waitMs: number, signal: AbortSignal): Promise<T | undefined> => {
    const deadline = Date.now() + waitMs
    for (;;) {
      const found = await probe()
      if (found !== undefined || signal.aborted || Date.now() >= deadline || live.stopping) return found
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          live.written.off('written', done)
          signal.removeEventListener('abort', done)
          resolve()
        }
        const timer = setTimeout(done, Math.min(100, Math.max(0, deadline - Date.now())))
        live.written.on('written', done)
        signal.addEventListener('abort', done, { once: true })
      })
    }
  }

  const stateOf = (live: LiveSession): string => {
    if (live.hit) return 'cached'
    const snapshot = live.actor?.getSnapshot()
    if (!snapshot) return 'starting'
    if (snapshot.status === 'done') return String(snapshot.value)
    const value = snapshot.value as { active?: { work?: string } } | string
    return typeof value === 'string' ? value : value.active?.work ?? 'active'
  }

  const resolveSegment = async (live: LiveSession, index: number, signal: AbortSignal, waitMs: number): Promise<string | undefined> => {
    const plan = live.plan
    if (!plan || index >= plan.count) return undefined
    const found = await locateSegment(live, index)
    if (found) return found
    const actor = live.actor
    const state = stateOf(live)
    if (!actor || (state !== 'encoding' && state !== 'complete')) return undefined
    const { run, runStart, highestSegment } = actor.getSnapshot().context
    let covered = state === 'encoding' && index >= runStart && index <= Math.max(highestSegment, runStart) + seekAhead
    // The machine hears of a closed segment a moment after ffmpeg's rename: a player asking for
    // the segment after one that has just closed must not restart the encoder writing it.
    if (!covered && state === 'encoding' && index - seekAhead > runStart) {
      const current = live.runs.get(run)
      covered = current !== undefined && existsSync(join(current.dir, `seg-${index - seekAhead}.m4s`))
    }
    if (!covered) {
      live.log.info({ segment: index, runStart, highestSegment }, 'seek: restarting ffmpeg at the segment')
      actor.send({ type: 'SEEK', segment: index })
    }
    return waitFor(live, () => locateSegment(live, index), waitMs, signal)
  }

  const isReadyNow = async (live: LiveSession): Promise<boolean> => {
    if (live.readySeen) return true
    return (await locateInit(live)) !== undefined
  }

  /** A HIT serves the entry's own files: the playlists, init.mp4, segments and subtitles it was committed with. */
  const resolveCached = async (live: LiveSession, name: string): Promise<HlsResource | undefined> => {
    const path = join(live.entry!.dir, name)
    if (name.endsWith('.m3u8')) {
      const body = await readFile(path, 'utf8').catch(() => undefined)
      return body === undefined ? undefined : { kind: 'text', body, contentType: 'application/vnd.apple.mpegurl' }
    }
    if (!existsSync(path)) return undefined
    const contentType = name === 'init.mp4' ? 'video/mp4' : name.endsWith('.vtt') ? 'text/vtt; charset=utf-8' : 'video/iso.segment'
    return { kind: 'file', path, contentType, immutable: true }
  }

  const masterBody = (live: LiveSession): string => {
    const { geometry, summary } = live.firstArgs!
    const probe = live.probe!
    const hasAudio = probe.audio.length > 0
    const videoKbps = geometry.videoBitrateKbps ?? estimateKbps(geometry.width, geometry.height)
    return masterPlaylist({
      bandwidth: (videoKbps + (hasAudio ? 160 : 0)) * 1000,
      width: geometry.width,
      height: geometry.height,
      codecs: codecsString(summary.level === 'auto' ? undefined : summary.level, hasAudio),
      frameRate: probe.video.frameRate,
      subtitles: live.textSubtitles.map((subtitle) => ({
        index: subtitle.index,
        name: subtitle.title ?? subtitle.language ?? `Subtitle ${subtitle.index + 1}`,
        language: subtitle.language,
        default: false,
      })),
    })
  }

  /** Until the store and probe step has settled (ffmpeg running, a cache HIT, or failed). */
  const settled = async (live: LiveSession, signal: AbortSignal, waitMs: number): Promise<void> => {
    const starting = () => !live.hit && ['starting', 'probing'].includes(stateOf(live))
    if (starting()) await waitFor(live, async () => (starting() ? undefined : true), waitMs, signal)
  }

  const resolve = async (sessionId: string, name: string, signal: AbortSignal): Promise<HlsResource | undefined> => {
    const live = sessions.get(sessionId)
    if (!live || live.stopping) return undefined
    // A player may ask for init.mp4 and the first segment before readiness (the reference player
    // does: they then travel while the readiness notice does); they wait like a segment ahead of
    // the encoder, bounded by segmentWaitMs ("Seeking" 2). Playlists never wait: a HEAD probe of
    // master.m3u8 must answer 404 until the session is ready.
    const media = name === 'init.mp4' || segmentName.test(name)
    // One segmentWaitMs for the whole request, however many waits it takes.
    const deadline = Date.now() + segmentWaitMs
    const remainingMs = () => Math.max(0, deadline - Date.now())
    if (media) await settled(live, signal, remainingMs())
    if (live.hit && !live.stopping) return resolveCached(live, name)
    if (live.stopping || !live.plan || !live.firstArgs || !live.probe) return undefined
    if (name === 'master.m3u8' || name === 'index.m3u8') {
      // Playlists appear with the first segment, so a player's HEAD probe sees readiness.
      if (!(await isReadyNow(live))) return undefined
      if (name === 'index.m3u8') return { kind: 'text', body: mediaPlaylist(live.plan), contentType: 'application/vnd.apple.mpegurl' }
      return { kind: 'text', contentType: 'application/vnd.apple.mpegurl', body: masterBody(live) }
    }
    if (name === 'init.mp4') {
      // Complete only once a run has closed a segment (docs/hls.md "Readiness"): wait for that while ffmpeg runs.
      const path = stateOf(live) === 'encoding' ? await waitFor(live, () => locateInit(live), remainingMs(), signal) : await locateInit(live)
      return path ? { kind: 'file', path, contentType: 'video/mp4', immutable: true } : undefined
    }
    const segment = segmentName.exec(name)
    if (segment) {
      const path = await resolveSegment(live, Number(segment[1]), signal, remainingMs())
      return path ? { kind: 'file', path, contentType: 'video/iso.segment', immutable: true } : undefined
    }
    const subtitle = /^sub-(\d+)\.(m3u8|vtt)$/.exec(name)
    if (subtitle && live.entry) {
      const index = Number(subtitle[1])
      if (!live.textSubtitles.some((track) => track.index === index)) return undefined
      if (subtitle[2] === 'm3u8') return { kind: 'text', body: subtitlePlaylist(index, live.probe.durationSeconds), contentType: 'application/vnd.apple.mpegurl' }
      const path = join(live.entry.dir, `sub-${index}.vtt`)
      const ready = await waitFor(live, async () => (live.subtitlesDone.has(index) ? path : live.subtitlesFinished ? null : undefined), segmentWaitMs, signal)
      return ready ? { kind: 'file', path: ready, contentType: 'text/vtt; charset=utf-8', immutable: true } : undefined
    }
    return undefined
  }

  /** Text subtitle tracks to WebVTT, one ffmpeg for all of them, from the same source reference. */
  const extractSubtitles = async (live: LiveSession): Promise<void> => {
    const entry = live.entry
    if (!entry || live.textSubtitles.length === 0) {
      live.subtitlesFinished = true
      return
    }
    const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y']
    const input = live.sourceNow()
    if (isUrlSource(input)) args.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_on_network_error', '1', '-reconnect_delay_max', '5', '-rw_timeout', String(urlSourceRwTimeoutUs))
    args.push('-i', input)
    for (const track of live.textSubtitles) args.push('-map', `0:s:${track.index}`, '-c:s', 'webvtt', '-f', 'webvtt', join(entry.dir, `sub-${track.index}.vtt.part`))
    if (live.stopping) return
    const proc = startWatchedProcess(options.ffmpegPath, args)
    live.processes.add(proc)
    const result = await proc.exited
    live.processes.delete(proc)
    if (live.stopping) return
    if (result.code === 0) {
      for (const track of live.textSubtitles) {
        await rename(join(entry.dir, `sub-${track.index}.vtt.part`), join(entry.dir, `sub-${track.index}.vtt`)).then(() => live.subtitlesDone.add(track.index), () => {})
      }
    } else {
      live.log.warn({ code: result.code, stderr: result.stderrTail.map(scrubUrls) }, 'subtitle extraction failed')
    }
    live.subtitlesFinished = true
    live.written.emit('written')
    await commitWhenWhole(live)
  }

  /**
   * A session writing into a cache entry hands over its output once the whole duration is closed
   * (every segment in some run, every text subtitle extracted: the subtitle gate) and no ffmpeg
   * runs. A session that ends before (a seek past unwritten segments, a stop) never commits, and
   * the cache discards the entry (protocol.md 7.1).
   */
  const commitWhenWhole = async (live: LiveSession): Promise<void> => {
    const entry = live.entry
    if (!entry?.commit || live.committed || live.stopping || !live.plan || !live.probe || !live.subtitlesFinished) return
    if (stateOf(live) !== 'complete') return
    if (!live.textSubtitles.every((track) => live.subtitlesDone.has(track.index))) return
    const segmentPaths: string[] = []
    for (let index = 0; index < live.plan.count; index++) {
      const path = await locateSegment(live, index)
      if (!path) return
      segmentPaths.push(path)
    }
    const initPath = await locateInit(live)
    if (!initPath || live.committed || live.stopping) return
    live.committed = true
    const duration = live.probe.durationSeconds
    safely(live, () => entry.commit!({
      durationSeconds: duration,
      frameRate: live.probe!.video.frameRate,
      segmentPaths,
      initPath,
      master: masterBody(live),
      index: mediaPlaylist(live.plan!),
      subtitles: live.textSubtitles.map((track) => ({ index: track.index, playlist: subtitlePlaylist(track.index, duration) })),
    }))
  }

  const spawnFfmpeg = (live: LiveSession, run: number, args: string[]): ManagedProcess => {
    const proc = startWatchedProcess(options.ffmpegPath, args, { onStderrLine: (line) => live.log.debug({ run, line: scrubUrls(line) }, 'ffmpeg') })
    live.processes.add(proc)
    return proc
  }

  /**
   * Issue 12: switches the session to libx264 when `result` is its hardware encoder failing, logs
   * the session's line saying so, and marks the encoder unhealthy (docs/encoders.md "Fallback").
   */
  const fellBack = (live: LiveSession, result: { code: number | null; stderrTail: string[] }, run: number): boolean => {
    const failed = live.encoder
    if (failed === 'libx264' || result.code === 0 || result.code === null || !isEncoderFailure(failed, result.stderrTail)) return false
    live.encoder = 'libx264'
    const reason = result.stderrTail.slice(-3).map(scrubUrls).join(' | ')
    live.log.warn({ encoder: 'libx264', acceleration: 'none', preset: 'superfast', fallbackFrom: failed, run, reason },
      `hls session: encoder ${failed} failed; falling back to libx264 (acceleration none, preset superfast) for this session`)
    try {
      options.onEncoderFailed?.(failed, reason)
    } catch (err) {
      live.log.warn({ err }, 'encoder failure callback threw')
    }
    return true
  }

  /** Starts run 0 on assumed facts while ffprobe runs (the probe costs a process start-up). */
  const speculate = async (live: LiveSession, entry: SegmentStoreEntry): Promise<void> => {
    // Checked before the mkdir: a stopped session's directory is already released, and a
    // recursive mkdir would bring it back, left over in the work dir.
    if (live.stopping) return
    const dir = join(entry.dir, 'run-0')
    // Synchronous (one short syscall): an await here is a trip through the thread pool, which a
    // busy process (the page being served beside it) can delay by tens of ms before ffmpeg starts.
    mkdirSync(dir, { recursive: true })
    const source = live.sourceNow()
    const built = argsFor(live, 0, dir, assumedFacts(live.session), source)
    live.speculation = { dir, source, built, proc: spawnFfmpeg(live, 0, built.args) }
    live.log.debug({ pid: live.speculation.proc.pid }, 'ffmpeg started before the probe answered')
  }

  /** Kills a speculative run and removes what it wrote (its segments have the wrong shape). */
  const discardSpeculation = async (live: LiveSession): Promise<void> => {
    const speculation = live.speculation
    if (!speculation) return
    live.speculation = undefined
    speculation.proc.kill()
    await speculation.proc.exited
    live.processes.delete(speculation.proc)
    await rm(speculation.dir, { recursive: true, force: true })
  }

  const machineFor = (live: LiveSession) => hlsTranscodeMachine.provide({
    actors: {
      probe: fromPromise<unknown, void>(async ({ signal }) => {
        const work = (async () => {
          const ended = () => {
            if (live.stopping || signal.aborted) throw new ProbeFailedError('the session ended while it was being probed')
          }
          const entry = live.entry!
          ended()
          // ffmpeg starts now on assumed facts, ffprobe beside it (docs/hls.md "Starting before the probe").
          const speculating = speculate(live, entry).catch((err: unknown) => live.log.warn({ err }, 'could not start ffmpeg before the probe'))
          // A minted URL changes with every token: its probe is cached under the source's identity.
          const input = live.sourceNow()
          const probeCacheId = live.session.cacheId ?? (live.minted ? `source|${live.sourceId}` : undefined)
          let probed: Awaited<ReturnType<ProbeService['probe']>>
          try {
            probed = await probeService.probe(input, { signal, ...(probeCacheId === undefined ? {} : { cacheId: probeCacheId }) })
          } finally {
            // Also on failure: a process it starts after this step gave up would belong to no one.
            await speculating
          }
          const { result, cacheHit } = probed
          ended()
          live.probe = result
          live.plan = planSegments(result.durationSeconds, segmentSeconds, result.video.frameRate)
          live.textSubtitles = result.subtitles.filter((track) => track.text)
          live.firstArgs = argsFor(live, 0, join(entry.dir, 'run-0'))
          const speculation = live.speculation
          if (speculation) {
            // Kept only if the probe gives the very same command line (same input reference).
            const confirmed = argsFor(live, 0, speculation.dir, probedFacts(result), speculation.source)
            if (sameArgs(confirmed.args, speculation.built.args)) live.firstStart = 'before-probe'
            else {
              live.firstStart = 'discarded'
              live.log.debug({ assumed: speculation.built.summary, probed: confirmed.summary }, 'the source differs from the assumed one: ffmpeg restarts on the probed facts')
              await discardSpeculation(live)
              ended()
            }
          } else live.firstStart = 'after-probe'
          const { summary } = live.firstArgs
          // The one line per session naming encoder, acceleration and preset (contract 4.3.8).
          live.log.info({
            encoder: summary.encoder, acceleration: summary.acceleration, preset: summary.preset, height: summary.height,
            bitrateKbps: summary.bitrateKbps, level: summary.level, sourceKind: isUrlSource(input) ? 'url' : 'file', probeCacheHit: cacheHit, firstStart: live.firstStart,
            segments: live.plan.count,
          }, `hls session: encoder ${summary.encoder}, acceleration ${summary.acceleration}, preset ${summary.preset}`)
          live.subtitling = extractSubtitles(live).catch((err: unknown) => live.log.warn({ err }, 'subtitle extraction failed'))
          return result
        })()
        live.probing = work.catch(() => undefined)
        try {
          return await work
        } catch (err) {
          await discardSpeculation(live).catch(() => undefined)
          // Same class and code, with any URL query (a token, a debrid credential) cut out.
          const error = err instanceof Error ? err : new ProbeFailedError(String(err))
          if (error.message !== scrubUrls(error.message)) error.message = scrubUrls(error.message)
          if (error instanceof AgentError && typeof error.details?.stderr === 'string') error.details.stderr = scrubUrls(error.details.stderr)
          live.probeError = error
          throw live.probeError
        }
      }),
      ffmpeg: fromCallback<HlsTranscodeEvent, FfmpegRunInput>(({ input, sendBack }) => {
        let disposed = false
        let proc: ManagedProcess | undefined
        let scanTimer: ReturnType<typeof setInterval> | undefined
        let watcher: FSWatcher | undefined
        const entry = live.entry!
        const dir = join(entry.dir, `run-${input.run}`)
        // Run 0 adopts the process started before the probe, once the probe confirmed its plan.
        const adopted = input.run === 0 && input.startSegment === 0 ? live.speculation : undefined
        live.speculation = undefined
        // A seek-run's argv needs the encoder's delay: measured at the session's start, so normally
        // known here; otherwise built once the probe answers (below).
        let built = adopted?.built ?? (input.startSegment === 0 || knownEncoderDelayFrames(options.ffmpegPath, live.encoder) !== undefined ? argsFor(live, input.startSegment, dir) : undefined)
        live.runs.set(input.run, { run: input.run, dir, keepFrom: input.startSegment })
        // Requests waiting for the probe step look again now (resolve: `settled`).
        live.written.emit('written')
        let highest = -1
        const scan = async (): Promise<void> => {
          const names = await readdir(dir).catch(() => [] as string[])
          let newest = highest
          for (const name of names) {
            const match = segmentName.exec(name)
            if (match) newest = Math.max(newest, Number(match[1]))
          }
          if (!disposed && newest > highest && newest >= input.startSegment) {
            highest = newest
            live.written.emit('written')
            sendBack({ type: 'SEGMENT_WRITTEN', run: input.run, segment: newest })
          }
        }
        void (async () => {
          // Synchronous, like the run before the probe: a seek's restart should not queue behind the thread pool.
          if (disposed || live.stopping) return
          if (!adopted) mkdirSync(dir, { recursive: true })
          if (!built) {
            await encoderDelay(live)
            built = argsFor(live, input.startSegment, dir)
          }
          if (disposed) return
          proc = adopted?.proc ?? spawnFfmpeg(live, input.run, built.args)
          live.log.debug({ run: input.run, startSegment: input.startSegment, firstWritten: built.firstWrittenSegment, pid: proc.pid }, 'ffmpeg started')
          scanTimer = setInterval(() => void scan(), hlsSegmentScanMs)
          // A rename into place (temp_file) is seen at once where the platform tells (inotify); the
          // 200 ms scan stays the guarantee (network file systems send no events).
          try {
            watcher = watch(dir, (_event, name) => {
              if (typeof name === 'string' && segmentName.test(name)) void scan()
            })
            watcher.on('error', () => watcher?.close())
          } catch { /* no watching here: the scan covers it */ }
          let result = await proc.exited
          live.processes.delete(proc)
          // Issue 12: a hardware encoder that fails falls back to libx264 for this session. Before
          // the run closed a segment, the same run goes on with libx264 (no restart is spent and
          // nothing encoded by the GPU is ever served); after, the machine's restart resumes with it.
          while (!disposed && fellBack(live, result, input.run) && highest < input.startSegment) {
            if (input.startSegment > 0) {
              await encoderDelay(live)
              // The run may have been replaced or stopped while the probe ran: its cleanup has
              // already killed what it knew of, so an ffmpeg started now would run for nobody.
              if (disposed) break
            }
            const again = argsFor(live, input.startSegment, dir)
            proc = spawnFfmpeg(live, input.run, again.args)
            result = await proc.exited
            live.processes.delete(proc)
          }
          if (scanTimer) clearInterval(scanTimer)
          watcher?.close()
          if (disposed) return
          await scan()
          if (!disposed) sendBack({ type: 'FFMPEG_EXITED', run: input.run, code: result.code, signal: result.signal, stderrTail: result.stderrTail.map(scrubUrls) })
        })().catch((err: unknown) => {
          if (!disposed) sendBack({ type: 'FFMPEG_EXITED', run: input.run, code: 127, signal: null, stderrTail: [String(err)] })
        })
        return () => {
          disposed = true
          if (scanTimer) clearInterval(scanTimer)
          watcher?.close()
          proc?.kill()
        }
      }),
      checkReady: fromPromise<boolean, ReadinessCheckInput>(async ({ input }) => {
        // Proof that the first segment is closed: `seg-<start>.m4s` exists under its final name.
        // `-hls_flags temp_file` writes it as `.tmp` and renames it when closed; init.mp4 is
        // written before that rename, so both are complete (docs/hls.md "Readiness").
        const run = live.runs.get(input.run)
        if (!run || live.entry?.cacheHit) return live.entry?.cacheHit === true
        return existsSync(join(run.dir, 'init.mp4')) && existsSync(join(run.dir, `seg-${input.startSegment}.m4s`))
      }),
    },
    actions: {
      notifyReady: () => {
        live.readySeen = true
        live.log.info({}, 'hls session ready')
        safely(live, () => live.events.onReady({ cacheHit: live.entry?.cacheHit === true }))
      },
      notifyReadinessTimeout: () => {
        // The session actor logs the one user-facing `mark-ready: timeout` line (contract 7).
        live.log.debug({ deadlineMs: options.readinessDeadlineMs ?? readinessDeadlineMs }, 'readiness deadline passed')
        safely(live, () => live.events.onReadinessTimeout())
      },
      notifyRestart: ({ context }) => {
        live.log.warn({ restarts: context.restarts, resumeAt: context.runStart, stderr: context.stderrTail }, 'ffmpeg exited early; restarting')
        options.metrics?.ffmpegRestarted()
      },
      notifyFailed: ({ context }) => {
        const error = live.probeError ?? new TranscodeFailedError(context.error?.message ?? 'ffmpeg failed', { details: { stderr: context.stderrTail, restarts: context.restarts } })
        live.log.error({ err: { code: (error as AgentError).code, message: error.message } }, 'hls session failed')
        live.written.emit('written')
        safely(live, () => live.events.onFailed(error))
      },
    },
  })

  const safely = (live: LiveSession, fn: () => void): void => {
    try {
      fn()
    } catch (err) {
      live.log.error({ err }, 'hls session callback threw')
    }
  }

  const stopSession = (live: LiveSession): Promise<void> => {
    live.stopping ??= (async () => {
      if (live.actor?.getSnapshot().status === 'active') live.actor.send({ type: 'STOP' })
      live.actor?.stop()
      for (const proc of live.processes) proc.kill()
      await live.opening
      await live.probing
      for (const proc of live.processes) proc.kill()
      await Promise.all([...live.processes].map((proc) => proc.exited))
      await live.subtitling
      await live.entry?.release().catch((err: unknown) => live.log.warn({ err }, 'could not remove the session directory'))
      if (sessions.get(live.sessionId) === live) sessions.delete(live.sessionId)
      live.log.debug({}, 'hls session stopped')
    })()
    return live.stopping
  }

  return {
    start({ sessionId, session, source }, events) {
      const previous = sessions.get(sessionId)
      if (previous) void stopSession(previous)
      const sourceId = typeof source === 'string' ? source : source.id
      const live: LiveSession = {
        sessionId, session, events, sourceId,
        sourceNow: typeof source === 'string' ? () => source : () => source.current(),
        minted: typeof source !== 'string',
        log: log.child({ sessionId, source: redact(sourceId) }),
        encoder: defaultEncoder, maxHeight: undefined,
        entry: undefined, opening: undefined, hit: false, committed: false, probe: undefined, probeError: undefined, speculation: undefined, firstStart: undefined, plan: undefined, firstArgs: undefined,
        textSubtitles: [], subtitlesDone: new Set(), subtitlesFinished: false,
        runs: new Map(), processes: new Set(), actor: undefined, readySeen: false, stopping: undefined, probing: undefined, subtitling: undefined,
        written: new EventEmitter(),
      }
      live.written.setMaxListeners(0)
      sessions.set(sessionId, live)
      const start = async (): Promise<void> => {
        if (previous) await stopSession(previous)
        if (live.stopping) return
        const opening = store.open({ sessionId, source: sourceId, quality: String(session.quality), audioIndex: session.audioIndex ?? 0, cacheId: session.cacheId })
        live.opening = opening.catch(() => undefined)
        try {
          live.entry = await opening
        } catch (err) {
          // No directory to write into (a full or read-only disk): the session fails with the reason.
          live.log.error({ err }, 'hls session has no directory to write into')
          if (!live.stopping) safely(live, () => live.events.onFailed(err instanceof Error ? err : new TranscodeFailedError(String(err))))
          return
        }
        if (live.stopping) return
        if (live.entry.cacheHit) {
          // A verified complete entry: ready as soon as the session starts (contract 3, 6.3).
          live.hit = true
          live.readySeen = true
          live.written.emit('written')
          live.log.info({}, 'hls session ready: cache hit')
          safely(live, () => live.events.onReady({ cacheHit: true }))
          return
        }
        if (options.encoderFor) {
          const choice = await options.encoderFor()
          live.encoder = choice.encoder
          live.maxHeight = choice.maxHeight
          if (live.stopping) return
        }
        // Measured now, alongside the run from 0, so a seek never waits for it.
        void encoderDelay(live)
        const actor = createActor(machineFor(live), {
          input: {
            maxRestarts: options.maxRestarts ?? ffmpegMaxRestarts,
            readinessPollMs: options.readinessPollMs ?? readinessPollMs,
            readinessDeadlineMs: options.readinessDeadlineMs ?? readinessDeadlineMs,
          },
          ...(options.clock ? { clock: options.clock as never } : {}),
          systemId: `hls-${sessionId}`,
        })
        live.actor = actor
        actor.subscribe({
          next: (snapshot) => {
            if (live.entry?.commit && !live.committed && snapshot.matches({ active: { work: 'complete' } })) void commitWhenWhole(live).catch((err: unknown) => live.log.warn({ err }, 'could not hand the output to the cache'))
          },
          error: (err) => live.log.error({ err }, 'hls transcode actor failed'),
        })
        actor.start()
      }
      // Never blocks the caller (contract 4.3.7): everything runs in the background.
      void start().catch((err: unknown) => live.log.error({ err }, 'hls session could not start'))
      return { stop: () => stopSession(live) }
    },
    routes: createHlsRoute({
      resolve,
      served: (sessionId, name) => {
        const live = sessions.get(sessionId)
        if (live && !live.stopping && (name === 'init.mp4' || segmentName.test(name))) safely(live, () => live.events.onMediaFetched?.())
      },
    }),
    async stopAll() {
      delayProbes.abort()
      delayProbes = new AbortController()
      await Promise.all([...sessions.values()].map((live) => stopSession(live)))
    },
    inspect() {
      return [...sessions.values()].map((live) => ({
        sessionId: live.sessionId,
        state: stateOf(live),
        pids: [...live.processes].map((proc) => proc.pid).filter((pid): pid is number => pid !== undefined),
        run: live.actor?.getSnapshot().context.run ?? 0,
        restarts: live.actor?.getSnapshot().context.restarts ?? 0,
        firstStart: live.firstStart,
      }))
    },
  }
}

/** A bandwidth figure for an uncapped (`original`) variant: about 0.1 bit per pixel at 30 fps. */
function estimateKbps(width: number, height: number): number {
  return Math.round((width * height * 30 * 0.1) / 1000)
}


