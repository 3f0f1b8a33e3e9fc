import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ffmpegStderrTailLines
} from "./chunk-4XQBZWSZ.js";

// dist/services/hls/process.js
import { spawn } from "node:child_process";
var watchdogScript = 'exec 3<&0; "$@" </dev/null 3<&- & c=$!; (cat <&3 >/dev/null; kill -9 $c 2>/dev/null) & exec 3<&-; wait $c; r=$?; exit $r';
function startWatchedProcess(binary, args, options = {}) {
  const tailLines = options.tailLines ?? ffmpegStderrTailLines;
  const child = spawn("/bin/sh", ["-c", watchdogScript, "sh", binary, ...args], {
    detached: true,
    stdio: ["pipe", options.captureStdout ? "pipe" : "ignore", "pipe"]
  });
  let stdout = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  const tail = [];
  let partial = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk) => {
    const lines = (partial + chunk).split(/\r?\n|\r/);
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "")
        continue;
      tail.push(line);
      if (tail.length > tailLines)
        tail.shift();
      options.onStderrLine?.(line);
    }
  });
  child.stdin?.on("error", () => {
  });
  let killed = false;
  const killGroup = () => {
    if (child.pid === void 0)
      return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
      }
    }
  };
  const exited = new Promise((resolve) => {
    child.once("error", (err) => {
      tail.push(`cannot start ${binary}: ${err.message}`);
      resolve({ code: 127, signal: null, stderrTail: [...tail] });
    });
    child.once("close", (code, signal) => {
      if (partial.trim() !== "")
        tail.push(partial);
      killGroup();
      child.stdin?.destroy();
      resolve({ code, signal, stderrTail: tail.slice(-tailLines), ...options.captureStdout ? { stdout } : {} });
    });
  });
  return {
    pid: child.pid,
    exited,
    kill() {
      if (killed)
        return;
      killed = true;
      killGroup();
    }
  };
}

export {
  startWatchedProcess
};
