// `npm run bench -- browser`: what a person waits for in a real browser (Debian's Chromium through
// playwright-core) on the reference server's player page, against bare ffmpeg in the same run.
// Prints ONE JSON line.
//
// Set-up as `npm start` has it: the reference server and the agent in one process on loopback,
// built (dist/, so run `npm run build` first) and started with the daemon's node flags and malloc
// settings (bench/_browser-agent.mjs), the browser and its driver in processes of their own; a
// 1080p H.264 + AAC source (a fresh copy per session, so no probe comes from the cache). The bench
// speaks to the reference server over its HTTP API (/api/reference), as a web app's backend would.
// Per round and per kind (direct play, HLS 720p, HLS original):
//   firstFrameMs  from the web server creating the session (POST /api/reference/sessions) to the
//                 first frame the page's <video> presented (requestVideoFrameCallback); the player
//                 opens right after, in the page already loaded (maPage.navigate, what the list's
//                 links and form do), as a web app's own player would; BENCH_BROWSER_PAGE_LOAD=1
//                 loads the player page for each session instead; cpuToFirstFrameMs: the CPU the
//                 agent, its media tools, Chromium and the bench spent in that time;
//   seekMs        from setting currentTime to the middle of the file to the first frame presented
//                 there while playing (measured in the page); seekBreakdownMs: when the page asked
//                 for the seek's segment, got it, appended it (hls.js events), and the frame;
//                 seekAfterAppendAllMs: the browser's part after the append (mostly decoding
//                 from the keyframe before the asked time to it).
// Anchors, bare ffmpeg with the engine's arguments for the same rung, from spawn until the files
// exist (inotify + 2 ms poll):
//   bareFirstSegmentMs  from 0: init.mp4 and seg-0.m4s;
//   bareSeekSegmentMs   started at the seek's segment (`-ss` there, no warm-up): its first segment.
// Each HLS session is paired with the bare runs next to it; the ratios are medians of the pairs'
// ratios. Goals (issue 17): HLS first frame <= 1.3x bareFirstSegmentMs, seek <= 1.3x
// bareSeekSegmentMs, direct first frame <= 300 ms. BENCH_BROWSER_ROUNDS (default 5: single
// timings vary ~15 % within a minute on a shared host), BENCH_BROWSER_SECONDS (30);
// BENCH_BROWSER_TRACE=<file>: the agent's debug log and each session's creation time.
import { execFile, spawn } from 'node:child_process'
import { appendFile, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { hlsSeekWarmupMaxSegments } from '../src/config/defaults.js'
import { silentLogger } from '../src/log.js'
import { playerPageUrl } from '../src/reference-server/player-page.js'
import { buildHlsArgs } from '../src/services/ffmpeg/hls-args.js'
import { createProbeService } from '../src/services/ffmpeg/probe.js'
import { chromiumPath, launchBrowser } from '../test/helpers/browser.js'
import { assertBuildCurrent, cliPath } from '../test/helpers/daemon.js'
import { freePort } from '../test/helpers/ports.js'
import { bareFfmpeg, median } from './_bare-ffmpeg.js'
import { shebangEnv, shebangNodeFlags } from './_daemon-flags.js'
import { allProcessCpu, descendsFrom } from './_proc.js'

const run = promisify(execFile)
const rounds = Number(process.env.BENCH_BROWSER_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_BROWSER_SECONDS ?? 30)
const seekSeconds = Math.floor(seconds / 2)
const seekSegment = Math.floor(seekSeconds / 2)
const accessToken = 'bench-browser'
const pageLoadPerSession = process.env.BENCH_BROWSER_PAGE_LOAD === '1'

type Kind = 'direct' | 'hls720p' | 'hlsOriginal'
const kinds: { kind: Kind; PlayMethod: string; quality: string }[] = [
  { kind: 'direct', PlayMethod: 'direct', quality: 'original' },
  { kind: 'hls720p', PlayMethod: 'hls', quality: '720p' },
  { kind: 'hlsOriginal', PlayMethod: 'hls', quality: 'original' },
]

const round1 = (value: number) => Math.round(value * 10) / 10
const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000

async function poll<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== null && value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * Evaluated in the page: resolves with the epoch ms of the first presented frame, checked every
 * 20 ms (a timer, no rendering). A string: tsx would wrap a function's inner names in a helper
 * the page does not have.
 */
const firstFrameInPage = `new Promise((resolve) => {
  const check = () => {
    const at = window.maPlayer && window.maPlayer.firstFrameAtMs
    if (at) resolve(at)
    else setTimeout(check, 20)
  }
  check()
})`

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms) })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The agent process (bench/_browser-agent.mjs) and the reference server's URL it printed. */
async function startAgentProcess(configPath: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const script = join(import.meta.dirname, '_browser-agent.mjs')
  const child = spawn(process.execPath, [...shebangNodeFlags(cliPath), script, configPath, accessToken], {
    env: { ...process.env, ...shebangEnv(cliPath) },
    // stdin stays open while the bench lives: the child stops when it closes, however the bench ends.
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4000) })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.stdin.end()
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  const url = await withTimeout(new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      // Whole lines only; anything else the child prints is not the announcement.
      for (const line of out.split('\n').slice(0, -1)) {
        try {
          const url = (JSON.parse(line) as { url?: unknown }).url
          if (typeof url === 'string') resolve(url)
        } catch { /* not the JSON line */ }
      }
    })
    void exited.then(() => reject(new Error(`the agent process exited before it was ready: ${stderr}`)))
  }), 60_000, 'the agent process did not register within 60 s').catch(async (error: unknown) => {
    await stop()
    throw error
  })
  api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api/reference/${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} /api/reference/${path}: ${response.status} ${text}`)
    return (text === '' ? undefined : JSON.parse(text)) as T
  }
  return { url, stop, pid: child.pid! }
}

type CpuShares = { agent: number; mediaTools: number; chromium: number; bench: number }

/**
 * CPU ms by who spent it, now: the agent's process; what it runs (ffmpeg, ffprobe, the watchdog
 * sh: live ones, and those it has waited for); Chromium (the bench's own browser); the
 * bench's own process (Playwright). A difference of two readings is what a window cost each.
 */
async function cpuShares(agentPid: number): Promise<CpuShares> {
  const all = new Map((await allProcessCpu()).map((entry) => [entry.pid, entry]))
  const shares: CpuShares = { agent: 0, mediaTools: 0, chromium: 0, bench: 0 }
  for (const entry of all.values()) {
    if (entry.pid === agentPid) {
      shares.agent += entry.cpuMs
      shares.mediaTools += entry.waitedChildrenMs
    } else if (entry.pid === process.pid) shares.bench += entry.cpuMs
    else if (descendsFrom(all, entry.pid, agentPid)) shares.mediaTools += entry.cpuMs
    else if (entry.command.startsWith('chrom') && descendsFrom(all, entry.pid, process.pid)) shares.chromium += entry.cpuMs
  }
  return shares
}

/** The reference server's HTTP API (/api/reference), once the agent process runs. */
let api: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T> = () => Promise.reject(new Error('the agent process is not running'))

interface Sample {
  firstFrameMs: number
  seekMs: number
  agentSyncedMs: number
  agentReadyMs: number
  pageKnewReadyMs: number
  readyVia: string
  seekMarks: Record<string, number>
  marks: Record<string, number>
  /** CPU ms each spent from the session's creation to its first frame (cpuShares). */
  cpuMs: CpuShares
}

type FragEntry = { at: number; seek?: number; loading?: number | string; loaded?: number | string; appended?: number | string }
/**
 * Where a seek's wait went, in ms from the seek: the page asked for the seek's segment, it arrived,
 * its video was appended, then the frame (seekMs). What is left after the append is the browser's
 * decode from the segment's keyframe to the target.
 */
function seekBreakdown(log: FragEntry[], seekMs: number): Record<string, number> {
  const start = log.findLastIndex((entry) => entry.seek === seekSeconds)
  if (start < 0) return {}
  const at = log[start]!.at
  const first = (pick: (entry: FragEntry) => boolean) => log.slice(start).find(pick)?.at
  const marks: Record<string, number | undefined> = {
    segmentRequested: first((entry) => entry.loading === seekSegment),
    segmentLoaded: first((entry) => entry.loaded === seekSegment),
    segmentAppended: first((entry) => entry.appended === seekSegment),
  }
  return Object.fromEntries([...Object.entries(marks).flatMap(([name, value]) => (value === undefined ? [] : [[name, value - at]])), ['frame', seekMs]])
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'media-agent-bench-browser-'))
  const stops: (() => Promise<void>)[] = []
  try {
    const source = join(root, 'source-1080p.mp4')
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '48', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', source])
    const probe = (await createProbeService({ ffprobePath: 'ffprobe', logger: silentLogger() }).probe(source)).result
    // For comparison only: what a seek would cost with issue 6's 150-frame rate-control warm-up.
    const warmup = Math.min(hlsSeekWarmupMaxSegments, Math.max(1, Math.ceil(150 / ((probe.video.frameRate ?? 30) * 2))))
    const argsFor = (quality: string, outputDir: string, startSegment: number, warmupSegments: number) => buildHlsArgs({
      source,
      sourceGeometry: { width: probe.video.width, height: probe.video.height, sampleAspectRatio: probe.video.sampleAspectRatio },
      durationSeconds: probe.durationSeconds,
      quality, encoder: 'libx264', audioIndex: 0, hasAudio: probe.audio.length > 0, outputDir, startSegment, warmupSegments,
    }).args

    assertBuildCurrent()
    const traceFile = process.env.BENCH_BROWSER_TRACE
    if (traceFile) await writeFile(traceFile, '')
    const streamPort = await freePort()
    const configPath = join(root, 'config.toml')
    await writeFile(configPath, [
      '[server]', 'base_url = "@SERVER_URL@"', `access_token = "${accessToken}"`,
      '[daemon]', `state_dir = "${join(root, 'state')}"`,
      '[stream]', `port = ${streamPort}`, 'upnp = false',
      '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
      '[downloads]', `dir = "${join(root, 'downloads')}"`,
      '[downloads.hls_cache]', `dir = "${join(root, 'hls')}"`,
      '[funnel]', 'enabled = false',
    ].join('\n'))
    // As npm start runs it: the stream server on every interface, players sent to its public URL.
    // BENCH_BROWSER_TRACE=<file>: the agent's debug log (JSON lines, epoch ms; the child writes
    // it) and each session's creation time, to see where a first frame's time went.
    const agent = await startAgentProcess(configPath)
    stops.push(() => agent.stop())
    const server = agent.url
    const browser = await launchBrowser()
    stops.push(() => browser.close())
    const page: Page = await browser.context.newPage()
    // The token lands in localStorage; the page and hls.js are cached from here on.
    await page.goto(playerPageUrl(server, accessToken))

    let copies = 0
    const play = async (kind: (typeof kinds)[number]): Promise<Sample> => {
      const file = join(root, `copy-${copies++}.mp4`)
      await copyFile(source, file)
      const sessionId = `${kind.kind}-${copies}`
      const cpuBefore = await cpuShares(agent.pid)
      const createdAt = Date.now()
      if (traceFile) await appendFile(traceFile, `${JSON.stringify({ msg: 'bench: session created', sessionId, createdAt })}\n`)
      await api('POST', 'sessions', { sessionId, filePath: file, PlayMethod: kind.PlayMethod, quality: kind.quality })
      const playPath = `/play/${encodeURIComponent(sessionId)}`
      // The player opens in the page already loaded, as a web app's own player would (the list's
      // link, or its form, does the same: docs/hls.md "Browser benchmark"); BENCH_BROWSER_PAGE_LOAD=1
      // loads the player page for each session instead. Then one evaluation that the page answers
      // at its first frame: no devtools traffic while the page loads the first segment. (A poll
      // from here, a page.evaluate every few ms, ran on the renderer's main thread beside hls.js,
      // and its first call injected playwright's utility script, ~7 ms, right after readiness.)
      let firstFrameSeen: Promise<number>
      if (pageLoadPerSession) {
        await page.goto(`${server}${playPath}`)
        firstFrameSeen = page.evaluate<number>(firstFrameInPage)
      } else {
        firstFrameSeen = page.evaluate<number>(`(window.maPage.navigate(${JSON.stringify(playPath)}), ${firstFrameInPage})`)
      }
      const firstFrameAt = await withTimeout(firstFrameSeen, 60_000, 'no first frame within 60000 ms').catch(async (error: Error) => {
        throw new Error(`${kind.kind}: ${error.message}; player ${JSON.stringify(await page.evaluate('window.maPlayer'))}`)
      })
      const cpuAfter = await cpuShares(agent.pid)
      // Asked after the first frame, so that no request of the bench's reaches the agent's
      // process while the session starts.
      const view = await api<{ readyAt: string | null }>('GET', `sessions/${encodeURIComponent(sessionId)}`)
      if (!view.readyAt) throw new Error(`${kind.kind}: the page played before the reference server had the session's readiness`)
      const readyAt = Date.parse(view.readyAt)
      const syncs = await api<{ at: number; response: { streamSessions: { sessionId: string }[] } }[]>('GET', 'syncs')
      const syncedAt = syncs.find((record) => record.response.streamSessions.some((s) => s.sessionId === sessionId))?.at
      if (syncedAt === undefined) throw new Error(`${kind.kind}: no sync of the agent's lists the session`)
      const state = await page.evaluate<{ readyKnownAtMs: number; readyVia: string; marks: Record<string, number> }>('window.maPlayer')
      // Let it play a moment, as a person would before reaching for the seek bar.
      await poll('playback did not start', () => page.evaluate<boolean | null>('document.querySelector("video").currentTime > 1 || null'), 30_000)
      const seekMs = await page.evaluate<number>(`window.maPlayer.seek(${seekSeconds})`)
      const seekMarks = kind.PlayMethod === 'hls' ? seekBreakdown(await page.evaluate<FragEntry[]>('window.maPlayer.fragments'), seekMs) : {}
      await api('DELETE', `sessions/${encodeURIComponent(sessionId)}`)
      // Back to the list, as a person would before the next video.
      if (pageLoadPerSession) await page.goto('about:blank')
      else await page.evaluate(`window.maPage.navigate('/')`)
      await rm(file, { force: true })
      return {
        firstFrameMs: firstFrameAt - createdAt,
        cpuMs: { agent: cpuAfter.agent - cpuBefore.agent, mediaTools: cpuAfter.mediaTools - cpuBefore.mediaTools, chromium: cpuAfter.chromium - cpuBefore.chromium, bench: cpuAfter.bench - cpuBefore.bench },
        seekMs,
        agentSyncedMs: syncedAt - createdAt,
        agentReadyMs: readyAt - createdAt,
        pageKnewReadyMs: state.readyKnownAtMs - createdAt,
        readyVia: state.readyVia,
        seekMarks,
        marks: Object.fromEntries(Object.entries(state.marks).map(([name, at]) => [name, at - createdAt])),
      }
    }

    const samples: Record<Kind, Sample[]> = { direct: [], hls720p: [], hlsOriginal: [] }
    type Anchor = { first: number[]; seek: number[]; seekWithWarmup: number[] }
    const bare: Record<Kind, Anchor> = { direct: { first: [], seek: [], seekWithWarmup: [] }, hls720p: { first: [], seek: [], seekWithWarmup: [] }, hlsOriginal: { first: [], seek: [], seekWithWarmup: [] } }
    const timeBare = async (quality: string, startSegment: number, warmupSegments: number): Promise<number> => {
      const dir = await mkdtemp(join(root, 'bare-'))
      try {
        return await bareFfmpeg(argsFor(quality, dir, startSegment, warmupSegments), dir, ['init.mp4', `seg-${startSegment}.m4s`])
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
    // One round not counted: the browser's first video, ffmpeg's libraries, the page cache.
    for (const kind of kinds) await play(kind)
    // Each HLS session is paired with its bare ffmpeg runs, taken right before it on even rounds
    // and right after it on odd ones: on a shared host the load drifts within seconds, and a
    // ratio of neighbours says more than a ratio of medians taken minutes apart.
    for (let index = 0; index < rounds; index++) {
      for (const kind of kinds) {
        const anchors = async () => {
          if (kind.PlayMethod !== 'hls') return
          bare[kind.kind].first.push(await timeBare(kind.quality, 0, 0))
          bare[kind.kind].seek.push(await timeBare(kind.quality, seekSegment, 0))
        }
        if (index % 2 === 0) await anchors()
        samples[kind.kind].push(await play(kind))
        if (index % 2 === 1) await anchors()
        if (kind.PlayMethod === 'hls') bare[kind.kind].seekWithWarmup.push(await timeBare(kind.quality, seekSegment, warmup))
      }
    }

    const summary = (list: Sample[]) => ({
      firstFrameMs: round1(median(list.map((s) => s.firstFrameMs))),
      seekMs: round1(median(list.map((s) => s.seekMs))),
      breakdownMs: {
        agentSynced: round1(median(list.map((s) => s.agentSyncedMs))),
        agentReady: round1(median(list.map((s) => s.agentReadyMs))),
        pageKnewReady: round1(median(list.map((s) => s.pageKnewReadyMs))),
        ...Object.fromEntries([...new Set(list.flatMap((s) => Object.keys(s.marks)))].filter((name) => name !== 'readyKnown')
          .map((name) => [name, round1(median(list.flatMap((s) => (s.marks[name] === undefined ? [] : [s.marks[name]!]))))])),
        firstFrame: round1(median(list.map((s) => s.firstFrameMs))),
      },
      seekBreakdownMs: Object.fromEntries([...new Set(list.flatMap((s) => Object.keys(s.seekMarks)))]
        .map((name) => [name, round1(median(list.flatMap((s) => (s.seekMarks[name] === undefined ? [] : [s.seekMarks[name]!]))))])),
      // Medians over the rounds: where the CPU went while a person waited (2 cores here).
      cpuToFirstFrameMs: Object.fromEntries((['agent', 'mediaTools', 'chromium', 'bench'] as const).map((who) => [who, round1(median(list.map((s) => s.cpuMs[who])))])),
      readyVia: [...new Set(list.map((s) => s.readyVia))],
      firstFrameAllMs: list.map((s) => round1(s.firstFrameMs)),
      seekAllMs: list.map((s) => round1(s.seekMs)),
      seekAfterAppendAllMs: list.flatMap((s) => (s.seekMarks.segmentAppended === undefined ? [] : [round1(s.seekMs - s.seekMarks.segmentAppended)])),
    })
    const pairedRatio = (own: number[], anchor: number[]) => ratio(median(own.map((value, i) => value / anchor[i]!)), 1)
    const hls = (kind: Kind) => {
      const own = summary(samples[kind])
      const anchor = bare[kind]
      return {
        ...own,
        bareFirstSegmentMs: round1(median(anchor.first)),
        firstFrameRatio: pairedRatio(samples[kind].map((s) => s.firstFrameMs), anchor.first),
        bareSeekSegmentMs: round1(median(anchor.seek)),
        seekRatio: pairedRatio(samples[kind].map((s) => s.seekMs), anchor.seek),
        bareSeekSegmentWithWarmupMs: round1(median(anchor.seekWithWarmup)),
        bareFirstSegmentAllMs: anchor.first.map(round1),
        bareSeekSegmentAllMs: anchor.seek.map(round1),
      }
    }
    const version = (await run(chromiumPath(), ['--version'])).stdout.trim()
    process.stdout.write(`${JSON.stringify({
      bench: 'browser',
      node: process.version,
      browser: version,
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
      source: `1920x1080 H.264 30 fps, ${seconds} s`,
      seekTo: seekSeconds,
      rounds,
      direct: summary(samples.direct),
      hls720p: hls('hls720p'),
      hlsOriginal: hls('hlsOriginal'),
      goals: { hlsFirstFrameRatioAtMost: 1.3, seekRatioAtMost: 1.3, directFirstFrameMsAtMost: 300 },
    })}\n`)
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    await rm(root, { recursive: true, force: true })
  }
}

await main()
