import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  playerAssetMaxAgeSeconds,
  playerHeadProbeBudgetMs,
  playerHeadProbeIntervalMs,
  playerReadyGraceMs,
  playerStatusPollMs,
  streamTokenSkewSeconds
} from "./chunk-4XQBZWSZ.js";
import {
  ReferenceServerError
} from "./chunk-7UR2AQZP.js";

// dist/reference-server/player-page.js
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// dist/reference-server/http.js
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
var gunzipAsync = promisify(gunzip);
var HttpError = class extends Error {
  status;
  code;
  extra;
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
};
async function readRawBody(req, maxBytes) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk;
    size += buffer.length;
    if (size > maxBytes)
      throw new HttpError(413, "too_large", `request body exceeds ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
async function readJsonBody(req, maxBytes) {
  let body = await readRawBody(req, maxBytes);
  const encoding = String(req.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "gzip") {
    try {
      body = await gunzipAsync(body, { maxOutputLength: maxBytes });
    } catch (err) {
      throw new HttpError(400, "bad_request", `body is not valid gzip: ${err.message}`);
    }
  } else if (encoding !== "identity") {
    throw new HttpError(415, "unsupported_encoding", `unsupported Content-Encoding ${encoding}`);
  }
  if (body.length === 0)
    throw new HttpError(400, "bad_request", "empty body, JSON expected");
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new HttpError(400, "bad_request", `body is not JSON: ${err.message}`);
  }
}
function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store", ...headers });
  res.end(text);
}
function sendError(res, status, code, message, extra = {}) {
  const body = { error: code, message, ...extra };
  sendJson(res, status, body);
}
function sendEmpty(res, status = 204) {
  res.writeHead(status, { "cache-control": "no-store" });
  res.end();
}
function sendText(res, status, text, headers = {}) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store", ...headers });
  res.end(text);
}
function responseFinished(res) {
  if (res.writableFinished || res.destroyed)
    return Promise.resolve();
  return new Promise((resolve) => {
    res.once("finish", () => resolve());
    res.once("close", () => resolve());
  });
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// dist/reference-server/player-page.js
var playPattern = /^\/play\/[^/]+$/;
var playerPageSettings = {
  readyGraceMs: playerReadyGraceMs,
  headProbeBudgetMs: playerHeadProbeBudgetMs,
  headProbeIntervalMs: playerHeadProbeIntervalMs,
  statusPollMs: playerStatusPollMs
};
var contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src *",
  "media-src * blob:",
  "worker-src blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ");
function asset(body, contentType, maxAgeSeconds) {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
  return { body: bytes, contentType, etag, maxAgeSeconds };
}
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
function pageHtml(kind, title, main) {
  const settings = JSON.stringify(playerPageSettings);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/player/style.css">
<script type="application/json" id="ma-settings">${settings}</script>
<script src="/player/app.js" defer></script>
</head>
<body data-page="${kind}">
<header class="top"><a class="brand" href="/">media-agent</a><span class="subtitle">reference server</span></header>
${main}
<form id="token-form" class="card token" hidden>
  <p>This page needs the server's access token (printed by <code>npm start</code> and <code>media-agent reference-server</code>).</p>
  <label>Access token <input name="token" type="password" autocomplete="off" required></label>
  <button type="submit">Use it</button>
</form>
</body>
</html>
`;
}
var indexMain = `<main class="index">
<section class="card">
  <h2>Play a file</h2>
  <form id="play-form" class="row">
    <input name="source" placeholder="/path/to/movie.mp4 or https://\u2026 (a direct link)" required spellcheck="false">
    <select name="method" aria-label="play method"><option value="hls">HLS (transcoded)</option><option value="direct">Direct play</option></select>
    <select name="quality" aria-label="quality"><option>original</option><option>2160p</option><option>1440p</option><option>1080p</option><option selected>720p</option><option>480p</option></select>
    <button type="submit">Play</button>
  </form>
  <p class="error" id="play-error" hidden></p>
</section>
<section class="card">
  <h2>Download a torrent</h2>
  <form id="task-form" class="row">
    <input name="source" placeholder="magnet:?xt=urn:btih:\u2026 , a .torrent URL or an info hash" required spellcheck="false">
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
</main>`;
var playMain = `<main class="play">
<p class="crumbs"><a href="/">\u2190 Sessions</a><span id="title"></span></p>
<div class="stage">
  <video id="video" playsinline preload="auto"></video>
  <div class="overlay" id="overlay"><div class="spinner"></div><p id="overlay-text">Loading\u2026</p></div>
</div>
<div class="bar">
  <button id="toggle" type="button" disabled aria-label="play or pause">Play</button>
  <span class="time" id="time">0:00</span>
  <input id="seek" type="range" min="0" max="0" step="0.1" value="0" disabled aria-label="seek">
  <span class="time" id="duration">0:00</span>
  <button id="mute" type="button" aria-label="mute or unmute">Unmute</button>
</div>
<dl class="facts">
  <div><dt>Quality</dt><dd id="quality">\u2026</dd></div>
  <div><dt>Readiness</dt><dd id="readiness">waiting for the agent</dd></div>
  <div><dt>Agent reports</dt><dd id="agent-state">\u2026</dd></div>
  <div><dt>Source</dt><dd id="source">\u2026</dd></div>
</dl>
<p class="error" id="play-error" hidden></p>
</main>`;
function assetsDir() {
  return fileURLToPath(new URL("../../assets/player/", import.meta.url));
}
function loadAssets() {
  const dir = assetsDir();
  const assets2 = /* @__PURE__ */ new Map();
  assets2.set("/", asset(pageHtml("index", "media-agent", indexMain), "text/html; charset=utf-8", 0));
  assets2.set("/play", asset(pageHtml("play", "media-agent player", playMain), "text/html; charset=utf-8", 0));
  assets2.set("/player/app.js", asset(readFileSync(`${dir}app.js`), "text/javascript; charset=utf-8", 0));
  assets2.set("/player/style.css", asset(readFileSync(`${dir}style.css`), "text/css; charset=utf-8", 0));
  let hlsPath;
  try {
    hlsPath = createRequire(import.meta.url).resolve("hls.js/dist/hls.min.js");
  } catch (error) {
    throw new ReferenceServerError(`the player page needs the npm package hls.js (npm install): ${error.message}`);
  }
  assets2.set("/player/hls.min.js", asset(readFileSync(hlsPath), "text/javascript; charset=utf-8", playerAssetMaxAgeSeconds));
  return assets2;
}
var cached;
function assets() {
  cached ??= loadAssets();
  return cached;
}
function isPlayerPagePath(path) {
  return path === "/" || playPattern.test(path) || path.startsWith("/player/");
}
function handlePlayerPage(req, res, url) {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD")
    throw new HttpError(405, "method_not_allowed", "the player page takes GET");
  const key = playPattern.test(url.pathname) ? "/play" : url.pathname;
  const found = assets().get(key);
  if (!found)
    throw new HttpError(404, "not_found", `no route ${method} ${url.pathname}`);
  const headers = {
    "content-type": found.contentType,
    "content-length": found.body.length,
    etag: found.etag,
    "cache-control": found.maxAgeSeconds > 0 ? `public, max-age=${found.maxAgeSeconds}` : "no-cache",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  };
  if (found.contentType.startsWith("text/html"))
    headers["content-security-policy"] = contentSecurityPolicy;
  if (req.headers["if-none-match"] === found.etag) {
    delete headers["content-length"];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, headers);
  res.end(method === "HEAD" ? void 0 : found.body);
}
function playerPageUrl(serverUrl, accessToken) {
  return `${serverUrl}/#token=${encodeURIComponent(accessToken)}`;
}

// dist/protocol/wire.js
var apiPaths = {
  register: "/api/internal/agent/register",
  sync: "/api/internal/agent/sync",
  events: "/api/internal/agent/events",
  wake: "/api/internal/agent/wake",
  sessionReady: "/api/internal/agent/session-ready",
  upgradeResult: "/api/internal/agent/upgrade-result",
  vpnConfig: "/api/internal/agent/vpn-config",
  library: "/api/internal/agent/library",
  /** Player-facing readiness stream of the reference server (protocol.md 4). */
  playerSessionEvents: (sessionId) => `/api/stream-sessions/${encodeURIComponent(sessionId)}/events`
};
var agentHeaders = {
  version: "x-agent-version",
  vpnExitServer: "x-vpn-exit-server"
};
var vpnConfigErrorStatus = {
  disabled: 403,
  not_provisioned: 412,
  slot_on_device: 409
};

// dist/services/auth/stream-token.js
import { createHmac, timingSafeEqual } from "node:crypto";
var version = "v1";
var canonicalExpiry = /^(0|[1-9][0-9]{0,14})$/;
var signaturePattern = /^[A-Za-z0-9_-]{43}$/;
function signStreamToken(secret, expiry, scope) {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${version}.${expiry}.${scope}`, "utf8").digest("base64url");
}
function parseStreamToken(token) {
  if (typeof token !== "string")
    return void 0;
  const parts = token.split(".");
  if (parts.length !== 3)
    return void 0;
  const [prefix, expiry, signature] = parts;
  if (prefix !== version || !canonicalExpiry.test(expiry) || !signaturePattern.test(signature))
    return void 0;
  return { expiry, signature };
}
function signaturesEqual(expected, given) {
  const givenBytes = Buffer.from(given, "utf8");
  return expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes);
}
function streamTokenUnexpired(expiry, nowSeconds, skewSeconds = streamTokenSkewSeconds) {
  return Number(expiry) + skewSeconds >= nowSeconds;
}
function mintStreamToken({ secret, scope, expiresAtSeconds }) {
  if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds < 0) {
    throw new RangeError(`expiresAtSeconds must be a non-negative integer, got ${String(expiresAtSeconds)}`);
  }
  const expiry = String(expiresAtSeconds);
  return `${version}.${expiry}.${signStreamToken(secret, expiry, scope)}`;
}

export {
  apiPaths,
  agentHeaders,
  vpnConfigErrorStatus,
  signStreamToken,
  parseStreamToken,
  signaturesEqual,
  streamTokenUnexpired,
  mintStreamToken,
  HttpError,
  readRawBody,
  readJsonBody,
  sendJson,
  sendError,
  sendEmpty,
  sendText,
  responseFinished,
  isRecord,
  isPlayerPagePath,
  handlePlayerPage,
  playerPageUrl
};
