import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  require_undici
} from "./chunk-6C5SF6VE.js";
import {
  funnelHelperDownloadTimeoutMs,
  funnelHelperMaxBytes,
  funnelHelperMinBytes
} from "./chunk-4XQBZWSZ.js";
import {
  FunnelHelperDownloadError,
  FunnelHelperInvalidError,
  FunnelPlatformError
} from "./chunk-7UR2AQZP.js";
import {
  __toESM
} from "./chunk-V4RWK56N.js";

// dist/services/funnel/helper-download.js
var import_undici = __toESM(require_undici(), 1);
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, chmod, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
var assets = {
  x64: { asset: "cloudflared-linux-amd64", elfClass: 2, machine: 62 },
  // EM_X86_64
  arm64: { asset: "cloudflared-linux-arm64", elfClass: 2, machine: 183 },
  // EM_AARCH64
  arm: { asset: "cloudflared-linux-arm", elfClass: 1, machine: 40 },
  // EM_ARM (armhf)
  ia32: { asset: "cloudflared-linux-386", elfClass: 1, machine: 3 }
  // EM_386
};
function helperTarget(platform = process.platform, arch = process.arch) {
  const target = platform === "linux" ? assets[arch] : void 0;
  if (!target) {
    throw new FunnelPlatformError(`no tunnel helper download for ${platform}/${arch} (only linux amd64, arm64, armhf and 386); install cloudflared and set [funnel] helper_path`);
  }
  return target;
}
function helperDownloadUrl(base, target) {
  return `${base.replace(/\/+$/, "")}/${target.asset}`;
}
var defaultWindow = { minBytes: funnelHelperMinBytes, maxBytes: funnelHelperMaxBytes };
function elfProblem(header, size, target, window = defaultWindow) {
  if (header.length < 20 || header[0] !== 127 || header[1] !== 69 || header[2] !== 76 || header[3] !== 70)
    return "not an ELF file (bad magic)";
  if (header[4] !== target.elfClass)
    return `ELF class ${header[4]} is not ${target.elfClass === 2 ? "64-bit" : "32-bit"} as this machine needs`;
  if (header[5] !== 1)
    return "not a little-endian ELF file";
  const machine = header[18] | header[19] << 8;
  if (machine !== target.machine)
    return `ELF machine ${machine} is not ${target.machine} (this machine's)`;
  if (size < window.minBytes || size > window.maxBytes)
    return `size ${size} bytes is outside ${window.minBytes}..${window.maxBytes}`;
  return void 0;
}
async function validateHelperFile(path, target, window = defaultWindow) {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw new FunnelHelperInvalidError(`tunnel helper ${path} cannot be read: ${err.message}`, { cause: err });
  }
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(64);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    const problem = elfProblem(header.subarray(0, bytesRead), size, target, window);
    if (problem)
      throw new FunnelHelperInvalidError(`tunnel helper ${path} is not usable: ${problem}`);
  } finally {
    await handle.close();
  }
}
async function ensureHelper(options) {
  if (options.helperPath) {
    try {
      if (!(await stat(options.helperPath)).isFile())
        throw new Error("not a regular file");
      await access(options.helperPath, constants.X_OK);
    } catch (err) {
      throw new FunnelHelperInvalidError(`[funnel] helper_path ${options.helperPath} is not an executable file: ${err.message}`, { cause: err });
    }
    return options.helperPath;
  }
  const target = options.target ?? helperTarget();
  const window = options.window ?? defaultWindow;
  try {
    await validateHelperFile(options.managedPath, target, window);
    return options.managedPath;
  } catch {
  }
  await downloadHelper({ ...options, target, window });
  return options.managedPath;
}
var tempPrefix = ".cloudflared.";
async function removeAbandonedTempFiles(dir) {
  for (const name of await readdir(dir).catch(() => [])) {
    const pid = Number(/^\.cloudflared\.(\d+)\.[0-9a-f]+\.part$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processExists(pid))
      continue;
    await rm(join(dir, name), { force: true });
  }
}
function processExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
var redirectingDispatcher;
var redirecting = () => redirectingDispatcher ??= new import_undici.Agent().compose(import_undici.interceptors.redirect({ maxRedirections: 5 }));
async function downloadHelper(options) {
  const url = helperDownloadUrl(options.urlBase, options.target);
  options.onDownload?.(url);
  const dir = dirname(options.managedPath);
  await mkdir(dir, { recursive: true });
  await removeAbandonedTempFiles(dir);
  const temp = join(dir, `${tempPrefix}${process.pid}.${randomBytes(4).toString("hex")}.part`);
  const timeoutMs = options.timeoutMs ?? funnelHelperDownloadTimeoutMs;
  const handle = await open(temp, "wx", 448);
  let closed = false;
  try {
    let response;
    try {
      response = await (0, import_undici.request)(url, {
        // The provider's latest-release URL redirects to its asset storage.
        dispatcher: redirecting(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...options.signal ? { signal: options.signal } : {}
      });
    } catch (err) {
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: ${err.message}`, { cause: err });
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > options.window.maxBytes) {
      await response.body.dump();
      throw new FunnelHelperInvalidError(`the tunnel helper at ${url} is ${declared} bytes, over the ${options.window.maxBytes} limit`);
    }
    let written = 0;
    try {
      for await (const chunk of response.body) {
        written += chunk.length;
        if (written > options.window.maxBytes)
          throw new FunnelHelperInvalidError(`the tunnel helper at ${url} is over the ${options.window.maxBytes} byte limit`);
        await handle.write(chunk);
      }
    } catch (err) {
      if (err instanceof FunnelHelperInvalidError)
        throw err;
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: ${err.message}`, { cause: err });
    }
    await handle.sync();
    await handle.close();
    closed = true;
    await validateHelperFile(temp, options.target, options.window);
    await chmod(temp, 493);
    await rename(temp, options.managedPath);
  } finally {
    if (!closed)
      await handle.close().catch(() => void 0);
    await rm(temp, { force: true });
  }
}
export {
  elfProblem,
  ensureHelper,
  helperDownloadUrl,
  helperTarget,
  validateHelperFile
};
