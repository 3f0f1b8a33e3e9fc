// `npm run bench -- library` (issue 16; docs/library.md): the library actor over 10,000 files
// (BENCH_LIBRARY_FILES; BENCH_LIBRARY_MEDIA of them small generated media, a few sidecars, the
// rest not media), uploading to the reference server over loopback with the real server API:
//   cold:        first scan on an empty index, full upload;
//   incremental: 1 % of the files changed (a fifth of them media), delta upload;
// each with wall time (request to acknowledged upload), ffprobe calls, peak RSS and bytes sent;
//   unchanged:   a rescan with nothing changed (walk and diff alone: no probe, no upload).
// Goals: incremental under 2 s with exactly the changed media files probed.
//
// Then the check of issue 16 that a scan never slows playback: time to readiness of an HLS session
// (1080p to 720p, the #6 bench's source) alone and with a cold scan (ffprobe at the agent's nice
// 19) running beside it in the same process, against bare ffmpeg; as in the agent, the scan stops
// its ffprobe runs when the session starts and starts none until it is ready (and, for the
// record, once without that); interleaved, BENCH_LIBRARY_HLS_ROUNDS rounds (default 4).
// Goal (#6): readiness with a scan running <= 1.10 x bare ffmpeg.
// Prints ONE JSON line.
import { execFile, spawn } from 'node:child_process'
import { existsSync, watch } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createActor, type AnyActorRef } from 'xstate'
import { parseConfigText } from '../src/config/load.js'
import { silentLogger } from '../src/log.js'
import { createReferenceServer } from '../src/reference-server/index.js'
import { buildHlsArgs } from '../src/services/ffmpeg/hls-args.js'
import { createProbeService, type ProbeService } from '../src/services/ffmpeg/probe.js'
import { createServerApi } from '../src/services/http/server-api.js'
import { createHlsEngine } from '../src/services/hls/engine.js'
import type { LibraryContext } from '../src/machines/library.machine.js'
import { createLibraryPart } from '../src/system/library-part.js'
import { agentVersion } from '../src/version.js'

const run = promisify(execFile)
const fileCount = Number(process.env.BENCH_LIBRARY_FILES ?? 10_000)
const mediaCount = Number(process.env.BENCH_LIBRARY_MEDIA ?? 1_000)
// The agent's scans run ffprobe at nice 19: only idle CPU. On a machine others keep busy that
// measures their load, not the scan, so the cold and incremental figures use this niceness
// (0 by default); the HLS check below runs scans at the agent's 19 as they really run.
const scanNice = Number(process.env.BENCH_LIBRARY_NICE ?? 0)
const hlsRounds = Number(process.env.BENCH_LIBRARY_HLS_ROUNDS ?? 4)
const perFolder = 100
const accessToken = 'bench-library-token'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const round = (value: number) => Math.round(value * 10) / 10
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args])
}

/** Counts the ffprobe runs behind a probe cache. */
function countingProbe(): { probe: ProbeService; calls: () => number } {
  const inner = createProbeService({ ffprobePath: 'ffprobe', logger: silentLogger() })
  let calls = 0
  return {
    calls: () => calls,
    probe: {
      size: () => inner.size(),
      probe: (source, options) => inner.probe(source, options),
      inspect: async (source, options) => {
        const answer = await inner.inspect(source, options)
        if (!answer.cacheHit) calls++
        return answer
      },
    },
  }
}

interface Library {
  actor: AnyActorRef
  context(): LibraryContext
  /** Asks for a scan and resolves when its upload is acknowledged (or it had nothing to send). */
  scan(): Promise<number>
  stop(): Promise<void>
}

function startLibrary(options: {
  roots: string[]
  stateDir: string
  serverUrl: string
  probe: ProbeService
  niceness?: number
  playbackStarting?: () => boolean
  onPlaybackStart?: (listener: () => void) => () => void
}): Library {
  const { config } = parseConfigText([
    '[server]', `base_url = "${options.serverUrl}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${options.stateDir}"`,
    '[library]', `paths = ${JSON.stringify(options.roots)}`, 'watch = false', 'rescan_minutes = 0',
  ].join('\n'), { file: 'bench.toml' })
  const api = createServerApi({ baseUrl: options.serverUrl, accessToken, version: agentVersion, logger: silentLogger() })
  const part = createLibraryPart({
    config, logger: silentLogger(), agentId: 'bench-agent', api, probe: options.probe,
    ...(options.niceness === undefined ? {} : { probeNiceness: options.niceness }),
    ...(options.playbackStarting ? { playbackStarting: options.playbackStarting } : {}),
    ...(options.onPlaybackStart ? { onPlaybackStart: options.onPlaybackStart } : {}),
  })
  const actor = createActor(part.logic, { input: part.input })
  part.attach(() => actor)
  const context = () => actor.getSnapshot().context as LibraryContext
  const settled = (ticket: number) => new Promise<void>((resolve, reject) => {
    const check = () => {
      const c = context()
      if (c.settledSeq >= ticket) return true
      if (actor.getSnapshot().value === 'failed') throw new Error(`library failed: ${c.error}`)
      return false
    }
    const subscription = actor.subscribe(() => {
      try {
        if (check()) {
          subscription.unsubscribe()
          resolve()
        }
      } catch (err) {
        subscription.unsubscribe()
        reject(err)
      }
    })
  })
  // An actor's snapshot reads `active` before start(): remember whether it was started.
  let running = false
  return {
    actor,
    context,
    async scan() {
      const started = performance.now()
      if (!running) {
        running = true
        // The scan on start is this scan (the initial snapshot has already entered `scanning`).
        const done = settled(context().scanSeq)
        actor.start()
        await done
      } else {
        const done = settled(context().scanSeq + 1)
        part.scan(false)
        await done
      }
      return performance.now() - started
    },
    async stop() {
      actor.stop()
      await api.close()
    },
  }
}

/** Peak RSS while `work` runs (sampled every 20 ms, and the process's max RSS). */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakRssMiB: number }> {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()) }, 20)
  try {
    const value = await work()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { value, peakRssMiB: mib(peak) }
  } finally {
    clearInterval(timer)
  }
}

function whenFilesExist(dir: string, names: string[]): Promise<void> {
  return new Promise((resolve) => {
    const check = () => names.every((name) => existsSync(join(dir, name)))
    const timer = setInterval(() => { if (check()) done() }, 2)
    const done = () => {
      clearInterval(timer)
      watcher.close()
      resolve()
    }
    const watcher = watch(dir, () => { if (check()) done() })
  })
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ma16-bench-library-'))
  const server = await createReferenceServer({ accessToken })
  const stops: (() => Promise<void>)[] = []
  try {
    // ---- the library: small generated media, copied; sidecars; files that are not media ----
    const sources = join(dir, 'sources')
    await mkdir(sources)
    const seeds = [join(sources, 'a.mp4'), join(sources, 'b.mkv'), join(sources, 'c.mp3'), join(sources, 'd.flac')]
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', seeds[0]!])
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', seeds[1]!])
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'libmp3lame', seeds[2]!])
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'flac', seeds[3]!])
    const root = join(dir, 'library')
    const media: string[] = []
    const other: string[] = []
    const sidecarEvery = 10
    for (let i = 0; i < fileCount; i++) {
      const folder = join(root, `folder-${String(Math.floor(i / perFolder)).padStart(3, '0')}`)
      if (i % perFolder === 0) await mkdir(folder, { recursive: true })
      const isMedia = i % Math.max(1, Math.floor(fileCount / mediaCount)) === 0 && media.length < mediaCount
      if (isMedia) {
        const seed = seeds[media.length % seeds.length]!
        const path = join(folder, `item-${i}${seed.slice(seed.lastIndexOf('.'))}`)
        await copyFile(seed, path)
        media.push(path)
      } else if (media.length > 0 && i % sidecarEvery === 1 && media.at(-1)!.endsWith('.mp4')) {
        const video = media.at(-1)!
        const path = `${video.slice(0, -4)}.en.srt`
        await writeFile(path, '1\n00:00:00,000 --> 00:00:01,000\nhi\n')
        other.push(path)
      } else {
        const path = join(folder, `file-${i}.${['txt', 'nfo', 'jpg', 'json'][i % 4]}`)
        await writeFile(path, `not media ${i}\n`)
        other.push(path)
      }
    }

    // ---- cold scan, then 1 % changed ----
    const counting = countingProbe()
    const library = startLibrary({ roots: [root], stateDir: join(dir, 'state'), serverUrl: server.url, probe: counting.probe, niceness: scanNice })
    stops.push(() => library.stop())
    const cold = await withPeakRss(() => library.scan())
    const coldUpload = library.context().lastUpload!
    const coldCalls = counting.calls()
    const coldBytes = server.libraryUploads().reduce((sum, record) => sum + record.compressedBytes, 0)

    const changed = Math.round(fileCount / 100)
    const changedMedia = Math.round(changed / 5)
    const later = Date.now() / 1000 + 60
    for (let i = 0; i < changedMedia; i++) {
      // Another seed's bytes in place: new size and mtime, a different item.
      const path = media[Math.floor((i * media.length) / changedMedia)]!
      await copyFile(seeds[(media.indexOf(path) + 1) % seeds.length]!, `${path}.tmp`)
      const { rename } = await import('node:fs/promises')
      await rename(`${path}.tmp`, path)
      await utimes(path, later, later)
    }
    for (let i = 0; i < changed - changedMedia; i++) {
      const path = other[Math.floor((i * other.length) / (changed - changedMedia))]!
      await writeFile(path, `changed ${i}\n`)
      await utimes(path, later, later)
    }
    const uploadsBefore = server.libraryUploads().length
    const incremental = await withPeakRss(() => library.scan())
    const incrementalUpload = library.context().lastUpload!
    const incrementalCalls = counting.calls() - coldCalls
    const incrementalBytes = server.libraryUploads().slice(uploadsBefore).reduce((sum, record) => sum + record.compressedBytes, 0)
    const incrementalScanMs = library.context().lastScan!.ms
    // The same again with nothing changed: the walk and the diff alone (no probe, no upload).
    const unchangedMs = await library.scan()
    const unchangedCalls = counting.calls() - coldCalls - incrementalCalls
    await library.stop()

    // ---- HLS readiness alone, beside a cold scan, and bare ffmpeg ----
    const source = join(dir, 'source-1080p.mp4')
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30:duration=20', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=20',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '48', '-c:a', 'aac', '-shortest', source])
    const probe = (await createProbeService({ ffprobePath: 'ffprobe', logger: silentLogger() }).probe(source)).result
    const bareArgs = (outputDir: string) => buildHlsArgs({
      source,
      sourceGeometry: { width: probe.video.width, height: probe.video.height, sampleAspectRatio: probe.video.sampleAspectRatio },
      durationSeconds: probe.durationSeconds, quality: '720p', encoder: 'libx264', audioIndex: 0, hasAudio: true, outputDir, startSegment: 0, warmupSegments: 1,
    }).args
    const bare = async (index: number) => {
      const out = join(dir, `bare-${index}`)
      await mkdir(out, { recursive: true })
      const started = performance.now()
      const child = spawn('ffmpeg', bareArgs(out), { stdio: 'ignore' })
      await whenFilesExist(out, ['init.mp4', 'seg-0.m4s'])
      const ms = performance.now() - started
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
      await new Promise((resolve) => child.once('close', resolve))
      return ms
    }
    // What the agent's session ledger says (starting until ready): gated scans pause meanwhile.
    let sessionStarting = false
    const startListeners = new Set<() => void>()
    const onPlaybackStart = (listener: () => void) => {
      startListeners.add(listener)
      return () => startListeners.delete(listener)
    }
    const engineReady = async (name: string) => {
      const engine = createHlsEngine({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', workDir: join(dir, `engine-${name}`), logger: silentLogger() })
      sessionStarting = true
      for (const listener of startListeners) listener()
      const started = performance.now()
      let stop: () => Promise<void> = async () => {}
      const ms = await new Promise<number>((resolve, reject) => {
        const handle = engine.start({ sessionId: name, session: { sessionId: name, PlayMethod: 'hls', quality: '720p', filePath: source }, source }, {
          onReady: () => {
            sessionStarting = false
            resolve(performance.now() - started)
          },
          onReadinessTimeout: () => reject(new Error('readiness timeout')),
          onFailed: reject,
        })
        stop = () => handle.stop()
      })
      await stop()
      await engine.stopAll()
      return ms
    }
    const alone: number[] = []
    const beside: number[] = []
    const besideUngated: number[] = []
    const bareMs: number[] = []
    const probesDuringReadiness: number[] = []
    const probesDuringUngatedReadiness: number[] = []
    const besideScan = async (name: string, gated: boolean, probes: number[]) => {
      // A cold scan (fresh index, fresh probe cache) well under way when the session starts.
      const scanProbe = countingProbe()
      const scanning = startLibrary({
        roots: [root], stateDir: join(dir, `state-${name}`), serverUrl: server.url, probe: scanProbe.probe,
        ...(gated ? { playbackStarting: () => sessionStarting, onPlaybackStart } : {}),
      })
      stops.push(() => scanning.stop())
      void scanning.scan().catch(() => {})
      // Under way: walked, and ffprobe running (at nice 19 the first answers may take a while on a busy machine).
      while (scanProbe.calls() < 2) await new Promise((resolve) => setTimeout(resolve, 10))
      const callsAtStart = scanProbe.calls()
      const ms = await engineReady(name)
      probes.push(scanProbe.calls() - callsAtStart)
      await scanning.stop()
      return ms
    }
    for (let index = 0; index < hlsRounds; index++) {
      bareMs.push(await bare(index))
      alone.push(await engineReady(`alone-${index}`))
      beside.push(await besideScan(`beside-${index}`, true, probesDuringReadiness))
      besideUngated.push(await besideScan(`ungated-${index}`, false, probesDuringUngatedReadiness))
    }

    const bareMedian = median(bareMs)
    process.stdout.write(`${JSON.stringify({
      bench: 'library',
      node: process.version,
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
      files: fileCount,
      mediaFiles: media.length,
      scanProbeNice: scanNice,
      cold: { wallMs: round(cold.value), ffprobeCalls: coldCalls, peakRssMiB: cold.peakRssMiB, bytesUploaded: coldBytes, items: coldUpload.uploadedItems, parts: coldUpload.parts, mode: coldUpload.mode },
      incremental: {
        changedFiles: changed, changedMediaFiles: changedMedia,
        wallMs: round(incremental.value), ffprobeCalls: incrementalCalls, probedExactlyTheChanged: incrementalCalls === changedMedia,
        peakRssMiB: incremental.peakRssMiB, bytesUploaded: incrementalBytes, items: incrementalUpload.uploadedItems, mode: incrementalUpload.mode,
        scanMs: incrementalScanMs,
      },
      unchanged: { wallMs: round(unchangedMs), ffprobeCalls: unchangedCalls, uploads: server.libraryUploads().length - uploadsBefore - 1 },
      hlsBesideScan: {
        rounds: hlsRounds,
        bareFfmpegMs: round(bareMedian), aloneMs: round(median(alone)), besideScanMs: round(median(beside)),
        ratioBesideToBare: Math.round((median(beside) / bareMedian) * 1000) / 1000,
        ratioBesideToAlone: Math.round((median(beside) / median(alone)) * 1000) / 1000,
        scanProbesDuringReadiness: probesDuringReadiness,
        // Without the pause while a session starts: niced ffprobe start-ups alone.
        besideUngatedScanMs: round(median(besideUngated)), ratioUngatedToAlone: Math.round((median(besideUngated) / median(alone)) * 1000) / 1000,
        ungatedScanProbesDuringReadiness: probesDuringUngatedReadiness,
        aloneAllMs: alone.map(round), besideAllMs: beside.map(round), besideUngatedAllMs: besideUngated.map(round), bareAllMs: bareMs.map(round),
      },
      goals: { incrementalWallMsUnder: 2000, incrementalProbesEqualChangedMedia: true, hlsReadinessBesideScanRatioAtMost: 1.1 },
    })}\n`)
  } finally {
    for (const stop of stops) await stop().catch(() => {})
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
