import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  hlsSegmentSeconds,
  probeCacheTtlMs,
  probeTimeoutMs,
  urlSourceRwTimeoutUs
} from "./chunk-4XQBZWSZ.js";
import {
  FfmpegNotFoundError,
  ProbeFailedError
} from "./chunk-7UR2AQZP.js";

// dist/services/hls/quality-ladder.js
var qualityLadder = [
  { label: "480p", maxHeight: 480, videoBitrateKbps: 1500, level: "3.1" },
  { label: "720p", maxHeight: 720, videoBitrateKbps: 3500, level: "4.0" },
  { label: "1080p", maxHeight: 1080, videoBitrateKbps: 8e3, level: "4.1" },
  { label: "1440p", maxHeight: 1440, videoBitrateKbps: 12e3, level: "5.0" },
  { label: "2160p", maxHeight: 2160, videoBitrateKbps: 2e4, level: "5.1" }
];
function isQuality(value) {
  return value === "original" || qualityLadder.some((rung) => rung.label === value);
}
function rungForHeight(height) {
  return qualityLadder.find((rung) => height <= rung.maxHeight);
}
var even = (value) => Math.max(2, 2 * Math.round(value / 2));
function outputGeometry(quality, source) {
  const sar = source.sampleAspectRatio && source.sampleAspectRatio > 0 ? source.sampleAspectRatio : 1;
  const displayWidth = source.width * sar;
  if (quality === "original" || !isQuality(quality)) {
    const height2 = even(source.height);
    return { width: even(displayWidth), height: height2, scaled: sar !== 1, videoBitrateKbps: void 0, rung: rungForHeight(height2) };
  }
  const asked = qualityLadder.find((rung2) => rung2.label === quality);
  const height = even(Math.min(asked.maxHeight, source.height));
  const width = even(displayWidth * height / source.height);
  const rung = rungForHeight(height);
  return { width, height, scaled: height !== source.height || sar !== 1, videoBitrateKbps: rung?.videoBitrateKbps, rung };
}

// dist/services/ffmpeg/hls-args.js
var vaapiDevice = "/dev/dri/renderD128";
function isUrlSource(source) {
  return /^https?:\/\//i.test(source);
}
function buildHlsArgs(input) {
  const segmentSeconds = input.segmentSeconds ?? hlsSegmentSeconds;
  const wanted = input.startSegment ?? 0;
  const startSegment = wanted === 0 ? 0 : Math.max(0, wanted - Math.max(0, input.warmupSegments ?? 1));
  const startSeconds = startSegment * segmentSeconds;
  const geometry = outputGeometry(input.quality, input.sourceGeometry);
  const encoder = encoderProfile(input.encoder);
  const args = ["-hide_banner", "-nostdin", "-loglevel", "warning", "-y"];
  if (input.encoder === "h264_vaapi")
    args.push("-vaapi_device", vaapiDevice);
  if (isUrlSource(input.source)) {
    args.push("-reconnect", "1", "-reconnect_streamed", "1", "-reconnect_on_network_error", "1", "-reconnect_delay_max", "5", "-rw_timeout", String(urlSourceRwTimeoutUs));
  }
  if (startSeconds > 0)
    args.push("-ss", formatSeconds(startSeconds));
  args.push("-i", input.source);
  if (startSeconds > 0)
    args.push("-copyts", "-start_at_zero");
  args.push("-map", "0:v:0");
  if (input.hasAudio)
    args.push("-map", `0:a:${input.audioIndex}?`);
  args.push("-sn", "-dn");
  args.push("-vf", encoder.filter(scaleFilter(input.quality)));
  args.push("-c:v", input.encoder, ...encoder.options);
  const level = geometry.rung?.level;
  if (level)
    args.push(...encoder.level(level));
  args.push(...encoder.rate(geometry.videoBitrateKbps ?? void 0));
  args.push("-force_key_frames", startSeconds > 0 ? keyframeTimes(startSeconds, input.durationSeconds, segmentSeconds) : keyframeExpression(segmentSeconds));
  args.push(...encoder.noExtraKeyframes);
  if (input.hasAudio)
    args.push("-c:a", "aac", "-b:a", "160k", "-ac", "2");
  args.push(
    "-f",
    "hls",
    "-hls_time",
    String(segmentSeconds / 2),
    "-hls_segment_type",
    "fmp4",
    "-hls_fmp4_init_filename",
    "init.mp4",
    "-hls_segment_filename",
    `${input.outputDir}/seg-%d.m4s`,
    "-start_number",
    String(startSegment),
    "-hls_list_size",
    "0",
    "-hls_playlist_type",
    "event",
    // temp_file: each segment appears by an atomic rename, so "seg-N exists" means "seg-N closed".
    "-hls_flags",
    "temp_file+independent_segments",
    // Identical init.mp4 and segment headers across runs (no edit list, no sidx, discontinuous
    // fragments allowed), so a seek-restart's output splices into the cache.
    "-hls_segment_options",
    "movflags=+frag_discont+skip_sidx:use_editlist=0",
    `${input.outputDir}/ffmpeg.m3u8`
  );
  return {
    args,
    geometry,
    firstWrittenSegment: startSegment,
    summary: {
      encoder: input.encoder,
      acceleration: encoder.acceleration,
      preset: encoder.preset,
      height: geometry.height,
      bitrateKbps: geometry.videoBitrateKbps ?? "uncapped",
      level: level ?? "auto"
    }
  };
}
function buildTestEncodeArgs(encoder, height) {
  const profile = encoderProfile(encoder);
  const rung = qualityLadder.find((candidate) => candidate.maxHeight >= height) ?? qualityLadder[qualityLadder.length - 1];
  const width = Math.round(height * 16 / 9 / 2) * 2;
  const args = ["-hide_banner", "-nostdin", "-loglevel", "level+verbose"];
  if (encoder === "h264_vaapi")
    args.push("-vaapi_device", vaapiDevice);
  args.push("-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=25`, "-frames:v", "1");
  args.push("-vf", profile.filter(`scale=w=${width}:h=${height}`));
  args.push("-c:v", encoder, ...profile.options, ...profile.level(rung.level), ...profile.rate(rung.videoBitrateKbps), ...profile.noExtraKeyframes);
  args.push("-f", "null", "-");
  return args;
}
var softwareChain = (scale) => `${scale},format=yuv420p,setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709`;
var cappedRate = (capKbps) => ["-b:v", `${capKbps}k`, "-maxrate", `${capKbps}k`, "-bufsize", `${capKbps * 2}k`];
function encoderProfile(encoder) {
  switch (encoder) {
    case "libx264":
      return {
        acceleration: "none",
        preset: "superfast",
        options: ["-preset", "superfast", "-profile:v", "high"],
        filter: softwareChain,
        level: (level) => ["-level:v", level],
        rate: (cap) => cap === void 0 ? ["-crf", "20"] : ["-crf", "21", "-maxrate", `${cap}k`, "-bufsize", `${cap * 2}k`],
        noExtraKeyframes: ["-sc_threshold", "0"]
      };
    case "h264_nvenc":
      return {
        acceleration: "nvenc",
        preset: "p3",
        options: ["-preset", "p3", "-rc", "vbr", "-profile:v", "high"],
        filter: softwareChain,
        level: (level) => ["-level:v", level],
        rate: (cap) => cap === void 0 ? ["-cq", "21"] : cappedRate(cap),
        noExtraKeyframes: ["-no-scenecut", "1"]
      };
    case "h264_qsv":
      return {
        acceleration: "qsv",
        preset: "veryfast",
        options: ["-preset", "veryfast", "-look_ahead", "0", "-profile:v", "high"],
        filter: softwareChain,
        level: (level) => ["-level:v", level],
        rate: (cap) => cap === void 0 ? ["-global_quality", "21"] : cappedRate(cap),
        noExtraKeyframes: []
      };
    case "h264_videotoolbox":
      return {
        acceleration: "videotoolbox",
        preset: "realtime",
        options: ["-realtime", "1", "-profile:v", "high"],
        filter: softwareChain,
        level: () => [],
        rate: (cap) => cappedRate(cap ?? 2e4),
        noExtraKeyframes: []
      };
    case "h264_vaapi":
      return {
        acceleration: "vaapi",
        preset: "default",
        options: ["-profile:v", "high"],
        filter: (scale) => `${scale},format=nv12,hwupload`,
        level: (level) => ["-level:v", level],
        rate: (cap) => cap === void 0 ? ["-qp", "21"] : cappedRate(cap),
        noExtraKeyframes: []
      };
  }
}
function scaleFilter(quality) {
  const even2 = (value) => `max(2,2*round(${value}/2))`;
  const rung = qualityLadder.find((candidate) => candidate.label === quality);
  if (!rung)
    return `scale=w='${even2("iw*sar")}':h='${even2("ih")}'`;
  const height = even2(`min(${rung.maxHeight},ih)`);
  return `scale=w='${even2(`iw*sar*${height}/ih`)}':h='${height}'`;
}
function keyframeExpression(segmentSeconds) {
  return `expr:gte(t,${formatSeconds(segmentSeconds)}*n_forced-0.000001)`;
}
function keyframeTimes(fromSeconds, durationSeconds, segmentSeconds) {
  const times = [];
  const first = Math.ceil(fromSeconds / segmentSeconds);
  const last = Math.max(first, Math.ceil(durationSeconds / segmentSeconds));
  for (let index = first; index <= last; index++)
    times.push(formatSeconds(index * segmentSeconds));
  return times.join(",");
}
function formatSeconds(seconds2) {
  return Number.isInteger(seconds2) ? String(seconds2) : seconds2.toFixed(3);
}

// dist/services/ffmpeg/probe.js
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { stat } from "node:fs/promises";

// dist/services/ffmpeg/binaries.js
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
var envNames = { ffmpeg: "FFMPEG_PATH", ffprobe: "FFPROBE_PATH" };
var configKeys = { ffmpeg: "[transcode] ffmpeg_path", ffprobe: "[transcode] ffprobe_path" };
function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile())
      return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
function detectContainer() {
  if (existsSync("/.dockerenv") || existsSync("/run/.containerenv"))
    return true;
  try {
    return /docker|kubepods|containerd|libpod|lxc/.test(readFileSync("/proc/1/cgroup", "utf8"));
  } catch {
    return false;
  }
}
function installAdvice(name, container) {
  const env = envNames[name];
  const key = configKeys[name];
  if (container) {
    return `${name} was not found in this container. Set ${env}=/path/to/${name}, or ${key} in config.toml, or install the ffmpeg package in the image (Debian/Ubuntu: apt-get install -y ffmpeg; Alpine: apk add ffmpeg).`;
  }
  return `${name} was not found on PATH. Install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg; Fedora: dnf install ffmpeg; macOS: brew install ffmpeg), or set ${key} in config.toml or the ${env} environment variable.`;
}
function resolveFfmpegBinary(name, options = {}) {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const configured = options.configuredPath?.trim() ?? "";
  if (configured !== "") {
    if (isExecutableFile(configured))
      return configured;
    throw new FfmpegNotFoundError(`${name} is not an executable file at ${configured} (set by ${configKeys[name]}). Fix the path, or clear it to use ${envNames[name]} or PATH.`, {
      details: { binary: name, path: configured, from: configKeys[name] }
    });
  }
  const fromEnv = env[envNames[name]]?.trim() ?? "";
  if (fromEnv !== "") {
    if (isExecutableFile(fromEnv))
      return fromEnv;
    throw new FfmpegNotFoundError(`${name} is not an executable file at ${fromEnv} (set by ${envNames[name]}). Fix or unset ${envNames[name]}.`, {
      details: { binary: name, path: fromEnv, from: envNames[name] }
    });
  }
  const fileName = platform === "win32" ? `${name}.exe` : name;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir))
      continue;
    const candidate = join(dir, fileName);
    if (isExecutableFile(candidate))
      return candidate;
  }
  const container = options.isContainer ?? detectContainer();
  throw new FfmpegNotFoundError(installAdvice(name, container), { details: { binary: name, from: "PATH", container } });
}

// dist/services/ffmpeg/probe.js
var textSubtitleCodecs = /* @__PURE__ */ new Set(["subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"]);
function createProbeService(options) {
  const log = options.logger;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? probeCacheTtlMs;
  const cache = /* @__PURE__ */ new Map();
  const sweep = () => {
    const at = now();
    for (const [key, entry] of cache) {
      if (entry.expiresAt > at)
        break;
      cache.delete(key);
    }
  };
  const inspect = async (source, probeOptions = {}) => {
    const key = await cacheKey(source, probeOptions.cacheId);
    sweep();
    const cached = cache.get(key);
    if (cached)
      return { info: cached.info, cacheHit: true };
    const ffprobe = options.ffprobePath ?? resolveFfmpegBinary("ffprobe");
    const json = await runFfprobe(ffprobe, source, options.timeoutMs ?? probeTimeoutMs, probeOptions.signal, probeOptions.niceness);
    let info;
    try {
      info = parseMediaInfo(json);
    } catch (err) {
      throw new ProbeFailedError(`ffprobe output for ${redact(source)} is unusable: ${String(err)}`, { cause: err });
    }
    cache.delete(key);
    cache.set(key, { info, expiresAt: now() + ttlMs });
    log.debug({ key, durationSeconds: info.durationSeconds }, "probed");
    return { info, cacheHit: false };
  };
  return {
    size() {
      sweep();
      return cache.size;
    },
    inspect,
    async probe(source, probeOptions = {}) {
      const { info, cacheHit } = await inspect(source, probeOptions);
      return { result: toProbeResult(info), cacheHit };
    }
  };
}
async function cacheKey(source, cacheId) {
  if (isUrlSource(source))
    return `url|${cacheId ?? source}`;
  let info;
  try {
    info = await stat(source);
  } catch (err) {
    throw new ProbeFailedError(`cannot read the source ${source}: ${err.code ?? String(err)}`, { cause: err, details: { source } });
  }
  return `file|${source}|${info.mtimeMs}|${info.size}`;
}
function ffprobeArgs(source) {
  const args = ["-v", "error", "-hide_banner", "-print_format", "json", "-show_format", "-show_streams"];
  if (isUrlSource(source))
    args.push("-rw_timeout", String(urlSourceRwTimeoutUs));
  args.push("-i", source);
  return args;
}
function runFfprobe(ffprobe, source, timeoutMs, signal, niceness) {
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, ffprobeArgs(source), { stdio: ["ignore", "pipe", "pipe"] });
    if (niceness !== void 0 && child.pid !== void 0) {
      try {
        setPriority(child.pid, niceness);
      } catch {
      }
    }
    const stdout = [];
    const stderr = [];
    let settled = false;
    const finish = (fn) => {
      if (settled)
        return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const kill = () => {
      if (child.pid !== void 0 && child.exitCode === null) {
        try {
          process.kill(child.pid, "SIGKILL");
        } catch {
        }
      }
    };
    const onAbort = () => {
      kill();
      finish(() => reject(new ProbeFailedError(`ffprobe of ${redact(source)} was aborted`, { details: { source: redact(source) } })));
    };
    const timer = setTimeout(() => {
      kill();
      finish(() => reject(new ProbeFailedError(`ffprobe of ${redact(source)} did not finish within ${timeoutMs} ms`, { details: { source: redact(source) } })));
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.once("error", (err) => {
      finish(() => reject(err.code === "ENOENT" || err.code === "EACCES" ? notFound(ffprobe, err) : err));
    });
    child.once("close", (code) => {
      const errText = Buffer.concat(stderr).toString("utf8").trim();
      if (code !== 0) {
        finish(() => reject(new ProbeFailedError(`ffprobe failed on ${redact(source)}: ${errText || `exit code ${String(code)}`}`, { details: { source: redact(source), exitCode: code, stderr: errText } })));
        return;
      }
      try {
        const json = JSON.parse(Buffer.concat(stdout).toString("utf8"));
        finish(() => resolve(json));
      } catch (err) {
        finish(() => reject(new ProbeFailedError(`ffprobe output for ${redact(source)} is unusable: ${String(err)}`, { cause: err })));
      }
    });
  });
}
function notFound(path, cause) {
  try {
    resolveFfmpegBinary("ffprobe", { env: { PATH: "" } });
  } catch (err) {
    if (err instanceof FfmpegNotFoundError) {
      return new FfmpegNotFoundError(`ffprobe could not be started at ${path} (${cause.code ?? "error"}). ${err.message}`, { cause, details: { path, ...err.details } });
    }
  }
  return new FfmpegNotFoundError(`ffprobe could not be started at ${path} (${cause.code ?? "error"})`, { cause });
}
function redact(source) {
  if (!isUrlSource(source))
    return source;
  try {
    const url = new URL(source);
    return `${url.origin}${url.pathname}${url.search === "" ? "" : "?\u2026"}`;
  } catch {
    return "<url>";
  }
}
function ratio(value) {
  if (value === void 0)
    return void 0;
  const [a, b] = value.split(/[:/]/).map(Number);
  if (a === void 0 || b === void 0 || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0)
    return void 0;
  return a / b;
}
function toProbeResult(info) {
  if (!info.video)
    throw new ProbeFailedError("the source has no video stream");
  if (info.durationSeconds === void 0)
    throw new ProbeFailedError("the source has no known duration");
  return { durationSeconds: info.durationSeconds, formatName: info.formatName, video: info.video, audio: info.audio, subtitles: info.subtitles };
}
function parseMediaInfo(json) {
  const streams = Array.isArray(json.streams) ? json.streams : [];
  const video = streams.find((stream) => stream.codec_type === "video" && !stream.disposition?.attached_pic && Boolean(stream.width) && Boolean(stream.height));
  const duration = Number(json.format?.duration ?? video?.duration);
  const audio = streams.filter((stream) => stream.codec_type === "audio").map((stream, index) => ({
    index,
    codec: stream.codec_name ?? "unknown",
    channels: stream.channels,
    language: stream.tags?.language
  }));
  const subtitles = streams.filter((stream) => stream.codec_type === "subtitle").map((stream, index) => ({
    index,
    codec: stream.codec_name ?? "unknown",
    language: stream.tags?.language,
    title: stream.tags?.title,
    text: textSubtitleCodecs.has(stream.codec_name ?? "")
  }));
  return {
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : void 0,
    formatName: json.format?.format_name ?? "unknown",
    video: video && video.width && video.height ? {
      codec: video.codec_name ?? "unknown",
      width: video.width,
      height: video.height,
      sampleAspectRatio: ratio(video.sample_aspect_ratio) ?? 1,
      frameRate: ratio(video.avg_frame_rate) ?? ratio(video.r_frame_rate),
      pixelFormat: video.pix_fmt
    } : void 0,
    audio,
    subtitles
  };
}

// dist/services/hls/playlists.js
function planSegments(durationSeconds, segmentSeconds, frameRate) {
  const frame = frameRate && frameRate > 0 ? 1 / frameRate : 0;
  const lastFrameStart = Math.max(0, durationSeconds - frame);
  const count = Math.max(1, Math.floor(lastFrameStart / segmentSeconds + 1e-9) + 1);
  const lastSeconds = Math.max(1e-3, durationSeconds - (count - 1) * segmentSeconds);
  return { count, segmentSeconds, lastSeconds: Math.min(lastSeconds, segmentSeconds) };
}
function segmentDuration(plan, index) {
  return index === plan.count - 1 ? plan.lastSeconds : plan.segmentSeconds;
}
var seconds = (value) => value.toFixed(3);
function mediaPlaylist(plan) {
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    `#EXT-X-TARGETDURATION:${Math.ceil(plan.segmentSeconds)}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    '#EXT-X-MAP:URI="init.mp4"'
  ];
  for (let index = 0; index < plan.count; index++) {
    lines.push(`#EXTINF:${seconds(segmentDuration(plan, index))},`, `seg-${index}.m4s`);
  }
  lines.push("#EXT-X-ENDLIST", "");
  return lines.join("\n");
}
var quoted = (value) => `"${value.replace(/["\r\n]/g, "'")}"`;
function masterPlaylist(input) {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const subtitle of input.subtitles) {
    const attributes = [
      "TYPE=SUBTITLES",
      'GROUP-ID="subs"',
      `NAME=${quoted(subtitle.name)}`,
      ...subtitle.language === void 0 ? [] : [`LANGUAGE=${quoted(subtitle.language)}`],
      `DEFAULT=${subtitle.default ? "YES" : "NO"}`,
      "AUTOSELECT=YES",
      `URI=${quoted(`sub-${subtitle.index}.m3u8`)}`
    ];
    lines.push(`#EXT-X-MEDIA:${attributes.join(",")}`);
  }
  const variant = [
    `BANDWIDTH=${Math.round(input.bandwidth)}`,
    `RESOLUTION=${input.width}x${input.height}`,
    `CODECS=${quoted(input.codecs)}`,
    ...input.frameRate ? [`FRAME-RATE=${input.frameRate.toFixed(3)}`] : [],
    ...input.subtitles.length > 0 ? ['SUBTITLES="subs"'] : []
  ];
  lines.push(`#EXT-X-STREAM-INF:${variant.join(",")}`, "index.m3u8", "");
  return lines.join("\n");
}
function subtitlePlaylist(index, durationSeconds) {
  return [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    `#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(durationSeconds))}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    `#EXTINF:${seconds(durationSeconds)},`,
    `sub-${index}.vtt`,
    "#EXT-X-ENDLIST",
    ""
  ].join("\n");
}
function avcCodec(level) {
  const value = level === void 0 ? 51 : Math.round(Number(level) * 10);
  return `avc1.6400${value.toString(16).padStart(2, "0")}`;
}
function codecsString(level, hasAudio) {
  return hasAudio ? `${avcCodec(level)},mp4a.40.2` : avcCodec(level);
}

// dist/services/hls/segment-store.js
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join as join2 } from "node:path";
function createDirectorySegmentStore(workDir) {
  return {
    async open({ sessionId }) {
      const base = join2(workDir, "hls-sessions");
      await mkdir(base, { recursive: true });
      const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
      const dir = await mkdtemp(join2(base, `${safe}-`));
      return {
        dir,
        cacheHit: false,
        release: () => rm(dir, { recursive: true, force: true })
      };
    }
  };
}

// dist/server/routes/responses.js
var commonHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Accept-Ranges, Content-Length, Content-Range, ETag, Last-Modified",
  "x-content-type-options": "nosniff"
};
var notFoundBody = Buffer.from("Not Found\n", "utf8");
var notFoundHeaders = [
  ["Content-Type", "text/plain; charset=utf-8"],
  ["Content-Length", String(notFoundBody.length)],
  ["Cache-Control", "no-store"],
  ["Access-Control-Allow-Origin", "*"],
  ["X-Content-Type-Options", "nosniff"]
];
function sendNotFound(req, res) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames())
    res.removeHeader(name);
  res.sendDate = false;
  res.writeHead(404, "Not Found", notFoundHeaders.flat());
  res.end(req.method === "HEAD" ? void 0 : notFoundBody);
}
function sendStatus(req, res, status, text, extra = {}) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(`${text}
`, "utf8");
  res.writeHead(status, {
    ...commonHeaders,
    "content-type": "text/plain; charset=utf-8",
    "content-length": String(body.length),
    "cache-control": "no-store",
    ...extra
  });
  res.end(req.method === "HEAD" ? void 0 : body);
}

export {
  resolveFfmpegBinary,
  commonHeaders,
  sendNotFound,
  sendStatus,
  qualityLadder,
  isUrlSource,
  buildHlsArgs,
  buildTestEncodeArgs,
  createProbeService,
  redact,
  planSegments,
  mediaPlaylist,
  masterPlaylist,
  subtitlePlaylist,
  codecsString,
  createDirectorySegmentStore
};
