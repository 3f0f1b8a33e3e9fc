import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  startWatchedProcess
} from "./chunk-GPRS7GA6.js";
import {
  require_undici
} from "./chunk-6C5SF6VE.js";
import {
  funnelHelperOutputTailLines,
  funnelMetricsRequestTimeoutMs,
  funnelReadyPollMs
} from "./chunk-4XQBZWSZ.js";
import {
  __toESM
} from "./chunk-V4RWK56N.js";

// dist/services/funnel/helper-process.js
var import_undici = __toESM(require_undici(), 1);
import { createServer } from "node:net";
var quickTunnelUrl = /https:\/\/((?!api\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\.trycloudflare\.com/i;
var rateLimitedLine = /429 Too Many Requests|status_code="?429|error code:? ?1015/i;
function helperArgs(metricsPort, streamPort) {
  return ["tunnel", "--no-autoupdate", "--metrics", `127.0.0.1:${metricsPort}`, "--url", `http://127.0.0.1:${streamPort}`];
}
function quickTunnelUrlIn(line) {
  const match = quickTunnelUrl.exec(line);
  return match ? `https://${match[1].toLowerCase()}.trycloudflare.com` : void 0;
}
function isRateLimitedLine(line) {
  return rateLimitedLine.test(line);
}
function startHelperRun(options) {
  const pollMs = options.pollMs ?? funnelReadyPollMs;
  let child;
  let stopped = false;
  let rateLimited = false;
  let pending;
  let reported;
  let confirming = false;
  let exited = Promise.resolve();
  const metricsPort = options.metricsPort !== void 0 ? Promise.resolve(options.metricsPort) : freeLoopbackPort();
  const confirm = async (port) => {
    if (confirming)
      return;
    confirming = true;
    try {
      while (!stopped && pending !== void 0 && pending !== reported) {
        const url = pending;
        const host = new URL(url).hostname;
        if (await quickTunnelHost(port) === host && await ready(port)) {
          if (stopped || pending !== url)
            continue;
          reported = url;
          options.onEvent({ type: "funnel.helper.ready", url });
          break;
        }
        await delay(pollMs);
      }
    } finally {
      confirming = false;
    }
  };
  const started = metricsPort.then((port) => {
    if (stopped)
      return;
    child = startWatchedProcess(options.helperPath, helperArgs(port, options.streamPort), {
      tailLines: funnelHelperOutputTailLines,
      onStderrLine: (line) => {
        if (isRateLimitedLine(line))
          rateLimited = true;
        const url = quickTunnelUrlIn(line);
        if (url !== void 0 && url !== pending) {
          pending = url;
          void confirm(port);
        }
      }
    });
    exited = child.exited.then((result) => {
      stopped = true;
      options.onEvent({ type: "funnel.helper.exited", code: result.code, signal: result.signal, rateLimited, stderrTail: result.stderrTail });
    });
  });
  return {
    get pid() {
      return child?.pid;
    },
    metricsPort,
    async stop() {
      stopped = true;
      await started.catch(() => void 0);
      child?.kill();
      await exited;
    }
  };
}
async function quickTunnelHost(port) {
  try {
    const response = await (0, import_undici.request)(`http://127.0.0.1:${port}/quicktunnel`, { headersTimeout: funnelMetricsRequestTimeoutMs, bodyTimeout: funnelMetricsRequestTimeoutMs });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return void 0;
    }
    const body = await response.body.json();
    return typeof body.hostname === "string" ? body.hostname.toLowerCase() : void 0;
  } catch {
    return void 0;
  }
}
async function ready(port) {
  try {
    const response = await (0, import_undici.request)(`http://127.0.0.1:${port}/ready`, { headersTimeout: funnelMetricsRequestTimeoutMs, bodyTimeout: funnelMetricsRequestTimeoutMs });
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  }
}
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
export {
  helperArgs,
  isRateLimitedLine,
  quickTunnelUrlIn,
  startHelperRun
};
