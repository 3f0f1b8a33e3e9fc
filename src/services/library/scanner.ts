// One library scan (issue 16; protocol.md 7.6): walk the roots, probe only the media files that
// are new or changed by (path, size, mtime) against the index, keep the index in the state dir,
// and return the library as it is now with subtitle sidecars attached to their videos.
//
// The scan must never slow an HLS session (docs/library.md "Staying out of playback's way"):
// ffprobe runs niced with at most `probeConcurrency` at once, fs calls are bounded by the
// walker, and the synchronous loops hand the event loop back every `yieldEvery` files.
import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { FfmpegNotFoundError, ProbeFailedError } from '../../errors.js'
import type { Logger } from '../../log.js'
import type { LibraryItem } from '../../protocol/wire.js'
import type { MediaInfo } from '../ffmpeg/probe.js'
import type { LibrarySnapshot } from './diff.js'
import type { IndexEntry, LibraryIndexStore, ProbedFacts } from './library-index.js'
import { matchSidecars } from './media-kinds.js'
import { mapLimit, SkipTally, skipKinds, walkRoots, type WalkedFile } from './walk.js'

/** ffprobe behind the probe cache (ProbeService.inspect). */
export type MediaInspector = (path: string, options: { niceness: number; signal?: AbortSignal }) => Promise<{ info: MediaInfo }>

export interface ScannerOptions {
  index: LibraryIndexStore
  inspect: MediaInspector
  logger: Logger
  probeConcurrency: number
  probeNiceness: number
  fsConcurrency: number
  yieldEvery: number
  skipExamples: number
  progressLogMs: number
  newScanId?: () => string
  /** True while playback is starting: no ffprobe is started then (see libraryPlaybackPauseMs). */
  playbackStarting?: () => boolean
  pauseMs?: number
  /** A session stuck starting does not stop the scan for longer than this (its readiness deadline). */
  pauseMaxMs?: number
  /** Told when a session starts: the ffprobe runs in flight are stopped and run again once it is ready. */
  onPlaybackStart?: (listener: () => void) => () => void
}

export interface ScanProgress {
  running: boolean
  scanId: string | undefined
  files: number
  probed: number
  toProbe: number
}

export interface ScanResult {
  scanId: string
  snapshot: LibrarySnapshot
  files: number
  probed: number
  skipped: number
  skips: SkipTally
  items: number
  ms: number
  /** Folders walked: what the watcher should watch now. */
  dirs: string[]
}

export interface LibraryScanner {
  scan(roots: readonly string[], options?: { signal?: AbortSignal }): Promise<ScanResult>
  progress(): ScanProgress
}

const round3 = (value: number) => Math.round(value * 1000) / 1000
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The item facts of an ffprobe answer; null when it has neither video nor audio. */
export function factsOf(info: MediaInfo): ProbedFacts | null {
  if (!info.video && info.audio.length === 0) return null
  const facts: ProbedFacts = { container: info.formatName, audio: [], subtitles: [] }
  if (info.durationSeconds !== undefined) facts.durationSeconds = round3(info.durationSeconds)
  if (info.video) {
    facts.video = { codec: info.video.codec, width: info.video.width, height: info.video.height }
    if (info.video.frameRate !== undefined && Number.isFinite(info.video.frameRate)) facts.video.fps = round3(info.video.frameRate)
  }
  facts.audio = info.audio.map((track) => ({ codec: track.codec, language: track.language ?? 'und', channels: track.channels ?? 0 }))
  facts.subtitles = info.subtitles.map((track) => ({ codec: track.codec, language: track.language ?? 'und' }))
  return facts
}

export function createLibraryScanner(options: ScannerOptions): LibraryScanner {
  const log = options.logger
  let index: Map<string, IndexEntry> | undefined
  const live: ScanProgress = { running: false, scanId: undefined, files: 0, probed: 0, toProbe: 0 }

  return {
    progress: () => ({ ...live }),
    async scan(roots, scanOptions = {}) {
      const started = performance.now()
      const scanId = (options.newScanId ?? randomUUID)()
      Object.assign(live, { running: true, scanId, files: 0, probed: 0, toProbe: 0 })
      let lastProgressLog = started
      const logProgress = (force = false) => {
        const at = performance.now()
        if (!force && at - lastProgressLog < options.progressLogMs) return
        lastProgressLog = at
        log.info({ scanId, files: live.files, probed: live.probed, toProbe: live.toProbe }, 'library scan in progress')
      }
      try {
        index ??= await options.index.load()
        const known = index
        const skips = new SkipTally(options.skipExamples)
        const walked = await walkRoots(roots, {
          fsConcurrency: options.fsConcurrency,
          yieldEvery: options.yieldEvery,
          skips,
          ...(scanOptions.signal ? { signal: scanOptions.signal } : {}),
          onProgress: (files) => {
            live.files = files
            logProgress()
          },
        })
        live.files = walked.seen

        const media: WalkedFile[] = []
        const subtitles: string[] = []
        const toProbe: WalkedFile[] = []
        const next = new Map<string, IndexEntry>()
        for (const file of walked.files) {
          if (file.kind === 'sidecar') {
            subtitles.push(file.path)
            continue
          }
          media.push(file)
          const entry = known.get(file.path)
          if (entry && entry.size === file.size && entry.mtime === file.mtime) next.set(file.path, entry)
          else toProbe.push(file)
        }
        live.toProbe = toProbe.length

        const inFlight = new Set<AbortController>()
        const unsubscribe = options.onPlaybackStart?.(() => {
          for (const controller of inFlight) controller.abort()
        })
        const waitForPlayback = async () => {
          const pausedAt = performance.now()
          while (options.playbackStarting?.() && performance.now() - pausedAt < (options.pauseMaxMs ?? 60_000)) {
            await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 200))
            if (scanOptions.signal?.aborted) throw scanOptions.signal.reason
          }
        }
        await mapLimit(toProbe, options.probeConcurrency, async (file) => {
          if (scanOptions.signal?.aborted) throw scanOptions.signal.reason
          await waitForPlayback()
          try {
            await access(file.path, constants.R_OK)
          } catch {
            skips.add('unreadable', file.path)
            return
          }
          try {
            let info: MediaInfo
            for (;;) {
              // A session starting stops this ffprobe (it would cost its readiness); run it again after.
              const playback = new AbortController()
              inFlight.add(playback)
              try {
                const signal = scanOptions.signal ? AbortSignal.any([scanOptions.signal, playback.signal]) : playback.signal
                info = (await options.inspect(file.path, { niceness: options.probeNiceness, signal })).info
                break
              } catch (err) {
                if (!playback.signal.aborted || scanOptions.signal?.aborted) throw err
                await waitForPlayback()
              } finally {
                inFlight.delete(playback)
              }
            }
            next.set(file.path, { size: file.size, mtime: file.mtime, facts: factsOf(info) })
          } catch (err) {
            // Without ffprobe nothing can be confirmed: the scan fails with the advice, and is retried.
            if (err instanceof FfmpegNotFoundError) throw err
            const exitCode = (err as ProbeFailedError).details?.exitCode
            if (err instanceof ProbeFailedError && typeof exitCode === 'number' && exitCode !== 0) {
              // ffprobe read the file and rejected it: not media, remembered until it changes.
              next.set(file.path, { size: file.size, mtime: file.mtime, facts: null })
            } else {
              // A timeout or a crash says nothing about the file: try again next scan.
              skips.add('probeFailed', file.path)
            }
          } finally {
            live.probed++
            logProgress()
          }
        }).finally(() => unsubscribe?.())

        const snapshot = new Map<string, Map<string, LibraryItem>>()
        for (const root of roots) snapshot.set(root, new Map())
        const sidecars = matchSidecars(media.map((file) => file.path), subtitles)
        let count = 0
        let sinceYield = 0
        for (const file of media) {
          if (++sinceYield >= options.yieldEvery) {
            sinceYield = 0
            await yieldNow()
          }
          const entry = next.get(file.path)
          if (!entry) continue
          if (entry.facts === null) {
            skips.add('notMedia', file.path)
            continue
          }
          const item: LibraryItem = { path: file.path, size: file.size, mtime: file.mtime, ...entry.facts }
          const extra = sidecars.get(file.path)
          if (extra) item.subtitles = [...entry.facts.subtitles, ...extra.map(({ codec, language, path }) => ({ codec, language, path }))]
          snapshot.get(file.root)!.set(file.path, item)
          count++
        }

        if (!sameIndex(known, next)) {
          await options.index.save(next)
          index = next
        }
        for (const kind of skipKinds) {
          if (skips.counts[kind] === 0) continue
          // Files ffprobe rejected are a normal part of a library; the others want attention.
          log[kind === 'notMedia' ? 'info' : 'warn']({ scanId, kind, count: skips.counts[kind], examples: skips.examples[kind] }, `library scan skipped ${skips.counts[kind]} ${describeSkip(kind)}`)
        }
        const result: ScanResult = {
          scanId,
          snapshot,
          files: walked.seen,
          probed: live.probed,
          skipped: skips.files(),
          skips,
          items: count,
          ms: Math.round(performance.now() - started),
          dirs: walked.dirs,
        }
        return result
      } finally {
        live.running = false
      }
    },
  }
}

function sameIndex(a: ReadonlyMap<string, IndexEntry>, b: ReadonlyMap<string, IndexEntry>): boolean {
  if (a.size !== b.size) return false
  for (const [path, entry] of b) if (a.get(path) !== entry) return false
  return true
}

function describeSkip(kind: (typeof skipKinds)[number]): string {
  switch (kind) {
    case 'unreadable': return 'unreadable files or folders (permissions)'
    case 'brokenSymlink': return 'broken symlinks'
    case 'vanished': return 'files or folders that vanished during the scan (or a missing root)'
    case 'symlinkLoop': return 'symlink loops (not followed)'
    case 'notMedia': return 'files with a media extension that ffprobe does not read as media'
    case 'probeFailed': return 'files ffprobe could not finish (retried next scan)'
  }
}
