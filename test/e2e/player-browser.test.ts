import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parseTorrent from 'parse-torrent'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { createReferenceServer, playerPageUrl, type ReferenceServer, type SyncRecord } from '../../src/reference-server/index.js'
import { mktorrent, startAria2, type Aria2Peer } from '../helpers/aria2.js'
import { launchBrowser, saveScreenshot, watchConsole, type ConsoleEntry, type TestBrowser } from '../helpers/browser.js'
import { startDaemon, type DaemonProcess } from '../helpers/daemon.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { startNginx, type RunningNginx } from '../helpers/nginx.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { freePort } from '../helpers/ports.js'

// Issue 17: a person's way to watch a video from the agent, in a real browser. Debian's Chromium
// (playwright-core) opens the reference server's player page; the daemon is the built CLI in a
// child process, registered with the reference server; sessions are started through the page's
// own forms and buttons. Each case checks what a viewer notices: a picture appears at the size
// of the rung, it plays on for 4 s, a seek to the middle plays, the player never gave up, and
// the console stays clean except for the expected 404s of readiness HEAD probes.
// One browser and one daemon for the file; 20 s clips (media-fixtures.ts).

const accessToken = 'e2e-player-token'

interface PlayerState {
  phase: string
  readyVia: string | null
  probes: number
  firstFrameAtMs: number | null
  fatalErrors: string[]
  errors: { type: string; details: string; fatal: boolean }[]
}

let root = ''
let fixtures: MediaFixtures
let server: ReferenceServer
let daemon: DaemonProcess
let browser: TestBrowser
let nginx: RunningNginx
let tracker: OpenTracker | undefined
let seeder: Aria2Peer | undefined
const sources: Record<'p1080' | 'p540' | 'p360', string> = { p1080: '', p540: '', p360: '' }

beforeAll(async () => {
  // First: without a browser nothing here can run, and the reason should be the first thing said.
  browser = await launchBrowser()
  root = await mkdtemp(join(tmpdir(), 'ma-e2e-player-'))
  fixtures = await createMediaFixtures()
  ;[sources.p1080, sources.p540, sources.p360] = await Promise.all([fixtures.get('h264-1080p-20s'), fixtures.get('h264-540p-20s'), fixtures.get('h264-360p')])
  nginx = await startNginx({ root: fixtures.dir })

  server = await createReferenceServer({ accessToken })
  const configPath = join(root, 'config.toml')
  await writeFile(configPath, [
    '[server]', `base_url = "${server.url}"`, `access_token = "${accessToken}"`,
    '[daemon]', `state_dir = "${join(root, 'state')}"`,
    '[stream]', `port = ${await freePort()}`, 'upnp = false',
    '[admin]', `listen = "127.0.0.1:${await freePort()}"`,
    '[downloads]', `dir = "${join(root, 'downloads')}"`,
    '[downloads.hls_cache]', `dir = "${join(root, 'hls')}"`,
    // Loopback only; webtorrent's uTP-first connect is slow to TCP-only peers like aria2c.
    '[downloads.torrent]', 'dht = false', 'lsd = false', 'pex = false', 'nat_traversal = false', 'utp = false',
    '[funnel]', 'enabled = false',
    '',
  ].join('\n'))
  const registered = server.waitFor('register', undefined, 30_000)
  daemon = startDaemon(['daemon', '--config', configPath, '--log-level', 'info'])
  await registered
})

afterAll(async () => {
  await browser?.close()
  const stopped = await daemon?.stop('SIGTERM')
  await server?.close()
  await seeder?.stop()
  await tracker?.stop()
  await nginx?.stop()
  await fixtures?.cleanup()
  if (root !== '') await rm(root, { recursive: true, force: true })
  // The daemon ends every ffmpeg it started and exits 0 on SIGTERM.
  if (daemon) expect(stopped).toEqual({ code: 0, signal: null })
})

/** A page with its console watched and a screenshot kept when the running test fails. */
async function openPage(name: string): Promise<{ page: Page; console: ConsoleEntry[] }> {
  const page = await browser.context.newPage()
  const console = watchConsole(page)
  onTestFailed(async () => {
    const path = await saveScreenshot(page, `player-${name}`).catch((error: Error) => `(no screenshot: ${error.message})`)
    process.stderr.write(`screenshot of the failed page: ${path}\nplayer: ${JSON.stringify(await playerState(page).catch(() => null))}\nconsole: ${JSON.stringify(console)}\n`)
  })
  return { page, console }
}

// Page code runs as expressions through the DevTools protocol (which the page's CSP does not
// govern, unlike Playwright's waitForFunction, which needs eval); this project compiles without DOM types.
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate<T>(expression)
const playerState = (page: Page) => inPage<PlayerState>(page, 'window.maPlayer')
const video = 'document.querySelector("video")'

/** The index page, a session started through its "Play a file" form, then the player page it opens. */
async function startFromForm(page: Page, source: string, method: 'hls' | 'direct', quality: string): Promise<void> {
  await page.goto(playerPageUrl(server.url, accessToken))
  await page.fill('#play-form input[name=source]', source)
  await page.selectOption('#play-form select[name=method]', method)
  await page.selectOption('#play-form select[name=quality]', quality)
  await page.click('#play-form button[type=submit]')
  await page.waitForURL(/\/play\/[^/]+$/)
}

async function waitInPage(page: Page, what: string, expression: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await inPage<boolean>(page, `Boolean(${expression})`))) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; player state ${JSON.stringify(await playerState(page))}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** How many distinct colours a 64x36 copy of the current frame has: a test pattern has dozens, black has one. */
const frameColours = (page: Page) => inPage<number>(page, `(() => {
  const canvas = document.createElement('canvas')
  canvas.width = 64
  canvas.height = 36
  const context = canvas.getContext('2d')
  context.drawImage(${video}, 0, 0, canvas.width, canvas.height)
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data
  const colours = new Set()
  for (let index = 0; index < pixels.length; index += 4) colours.add(((pixels[index] >> 4) << 8) | ((pixels[index + 1] >> 4) << 4) | (pixels[index + 2] >> 4))
  return colours.size
})()`)

/** What every case checks once the player page is open on a session. */
async function expectItPlays(page: Page, console: ConsoleEntry[], expected: { width: number; height: number; probeUrlPart: string }): Promise<PlayerState> {
  await waitInPage(page, 'the first frame was not rendered', 'window.maPlayer && window.maPlayer.firstFrameAtMs !== null', 60_000)
  const size = await inPage<number[]>(page, `[${video}.videoWidth, ${video}.videoHeight]`)
  expect(size).toEqual([expected.width, expected.height])
  expect(await frameColours(page)).toBeGreaterThan(8)
  await expect.poll(() => page.textContent('#quality')).toContain(`${expected.width}×${expected.height}`)

  const start = await inPage<number>(page, `${video}.currentTime`)
  await waitInPage(page, `playback did not advance 4 s from ${start}`, `!${video}.paused && ${video}.currentTime >= ${start + 4}`, 40_000)

  const middle = await inPage<number>(page, `Math.floor(${video}.duration / 2)`)
  expect(middle).toBeGreaterThanOrEqual(8)
  await inPage(page, `window.maPlayer.seek(${middle})`)
  await waitInPage(page, `playback did not go on after the seek to ${middle} s`, `!${video}.paused && !${video}.seeking && ${video}.currentTime >= ${middle + 1}`, 40_000)
  expect(await frameColours(page)).toBeGreaterThan(8)

  const state = await playerState(page)
  expect(state.fatalErrors).toEqual([])
  expect(state.errors.filter((error) => error.fatal)).toEqual([])
  expect(state.phase).toBe('playing')
  // Readiness HEAD probes answer 404 until the session is ready; Chromium logs each as an error.
  // So does the page's early request for init.mp4 or seg-0, when the agent held it longer than
  // its bounded wait (10 s) because the first segment took longer (the page then asks again).
  const expected404 = (url: string) => url.includes(expected.probeUrlPart) || (expected.probeUrlPart === '/master.m3u8' && /\/(?:init\.mp4|seg-0\.m4s)$/.test(url))
  const unexpected = console.filter((entry) => (entry.type === 'error' || entry.type === 'pageerror') && !(/\b404\b/.test(entry.text) && expected404(entry.url)))
  expect(unexpected).toEqual([])
  return state
}

const sessionIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!)

describe('the player page plays what the agent serves, in a real browser', () => {
  it('direct play of a 1080p mp4 shows its picture at 1920x1080, plays on and seeks', async () => {
    const { page, console } = await openPage('direct')
    await startFromForm(page, sources.p1080, 'direct', 'original')
    const state = await expectItPlays(page, console, { width: 1920, height: 1080, probeUrlPart: '/stream/' })
    // Direct play is ready within ms, so the agent's sync may report it before its session-ready
    // call lands: the page then probes once, by design. Either way the server learnt readiness.
    expect(['sse', 'already', 'probe']).toContain(state.readyVia)
    expect(server.session(sessionIdOf(page))?.readyAt).not.toBeNull()
    await page.close()
  })

  it('HLS 720p of a 1080p file plays at 1280x720, learning readiness from the server-sent event', async () => {
    const { page, console } = await openPage('hls-720p')
    // The agent's HLS traffic in the order the browser saw it: `GET <name>` asked, `200 <name>` answered.
    const traffic: string[] = []
    const nameOf = (url: string) => new URL(url).pathname.split('/').pop()!
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/hls/')) traffic.push(`GET ${nameOf(request.url())}`)
    })
    page.on('response', (response) => {
      if (response.request().method() === 'GET' && response.url().includes('/hls/')) traffic.push(`${response.status()} ${nameOf(response.url())}`)
    })
    await startFromForm(page, sources.p1080, 'hls', '720p')
    const state = await expectItPlays(page, console, { width: 1280, height: 720, probeUrlPart: '/master.m3u8' })
    expect(['sse', 'already']).toContain(state.readyVia)
    // The page asks for init.mp4 and seg-0 while the agent transcodes, and for the playlists the
    // moment it learns readiness: all four before master.m3u8 has arrived (hls.js alone asks for
    // each only after the one before has arrived); hls.js takes those answers instead of asking
    // again (docs/hls.md "Browser benchmark").
    const masterArrived = traffic.indexOf('200 master.m3u8')
    expect(masterArrived, traffic.join(', ')).toBeGreaterThan(0)
    for (const name of ['master.m3u8', 'index.m3u8', 'init.mp4', 'seg-0.m4s']) {
      expect(traffic.filter((entry) => entry === `GET ${name}`), `${name} in ${traffic.join(', ')}`).toHaveLength(1)
      expect(traffic.indexOf(`GET ${name}`), `${name} asked before master.m3u8 arrived: ${traffic.join(', ')}`).toBeLessThan(masterArrived)
    }
    await expect.poll(() => page.textContent('#agent-state')).toBe('ready')
    await page.close()
  })

  it('HLS original of a 960x540 file plays at 960x540', async () => {
    const { page, console } = await openPage('hls-original')
    await startFromForm(page, sources.p540, 'hls', 'original')
    await expectItPlays(page, console, { width: 960, height: 540, probeUrlPart: '/master.m3u8' })
    await page.close()
  })

  it('HLS from a URL source plays at 854x480, and without a ready notice the page finds readiness by HEAD probes', async () => {
    // The agent's one session-ready call fails (it is not retried, contract 3), so the server
    // never sets ready_at and the SSE stays silent: only the fallback probes can start playback.
    server.faults.failNext['/api/internal/agent/session-ready'] = 1
    const { page, console } = await openPage('hls-url')
    await startFromForm(page, `${nginx.url}/h264-540p-20s.mp4`, 'hls', '480p')
    const state = await expectItPlays(page, console, { width: 854, height: 480, probeUrlPart: '/master.m3u8' })
    expect(state.readyVia).toBe('probe')
    expect(state.probes).toBeGreaterThan(0)
    expect(server.session(sessionIdOf(page))?.readyAt).toBeNull()
    expect(server.session(sessionIdOf(page))?.session.DirectURL).toBe(`${nginx.url}/h264-540p-20s.mp4`)
    await page.close()
  })

  it('moves between the list and sessions within one page: hls.js loads once, a session left stops, back and forward play again', async () => {
    const { page, console } = await openPage('in-page')
    // Every request the page makes to the agent for a session's media, by session id, with the
    // wall time the browser started it (the devtools event's own, not when it reached this
    // process: a loaded host may deliver it late).
    const mediaRequests: { sessionId: string; at: number }[] = []
    const devtools = await page.context().newCDPSession(page)
    devtools.on('Network.requestWillBeSent', (event) => {
      const match = /\/(?:hls|stream)\/([^/]+)\//.exec(new URL(event.request.url).pathname)
      if (match) mediaRequests.push({ sessionId: decodeURIComponent(match[1]!), at: event.wallTime * 1000 })
    })
    await devtools.send('Network.enable')
    const firstFrame = () => waitInPage(page, 'the first frame was not rendered', 'window.maPlayer && window.maPlayer.firstFrameAtMs !== null', 60_000)
    const viewShown = async () => inPage<string>(page, `document.getElementById('index-view').hidden ? 'play' : 'index'`)

    await startFromForm(page, sources.p540, 'hls', '480p')
    // Marks this document: a page load anywhere below would lose it.
    await inPage(page, 'window.loadedOnce = true')
    const first = sessionIdOf(page)
    await firstFrame()
    expect(await viewShown()).toBe('play')

    // Back to the list by its link: the session's player stops asking the agent for anything.
    await page.click('.crumbs a')
    await page.waitForURL((url) => url.pathname === '/')
    expect(await viewShown()).toBe('index')
    const leftAt = Date.now()
    expect(await inPage<string | null>(page, `document.querySelector('video').getAttribute('src')`)).toBeNull()
    // hls.js keeps a 12 s buffer ahead of a 20 s clip whose segments the agent writes every
    // ~0.3 s: a player still running asks for one within this window.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(mediaRequests.some((entry) => entry.sessionId === first), 'the first session was seen at all').toBe(true)
    expect(mediaRequests.filter((entry) => entry.sessionId === first && entry.at > leftAt + 100)).toEqual([])

    // A second session from the list's form: direct play, in the same page.
    await page.fill('#play-form input[name=source]', sources.p1080)
    await page.selectOption('#play-form select[name=method]', 'direct')
    await page.click('#play-form button[type=submit]')
    await page.waitForURL(/\/play\/[^/]+$/)
    const second = sessionIdOf(page)
    expect(second).not.toBe(first)
    await firstFrame()
    expect(await inPage<number[]>(page, `[${video}.videoWidth, ${video}.videoHeight]`)).toEqual([1920, 1080])

    // The browser's back button: the list, then the first session, which plays again.
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    expect(await viewShown()).toBe('index')
    const backAt = Date.now()
    await page.goBack()
    await page.waitForURL((url) => url.pathname === `/play/${encodeURIComponent(first)}`)
    await firstFrame()
    // A player opened anew on the first session (ready already, so it may show a frame within
    // ms of the navigation), not the state left from its first opening seconds before.
    const again = await playerState(page)
    expect(again.readyVia).toBe('already')
    expect(again.firstFrameAtMs!).toBeGreaterThan(backAt - 50)
    expect(await inPage<number[]>(page, `[${video}.videoWidth, ${video}.videoHeight]`)).toEqual([854, 480])
    // And forward again to the list.
    await page.goForward()
    await page.waitForURL((url) => url.pathname === '/')

    expect(await inPage<boolean>(page, 'window.loadedOnce === true')).toBe(true)
    expect(await inPage<number>(page, `performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/player/hls.min.js')).length`)).toBe(1)
    const unexpected = console.filter((entry) => (entry.type === 'error' || entry.type === 'pageerror') && !/\b404\b/.test(entry.text))
    expect(unexpected).toEqual([])
    await page.close()
  })

  it('a torrent queued on the page and played while still downloading plays as HLS at 640x360', async () => {
    const seedDir = join(root, 'seed')
    await mkdir(seedDir, { recursive: true })
    const content = join(seedDir, 'clip.mp4')
    await copyFile(sources.p360, content)
    const { size } = await stat(content)
    tracker = await startOpentracker()
    const torrentPath = join(root, 'clip.torrent')
    await mktorrent(content, torrentPath, tracker.announceUrl, 15)
    const infoHash = (await parseTorrent(await readFile(torrentPath))).infoHash
    await tracker.allow([infoHash])
    // About 15 s for the whole file: still downloading when playback starts.
    seeder = await startAria2({ torrentPath, dir: seedDir, mode: 'seed', args: [`--max-upload-limit=${Math.max(48, Math.ceil(size / 1024 / 15))}K`] })
    await tracker.waitForSeeders(infoHash, 1)

    const { page, console } = await openPage('torrent')
    await page.goto(playerPageUrl(server.url, accessToken))
    const downloading = server.waitFor('sync', (record: SyncRecord) => record.request.tasks.some((task) => task.infoHash === infoHash && task.state === 'downloading' && task.files.length === 1 && task.files[0]!.progress < 0.5), 60_000)
    await page.fill('#task-form input[name=source]', `magnet:?xt=urn:btih:${infoHash}&tr=${encodeURIComponent(tracker.announceUrl)}`)
    await page.click('#task-form button[type=submit]')
    await downloading
    await page.selectOption('#play-form select[name=method]', 'hls')
    await page.selectOption('#play-form select[name=quality]', '480p')
    await page.click('#tasks button[data-path$="clip.mp4"]', { timeout: 10_000 })
    await page.waitForURL(/\/play\/[^/]+$/)
    const filePath = server.session(sessionIdOf(page))!.session.filePath!
    const progressAtStart = server.lastSync()!.request.tasks.find((task) => task.infoHash === infoHash)!.files[0]!.progress
    expect(progressAtStart).toBeLessThan(1)
    expect(filePath).toBe(join(root, 'downloads', 'clip.mp4'))
    await expectItPlays(page, console, { width: 640, height: 360, probeUrlPart: '/master.m3u8' })
    await page.close()
  })
})
