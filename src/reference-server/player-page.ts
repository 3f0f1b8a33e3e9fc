// The player page (issue 17, protocol.md 4): `GET /` lists sessions and tasks with forms to start
// a session or queue a magnet, `GET /play/<sessionId>` plays one session. Both are served on this
// server's own origin, so the page reads the player readiness SSE without CORS. Both addresses
// serve one static document holding both views: the browser script (assets/player/app.js) shows
// the one its address names and moves between them in the page (history.pushState), so a session
// started from the list plays without a page load and hls.js is loaded once, not per session. It
// asks `/api/reference/*` for data with the account's access token, which it takes from the URL
// fragment the banner prints (`#token=...`, never sent to a server) and keeps in localStorage.
// hls.js comes from the npm package, not a CDN.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { playerAssetMaxAgeSeconds, playerHeadProbeBudgetMs, playerHeadProbeIntervalMs, playerReadyGraceMs, playerStatusPollMs } from '../config/defaults.js'
import { ReferenceServerError } from '../errors.js'
import { HttpError } from './http.js'

interface Asset {
  body: Buffer
  contentType: string
  etag: string
  /** Seconds a browser may keep it; 0 = revalidate every time (the pages and our own script). */
  maxAgeSeconds: number
}

const playPattern = /^\/play\/[^/]+$/

/** What the browser script needs to know; the page carries it as JSON (no inline script, strict CSP). */
export const playerPageSettings = {
  readyGraceMs: playerReadyGraceMs,
  headProbeBudgetMs: playerHeadProbeBudgetMs,
  headProbeIntervalMs: playerHeadProbeIntervalMs,
  statusPollMs: playerStatusPollMs,
} as const

// hls.js runs its transmuxer in a worker made from a blob URL; media comes from the agent's
// origin (any host: LAN address, funnel URL), so connect-src and media-src stay open.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  'connect-src *',
  'media-src * blob:',
  'worker-src blob:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

function asset(body: Buffer | string, contentType: string, maxAgeSeconds: number): Asset {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`
  return { body: bytes, contentType, etag, maxAgeSeconds }
}

/** The document for either address: both views, the one `kind` names shown (no flash of the other). */
function pageHtml(kind: 'index' | 'play'): string {
  const views = `${indexMain.replace('@HIDDEN@', kind === 'index' ? '' : ' hidden')}\n${playMain.replace('@HIDDEN@', kind === 'play' ? '' : ' hidden')}`
  // `<` cannot appear in the JSON (numbers only), so the script block cannot be closed early.
  const settings = JSON.stringify(playerPageSettings)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${kind === 'index' ? 'media-agent' : 'media-agent player'}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/player/style.css">
<script type="application/json" id="ma-settings">${settings}</script>
<script src="/player/app.js" defer></script>
</head>
<body data-page="${kind}">
<header class="top"><a class="brand" href="/">media-agent</a><span class="subtitle">reference server</span></header>
${views}
<form id="token-form" class="card token" hidden>
  <p>This page needs the server's access token (printed by <code>npm start</code> and <code>media-agent reference-server</code>).</p>
  <label>Access token <input name="token" type="password" autocomplete="off" required></label>
  <button type="submit">Use it</button>
</form>
</body>
</html>
`
}

const indexMain = `<main class="index" id="index-view"@HIDDEN@>
<section class="card">
  <h2>Play a file</h2>
  <form id="play-form" class="row">
    <input name="source" placeholder="/path/to/movie.mp4 or https://… (a direct link)" required spellcheck="false">
    <select name="method" aria-label="play method"><option value="hls">HLS (transcoded)</option><option value="direct">Direct play</option></select>
    <select name="quality" aria-label="quality"><option>original</option><option>2160p</option><option>1440p</option><option>1080p</option><option selected>720p</option><option>480p</option></select>
    <button type="submit">Play</button>
  </form>
  <p class="error" id="play-error" hidden></p>
</section>
<section class="card">
  <h2>Download a torrent</h2>
  <form id="task-form" class="row">
    <input name="source" placeholder="magnet:?xt=urn:btih:… , a .torrent URL or an info hash" required spellcheck="false">
    <button type="submit">Queue</button>
  </form>
  <p class="error" id="task-error" hidden></p>
</section>
<section class="card">
  <h2>Sessions</h2>
  <table id="sessions"><thead><tr><th>Session</th><th>Source</th><th>Method</th><th>Agent</th><th></th></tr></thead><tbody></tbody></table>
  <p class="empty" id="sessions-empty">No stream session yet.</p>
</section>
<section class="card">
  <h2>Tasks</h2>
  <table id="tasks"><thead><tr><th>Task</th><th>State</th><th>Progress</th><th>Files</th></tr></thead><tbody></tbody></table>
  <p class="empty" id="tasks-empty">No download queued.</p>
</section>
<p class="agent-line" id="agent-line"></p>
</main>`

const playMain = `<main class="play" id="play-view"@HIDDEN@>
<p class="crumbs"><a href="/">← Sessions</a><span id="title"></span></p>
<div class="stage">
  <video id="video" playsinline preload="auto"></video>
  <div class="overlay" id="overlay"><div class="spinner"></div><p id="overlay-text">Loading…</p></div>
</div>
<div class="bar">
  <button id="toggle" type="button" disabled aria-label="play or pause">Play</button>
  <span class="time" id="time">0:00</span>
  <input id="seek" type="range" min="0" max="0" step="0.1" value="0" disabled aria-label="seek">
  <span class="time" id="duration">0:00</span>
  <button id="mute" type="button" aria-label="mute or unmute">Unmute</button>
</div>
<dl class="facts">
  <div><dt>Quality</dt><dd id="quality">…</dd></div>
  <div><dt>Readiness</dt><dd id="readiness">waiting for the agent</dd></div>
  <div><dt>Agent reports</dt><dd id="agent-state">…</dd></div>
  <div><dt>Source</dt><dd id="source">…</dd></div>
</dl>
<p class="error" id="player-error" hidden></p>
</main>`

function assetsDir(): string {
  // src/reference-server and dist/reference-server are both two levels below the package root.
  return fileURLToPath(new URL('../../assets/player/', import.meta.url))
}

function loadAssets(): Map<string, Asset> {
  const dir = assetsDir()
  const assets = new Map<string, Asset>()
  assets.set('/', asset(pageHtml('index'), 'text/html; charset=utf-8', 0))
  assets.set('/play', asset(pageHtml('play'), 'text/html; charset=utf-8', 0))
  assets.set('/player/app.js', asset(readFileSync(`${dir}app.js`), 'text/javascript; charset=utf-8', 0))
  assets.set('/player/style.css', asset(readFileSync(`${dir}style.css`), 'text/css; charset=utf-8', 0))
  let hlsPath: string
  try {
    hlsPath = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js')
  } catch (error) {
    throw new ReferenceServerError(`the player page needs the npm package hls.js (npm install): ${(error as Error).message}`)
  }
  assets.set('/player/hls.min.js', asset(readFileSync(hlsPath), 'text/javascript; charset=utf-8', playerAssetMaxAgeSeconds))
  return assets
}

let cached: Map<string, Asset> | undefined

/** Loaded once per process on the first request (the files do not change while it runs). */
function assets(): Map<string, Asset> {
  cached ??= loadAssets()
  return cached
}

/** True when `path` is one of the page's routes (so the router sends it here). */
export function isPlayerPagePath(path: string): boolean {
  return path === '/' || playPattern.test(path) || path.startsWith('/player/')
}

export function handlePlayerPage(req: IncomingMessage, res: ServerResponse, url: URL): void {
  const method = req.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, 'method_not_allowed', 'the player page takes GET')
  const key = playPattern.test(url.pathname) ? '/play' : url.pathname
  const found = assets().get(key)
  if (!found) throw new HttpError(404, 'not_found', `no route ${method} ${url.pathname}`)
  const headers: Record<string, string | number> = {
    'content-type': found.contentType,
    'content-length': found.body.length,
    etag: found.etag,
    'cache-control': found.maxAgeSeconds > 0 ? `public, max-age=${found.maxAgeSeconds}` : 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
  if (found.contentType.startsWith('text/html')) headers['content-security-policy'] = contentSecurityPolicy
  if (req.headers['if-none-match'] === found.etag) {
    delete headers['content-length']
    res.writeHead(304, headers)
    res.end()
    return
  }
  res.writeHead(200, headers)
  res.end(method === 'HEAD' ? undefined : found.body)
}

/** The page's address with the access token in the fragment, which browsers never send to a server. */
export function playerPageUrl(serverUrl: string, accessToken: string): string {
  return `${serverUrl}/#token=${encodeURIComponent(accessToken)}`
}
