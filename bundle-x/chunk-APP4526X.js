import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  HttpError,
  agentHeaders,
  apiPaths,
  handlePlayerPage,
  isPlayerPagePath,
  isRecord,
  mintStreamToken,
  readJsonBody,
  readRawBody,
  responseFinished,
  sendEmpty,
  sendError,
  sendJson,
  sendText,
  vpnConfigErrorStatus
} from "./chunk-POMXLGRL.js";
import {
  silentLogger
} from "./chunk-ZEVYCYFL.js";
import {
  minAgentVersionFloor,
  referenceFaultStatus,
  referenceMaxBodyBytes,
  referenceServerHost,
  referenceStreamTokenTtlSeconds,
  referenceWaitForTimeoutMs,
  serverHeartbeatMs
} from "./chunk-4XQBZWSZ.js";
import {
  ReferenceServerError
} from "./chunk-7UR2AQZP.js";

// dist/reference-server/server.js
import { randomBytes as randomBytes3, randomUUID as randomUUID2 } from "node:crypto";
import { createServer } from "node:http";
import { basename } from "node:path";

// dist/reference-server/emitter.js
import { EventEmitter } from "node:events";
var TypedEmitter = class {
  #emitter = new EventEmitter();
  constructor() {
    this.#emitter.setMaxListeners(0);
  }
  on(name, listener) {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }
  once(name, listener) {
    this.#emitter.once(name, listener);
    return () => this.#emitter.off(name, listener);
  }
  emit(name, payload) {
    this.#emitter.emit(name, payload);
  }
  /** Resolves with the next `name` event for which `predicate` holds; rejects after `timeoutMs`. */
  waitFor(name, predicate = () => true, timeoutMs = referenceWaitForTimeoutMs) {
    return new Promise((resolve, reject) => {
      const listener = (payload) => {
        let matched = false;
        try {
          matched = predicate(payload);
        } catch (err) {
          cleanup();
          reject(err);
          return;
        }
        if (!matched)
          return;
        cleanup();
        resolve(payload);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new ReferenceServerError(`no matching '${name}' event within ${timeoutMs} ms`, { details: { event: name, timeoutMs } }));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#emitter.off(name, listener);
      };
      this.#emitter.on(name, listener);
    });
  }
};

// dist/reference-server/sse.js
function sseHeaders(accelBufferingHeader) {
  const headers = {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive"
  };
  if (accelBufferingHeader)
    headers["x-accel-buffering"] = "no";
  return headers;
}
function eventFrame(event, data) {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `event: ${event}
${text.split("\n").map((line) => `data: ${line}`).join("\n")}

`;
}
function commentFrame(text) {
  return `: ${text}

`;
}
function writeFrame(res, frame) {
  if (res.writableEnded || res.destroyed)
    return false;
  res.write(frame);
  return true;
}
function dropConnection(res) {
  const socket = res.socket;
  if (!socket || socket.destroyed)
    return;
  socket.end(() => socket.destroy());
}

// dist/reference-server/events-sse.js
var DownlinkStreams = class {
  options;
  #clients = /* @__PURE__ */ new Map();
  #nextId = 1;
  constructor(options) {
    this.options = options;
  }
  /** Open streams that receive frames (stalled ones excluded). */
  get count() {
    let n = 0;
    for (const client of this.#clients.values())
      if (!client.stalled)
        n += 1;
    return n;
  }
  open(req, res) {
    const { faults } = this.options;
    const stalled = faults.sseStall;
    const dropAfterMs = faults.sseDropAfterMs;
    const client = { id: this.#nextId++, res, stalled, timers: [] };
    this.#clients.set(client.id, client);
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    res.on("close", () => this.#forget(client));
    res.writeHead(200, sseHeaders(this.options.accelBufferingHeader && !faults.omitAccelBufferingHeader));
    res.flushHeaders();
    this.options.onOpen({ id: client.id, stalled, dropAfterMs });
    if (dropAfterMs === 0) {
      dropConnection(res);
      return;
    }
    if (dropAfterMs !== null && dropAfterMs > 0)
      client.timers.push(setTimeout(() => dropConnection(res), dropAfterMs));
    if (stalled)
      return;
    writeFrame(res, eventFrame("ping", {}));
    client.timers.push(setInterval(() => writeFrame(res, commentFrame("ping")), this.options.heartbeatMs));
  }
  sendCommand(control) {
    return this.#broadcast(eventFrame("command", control));
  }
  sendSync(reason) {
    return this.#broadcast(eventFrame("sync", { reason }));
  }
  /** Graceful end (server close): the terminating chunk is sent. */
  endAll() {
    return [...this.#clients.values()].map((client) => {
      this.#forget(client);
      if (!client.res.writableEnded)
        client.res.end();
      return responseFinished(client.res);
    });
  }
  /** Abrupt end (restart): sockets are destroyed. */
  destroyAll() {
    for (const client of [...this.#clients.values()]) {
      this.#forget(client);
      client.res.socket?.destroy();
    }
  }
  #broadcast(frame) {
    let sent = 0;
    for (const client of this.#clients.values()) {
      if (client.stalled)
        continue;
      if (writeFrame(client.res, frame))
        sent += 1;
    }
    return sent;
  }
  #forget(client) {
    if (!this.#clients.delete(client.id))
      return;
    for (const timer of client.timers)
      clearTimeout(timer);
    this.options.log.debug({ id: client.id }, "downlink stream closed");
    this.options.onClose({ id: client.id });
  }
};

// dist/reference-server/faults.js
function createFaults(initial = {}) {
  return {
    delayMs: 0,
    sseDropAfterMs: null,
    sseStall: false,
    omitAccelBufferingHeader: false,
    failNext: {},
    failStatus: referenceFaultStatus,
    unauthorizedCount: 0,
    unauthorizedUntilMs: 0,
    ...initial
  };
}
function clearFaults(faults) {
  Object.assign(faults, createFaults());
}
function takeInjectedFailure(faults, path) {
  const remaining = faults.failNext[path] ?? 0;
  if (remaining <= 0)
    return void 0;
  if (remaining === 1)
    delete faults.failNext[path];
  else
    faults.failNext[path] = remaining - 1;
  return faults.failStatus;
}
function takeInjectedUnauthorized(faults, nowMs) {
  if (faults.unauthorizedCount > 0) {
    faults.unauthorizedCount -= 1;
    return true;
  }
  return nowMs < faults.unauthorizedUntilMs;
}

// dist/reference-server/player-events.js
var PlayerStreams = class {
  heartbeatMs;
  onOpen;
  #subscribers = /* @__PURE__ */ new Set();
  constructor(heartbeatMs, onOpen) {
    this.heartbeatMs = heartbeatMs;
    this.onOpen = onOpen;
  }
  open(req, res, record) {
    req.socket.setTimeout(0);
    const subscriber = {
      sessionId: record.session.sessionId,
      res,
      heartbeat: setInterval(() => writeFrame(res, commentFrame("ping")), this.heartbeatMs)
    };
    this.#subscribers.add(subscriber);
    res.on("close", () => this.#forget(subscriber));
    res.writeHead(200, sseHeaders(true));
    writeFrame(res, commentFrame("connected"));
    if (record.readyAt !== null)
      writeFrame(res, eventFrame("ready", readyEvent(record)));
    this.onOpen({ sessionId: subscriber.sessionId });
  }
  ready(record) {
    for (const subscriber of this.#subscribers) {
      if (subscriber.sessionId === record.session.sessionId)
        writeFrame(subscriber.res, eventFrame("ready", readyEvent(record)));
    }
  }
  sessionRemoved(sessionId) {
    for (const subscriber of [...this.#subscribers]) {
      if (subscriber.sessionId !== sessionId)
        continue;
      this.#forget(subscriber);
      subscriber.res.end();
    }
  }
  endAll() {
    return [...this.#subscribers].map((subscriber) => {
      this.#forget(subscriber);
      if (!subscriber.res.writableEnded)
        subscriber.res.end();
      return responseFinished(subscriber.res);
    });
  }
  destroyAll() {
    for (const subscriber of [...this.#subscribers]) {
      this.#forget(subscriber);
      subscriber.res.socket?.destroy();
    }
  }
  #forget(subscriber) {
    clearInterval(subscriber.heartbeat);
    this.#subscribers.delete(subscriber);
  }
};
function readyEvent(record) {
  return { sessionId: record.session.sessionId, readyAt: record.readyAt ?? "" };
}

// dist/reference-server/router.js
import { setTimeout as delay } from "node:timers/promises";

// dist/reference-server/agent-routes.js
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

// dist/reference-server/context.js
function requestMeta(req) {
  const version = req.headers["x-agent-version"];
  return {
    agentVersion: Array.isArray(version) ? version[0] : version,
    userAgent: req.headers["user-agent"]
  };
}

// dist/reference-server/validate.js
function kindOf(value) {
  if (Array.isArray(value))
    return "array";
  if (value === null)
    return "other";
  const type = typeof value;
  return type === "string" || type === "boolean" || type === "number" || type === "object" ? type : "other";
}
function check(body2, what, required, optional = {}) {
  for (const [key, kind] of Object.entries(required)) {
    if (kindOf(body2[key]) !== kind)
      throw new HttpError(400, "bad_request", `${what}: ${key} must be a ${kind}${key === "VPNActive" ? " (always sent, never omitted)" : ""}`);
  }
  for (const [key, kind] of Object.entries(optional)) {
    if (body2[key] !== void 0 && kindOf(body2[key]) !== kind)
      throw new HttpError(400, "bad_request", `${what}: ${key} must be a ${kind} when present`);
  }
}
function object(body2, what) {
  if (!isRecord(body2))
    throw new HttpError(400, "bad_request", `${what}: a JSON object is expected`);
  return body2;
}
function nonEmptyAgentId(body2, what) {
  if (typeof body2.agentId !== "string" || body2.agentId.trim() === "")
    throw new HttpError(400, "bad_request", `${what}: agentId must be a non-empty string`);
}
function parseRegisterRequest(body2) {
  const value = object(body2, "register");
  nonEmptyAgentId(value, "register");
  check(value, "register", { version: "string", VPNActive: "boolean" }, {
    hostname: "string",
    platform: "object",
    streamServer: "object",
    FunnelURL: "string",
    VPNMode: "string",
    VPNExitServer: "string",
    hwAccel: "object"
  });
  if (value.hwAccel !== void 0)
    checkHwAccel(value.hwAccel);
  return value;
}
function checkHwAccel(hwAccel) {
  check(hwAccel, "register: hwAccel", {
    ffmpegVersion: "string",
    ffmpegPath: "string",
    encoders: "array",
    devices: "array",
    drivers: "array",
    chosenEncoder: "string",
    maxTranscodeHeight: "number",
    probeMs: "number",
    candidates: "array"
  }, { error: "string" });
  const strings = (key) => {
    if (!hwAccel[key].every((item) => typeof item === "string"))
      throw new HttpError(400, "bad_request", `register: hwAccel.${key} must hold strings`);
  };
  strings("encoders");
  strings("drivers");
  hwAccel.devices.forEach((device, index) => {
    if (!isRecord(device))
      throw new HttpError(400, "bad_request", `register: hwAccel.devices[${index}] must be an object`);
    check(device, `register: hwAccel.devices[${index}]`, { path: "string", driver: "string" }, { error: "string" });
  });
  hwAccel.candidates.forEach((candidate, index) => {
    if (!isRecord(candidate))
      throw new HttpError(400, "bad_request", `register: hwAccel.candidates[${index}] must be an object`);
    check(candidate, `register: hwAccel.candidates[${index}]`, { encoder: "string", ok: "boolean", ms: "number" }, { error: "string" });
  });
}
function parseSyncRequest(body2) {
  const value = object(body2, "sync");
  nonEmptyAgentId(value, "sync");
  check(value, "sync", { tasks: "array", appliedControls: "array", VPNActive: "boolean" }, {
    version: "string",
    sessions: "array",
    FunnelURL: "string",
    VPNMode: "string",
    VPNExitServer: "string",
    streamServer: "object"
  });
  const tasks = value.tasks;
  tasks.forEach((task, index) => {
    if (!isRecord(task) || typeof task.id !== "string")
      throw new HttpError(400, "bad_request", `sync: tasks[${index}].id must be a string`);
  });
  const applied = value.appliedControls;
  if (!applied.every((id) => typeof id === "string"))
    throw new HttpError(400, "bad_request", "sync: appliedControls must hold strings");
  if (value.sessions === void 0)
    value.sessions = [];
  return value;
}
function parseSessionReady(body2) {
  const value = object(body2, "session-ready");
  if (typeof value.sessionId !== "string" || value.sessionId === "")
    throw new HttpError(400, "bad_request", "session-ready: sessionId must be a non-empty string");
  return value.sessionId;
}
var outcomes = /* @__PURE__ */ new Set(["success", "failure", "noop"]);
function parseUpgradeResult(body2) {
  const value = object(body2, "upgrade-result");
  if (typeof value.outcome !== "string" || !outcomes.has(value.outcome))
    throw new HttpError(400, "bad_request", "upgrade-result: outcome must be success, failure or noop");
  check(value, "upgrade-result", { fromVersion: "string", toVersion: "string" }, { error: "string" });
  return value;
}
function parseLibrarySync(body2) {
  const value = object(body2, "library");
  nonEmptyAgentId(value, "library");
  check(value, "library", { scanId: "string", libraries: "array" }, { mode: "string", baseScanId: "string", part: "number", parts: "number" });
  if (value.mode !== void 0 && value.mode !== "full" && value.mode !== "delta")
    throw new HttpError(400, "bad_request", 'library: mode must be "full" or "delta"');
  if (value.mode === "delta" && typeof value.baseScanId !== "string")
    throw new HttpError(400, "bad_request", "library: a delta needs baseScanId, the last scan the server acknowledged");
  if (value.part !== void 0 || value.parts !== void 0) {
    const { part, parts } = value;
    if (value.mode === "delta")
      throw new HttpError(400, "bad_request", "library: only a full goes in parts");
    if (!Number.isInteger(part) || !Number.isInteger(parts) || part < 1 || part > parts) {
      throw new HttpError(400, "bad_request", "library: part and parts must be integers with 1 <= part <= parts");
    }
  }
  const absolute = (path) => typeof path === "string" && path.startsWith("/");
  value.libraries.forEach((library, index) => {
    if (!isRecord(library) || !absolute(library.root) || !Array.isArray(library.items)) {
      throw new HttpError(400, "bad_request", `library: libraries[${index}] needs an absolute root and an items array`);
    }
    if (library.removed !== void 0 && (!Array.isArray(library.removed) || !library.removed.every(absolute))) {
      throw new HttpError(400, "bad_request", `library: libraries[${index}].removed must hold absolute paths`);
    }
    library.items.forEach((item, at) => {
      const where = `library: libraries[${index}].items[${at}]`;
      if (!isRecord(item) || !absolute(item.path))
        throw new HttpError(400, "bad_request", `${where}.path must be an absolute path`);
      if (!Number.isInteger(item.mtime))
        throw new HttpError(400, "bad_request", `${where}.mtime must be integer milliseconds since the epoch`);
      if (!Number.isInteger(item.size) || item.size < 0)
        throw new HttpError(400, "bad_request", `${where}.size must be a byte count`);
      if (!Array.isArray(item.audio) || !Array.isArray(item.subtitles))
        throw new HttpError(400, "bad_request", `${where} needs audio and subtitles arrays`);
    });
  });
  return value;
}

// dist/reference-server/sync.js
async function handleRegister(ctx, req, res) {
  const request = parseRegisterRequest(await readJsonBody(req, ctx.maxBodyBytes));
  const record = ctx.state.register(request, requestMeta(req));
  const response = { agentId: request.agentId, signingSecret: ctx.signingSecret, minAgentVersion: ctx.minAgentVersion };
  sendJson(res, 200, response);
  ctx.log.info({ agentId: request.agentId, version: request.version }, "agent registered");
  ctx.events.emit("register", record);
}
async function handleSync(ctx, req, res) {
  const request = parseSyncRequest(await readJsonBody(req, ctx.maxBodyBytes));
  ctx.wake.clearPending();
  const record = ctx.state.sync(request, requestMeta(req));
  sendJson(res, 200, record.response);
  ctx.log.debug({ agentId: request.agentId, actions: record.response.actions.length, controls: record.response.controls.length }, "sync");
  ctx.events.emit("sync", record);
}

// dist/reference-server/agent-routes.js
var gunzipAsync = promisify(gunzip);
async function handleSessionReady(ctx, req, res) {
  const sessionId = parseSessionReady(await readJsonBody(req, ctx.maxBodyBytes));
  const marked = ctx.state.sessions.markReady(sessionId, ctx.state.nowIso());
  if (!marked)
    throw new HttpError(404, "not_found", `no live stream session ${sessionId}`);
  sendEmpty(res, 204);
  if (marked.first)
    ctx.players.ready(marked.record);
  ctx.events.emit("sessionReady", marked);
}
async function handleUpgradeResult(ctx, req, res) {
  const result = parseUpgradeResult(await readJsonBody(req, ctx.maxBodyBytes));
  const record = ctx.state.upgradeResult(result, requestMeta(req));
  sendEmpty(res, 204);
  ctx.log.info({ outcome: result.outcome, from: result.fromVersion, to: result.toVersion }, "upgrade result");
  ctx.events.emit("upgradeResult", record);
}
function handleVpnConfig(ctx, req, res, url) {
  const agentId = url.searchParams.get("agent_id");
  if (!agentId)
    throw new HttpError(400, "bad_request", "vpn-config needs the agent_id query parameter");
  const probe = url.searchParams.get("probe") === "1";
  const result = ctx.state.vpn.fetch(agentId, probe);
  const meta = { at: ctx.state.now(), ...requestMeta(req), agentId, probe };
  if (!result.ok) {
    const status = vpnConfigErrorStatus[result.code];
    const messages = {
      disabled: "the managed VPN is disabled for this account",
      not_provisioned: "the account has no WireGuard key pair yet",
      slot_on_device: "the WireGuard slot is held by another agent; run OpenVPN on that host instead"
    };
    sendError(res, status, result.code, messages[result.code]);
    ctx.events.emit("vpnConfig", { ...meta, status, error: result.code });
    return;
  }
  sendText(res, 200, result.config, { [agentHeaders.vpnExitServer]: result.exitServer });
  ctx.events.emit("vpnConfig", { ...meta, status: 200, error: void 0 });
}
async function handleLibrary(ctx, req, res) {
  const encoding = String(req.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding !== "gzip")
    throw new HttpError(400, "gzip_required", "library uploads are gzip bodies (Content-Encoding: gzip)");
  const raw = await readRawBody(req, ctx.maxBodyBytes);
  let text;
  try {
    text = (await gunzipAsync(raw, { maxOutputLength: ctx.maxBodyBytes })).toString("utf8");
  } catch (err) {
    throw new HttpError(400, "bad_request", `library body is not valid gzip: ${err.message}`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, "bad_request", `library body is not JSON: ${err.message}`);
  }
  const upload = parseLibrarySync(json);
  const record = ctx.state.library(upload, raw.length, requestMeta(req));
  if (record.status === 409) {
    sendError(res, 409, "base_mismatch", `this server does not hold scan ${upload.baseScanId ?? ""}: send a full`);
  } else {
    sendEmpty(res, 204);
  }
  ctx.events.emit("library", record);
}
function route(method, handler) {
  return { method, handler };
}
var agentRoutes = {
  [apiPaths.register]: route("POST", handleRegister),
  [apiPaths.sync]: route("POST", handleSync),
  [apiPaths.events]: route("GET", (ctx, req, res) => ctx.downlink.open(req, res)),
  [apiPaths.wake]: route("GET", (ctx, req, res) => ctx.wake.hold(req, res)),
  [apiPaths.sessionReady]: route("POST", handleSessionReady),
  [apiPaths.upgradeResult]: route("POST", handleUpgradeResult),
  [apiPaths.vpnConfig]: route("GET", handleVpnConfig),
  [apiPaths.library]: route("POST", handleLibrary)
};

// dist/reference-server/auth.js
import { createHash, timingSafeEqual } from "node:crypto";

// dist/reference-server/semver.js
var pattern = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
function parseVersion(text) {
  const match = pattern.exec(text.trim());
  if (!match)
    return void 0;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: match[4] === void 0 ? [] : match[4].split(".")
  };
}
function compareIdentifiers(a, b) {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric)
    return Math.sign(Number(a) - Number(b));
  if (aNumeric)
    return -1;
  if (bNumeric)
    return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
function compareVersions(a, b) {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right)
    return void 0;
  for (let i = 0; i < 3; i += 1) {
    const diff = Math.sign(left.core[i] - right.core[i]);
    if (diff !== 0)
      return diff;
  }
  if (left.prerelease.length === 0 || right.prerelease.length === 0) {
    return Math.sign(right.prerelease.length - left.prerelease.length);
  }
  const length = Math.max(left.prerelease.length, right.prerelease.length);
  for (let i = 0; i < length; i += 1) {
    const l = left.prerelease[i];
    const r = right.prerelease[i];
    if (l === void 0)
      return -1;
    if (r === void 0)
      return 1;
    const diff = compareIdentifiers(l, r);
    if (diff !== 0)
      return diff;
  }
  return 0;
}

// dist/reference-server/auth.js
function digest(text) {
  return createHash("sha256").update(text, "utf8").digest();
}
function bearerMatches(authorization, accessToken) {
  if (typeof authorization !== "string")
    return false;
  const match = /^Bearer[ ]+(.+)$/i.exec(authorization.trim());
  const given = match?.[1]?.trim() ?? "";
  const ok = timingSafeEqual(digest(given), digest(accessToken));
  return ok && given.length > 0;
}
function requestBearerMatches(req, accessToken) {
  return bearerMatches(req.headers.authorization, accessToken);
}
function checkAgentVersion(req, minAgentVersion) {
  const header = req.headers[agentHeaders.version];
  const version = Array.isArray(header) ? header[0] : header;
  if (version === void 0 || version === "")
    return { ok: true, version: void 0 };
  const order = compareVersions(version, minAgentVersion);
  if (order === void 0 || order < 0)
    return { ok: false, version };
  return { ok: true, version };
}

// dist/reference-server/control-routes.js
var controlBodyMaxBytes = 1024 * 1024;
async function body(_server, req) {
  const json = await readJsonBody(req, controlBodyMaxBytes);
  if (!isRecord(json))
    throw new HttpError(400, "bad_request", "a JSON object is expected");
  return json;
}
function optionalString(value, name) {
  if (value === void 0 || value === null)
    return void 0;
  if (typeof value !== "string")
    throw new HttpError(400, "bad_request", `${name} must be a string`);
  return value;
}
function agentFilter(url) {
  return url.searchParams.get("agentId") ?? void 0;
}
function snapshot(server) {
  return {
    url: server.url,
    minAgentVersion: server.minAgentVersion,
    watching: server.watching,
    upgradeRequested: server.upgradeRequested,
    upgrade: server.state.upgradeOffer,
    vpn: { enabled: server.vpnState().settings.enabled, provisioned: server.vpnState().settings.provisioned, exitServer: server.vpnState().settings.exitServer, holder: server.vpnState().holder },
    connections: server.connections(),
    pendingWake: server.pendingWake,
    agents: [.../* @__PURE__ */ new Set([...server.registrations().map((r) => r.agentId), ...server.syncHistory().map((r) => r.agentId)])],
    sessions: server.sessions(),
    tasks: server.tasks(),
    controls: server.controls(),
    lastSync: server.lastSync()
  };
}
async function handleControlRoute(server, req, res, url) {
  const method = req.method ?? "GET";
  const parts = url.pathname.replace(/^\/api\/reference\/?/, "").split("/").filter(Boolean).map((part) => decodeURIComponent(part));
  const [resource, id, sub] = parts;
  const key = `${method} ${resource ?? ""}${id === void 0 ? "" : "/:id"}${sub === void 0 ? "" : `/${sub}`}`;
  switch (key) {
    case "GET state":
      return sendJson(res, 200, snapshot(server));
    case "GET sessions":
      return sendJson(res, 200, server.sessions());
    case "GET sessions/:id": {
      const view = server.session(id);
      if (!view)
        throw new HttpError(404, "not_found", `no stream session ${id}`);
      const report = server.lastSync(view.agentId)?.request.sessions.find((entry) => entry.sessionId === view.sessionId);
      return sendJson(res, 200, { ...view, report: report ?? null });
    }
    case "POST sessions":
      return sendJson(res, 201, server.createStreamSession(await body(server, req)));
    case "DELETE sessions/:id":
      if (!server.removeStreamSession(id))
        throw new HttpError(404, "not_found", `no live stream session ${id}`);
      return sendEmpty(res, 204);
    case "GET tasks":
      return sendJson(res, 200, server.tasks());
    case "POST tasks": {
      const input = await body(server, req);
      const source = optionalString(input.source, "source") ?? "";
      const options = {};
      const agentId = optionalString(input.agentId, "agentId");
      const taskId = optionalString(input.taskId, "taskId");
      if (agentId !== void 0)
        options.agentId = agentId;
      if (taskId !== void 0)
        options.taskId = taskId;
      return sendJson(res, 201, { taskId: server.queueTask(source, options) });
    }
    case "DELETE tasks/:id": {
      const options = { deleteFiles: ["1", "true"].includes(url.searchParams.get("deleteFiles") ?? "") };
      const agentId = agentFilter(url);
      if (agentId !== void 0)
        options.agentId = agentId;
      server.deleteTask(id, options);
      return sendEmpty(res, 204);
    }
    case "GET controls":
      return sendJson(res, 200, server.controls());
    case "POST controls": {
      const { agentId, ...control } = await body(server, req);
      const target = optionalString(agentId, "agentId");
      return sendJson(res, 201, server.queueControl(control, target === void 0 ? {} : { agentId: target }));
    }
    case "POST scan": {
      const input = await body(server, req).catch(() => ({}));
      const target = optionalString(input.agentId, "agentId");
      return sendJson(res, 201, server.requestScan({ ...target === void 0 ? {} : { agentId: target }, ...input.full === true ? { full: true } : {} }));
    }
    case "POST upgrade":
      server.requestUpgrade(await body(server, req));
      return sendEmpty(res, 204);
    case "GET upgrade-results":
      return sendJson(res, 200, server.upgradeResults());
    case "GET vpn":
      return sendJson(res, 200, server.vpnState());
    case "PUT vpn":
      server.setVpn(await body(server, req));
      return sendEmpty(res, 204);
    case "DELETE vpn/:id":
      if (id !== "slot")
        break;
      server.releaseVpnSlot();
      return sendEmpty(res, 204);
    case "PUT watching": {
      const input = await body(server, req);
      if (typeof input.watching !== "boolean")
        throw new HttpError(400, "bad_request", "watching must be a boolean");
      server.setWatching(input.watching);
      return sendEmpty(res, 204);
    }
    case "POST wake": {
      const input = await body(server, req).catch(() => ({}));
      server.raiseWake(optionalString(input.reason, "reason") ?? "manual");
      return sendEmpty(res, 204);
    }
    case "GET syncs":
      return sendJson(res, 200, server.syncHistory(agentFilter(url)));
    case "GET registrations":
      return sendJson(res, 200, server.registrations(agentFilter(url)));
    case "GET library":
      return sendJson(res, 200, server.libraryUploads(agentFilter(url)));
    case "GET library/:id":
      if (id !== "held")
        break;
      return sendJson(res, 200, server.library(agentFilter(url)) ?? null);
    case "DELETE library":
      server.forgetLibrary(agentFilter(url));
      return sendEmpty(res, 204);
    case "GET faults":
      return sendJson(res, 200, server.faults);
    case "PUT faults": {
      const input = await body(server, req);
      Object.assign(server.faults, input);
      return sendJson(res, 200, server.faults);
    }
    case "DELETE faults":
      clearFaults(server.faults);
      return sendEmpty(res, 204);
    case "POST tokens": {
      const input = await body(server, req);
      const scope = optionalString(input.scope, "scope");
      if (!scope)
        throw new HttpError(400, "bad_request", "scope is required");
      const ttl = typeof input.ttlSeconds === "number" ? input.ttlSeconds : void 0;
      return sendJson(res, 201, { token: server.mintToken(scope, ttl) });
    }
    default:
      break;
  }
  throw new HttpError(404, "not_found", `no control route ${method} ${url.pathname}`);
}

// dist/reference-server/tokens.js
import { createHash as createHash2, randomBytes, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
function mintToken(secret, scope, ttlSeconds, nowSeconds) {
  return mintStreamToken({ secret, scope, expiresAtSeconds: Math.floor(nowSeconds) + Math.floor(ttlSeconds) });
}
var scopes = {
  stream: (sessionId) => `stream:${sessionId}`,
  hls: (sessionId) => `hls:${sessionId}`,
  /** protocol.md 2: lowercase hex sha256 of the `path` query value exactly as requested. */
  thumbnail: (path) => `thumb:${createHash2("sha256").update(path, "utf8").digest("hex")}`
};
function mintSessionTokens(secret, sessionId, ttlSeconds, nowSeconds) {
  const expiresAtSeconds = Math.floor(nowSeconds) + Math.floor(ttlSeconds);
  return {
    streamToken: mintStreamToken({ secret, scope: scopes.stream(sessionId), expiresAtSeconds }),
    hlsToken: mintStreamToken({ secret, scope: scopes.hls(sessionId), expiresAtSeconds }),
    playerToken: randomBytes(24).toString("base64url"),
    expiresAtSeconds
  };
}
function playerTokenMatches(given, expected) {
  if (given === null)
    return false;
  const a = createHash2("sha256").update(given, "utf8").digest();
  const b = createHash2("sha256").update(expected, "utf8").digest();
  return timingSafeEqual2(a, b);
}
function sessionPaths(sessionId, fileName, tokens) {
  const id = encodeURIComponent(sessionId);
  return {
    stream: `/stream/${id}/${encodeURIComponent(fileName)}?token=${encodeURIComponent(tokens.streamToken)}`,
    hls: `/hls/${id}/${encodeURIComponent(tokens.hlsToken)}/master.m3u8`,
    playerEvents: `/api/stream-sessions/${id}/events?token=${encodeURIComponent(tokens.playerToken)}`
  };
}
function thumbnailPath(path, seconds, token, width) {
  const query = new URLSearchParams({ path, t: String(seconds) });
  if (width !== void 0)
    query.set("w", String(width));
  query.set("token", token);
  return `/thumbnail?${query.toString()}`;
}

// dist/reference-server/router.js
var agentPrefix = "/api/internal/agent/";
var playerEventsPattern = /^\/api\/stream-sessions\/([^/]+)\/events$/;
async function routeRequest(deps, req, res) {
  const url = new URL(req.url ?? "/", "http://reference.invalid");
  const path = url.pathname;
  const method = req.method ?? "GET";
  res.once("close", () => deps.events.emit("request", { method, path, status: res.headersSent ? res.statusCode : 0 }));
  try {
    if (path.startsWith(agentPrefix))
      await handleAgent(deps, req, res, url);
    else if (playerEventsPattern.test(path))
      handlePlayer(deps, req, res, url);
    else if (path.startsWith("/api/reference/") || path === "/api/reference") {
      if (!requestBearerMatches(req, deps.server.accessToken))
        throw new HttpError(401, "unauthorized", "missing or wrong Bearer access token");
      await handleControlRoute(deps.server, req, res, url);
    } else if (isPlayerPagePath(path))
      handlePlayerPage(req, res, url);
    else
      throw new HttpError(404, "not_found", `no route ${method} ${path}`);
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError)
      sendError(res, err.status, err.code, err.message, err.extra);
    else if (err instanceof ReferenceServerError)
      sendError(res, 400, "bad_request", err.message);
    else {
      deps.log.error({ err, path }, "reference server handler failed");
      sendError(res, 500, "internal", err.message ?? String(err));
    }
  }
}
async function handleAgent(deps, req, res, url) {
  const path = url.pathname;
  if (deps.faults.delayMs > 0)
    await delay(deps.faults.delayMs);
  const injected = takeInjectedFailure(deps.faults, path);
  if (injected !== void 0)
    throw new HttpError(injected, "injected_fault", `fault injected by the reference server on ${path}`);
  if (takeInjectedUnauthorized(deps.faults, deps.server.state.now()))
    throw new HttpError(401, "unauthorized", "access token rejected (injected fault)");
  if (!requestBearerMatches(req, deps.server.accessToken))
    throw new HttpError(401, "unauthorized", "missing or wrong Bearer access token");
  const version = checkAgentVersion(req, deps.server.minAgentVersion);
  if (!version.ok) {
    throw new HttpError(426, "upgrade_required", `agent version ${version.version} is below the minimum ${deps.server.minAgentVersion}`, { minAgentVersion: deps.server.minAgentVersion });
  }
  const route2 = agentRoutes[path];
  if (!route2)
    throw new HttpError(404, "not_found", `no agent route ${path}`);
  if (req.method !== route2.method)
    throw new HttpError(405, "method_not_allowed", `${path} takes ${route2.method}`);
  await route2.handler(deps.ctx, req, res, url);
}
function handlePlayer(deps, req, res, url) {
  if (req.method !== "GET")
    throw new HttpError(405, "method_not_allowed", "player events take GET");
  const match = playerEventsPattern.exec(url.pathname);
  let sessionId;
  try {
    sessionId = decodeURIComponent(match?.[1] ?? "");
  } catch {
    throw new HttpError(404, "not_found", "no such stream session");
  }
  const record = deps.server.state.sessions.live(sessionId);
  const authorised = record !== void 0 && (playerTokenMatches(url.searchParams.get("token"), record.tokens.playerToken) || requestBearerMatches(req, deps.server.accessToken));
  if (!record || !authorised)
    throw new HttpError(404, "not_found", "no such stream session");
  deps.ctx.players.open(req, res, record);
}

// dist/reference-server/state.js
import { randomUUID } from "node:crypto";

// dist/reference-server/controls.js
var ControlQueue = class {
  newId;
  now;
  #records = /* @__PURE__ */ new Map();
  constructor(newId, now) {
    this.newId = newId;
    this.now = now;
  }
  queue(input, agentId) {
    const control = { ...input, id: input.id ?? this.newId() };
    const record = { control, agentId, queuedAt: this.now(), deliveries: 0, appliedAt: void 0 };
    this.#records.set(control.id, record);
    return record;
  }
  acknowledge(agentId, appliedIds) {
    for (const id of appliedIds) {
      const record = this.#records.get(id);
      if (!record || record.appliedAt !== void 0)
        continue;
      if (record.agentId !== void 0 && record.agentId !== agentId)
        continue;
      record.agentId = agentId;
      record.appliedAt = this.now();
    }
  }
  controlsFor(agentId) {
    const controls = [];
    for (const record of this.#records.values()) {
      if (record.appliedAt !== void 0)
        continue;
      if (record.agentId !== void 0 && record.agentId !== agentId)
        continue;
      record.agentId = agentId;
      record.deliveries += 1;
      controls.push(record.control);
    }
    return controls;
  }
  get(id) {
    return this.#records.get(id);
  }
  list() {
    return [...this.#records.values()];
  }
};

// dist/reference-server/library.js
var LibraryHoldings = class {
  #agents = /* @__PURE__ */ new Map();
  #agent(agentId) {
    let agent = this.#agents.get(agentId);
    if (!agent) {
      agent = { scanId: void 0, roots: /* @__PURE__ */ new Map(), assembling: void 0 };
      this.#agents.set(agentId, agent);
    }
    return agent;
  }
  apply(upload) {
    const agent = this.#agent(upload.agentId);
    if (upload.mode === "delta") {
      if (agent.scanId === void 0 || agent.scanId !== upload.baseScanId)
        return { ok: false, error: "base_mismatch", held: agent.scanId };
      for (const library of upload.libraries) {
        const items = agent.roots.get(library.root) ?? /* @__PURE__ */ new Map();
        for (const path of library.removed ?? [])
          items.delete(path);
        for (const item of library.items)
          items.set(item.path, item);
        if (items.size === 0)
          agent.roots.delete(library.root);
        else
          agent.roots.set(library.root, items);
      }
      agent.scanId = upload.scanId;
      return { ok: true, complete: true };
    }
    const parts = upload.parts ?? 1;
    if (parts === 1) {
      agent.roots = rootsOf(upload.libraries);
      agent.scanId = upload.scanId;
      agent.assembling = void 0;
      return { ok: true, complete: true };
    }
    if (agent.assembling?.scanId !== upload.scanId || agent.assembling.parts !== parts) {
      agent.assembling = { scanId: upload.scanId, parts, received: /* @__PURE__ */ new Map() };
    }
    agent.assembling.received.set(upload.part ?? 1, upload.libraries);
    if (agent.assembling.received.size < parts)
      return { ok: true, complete: false };
    const all = [...agent.assembling.received.entries()].sort(([a], [b]) => a - b).flatMap(([, libraries]) => libraries);
    agent.roots = rootsOf(all);
    agent.scanId = upload.scanId;
    agent.assembling = void 0;
    return { ok: true, complete: true };
  }
  held(agentId) {
    const agent = this.#agents.get(agentId);
    if (!agent)
      return void 0;
    return { scanId: agent.scanId, libraries: [...agent.roots].map(([root, items]) => ({ root, items: [...items.values()] })) };
  }
  /** The server loses what it held for one agent (or every agent): the next delta gets base_mismatch. */
  forget(agentId) {
    if (agentId === void 0)
      this.#agents.clear();
    else
      this.#agents.delete(agentId);
  }
};
function rootsOf(libraries) {
  const roots = /* @__PURE__ */ new Map();
  for (const library of libraries) {
    const items = roots.get(library.root) ?? /* @__PURE__ */ new Map();
    for (const item of library.items)
      items.set(item.path, item);
    roots.set(library.root, items);
  }
  for (const [root, items] of roots)
    if (items.size === 0)
      roots.delete(root);
  return roots;
}

// dist/reference-server/sessions.js
var SessionStore = class {
  #records = /* @__PURE__ */ new Map();
  add(session, agentId, tokens, nowIso) {
    const record = { session, agentId, createdAt: nowIso, readyAt: null, removedAt: null, tokens };
    this.#records.set(session.sessionId, record);
    return record;
  }
  has(sessionId) {
    return this.#records.has(sessionId);
  }
  get(sessionId) {
    return this.#records.get(sessionId);
  }
  /** Live sessions only. */
  live(sessionId) {
    const record = this.#records.get(sessionId);
    return record && record.removedAt === null ? record : void 0;
  }
  remove(sessionId, nowIso) {
    const record = this.live(sessionId);
    if (record)
      record.removedAt = nowIso;
    return record;
  }
  /** Sessions for one sync response; binds unbound live sessions to this agent. */
  listFor(agentId) {
    const sessions = [];
    for (const record of this.#records.values()) {
      if (record.removedAt !== null)
        continue;
      if (record.agentId !== void 0 && record.agentId !== agentId)
        continue;
      record.agentId = agentId;
      sessions.push(record.session);
    }
    return sessions;
  }
  /** Returns the record and whether this call set `ready_at`; undefined for an unknown or removed session. */
  markReady(sessionId, nowIso) {
    const record = this.live(sessionId);
    if (!record)
      return void 0;
    if (record.readyAt !== null)
      return { record, first: false };
    record.readyAt = nowIso;
    return { record, first: true };
  }
  list() {
    return [...this.#records.values()];
  }
};

// dist/reference-server/tasks.js
var TaskQueue = class {
  newId;
  now;
  #records = /* @__PURE__ */ new Map();
  constructor(newId, now) {
    this.newId = newId;
    this.now = now;
  }
  queue(source, agentId, taskId = this.newId()) {
    const record = { taskId, source, agentId, queuedAt: this.now(), add: "pending", addDeliveries: 0, delete: void 0 };
    this.#records.set(taskId, record);
    return record;
  }
  /** Returns whether a delete_task will be delivered (false when a pending add was only withdrawn). */
  delete(taskId, options = {}) {
    let record = this.#records.get(taskId);
    if (!record) {
      record = { taskId, source: "", agentId: options.agentId, queuedAt: this.now(), add: "none", addDeliveries: 0, delete: void 0 };
      this.#records.set(taskId, record);
    }
    if (record.add === "pending") {
      record.add = "withdrawn";
      if (record.addDeliveries === 0)
        return false;
    }
    record.agentId ??= options.agentId;
    record.delete = { deleteFiles: options.deleteFiles ?? false, queuedAt: this.now(), deliveries: 0, acknowledged: false };
    return true;
  }
  /** Applies what a sync from `agentId` reports, before its response is built. */
  acknowledge(agentId, listedTaskIds) {
    for (const record of this.#records.values()) {
      if (record.agentId !== void 0 && record.agentId !== agentId)
        continue;
      if (record.add === "pending" && listedTaskIds.has(record.taskId)) {
        record.add = "acknowledged";
        record.agentId = agentId;
      }
      const pendingDelete = record.delete;
      if (pendingDelete && !pendingDelete.acknowledged && pendingDelete.deliveries > 0 && record.agentId === agentId && !listedTaskIds.has(record.taskId)) {
        pendingDelete.acknowledged = true;
      }
    }
  }
  /** The actions for one sync response; counts the delivery and binds unbound actions. */
  actionsFor(agentId) {
    const actions = [];
    for (const record of this.#records.values()) {
      if (record.agentId !== void 0 && record.agentId !== agentId)
        continue;
      if (record.add === "pending") {
        record.agentId = agentId;
        record.addDeliveries += 1;
        actions.push({ type: "add_task", taskId: record.taskId, source: record.source });
      }
      if (record.delete && !record.delete.acknowledged) {
        record.agentId = agentId;
        record.delete.deliveries += 1;
        actions.push({ type: "delete_task", taskId: record.taskId, deleteFiles: record.delete.deleteFiles });
      }
    }
    return actions;
  }
  get(taskId) {
    return this.#records.get(taskId);
  }
  list() {
    return [...this.#records.values()];
  }
};

// dist/reference-server/wg-config.js
import { randomBytes as randomBytes2 } from "node:crypto";
function placeholderWireGuardFields() {
  return {
    privateKey: randomBytes2(32).toString("base64"),
    address: "10.64.0.2/32",
    dns: "10.64.0.1",
    mtu: 1420,
    peerPublicKey: randomBytes2(32).toString("base64"),
    endpoint: "127.0.0.1:51820",
    allowedIPs: "0.0.0.0/0, ::/0",
    persistentKeepalive: 25
  };
}
function renderWireGuardConfig(fields) {
  const lines = [
    "[Interface]",
    `PrivateKey = ${fields.privateKey}`,
    `Address = ${fields.address}`,
    `DNS = ${fields.dns}`,
    `MTU = ${fields.mtu}`,
    "",
    "[Peer]",
    `PublicKey = ${fields.peerPublicKey}`
  ];
  if (fields.presharedKey)
    lines.push(`PresharedKey = ${fields.presharedKey}`);
  lines.push(`Endpoint = ${fields.endpoint}`, `AllowedIPs = ${fields.allowedIPs}`);
  if (fields.persistentKeepalive !== void 0)
    lines.push(`PersistentKeepalive = ${fields.persistentKeepalive}`);
  return `${lines.join("\n")}
`;
}

// dist/reference-server/vpn-slot.js
function defaultVpnSettings() {
  return { enabled: false, provisioned: false, config: void 0, fields: placeholderWireGuardFields(), exitServer: "ref-exit-1" };
}
var VpnSlot = class {
  settings;
  #holder;
  constructor(settings = {}) {
    this.settings = { ...defaultVpnSettings(), ...settings };
  }
  get holder() {
    return this.#holder;
  }
  update(patch) {
    this.settings = { ...this.settings, ...patch, fields: { ...this.settings.fields, ...patch.fields } };
  }
  fetch(agentId, probe) {
    if (!this.settings.enabled)
      return { ok: false, code: "disabled" };
    if (!this.settings.provisioned)
      return { ok: false, code: "not_provisioned" };
    let claimed = false;
    if (!probe) {
      if (this.#holder !== void 0 && this.#holder !== agentId)
        return { ok: false, code: "slot_on_device", holder: this.#holder };
      claimed = this.#holder === void 0;
      this.#holder = agentId;
    }
    const config = this.settings.config ?? renderWireGuardConfig(this.settings.fields);
    return { ok: true, config, exitServer: this.settings.exitServer, claimed };
  }
  /** A sync's VPN state; returns true when it freed the slot. */
  reportActive(agentId, active) {
    if (active || this.#holder !== agentId)
      return false;
    this.#holder = void 0;
    return true;
  }
  release() {
    this.#holder = void 0;
  }
};

// dist/reference-server/state.js
var ReferenceState = class {
  now;
  tasks;
  controls;
  sessions = new SessionStore();
  vpn;
  watching;
  upgradeRequested = false;
  upgradeOffer;
  registrations = [];
  syncs = [];
  upgradeResults = [];
  libraryUploads = [];
  /** What each agent's library is as far as this server knows (protocol.md 7.6). */
  libraries = new LibraryHoldings();
  constructor(options) {
    this.now = options.now;
    const newId = options.newId ?? randomUUID;
    this.tasks = new TaskQueue(newId, this.now);
    this.controls = new ControlQueue(newId, this.now);
    this.vpn = new VpnSlot(options.vpn);
    this.watching = options.watching ?? false;
  }
  nowIso() {
    return new Date(this.now()).toISOString();
  }
  register(request, meta) {
    const record = { at: this.now(), ...meta, agentId: request.agentId, request };
    this.registrations.push(record);
    return record;
  }
  sync(request, meta) {
    const agentId = request.agentId;
    this.tasks.acknowledge(agentId, new Set(request.tasks.map((task) => task.id)));
    this.controls.acknowledge(agentId, request.appliedControls);
    this.vpn.reportActive(agentId, request.VPNActive);
    const response = {
      watching: this.watching,
      streamSessions: this.sessions.listFor(agentId),
      actions: this.tasks.actionsFor(agentId),
      controls: this.controls.controlsFor(agentId),
      upgradeRequested: this.upgradeRequested
    };
    if (this.upgradeRequested && this.upgradeOffer)
      response.upgrade = this.upgradeOffer;
    const record = { at: this.now(), ...meta, agentId, request, response };
    this.syncs.push(record);
    return record;
  }
  requestUpgrade(offer) {
    this.upgradeRequested = true;
    this.upgradeOffer = offer;
  }
  /** Any outcome clears the flag (contract 3), so the agent does not loop. */
  upgradeResult(result, meta) {
    this.upgradeRequested = false;
    this.upgradeOffer = void 0;
    const record = { at: this.now(), ...meta, result };
    this.upgradeResults.push(record);
    return record;
  }
  /** Applies a LibrarySync; a delta on a base the server does not hold is recorded with status 409. */
  library(upload, compressedBytes, meta) {
    const result = this.libraries.apply(upload);
    const record = { at: this.now(), ...meta, agentId: upload.agentId, upload, compressedBytes, status: result.ok ? 204 : 409 };
    this.libraryUploads.push(record);
    return record;
  }
  queueControl(input, agentId) {
    return this.controls.queue(input, agentId);
  }
  /** The agent most recently heard from (register or sync), if any. */
  latestAgentId() {
    const lastSync = this.syncs.at(-1);
    const lastRegister = this.registrations.at(-1);
    if (!lastSync)
      return lastRegister?.agentId;
    if (!lastRegister)
      return lastSync.agentId;
    return lastSync.at >= lastRegister.at ? lastSync.agentId : lastRegister.agentId;
  }
  /**
   * The base URL players should use for an agent: its public tunnel URL when reported (the web
   * prefers it, contract 1.11), else its stream server's public URL.
   */
  agentBaseUrl(agentId) {
    const id = agentId ?? this.latestAgentId();
    if (id === void 0)
      return void 0;
    const sync = this.syncs.findLast((record) => record.agentId === id);
    const register = this.registrations.findLast((record) => record.agentId === id);
    const latest = sync && (!register || sync.at >= register.at) ? sync.request : register?.request;
    if (!latest)
      return void 0;
    if (latest.FunnelURL)
      return latest.FunnelURL.replace(/\/+$/, "");
    return latest.streamServer?.publicUrl ? latest.streamServer.publicUrl.replace(/\/+$/, "") : void 0;
  }
};

// dist/reference-server/wake.js
var WakeHolds = class {
  options;
  #holders = /* @__PURE__ */ new Map();
  #nextId = 1;
  #pending;
  constructor(options) {
    this.options = options;
  }
  get count() {
    return this.#holders.size;
  }
  get pending() {
    return this.#pending;
  }
  hold(req, res) {
    const holder = { id: this.#nextId++, res };
    if (this.#pending !== void 0) {
      const reason = this.#pending;
      this.#pending = void 0;
      sendJson(res, 200, { reason });
      this.options.onRelease({ id: holder.id, status: 200, reason });
      return;
    }
    req.socket.setTimeout(0);
    this.#holders.set(holder.id, holder);
    res.on("close", () => {
      if (this.#holders.delete(holder.id))
        this.options.onRelease({ id: holder.id, status: 0, reason: void 0 });
    });
    this.options.onHold({ id: holder.id });
  }
  /** Answers every held request; returns how many were answered (0 leaves the wake pending). */
  raise(reason) {
    const holders = [...this.#holders.values()];
    if (holders.length === 0) {
      this.#pending = reason;
      return 0;
    }
    for (const holder of holders) {
      this.#holders.delete(holder.id);
      sendJson(holder.res, 200, { reason });
      this.options.onRelease({ id: holder.id, status: 200, reason });
    }
    return holders.length;
  }
  clearPending() {
    this.#pending = void 0;
  }
  /** Server close: every hold ends with 204. */
  endAll() {
    return [...this.#holders.values()].map((holder) => {
      this.#holders.delete(holder.id);
      sendEmpty(holder.res, 204);
      this.options.onRelease({ id: holder.id, status: 204, reason: void 0 });
      return responseFinished(holder.res);
    });
  }
  /** Restart: held sockets are cut. */
  destroyAll() {
    for (const holder of [...this.#holders.values()]) {
      this.#holders.delete(holder.id);
      holder.res.socket?.destroy();
      this.options.onRelease({ id: holder.id, status: 0, reason: void 0 });
    }
  }
};

// dist/reference-server/server.js
var ReferenceServer = class {
  accessToken;
  signingSecret;
  minAgentVersion;
  host;
  /** Mutable at runtime: see faults.ts. */
  faults;
  state;
  #events = new TypedEmitter();
  #log;
  #server;
  #ctx;
  #tokenTtlSeconds;
  #agentUrl;
  #port;
  #closed = false;
  constructor(options) {
    if (typeof options.accessToken !== "string" || options.accessToken === "")
      throw new ReferenceServerError("accessToken must be a non-empty string");
    this.accessToken = options.accessToken;
    this.signingSecret = options.signingSecret ?? randomBytes3(32).toString("base64url");
    this.minAgentVersion = options.minAgentVersion ?? minAgentVersionFloor;
    this.host = options.host ?? referenceServerHost;
    this.#port = options.port ?? 0;
    this.faults = createFaults(options.faults);
    this.#log = (options.logger ?? silentLogger()).child({ component: "reference-server" });
    this.#tokenTtlSeconds = options.tokenTtlSeconds ?? referenceStreamTokenTtlSeconds;
    this.#agentUrl = options.agentUrl?.replace(/\/+$/, "");
    const stateOptions = { now: options.now ?? Date.now };
    if (options.watching !== void 0)
      stateOptions.watching = options.watching;
    if (options.vpn !== void 0)
      stateOptions.vpn = options.vpn;
    this.state = new ReferenceState(stateOptions);
    const heartbeatMs = options.heartbeatMs ?? serverHeartbeatMs;
    const events = this.#events;
    this.#ctx = {
      state: this.state,
      events,
      wake: new WakeHolds({ onHold: (info) => events.emit("wakeHold", info), onRelease: (info) => events.emit("wakeRelease", info) }),
      downlink: new DownlinkStreams({
        heartbeatMs,
        accelBufferingHeader: options.accelBufferingHeader ?? true,
        faults: this.faults,
        log: this.#log,
        onOpen: (info) => events.emit("sseOpen", info),
        onClose: (info) => events.emit("sseClose", info)
      }),
      players: new PlayerStreams(heartbeatMs, (info) => events.emit("playerOpen", info)),
      signingSecret: this.signingSecret,
      minAgentVersion: this.minAgentVersion,
      maxBodyBytes: options.maxBodyBytes ?? referenceMaxBodyBytes,
      log: this.#log,
      notify: (reason) => this.#notify(reason)
    };
    const routerDeps = { server: this, ctx: this.#ctx, faults: this.faults, events, log: this.#log };
    this.#server = createServer((req, res) => void routeRequest(routerDeps, req, res));
    this.#server.requestTimeout = 0;
  }
  get port() {
    return this.#port;
  }
  get url() {
    const host = this.host.includes(":") ? `[${this.host}]` : this.host;
    return `http://${host}:${this.#port}`;
  }
  /** Starts listening; createReferenceServer calls it. */
  async listen() {
    await new Promise((resolve, reject) => {
      const onError = (err) => reject(err);
      this.#server.once("error", onError);
      this.#server.listen(this.#port, this.host, () => {
        this.#server.off("error", onError);
        this.#port = this.#server.address().port;
        resolve();
      });
    });
    this.#log.info({ url: this.url }, "reference server listening");
  }
  /** Wake holds end with 204, SSE streams end, then the listener closes. Idempotent. */
  async close() {
    if (this.#closed)
      return;
    this.#closed = true;
    const closed = new Promise((resolve) => this.#server.close(() => resolve()));
    const ending = [...this.#ctx.wake.endAll(), ...this.#ctx.downlink.endAll(), ...this.#ctx.players.endAll()];
    await Promise.all(ending);
    this.#server.closeAllConnections();
    await closed;
  }
  /** Cuts every connection (a server crash as the agent sees it) and listens again on the same port. */
  async restart() {
    if (this.#closed)
      throw new ReferenceServerError("restart() after close()");
    this.#ctx.wake.destroyAll();
    this.#ctx.downlink.destroyAll();
    this.#ctx.players.destroyAll();
    const closed = new Promise((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
    await this.listen();
  }
  // ---- events -------------------------------------------------------------------------------
  on(name, listener) {
    return this.#events.on(name, listener);
  }
  /** The next `name` event (future only) matching `predicate`; register before causing it. */
  waitFor(name, predicate, timeoutMs) {
    return this.#events.waitFor(name, predicate, timeoutMs);
  }
  // ---- control API ---------------------------------------------------------------------------
  createStreamSession(input) {
    const sessionId = input.sessionId ?? randomUUID2();
    if (this.state.sessions.has(sessionId))
      throw new ReferenceServerError(`stream session ${sessionId} already exists`);
    if (!input.filePath && !input.DirectURL)
      throw new ReferenceServerError("a stream session needs filePath or DirectURL");
    for (const key of ["sessionId", "agentId", "filePath", "DirectURL", "PlayMethod", "quality", "cacheId"]) {
      if (input[key] !== void 0 && typeof input[key] !== "string")
        throw new ReferenceServerError(`stream session: ${key} must be a string`);
    }
    for (const key of ["audioIndex", "subtitleIndex", "startSeconds"]) {
      if (input[key] !== void 0 && typeof input[key] !== "number")
        throw new ReferenceServerError(`stream session: ${key} must be a number`);
    }
    const session = { sessionId, PlayMethod: input.PlayMethod ?? "hls", quality: input.quality ?? "original" };
    for (const key of ["filePath", "DirectURL", "cacheId", "audioIndex", "subtitleIndex", "startSeconds"]) {
      if (input[key] !== void 0)
        session[key] = input[key];
    }
    const tokens = mintSessionTokens(this.signingSecret, sessionId, this.#tokenTtlSeconds, this.state.now() / 1e3);
    const record = this.state.sessions.add(session, input.agentId, tokens, this.state.nowIso());
    this.#notify("session_created");
    return this.#view(record);
  }
  /** Stops listing the session (the agent stops it); false when no live session has that id. */
  removeStreamSession(sessionId) {
    const record = this.state.sessions.remove(sessionId, this.state.nowIso());
    if (!record)
      return false;
    this.#ctx.players.sessionRemoved(sessionId);
    this.#notify("session_removed");
    return true;
  }
  queueTask(source, options = {}) {
    if (typeof source !== "string" || source.trim() === "")
      throw new ReferenceServerError("a task needs a source (magnet URI, .torrent URL or info hash)");
    if (options.taskId !== void 0 && this.state.tasks.get(options.taskId))
      throw new ReferenceServerError(`task ${options.taskId} already exists`);
    const record = this.state.tasks.queue(source, options.agentId, options.taskId);
    this.#notify("task_queued");
    return record.taskId;
  }
  deleteTask(taskId, options = {}) {
    if (this.state.tasks.delete(taskId, options))
      this.#notify("task_deleted");
  }
  /** Queues a typed control (an id is generated when absent) and sends it as an SSE `command`. */
  queueControl(input, options = {}) {
    return this.#queueControl(input, options.agentId, "control_queued").control;
  }
  /** A `scan_library` control; `full` asks for a full upload (protocol.md 7.6). */
  requestScan(options = {}) {
    return this.#queueControl({ kind: "scan_library", ...options.full === true ? { full: true } : {} }, options.agentId, "scan_requested").control;
  }
  requestUpgrade(offer) {
    if (!offer || typeof offer.targetVersion !== "string" || typeof offer.artifactUrl !== "string" || typeof offer.sha256 !== "string") {
      throw new ReferenceServerError("an upgrade offer needs targetVersion, artifactUrl and sha256");
    }
    this.state.requestUpgrade({ targetVersion: offer.targetVersion, artifactUrl: offer.artifactUrl, sha256: offer.sha256 });
    this.#notify("upgrade_requested");
  }
  get upgradeRequested() {
    return this.state.upgradeRequested;
  }
  /** VPN settings do not travel in sync, so no wake. The slot holder is kept. */
  setVpn(patch) {
    this.state.vpn.update(patch);
  }
  releaseVpnSlot() {
    this.state.vpn.release();
  }
  vpnState() {
    return { settings: { ...this.state.vpn.settings }, holder: this.state.vpn.holder };
  }
  setWatching(watching) {
    if (this.state.watching === watching)
      return;
    this.state.watching = watching;
    this.#notify("watching_changed");
  }
  get watching() {
    return this.state.watching;
  }
  raiseWake(reason = "manual") {
    this.#notify(reason);
  }
  /** A token of the protocol.md 2 format for any scope, signed with this server's secret. */
  mintToken(scope, ttlSeconds = this.#tokenTtlSeconds) {
    return mintToken(this.signingSecret, scope, ttlSeconds, this.state.now() / 1e3);
  }
  /** Path (and URL, when the agent's address is known) of a thumbnail request with its token. */
  thumbnailUrl(path, seconds, options = {}) {
    const relative = thumbnailPath(path, seconds, this.mintToken(scopes.thumbnail(path)), options.width);
    const base = this.#agentBase(options.agentId);
    return { path: relative, url: base === void 0 ? void 0 : `${base}${relative}` };
  }
  // ---- getters -------------------------------------------------------------------------------
  registrations(agentId) {
    return this.state.registrations.filter((record) => agentId === void 0 || record.agentId === agentId);
  }
  lastRegistration(agentId) {
    return this.registrations(agentId).at(-1);
  }
  syncHistory(agentId) {
    return this.state.syncs.filter((record) => agentId === void 0 || record.agentId === agentId);
  }
  lastSync(agentId) {
    return this.syncHistory(agentId).at(-1);
  }
  upgradeResults() {
    return [...this.state.upgradeResults];
  }
  libraryUploads(agentId) {
    return this.state.libraryUploads.filter((record) => agentId === void 0 || record.agentId === agentId);
  }
  /** The library the server holds for an agent (the latest one heard from by default). */
  library(agentId) {
    const id = agentId ?? this.state.latestAgentId();
    return id === void 0 ? void 0 : this.state.libraries.held(id);
  }
  /** Drops what the server holds (one agent or all): the agent's next delta is answered 409 base_mismatch. */
  forgetLibrary(agentId) {
    this.state.libraries.forget(agentId);
  }
  /** Every session ever created, removed ones included (`removedAt` set). */
  sessions() {
    return this.state.sessions.list().map((record) => this.#view(record));
  }
  session(sessionId) {
    const record = this.state.sessions.get(sessionId);
    return record && this.#view(record);
  }
  tasks() {
    return this.state.tasks.list();
  }
  controls() {
    return this.state.controls.list();
  }
  /** Open agent SSE streams (stalled ones excluded) and held wake requests. */
  connections() {
    return { downlink: this.#ctx.downlink.count, wake: this.#ctx.wake.count };
  }
  /** A wake raised while no request was held, not yet spent by a wake request or a sync. */
  get pendingWake() {
    return this.#ctx.wake.pending;
  }
  // ---- internals ------------------------------------------------------------------------------
  #queueControl(input, agentId, reason) {
    if (!input || typeof input.kind !== "string" || input.kind === "")
      throw new ReferenceServerError("a control needs a kind");
    if (input.id !== void 0 && this.state.controls.get(input.id))
      throw new ReferenceServerError(`control ${input.id} already exists`);
    const record = this.state.queueControl(input, agentId);
    const sseClients = this.#ctx.downlink.sendCommand(record.control);
    this.#events.emit("command", { control: record.control, sseClients });
    this.#notify(reason);
    return record;
  }
  #notify(reason) {
    const holders = this.#ctx.wake.raise(reason);
    const sseClients = this.#ctx.downlink.sendSync(reason);
    this.#log.debug({ reason, holders, sseClients }, "wake");
    this.#events.emit("wake", { reason, holders, sseClients });
  }
  #agentBase(agentId) {
    return this.state.agentBaseUrl(agentId) ?? this.#agentUrl;
  }
  #view(record) {
    const { session } = record;
    const fileName = session.filePath ? basename(session.filePath) : "video.mp4";
    const paths = sessionPaths(session.sessionId, fileName, record.tokens);
    const base = this.#agentBase(record.agentId);
    return {
      ...record,
      sessionId: session.sessionId,
      paths,
      urls: {
        stream: base === void 0 ? void 0 : `${base}${paths.stream}`,
        hls: base === void 0 ? void 0 : `${base}${paths.hls}`,
        playerEvents: `${this.url}${paths.playerEvents}`
      }
    };
  }
};
async function createReferenceServer(options) {
  const server = new ReferenceServer(options);
  await server.listen();
  return server;
}

export {
  compareVersions,
  mintToken,
  scopes,
  mintSessionTokens,
  ReferenceServer,
  createReferenceServer
};
