import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  FfmpegNotFoundError,
  ProbeFailedError
} from "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";

// dist/services/library/scanner.js
import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { performance } from "node:perf_hooks";

// dist/services/library/media-kinds.js
import { basename, dirname, extname } from "node:path";
var videoExtensions = /* @__PURE__ */ new Set(["mkv", "mp4", "m4v", "avi", "mov", "webm", "ts", "m2ts", "mts", "wmv", "flv", "mpg", "mpeg", "ogv", "3gp"]);
var audioExtensions = /* @__PURE__ */ new Set(["mp3", "flac", "m4a", "aac", "ogg", "opus", "wav"]);
var sidecarExtensions = /* @__PURE__ */ new Set(["srt", "vtt", "ass", "ssa"]);
function extensionOf(path) {
  return extname(path).slice(1).toLowerCase();
}
function fileKindOf(path) {
  const ext = extensionOf(path);
  if (videoExtensions.has(ext))
    return "video";
  if (audioExtensions.has(ext))
    return "audio";
  if (sidecarExtensions.has(ext))
    return "sidecar";
  return void 0;
}
var sidecarCodecs = { srt: "subrip", vtt: "webvtt", ass: "ass", ssa: "ssa" };
var languageTag = /^([a-z]{2,3}(?:[-_][a-z0-9]{2,4})?)(?:\.(?:forced|sdh|cc|default))?$/i;
function sidecarFor(video, subtitle) {
  if (dirname(video) !== dirname(subtitle))
    return void 0;
  const ext = extensionOf(subtitle);
  const codec = sidecarCodecs[ext];
  if (codec === void 0)
    return void 0;
  const stem = basename(video, extname(video));
  const subtitleStem = basename(subtitle, extname(subtitle));
  if (subtitleStem === stem)
    return { path: subtitle, codec, language: "und" };
  if (!subtitleStem.startsWith(`${stem}.`))
    return void 0;
  const tag = languageTag.exec(subtitleStem.slice(stem.length + 1));
  if (tag === null)
    return void 0;
  return { path: subtitle, codec, language: tag[1].replace("_", "-") };
}
function matchSidecars(videos, subtitles) {
  const byFolder = /* @__PURE__ */ new Map();
  for (const subtitle of subtitles) {
    const folder = dirname(subtitle);
    const list = byFolder.get(folder) ?? [];
    list.push(subtitle);
    byFolder.set(folder, list);
  }
  const result = /* @__PURE__ */ new Map();
  for (const video of videos) {
    const candidates = byFolder.get(dirname(video));
    if (!candidates)
      continue;
    const found = [];
    for (const subtitle of candidates) {
      const sidecar = sidecarFor(video, subtitle);
      if (sidecar)
        found.push(sidecar);
    }
    if (found.length > 0)
      result.set(video, found.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return result;
}

// dist/services/library/walk.js
import { readdir, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
var skipKinds = ["unreadable", "brokenSymlink", "vanished", "symlinkLoop", "notMedia", "probeFailed"];
var SkipTally = class {
  maxExamples;
  counts = { unreadable: 0, brokenSymlink: 0, vanished: 0, symlinkLoop: 0, notMedia: 0, probeFailed: 0 };
  examples = { unreadable: [], brokenSymlink: [], vanished: [], symlinkLoop: [], notMedia: [], probeFailed: [] };
  constructor(maxExamples) {
    this.maxExamples = maxExamples;
  }
  add(kind, path) {
    this.counts[kind]++;
    if (this.examples[kind].length < this.maxExamples)
      this.examples[kind].push(path);
  }
  /** Entries skipped that could hold media: unreadable files and folders, broken links, rejects (not loops or vanished paths). */
  files() {
    return this.counts.unreadable + this.counts.brokenSymlink + this.counts.notMedia + this.counts.probeFailed;
  }
};
var yieldNow = () => new Promise((resolve) => setImmediate(resolve));
async function mapLimit(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
async function walkRoots(roots, options) {
  const files = [];
  const walked = /* @__PURE__ */ new Set();
  const dirs = [];
  let seen = 0;
  let sinceYield = 0;
  const tick = async (count = 1) => {
    sinceYield += count;
    if (sinceYield >= options.yieldEvery) {
      sinceYield = 0;
      options.onProgress?.(seen);
      await yieldNow();
    }
  };
  for (const root of roots) {
    let real;
    try {
      real = await realpath(root);
      if (!(await stat(real)).isDirectory())
        throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
    } catch (err) {
      options.skips.add(errorKind(err) ?? "vanished", root);
      continue;
    }
    const stack = [{ root, path: root, real }];
    const links = [];
    while (stack.length > 0 || links.length > 0) {
      if (options.signal?.aborted)
        throw options.signal.reason;
      let dir = stack.pop();
      if (!dir) {
        links.sort((a, b) => a.path < b.path ? 1 : a.path > b.path ? -1 : 0);
        dir = links.pop();
        if (walked.has(dir.real))
          continue;
      }
      if (walked.has(dir.real))
        continue;
      walked.add(dir.real);
      dirs.push(dir.path);
      let entries;
      try {
        entries = await readdir(dir.path, { withFileTypes: true });
      } catch (err) {
        options.skips.add(errorKind(err) ?? "unreadable", dir.path);
        continue;
      }
      entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      const toStat = [];
      const linkNames = [];
      for (const entry of entries) {
        const path = join(dir.path, entry.name);
        if (entry.isDirectory()) {
          stack.push({ root: dir.root, path, real: join(dir.real, entry.name) });
        } else if (entry.isFile()) {
          seen++;
          const kind = fileKindOf(entry.name);
          if (kind !== void 0)
            toStat.push({ path, kind, link: false });
        } else if (entry.isSymbolicLink()) {
          linkNames.push(entry.name);
        }
      }
      await tick(entries.length);
      await mapLimit(linkNames, options.fsConcurrency, async (name) => {
        const path = join(dir.path, name);
        let info;
        try {
          info = await stat(path);
        } catch (err) {
          const code = err.code;
          options.skips.add(code === "ENOENT" ? "brokenSymlink" : code === "ELOOP" ? "symlinkLoop" : errorKind(err) ?? "unreadable", path);
          return;
        }
        if (info.isDirectory()) {
          let target;
          try {
            target = await realpath(path);
          } catch (err) {
            options.skips.add(errorKind(err) ?? "brokenSymlink", path);
            return;
          }
          if (dir.real === target || dir.real.startsWith(target.endsWith(sep) ? target : `${target}${sep}`)) {
            options.skips.add("symlinkLoop", path);
            return;
          }
          links.push({ root: dir.root, path, real: target });
        } else if (info.isFile()) {
          seen++;
          const kind = fileKindOf(name);
          if (kind !== void 0)
            files.push({ root: dir.root, path, kind, size: info.size, mtime: Math.trunc(info.mtimeMs) });
        }
      });
      const stats = await mapLimit(toStat, options.fsConcurrency, async (file) => {
        try {
          return await stat(file.path);
        } catch (err) {
          options.skips.add(errorKind(err) ?? "unreadable", file.path);
          return void 0;
        }
      });
      toStat.forEach((file, index) => {
        const info = stats[index];
        if (info?.isFile())
          files.push({ root: dir.root, path: file.path, kind: file.kind, size: info.size, mtime: Math.trunc(info.mtimeMs) });
      });
    }
  }
  options.onProgress?.(seen);
  return { files, seen, dirs };
}
function errorKind(err) {
  const code = err?.code;
  if (code === "ENOENT" || code === "ENOTDIR")
    return "vanished";
  if (code === "EACCES" || code === "EPERM" || code === "EIO")
    return "unreadable";
  if (code === "ELOOP")
    return "symlinkLoop";
  return void 0;
}

// dist/services/library/scanner.js
var round3 = (value) => Math.round(value * 1e3) / 1e3;
var yieldNow2 = () => new Promise((resolve) => setImmediate(resolve));
function factsOf(info) {
  if (!info.video && info.audio.length === 0)
    return null;
  const facts = { container: info.formatName, audio: [], subtitles: [] };
  if (info.durationSeconds !== void 0)
    facts.durationSeconds = round3(info.durationSeconds);
  if (info.video) {
    facts.video = { codec: info.video.codec, width: info.video.width, height: info.video.height };
    if (info.video.frameRate !== void 0 && Number.isFinite(info.video.frameRate))
      facts.video.fps = round3(info.video.frameRate);
  }
  facts.audio = info.audio.map((track) => ({ codec: track.codec, language: track.language ?? "und", channels: track.channels ?? 0 }));
  facts.subtitles = info.subtitles.map((track) => ({ codec: track.codec, language: track.language ?? "und" }));
  return facts;
}
function createLibraryScanner(options) {
  const log = options.logger;
  let index;
  const live = { running: false, scanId: void 0, files: 0, probed: 0, toProbe: 0 };
  return {
    progress: () => ({ ...live }),
    async scan(roots, scanOptions = {}) {
      const started = performance.now();
      const scanId = (options.newScanId ?? randomUUID)();
      Object.assign(live, { running: true, scanId, files: 0, probed: 0, toProbe: 0 });
      let lastProgressLog = started;
      const logProgress = (force = false) => {
        const at = performance.now();
        if (!force && at - lastProgressLog < options.progressLogMs)
          return;
        lastProgressLog = at;
        log.info({ scanId, files: live.files, probed: live.probed, toProbe: live.toProbe }, "library scan in progress");
      };
      try {
        index ??= await options.index.load();
        const known = index;
        const skips = new SkipTally(options.skipExamples);
        const walked = await walkRoots(roots, {
          fsConcurrency: options.fsConcurrency,
          yieldEvery: options.yieldEvery,
          skips,
          ...scanOptions.signal ? { signal: scanOptions.signal } : {},
          onProgress: (files) => {
            live.files = files;
            logProgress();
          }
        });
        live.files = walked.seen;
        const media = [];
        const subtitles = [];
        const toProbe = [];
        const next = /* @__PURE__ */ new Map();
        for (const file of walked.files) {
          if (file.kind === "sidecar") {
            subtitles.push(file.path);
            continue;
          }
          media.push(file);
          const entry = known.get(file.path);
          if (entry && entry.size === file.size && entry.mtime === file.mtime)
            next.set(file.path, entry);
          else
            toProbe.push(file);
        }
        live.toProbe = toProbe.length;
        const inFlight = /* @__PURE__ */ new Set();
        const unsubscribe = options.onPlaybackStart?.(() => {
          for (const controller of inFlight)
            controller.abort();
        });
        const waitForPlayback = async () => {
          const pausedAt = performance.now();
          while (options.playbackStarting?.() && performance.now() - pausedAt < (options.pauseMaxMs ?? 6e4)) {
            await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 200));
            if (scanOptions.signal?.aborted)
              throw scanOptions.signal.reason;
          }
        };
        await mapLimit(toProbe, options.probeConcurrency, async (file) => {
          if (scanOptions.signal?.aborted)
            throw scanOptions.signal.reason;
          await waitForPlayback();
          try {
            await access(file.path, constants.R_OK);
          } catch {
            skips.add("unreadable", file.path);
            return;
          }
          try {
            let info;
            for (; ; ) {
              const playback = new AbortController();
              inFlight.add(playback);
              try {
                const signal = scanOptions.signal ? AbortSignal.any([scanOptions.signal, playback.signal]) : playback.signal;
                info = (await options.inspect(file.path, { niceness: options.probeNiceness, signal })).info;
                break;
              } catch (err) {
                if (!playback.signal.aborted || scanOptions.signal?.aborted)
                  throw err;
                await waitForPlayback();
              } finally {
                inFlight.delete(playback);
              }
            }
            next.set(file.path, { size: file.size, mtime: file.mtime, facts: factsOf(info) });
          } catch (err) {
            if (err instanceof FfmpegNotFoundError)
              throw err;
            const exitCode = err.details?.exitCode;
            if (err instanceof ProbeFailedError && typeof exitCode === "number" && exitCode !== 0) {
              next.set(file.path, { size: file.size, mtime: file.mtime, facts: null });
            } else {
              skips.add("probeFailed", file.path);
            }
          } finally {
            live.probed++;
            logProgress();
          }
        }).finally(() => unsubscribe?.());
        const snapshot = /* @__PURE__ */ new Map();
        for (const root of roots)
          snapshot.set(root, /* @__PURE__ */ new Map());
        const sidecars = matchSidecars(media.map((file) => file.path), subtitles);
        let count = 0;
        let sinceYield = 0;
        for (const file of media) {
          if (++sinceYield >= options.yieldEvery) {
            sinceYield = 0;
            await yieldNow2();
          }
          const entry = next.get(file.path);
          if (!entry)
            continue;
          if (entry.facts === null) {
            skips.add("notMedia", file.path);
            continue;
          }
          const item = { path: file.path, size: file.size, mtime: file.mtime, ...entry.facts };
          const extra = sidecars.get(file.path);
          if (extra)
            item.subtitles = [...entry.facts.subtitles, ...extra.map(({ codec, language, path }) => ({ codec, language, path }))];
          snapshot.get(file.root).set(file.path, item);
          count++;
        }
        if (!sameIndex(known, next)) {
          await options.index.save(next);
          index = next;
        }
        for (const kind of skipKinds) {
          if (skips.counts[kind] === 0)
            continue;
          log[kind === "notMedia" ? "info" : "warn"]({ scanId, kind, count: skips.counts[kind], examples: skips.examples[kind] }, `library scan skipped ${skips.counts[kind]} ${describeSkip(kind)}`);
        }
        const result = {
          scanId,
          snapshot,
          files: walked.seen,
          probed: live.probed,
          skipped: skips.files(),
          skips,
          items: count,
          ms: Math.round(performance.now() - started),
          dirs: walked.dirs
        };
        return result;
      } finally {
        live.running = false;
      }
    }
  };
}
function sameIndex(a, b) {
  if (a.size !== b.size)
    return false;
  for (const [path, entry] of b)
    if (a.get(path) !== entry)
      return false;
  return true;
}
function describeSkip(kind) {
  switch (kind) {
    case "unreadable":
      return "unreadable files or folders (permissions)";
    case "brokenSymlink":
      return "broken symlinks";
    case "vanished":
      return "files or folders that vanished during the scan (or a missing root)";
    case "symlinkLoop":
      return "symlink loops (not followed)";
    case "notMedia":
      return "files with a media extension that ffprobe does not read as media";
    case "probeFailed":
      return "files ffprobe could not finish (retried next scan)";
  }
}
export {
  createLibraryScanner,
  factsOf
};
