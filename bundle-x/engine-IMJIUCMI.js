import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  hlsTranscodeMachine
} from "./chunk-TPZOLGKQ.js";
import {
  buildHlsArgs,
  codecsString,
  commonHeaders,
  createDirectorySegmentStore,
  createProbeService,
  isUrlSource,
  masterPlaylist,
  mediaPlaylist,
  planSegments,
  qualityLadder,
  redact,
  sendNotFound,
  subtitlePlaylist
} from "./chunk-ZWVHIBJC.js";
import {
  createActor,
  fromCallback,
  fromPromise
} from "./chunk-OFW74AZP.js";
import {
  startWatchedProcess
} from "./chunk-GPRS7GA6.js";
import {
  ffmpegMaxRestarts,
  hlsReadChunkBytes,
  hlsSeekAheadSegments,
  hlsSeekWarmupFrames,
  hlsSeekWarmupMaxSegments,
  hlsSegmentScanMs,
  hlsSegmentSeconds,
  hlsSegmentWaitMs,
  readinessDeadlineMs,
  readinessPollMs,
  urlSourceRwTimeoutUs
} from "./chunk-4XQBZWSZ.js";
import {
  AgentError,
  ProbeFailedError,
  TranscodeFailedError
} from "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";

// dist/services/hls/engine.js
import { EventEmitter } from "node:events";
import { mkdirSync, watch } from "node:fs";
import { access, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";

// dist/server/routes/hls.js
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
var hlsScope = (sessionId) => `hls:${sessionId}`;
var hlsNamePattern = /^(?:master\.m3u8|index\.m3u8|init\.mp4|seg-(?:0|[1-9]\d{0,8})\.m4s|sub-(?:0|[1-9]\d{0,3})\.(?:m3u8|vtt))$/;
function createHlsRoute(provider) {
  return async (context) => {
    const { req, res, target } = context;
    const [, sessionId, token, name, ...rest] = target.segments;
    if (req.method !== "GET" && req.method !== "HEAD" || rest.length > 0 || sessionId === void 0 || name === void 0) {
      sendNotFound(req, res);
      return;
    }
    if (!context.verifyToken(token, hlsScope(sessionId)) || !hlsNamePattern.test(name)) {
      sendNotFound(req, res);
      return;
    }
    const resource = await provider.resolve(sessionId, name, context.signal);
    if (context.signal.aborted)
      return;
    if (resource === void 0) {
      sendNotFound(req, res);
      return;
    }
    if (resource.kind === "text") {
      const body = Buffer.from(resource.body, "utf8");
      res.writeHead(200, {
        ...commonHeaders,
        "content-type": resource.contentType,
        "content-length": String(body.length),
        "cache-control": "no-cache"
      });
      res.end(req.method === "HEAD" ? void 0 : body);
      return;
    }
    let handle;
    try {
      handle = await open(resource.path, "r");
    } catch {
      sendNotFound(req, res);
      return;
    }
    try {
      const { size } = await handle.stat();
      res.writeHead(200, {
        ...commonHeaders,
        "content-type": resource.contentType,
        "content-length": String(size),
        "cache-control": resource.immutable ? "private, max-age=3600" : "no-cache"
      });
      if (req.method === "HEAD" || size === 0) {
        res.end();
        return;
      }
      provider.served?.(sessionId, name);
      const stream = createReadStream("", { fd: handle, autoClose: false, start: 0, end: size - 1, highWaterMark: hlsReadChunkBytes });
      await pipeline(stream, res, { signal: context.signal }).catch(() => res.destroy());
    } finally {
      await handle.close().catch(() => {
      });
    }
  };
}

// dist/services/encoders/session-encoder.js
function capQuality(quality, sourceHeight, maxHeight) {
  if (maxHeight === void 0 || maxHeight <= 0)
    return quality;
  const within = [...qualityLadder].reverse().find((rung2) => rung2.maxHeight <= maxHeight);
  if (!within)
    return quality;
  const rung = qualityLadder.find((candidate) => candidate.label === quality);
  if (rung)
    return rung.maxHeight > maxHeight ? within.label : quality;
  return sourceHeight > maxHeight ? within.label : quality;
}
function isEncoderFailure(encoder, stderrTail) {
  const own = new RegExp(`\\[${encoder}\\s@`);
  return stderrTail.some((line) => own.test(line) || /Error while opening encoder|Error initializing output stream|Device creation failed|Failed to set value .* for option '(?:vaapi_device|init_hw_device|qsv_device)'|hwupload|\bhw(?:device|frames)\b|nvenc|MFX session|VideoToolbox/i.test(line));
}

// dist/services/hls/engine.js
import { readFile } from "node:fs/promises";
var probedFacts = (probe) => ({
  sourceGeometry: { width: probe.video.width, height: probe.video.height, sampleAspectRatio: probe.video.sampleAspectRatio },
  durationSeconds: probe.durationSeconds,
  audioTracks: probe.audio.length
});
var assumedFacts = (session) => ({
  sourceGeometry: { width: 1920, height: 1080 },
  durationSeconds: 0,
  audioTracks: (session.audioIndex ?? 0) + 1
});
var sameArgs = (a, b) => a.length === b.length && a.every((arg, index) => arg === b[index]);
var segmentName = /^seg-(\d+)\.m4s$/;
function scrubUrls(text) {
  return text.replace(/(https?:\/\/[^\s?#'"]+)\?[^\s'"]*?(?=:?(?:[\s'"]|$))/gim, "$1?\u2026");
}
async function exists(path) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
function createHlsEngine(options) {
  const log = options.logger.child({ component: "hls" });
  const defaultEncoder = options.encoder ?? "libx264";
  const segmentSeconds = options.segmentSeconds ?? hlsSegmentSeconds;
  const store = options.store ?? createDirectorySegmentStore(options.workDir);
  const probeService = options.probe ?? createProbeService({ ffprobePath: options.ffprobePath, logger: log.child({ part: "probe" }), ...options.now ? { now: options.now } : {} });
  const segmentWaitMs = options.segmentWaitMs ?? hlsSegmentWaitMs;
  const seekAhead = options.seekAheadSegments ?? hlsSeekAheadSegments;
  const sessions = /* @__PURE__ */ new Map();
  const seekWarmupFrames = options.seekWarmupFrames ?? hlsSeekWarmupFrames;
  const warmupSegments = (live) => {
    if (seekWarmupFrames <= 0)
      return 0;
    const fps = live.probe?.video.frameRate ?? 30;
    return Math.min(hlsSeekWarmupMaxSegments, Math.max(1, Math.ceil(seekWarmupFrames / (fps * segmentSeconds))));
  };
  const argsFor = (live, startSegment, outputDir, facts = probedFacts(live.probe), source = live.sourceNow()) => {
    const audioIndex = live.session.audioIndex !== void 0 && live.session.audioIndex < facts.audioTracks ? live.session.audioIndex : 0;
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
      segmentSeconds
    });
    if (options.extraInputArgs && options.extraInputArgs.length > 0) {
      const at = built.args.indexOf("-i");
      built.args.splice(at, 0, ...options.extraInputArgs);
    }
    return built;
  };
  const locateSegment = async (live, index) => {
    const runs = [...live.runs.values()].sort((a, b) => b.run - a.run);
    for (const run of runs) {
      if (index < run.keepFrom)
        continue;
      const path = join(run.dir, `seg-${index}.m4s`);
      if (await exists(path))
        return path;
    }
    return void 0;
  };
  const locateInit = async (live) => {
    for (const run of [...live.runs.values()].sort((a, b) => a.run - b.run)) {
      const init = join(run.dir, "init.mp4");
      if (!await exists(init))
        continue;
      const names = await readdir(run.dir).catch(() => []);
      if (names.some((name) => segmentName.test(name)))
        return init;
    }
    return void 0;
  };
  const waitFor = async (live, probe, waitMs, signal) => {
    const deadline = Date.now() + waitMs;
    for (; ; ) {
      const found = await probe();
      if (found !== void 0 || signal.aborted || Date.now() >= deadline || live.stopping)
        return found;
      await new Promise((resolve2) => {
        const done = () => {
          clearTimeout(timer);
          live.written.off("written", done);
          signal.removeEventListener("abort", done);
          resolve2();
        };
        const timer = setTimeout(done, Math.min(100, Math.max(0, deadline - Date.now())));
        live.written.on("written", done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  };
  const stateOf = (live) => {
    if (live.hit)
      return "cached";
    const snapshot = live.actor?.getSnapshot();
    if (!snapshot)
      return "starting";
    if (snapshot.status === "done")
      return String(snapshot.value);
    const value = snapshot.value;
    return typeof value === "string" ? value : value.active?.work ?? "active";
  };
  const resolveSegment = async (live, index, signal) => {
    const plan = live.plan;
    if (!plan || index >= plan.count)
      return void 0;
    const found = await locateSegment(live, index);
    if (found)
      return found;
    const actor = live.actor;
    const state = stateOf(live);
    if (!actor || state !== "encoding" && state !== "complete")
      return void 0;
    const { run, runStart, highestSegment } = actor.getSnapshot().context;
    let covered = state === "encoding" && index >= runStart && index <= Math.max(highestSegment, runStart) + seekAhead;
    if (!covered && state === "encoding" && index - seekAhead > runStart) {
      const current = live.runs.get(run);
      covered = current !== void 0 && await exists(join(current.dir, `seg-${index - seekAhead}.m4s`));
    }
    if (!covered) {
      live.log.info({ segment: index, runStart, highestSegment }, "seek: restarting ffmpeg at the segment");
      actor.send({ type: "SEEK", segment: index });
    }
    return waitFor(live, () => locateSegment(live, index), segmentWaitMs, signal);
  };
  const isReadyNow = async (live) => {
    if (live.readySeen)
      return true;
    return await locateInit(live) !== void 0;
  };
  const resolveCached = async (live, name) => {
    const path = join(live.entry.dir, name);
    if (name.endsWith(".m3u8")) {
      const body = await readFile(path, "utf8").catch(() => void 0);
      return body === void 0 ? void 0 : { kind: "text", body, contentType: "application/vnd.apple.mpegurl" };
    }
    if (!await exists(path))
      return void 0;
    const contentType = name === "init.mp4" ? "video/mp4" : name.endsWith(".vtt") ? "text/vtt; charset=utf-8" : "video/iso.segment";
    return { kind: "file", path, contentType, immutable: true };
  };
  const masterBody = (live) => {
    const { geometry, summary } = live.firstArgs;
    const probe = live.probe;
    const hasAudio = probe.audio.length > 0;
    const videoKbps = geometry.videoBitrateKbps ?? estimateKbps(geometry.width, geometry.height);
    return masterPlaylist({
      bandwidth: (videoKbps + (hasAudio ? 160 : 0)) * 1e3,
      width: geometry.width,
      height: geometry.height,
      codecs: codecsString(summary.level === "auto" ? void 0 : summary.level, hasAudio),
      frameRate: probe.video.frameRate,
      subtitles: live.textSubtitles.map((subtitle) => ({
        index: subtitle.index,
        name: subtitle.title ?? subtitle.language ?? `Subtitle ${subtitle.index + 1}`,
        language: subtitle.language,
        default: false
      }))
    });
  };
  const settled = async (live, signal) => {
    const starting = () => !live.hit && ["starting", "probing"].includes(stateOf(live));
    if (starting())
      await waitFor(live, async () => starting() ? void 0 : true, segmentWaitMs, signal);
  };
  const resolve = async (sessionId, name, signal) => {
    const live = sessions.get(sessionId);
    if (!live || live.stopping)
      return void 0;
    const media = name === "init.mp4" || segmentName.test(name);
    if (media)
      await settled(live, signal);
    if (live.hit && !live.stopping)
      return resolveCached(live, name);
    if (live.stopping || !live.plan || !live.firstArgs || !live.probe)
      return void 0;
    if (name === "master.m3u8" || name === "index.m3u8") {
      if (!await isReadyNow(live))
        return void 0;
      if (name === "index.m3u8")
        return { kind: "text", body: mediaPlaylist(live.plan), contentType: "application/vnd.apple.mpegurl" };
      return { kind: "text", contentType: "application/vnd.apple.mpegurl", body: masterBody(live) };
    }
    if (name === "init.mp4") {
      const path = await locateInit(live) ?? (stateOf(live) === "encoding" ? await waitFor(live, () => locateInit(live), segmentWaitMs, signal) : void 0);
      return path ? { kind: "file", path, contentType: "video/mp4", immutable: true } : void 0;
    }
    const segment = segmentName.exec(name);
    if (segment) {
      const path = await resolveSegment(live, Number(segment[1]), signal);
      return path ? { kind: "file", path, contentType: "video/iso.segment", immutable: true } : void 0;
    }
    const subtitle = /^sub-(\d+)\.(m3u8|vtt)$/.exec(name);
    if (subtitle && live.entry) {
      const index = Number(subtitle[1]);
      if (!live.textSubtitles.some((track) => track.index === index))
        return void 0;
      if (subtitle[2] === "m3u8")
        return { kind: "text", body: subtitlePlaylist(index, live.probe.durationSeconds), contentType: "application/vnd.apple.mpegurl" };
      const path = join(live.entry.dir, `sub-${index}.vtt`);
      const ready = await waitFor(live, async () => live.subtitlesDone.has(index) ? path : live.subtitlesFinished ? null : void 0, segmentWaitMs, signal);
      return ready ? { kind: "file", path: ready, contentType: "text/vtt; charset=utf-8", immutable: true } : void 0;
    }
    return void 0;
  };
  const extractSubtitles = async (live) => {
    const entry = live.entry;
    if (!entry || live.textSubtitles.length === 0) {
      live.subtitlesFinished = true;
      return;
    }
    const args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];
    const input = live.sourceNow();
    if (isUrlSource(input))
      args.push("-reconnect", "1", "-reconnect_streamed", "1", "-reconnect_on_network_error", "1", "-reconnect_delay_max", "5", "-rw_timeout", String(urlSourceRwTimeoutUs));
    args.push("-i", input);
    for (const track of live.textSubtitles)
      args.push("-map", `0:s:${track.index}`, "-c:s", "webvtt", "-f", "webvtt", join(entry.dir, `sub-${track.index}.vtt.part`));
    if (live.stopping)
      return;
    const proc = startWatchedProcess(options.ffmpegPath, args);
    live.processes.add(proc);
    const result = await proc.exited;
    live.processes.delete(proc);
    if (live.stopping)
      return;
    if (result.code === 0) {
      for (const track of live.textSubtitles) {
        await rename(join(entry.dir, `sub-${track.index}.vtt.part`), join(entry.dir, `sub-${track.index}.vtt`)).then(() => live.subtitlesDone.add(track.index), () => {
        });
      }
    } else {
      live.log.warn({ code: result.code, stderr: result.stderrTail.map(scrubUrls) }, "subtitle extraction failed");
    }
    live.subtitlesFinished = true;
    live.written.emit("written");
    await commitWhenWhole(live);
  };
  const commitWhenWhole = async (live) => {
    const entry = live.entry;
    if (!entry?.commit || live.committed || live.stopping || !live.plan || !live.probe || !live.subtitlesFinished)
      return;
    if (stateOf(live) !== "complete")
      return;
    if (!live.textSubtitles.every((track) => live.subtitlesDone.has(track.index)))
      return;
    const segmentPaths = [];
    for (let index = 0; index < live.plan.count; index++) {
      const path = await locateSegment(live, index);
      if (!path)
        return;
      segmentPaths.push(path);
    }
    const initPath = await locateInit(live);
    if (!initPath || live.committed || live.stopping)
      return;
    live.committed = true;
    const duration = live.probe.durationSeconds;
    safely(live, () => entry.commit({
      durationSeconds: duration,
      frameRate: live.probe.video.frameRate,
      segmentPaths,
      initPath,
      master: masterBody(live),
      index: mediaPlaylist(live.plan),
      subtitles: live.textSubtitles.map((track) => ({ index: track.index, playlist: subtitlePlaylist(track.index, duration) }))
    }));
  };
  const spawnFfmpeg = (live, run, args) => {
    const proc = startWatchedProcess(options.ffmpegPath, args, { onStderrLine: (line) => live.log.debug({ run, line: scrubUrls(line) }, "ffmpeg") });
    live.processes.add(proc);
    return proc;
  };
  const fellBack = (live, result, run) => {
    const failed = live.encoder;
    if (failed === "libx264" || result.code === 0 || result.code === null || !isEncoderFailure(failed, result.stderrTail))
      return false;
    live.encoder = "libx264";
    const reason = result.stderrTail.slice(-3).map(scrubUrls).join(" | ");
    live.log.warn({ encoder: "libx264", acceleration: "none", preset: "superfast", fallbackFrom: failed, run, reason }, `hls session: encoder ${failed} failed; falling back to libx264 (acceleration none, preset superfast) for this session`);
    try {
      options.onEncoderFailed?.(failed, reason);
    } catch (err) {
      live.log.warn({ err }, "encoder failure callback threw");
    }
    return true;
  };
  const speculate = async (live, entry) => {
    const dir = join(entry.dir, "run-0");
    mkdirSync(dir, { recursive: true });
    if (live.stopping)
      return;
    const source = live.sourceNow();
    const built = argsFor(live, 0, dir, assumedFacts(live.session), source);
    live.speculation = { dir, source, built, proc: spawnFfmpeg(live, 0, built.args) };
    live.log.debug({ pid: live.speculation.proc.pid }, "ffmpeg started before the probe answered");
  };
  const discardSpeculation = async (live) => {
    const speculation = live.speculation;
    if (!speculation)
      return;
    live.speculation = void 0;
    speculation.proc.kill();
    await speculation.proc.exited;
    live.processes.delete(speculation.proc);
    await rm(speculation.dir, { recursive: true, force: true });
  };
  const machineFor = (live) => hlsTranscodeMachine.provide({
    actors: {
      probe: fromPromise(async ({ signal }) => {
        const work = (async () => {
          const ended = () => {
            if (live.stopping || signal.aborted)
              throw new ProbeFailedError("the session ended while it was being probed");
          };
          const entry = live.entry;
          ended();
          const speculating = speculate(live, entry).catch((err) => live.log.warn({ err }, "could not start ffmpeg before the probe"));
          const input = live.sourceNow();
          const probeCacheId = live.session.cacheId ?? (live.minted ? `source|${live.sourceId}` : void 0);
          let probed;
          try {
            probed = await probeService.probe(input, { signal, ...probeCacheId === void 0 ? {} : { cacheId: probeCacheId } });
          } finally {
            await speculating;
          }
          const { result, cacheHit } = probed;
          ended();
          live.probe = result;
          live.plan = planSegments(result.durationSeconds, segmentSeconds, result.video.frameRate);
          live.textSubtitles = result.subtitles.filter((track) => track.text);
          live.firstArgs = argsFor(live, 0, join(entry.dir, "run-0"));
          const speculation = live.speculation;
          if (speculation) {
            const confirmed = argsFor(live, 0, speculation.dir, probedFacts(result), speculation.source);
            if (sameArgs(confirmed.args, speculation.built.args))
              live.firstStart = "before-probe";
            else {
              live.firstStart = "discarded";
              live.log.debug({ assumed: speculation.built.summary, probed: confirmed.summary }, "the source differs from the assumed one: ffmpeg restarts on the probed facts");
              await discardSpeculation(live);
              ended();
            }
          } else
            live.firstStart = "after-probe";
          const { summary } = live.firstArgs;
          live.log.info({
            encoder: summary.encoder,
            acceleration: summary.acceleration,
            preset: summary.preset,
            height: summary.height,
            bitrateKbps: summary.bitrateKbps,
            level: summary.level,
            sourceKind: isUrlSource(input) ? "url" : "file",
            probeCacheHit: cacheHit,
            firstStart: live.firstStart,
            segments: live.plan.count
          }, `hls session: encoder ${summary.encoder}, acceleration ${summary.acceleration}, preset ${summary.preset}`);
          live.subtitling = extractSubtitles(live).catch((err) => live.log.warn({ err }, "subtitle extraction failed"));
          return result;
        })();
        live.probing = work.catch(() => void 0);
        try {
          return await work;
        } catch (err) {
          await discardSpeculation(live).catch(() => void 0);
          const error = err instanceof Error ? err : new ProbeFailedError(String(err));
          if (error.message !== scrubUrls(error.message))
            error.message = scrubUrls(error.message);
          if (error instanceof AgentError && typeof error.details?.stderr === "string")
            error.details.stderr = scrubUrls(error.details.stderr);
          live.probeError = error;
          throw live.probeError;
        }
      }),
      ffmpeg: fromCallback(({ input, sendBack }) => {
        let disposed = false;
        let proc;
        let scanTimer;
        let watcher;
        const entry = live.entry;
        const dir = join(entry.dir, `run-${input.run}`);
        const adopted = input.run === 0 && input.startSegment === 0 ? live.speculation : void 0;
        live.speculation = void 0;
        const built = adopted?.built ?? argsFor(live, input.startSegment, dir);
        live.runs.set(input.run, { run: input.run, dir, keepFrom: input.startSegment });
        live.written.emit("written");
        let highest = -1;
        const scan = async () => {
          const names = await readdir(dir).catch(() => []);
          let newest = highest;
          for (const name of names) {
            const match = segmentName.exec(name);
            if (match)
              newest = Math.max(newest, Number(match[1]));
          }
          if (!disposed && newest > highest && newest >= input.startSegment) {
            highest = newest;
            live.written.emit("written");
            sendBack({ type: "SEGMENT_WRITTEN", run: input.run, segment: newest });
          }
        };
        void (async () => {
          if (!adopted)
            mkdirSync(dir, { recursive: true });
          if (disposed)
            return;
          proc = adopted?.proc ?? spawnFfmpeg(live, input.run, built.args);
          live.log.debug({ run: input.run, startSegment: input.startSegment, firstWritten: built.firstWrittenSegment, pid: proc.pid }, "ffmpeg started");
          scanTimer = setInterval(() => void scan(), hlsSegmentScanMs);
          try {
            watcher = watch(dir, (_event, name) => {
              if (typeof name === "string" && segmentName.test(name))
                void scan();
            });
            watcher.on("error", () => watcher?.close());
          } catch {
          }
          let result = await proc.exited;
          live.processes.delete(proc);
          while (!disposed && fellBack(live, result, input.run) && highest < input.startSegment) {
            const again = argsFor(live, input.startSegment, dir);
            proc = spawnFfmpeg(live, input.run, again.args);
            result = await proc.exited;
            live.processes.delete(proc);
          }
          if (scanTimer)
            clearInterval(scanTimer);
          watcher?.close();
          if (disposed)
            return;
          await scan();
          if (!disposed)
            sendBack({ type: "FFMPEG_EXITED", run: input.run, code: result.code, signal: result.signal, stderrTail: result.stderrTail.map(scrubUrls) });
        })().catch((err) => {
          if (!disposed)
            sendBack({ type: "FFMPEG_EXITED", run: input.run, code: 127, signal: null, stderrTail: [String(err)] });
        });
        return () => {
          disposed = true;
          if (scanTimer)
            clearInterval(scanTimer);
          watcher?.close();
          proc?.kill();
        };
      }),
      checkReady: fromPromise(async ({ input }) => {
        const run = live.runs.get(input.run);
        if (!run || live.entry?.cacheHit)
          return live.entry?.cacheHit === true;
        return await exists(join(run.dir, "init.mp4")) && await exists(join(run.dir, `seg-${input.startSegment}.m4s`));
      })
    },
    actions: {
      notifyReady: () => {
        live.readySeen = true;
        live.log.info({}, "hls session ready");
        safely(live, () => live.events.onReady({ cacheHit: live.entry?.cacheHit === true }));
      },
      notifyReadinessTimeout: () => {
        live.log.debug({ deadlineMs: options.readinessDeadlineMs ?? readinessDeadlineMs }, "readiness deadline passed");
        safely(live, () => live.events.onReadinessTimeout());
      },
      notifyRestart: ({ context }) => {
        live.log.warn({ restarts: context.restarts, resumeAt: context.runStart, stderr: context.stderrTail }, "ffmpeg exited early; restarting");
        options.metrics?.ffmpegRestarted();
      },
      notifyFailed: ({ context }) => {
        const error = live.probeError ?? new TranscodeFailedError(context.error?.message ?? "ffmpeg failed", { details: { stderr: context.stderrTail, restarts: context.restarts } });
        live.log.error({ err: { code: error.code, message: error.message } }, "hls session failed");
        live.written.emit("written");
        safely(live, () => live.events.onFailed(error));
      }
    }
  });
  const safely = (live, fn) => {
    try {
      fn();
    } catch (err) {
      live.log.error({ err }, "hls session callback threw");
    }
  };
  const stopSession = (live) => {
    live.stopping ??= (async () => {
      if (live.actor?.getSnapshot().status === "active")
        live.actor.send({ type: "STOP" });
      live.actor?.stop();
      for (const proc of live.processes)
        proc.kill();
      await live.opening;
      await live.probing;
      for (const proc of live.processes)
        proc.kill();
      await Promise.all([...live.processes].map((proc) => proc.exited));
      await live.subtitling;
      await live.entry?.release().catch((err) => live.log.warn({ err }, "could not remove the session directory"));
      if (sessions.get(live.sessionId) === live)
        sessions.delete(live.sessionId);
      live.log.debug({}, "hls session stopped");
    })();
    return live.stopping;
  };
  return {
    start({ sessionId, session, source }, events) {
      const previous = sessions.get(sessionId);
      if (previous)
        void stopSession(previous);
      const sourceId = typeof source === "string" ? source : source.id;
      const live = {
        sessionId,
        session,
        events,
        sourceId,
        sourceNow: typeof source === "string" ? () => source : () => source.current(),
        minted: typeof source !== "string",
        log: log.child({ sessionId, source: redact(sourceId) }),
        encoder: defaultEncoder,
        maxHeight: void 0,
        entry: void 0,
        opening: void 0,
        hit: false,
        committed: false,
        probe: void 0,
        probeError: void 0,
        speculation: void 0,
        firstStart: void 0,
        plan: void 0,
        firstArgs: void 0,
        textSubtitles: [],
        subtitlesDone: /* @__PURE__ */ new Set(),
        subtitlesFinished: false,
        runs: /* @__PURE__ */ new Map(),
        processes: /* @__PURE__ */ new Set(),
        actor: void 0,
        readySeen: false,
        stopping: void 0,
        probing: void 0,
        subtitling: void 0,
        written: new EventEmitter()
      };
      live.written.setMaxListeners(0);
      sessions.set(sessionId, live);
      const start = async () => {
        if (previous)
          await stopSession(previous);
        if (live.stopping)
          return;
        const opening = store.open({ sessionId, source: sourceId, quality: String(session.quality), audioIndex: session.audioIndex ?? 0, cacheId: session.cacheId });
        live.opening = opening.catch(() => void 0);
        try {
          live.entry = await opening;
        } catch (err) {
          live.log.error({ err }, "hls session has no directory to write into");
          if (!live.stopping)
            safely(live, () => live.events.onFailed(err instanceof Error ? err : new TranscodeFailedError(String(err))));
          return;
        }
        if (live.stopping)
          return;
        if (live.entry.cacheHit) {
          live.hit = true;
          live.readySeen = true;
          live.written.emit("written");
          live.log.info({}, "hls session ready: cache hit");
          safely(live, () => live.events.onReady({ cacheHit: true }));
          return;
        }
        if (options.encoderFor) {
          const choice = await options.encoderFor();
          live.encoder = choice.encoder;
          live.maxHeight = choice.maxHeight;
          if (live.stopping)
            return;
        }
        const actor = createActor(machineFor(live), {
          input: {
            maxRestarts: options.maxRestarts ?? ffmpegMaxRestarts,
            readinessPollMs: options.readinessPollMs ?? readinessPollMs,
            readinessDeadlineMs: options.readinessDeadlineMs ?? readinessDeadlineMs
          },
          ...options.clock ? { clock: options.clock } : {},
          systemId: `hls-${sessionId}`
        });
        live.actor = actor;
        actor.subscribe({
          next: (snapshot) => {
            if (live.entry?.commit && !live.committed && snapshot.matches({ active: { work: "complete" } }))
              void commitWhenWhole(live).catch((err) => live.log.warn({ err }, "could not hand the output to the cache"));
          },
          error: (err) => live.log.error({ err }, "hls transcode actor failed")
        });
        actor.start();
      };
      void start().catch((err) => live.log.error({ err }, "hls session could not start"));
      return { stop: () => stopSession(live) };
    },
    routes: createHlsRoute({
      resolve,
      served: (sessionId, name) => {
        const live = sessions.get(sessionId);
        if (live && !live.stopping && (name === "init.mp4" || segmentName.test(name)))
          safely(live, () => live.events.onMediaFetched?.());
      }
    }),
    async stopAll() {
      await Promise.all([...sessions.values()].map((live) => stopSession(live)));
    },
    inspect() {
      return [...sessions.values()].map((live) => ({
        sessionId: live.sessionId,
        state: stateOf(live),
        pids: [...live.processes].map((proc) => proc.pid).filter((pid) => pid !== void 0),
        run: live.actor?.getSnapshot().context.run ?? 0,
        restarts: live.actor?.getSnapshot().context.restarts ?? 0,
        firstStart: live.firstStart
      }));
    }
  };
}
function estimateKbps(width, height) {
  return Math.round(width * height * 30 * 0.1 / 1e3);
}
export {
  createHlsEngine,
  scrubUrls
};
