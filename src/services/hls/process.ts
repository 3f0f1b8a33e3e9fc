// Starting ffmpeg for HLS so that no ffmpeg outlives the agent (docs/hls.md "Processes").
//
// Node has no PR_SET_PDEATHSIG, and a SIGKILLed daemon runs no cleanup. So ffmpeg runs under a
// tiny POSIX sh watchdog in a process group of its own (`detached`):
//
//   sh -c 'exec 3<&0; "$@" </dev/null 3<&- & c=$!; (cat <&3 >/dev/null; kill -9 $c) & wait $c'
//
// The watchdog's stdin is a pipe from the agent that the agent never writes. When the agent dies
// in any way, the kernel closes that pipe, `cat` sees end-of-file and the subshell SIGKILLs
// ffmpeg. In normal operation the agent kills the whole group (`kill(-pgid, SIGKILL)`): sh, cat
// and ffmpeg at once, by PID, in the fromCallback cleanup or when the session ends.
import { spawn, type ChildProcess } from 'node:child_process'
import { ffmpegStderrTailLines } from '../../config/defaults.js'
import { mediaToolEnv } from '../runtime/child-env.js'

export interface ManagedProcess {
  pid: number | undefined
  /** Resolves when the process has exited and its group was killed. */
  exited: Promise<{ code: number | null; signal: string | null; stderrTail: string[]; stdout?: string }>
  /** SIGKILLs the process group (idempotent). */
  kill(): void
}

// A background list of a non-interactive sh reads /dev/null unless redirected explicitly, hence fd 3.
const watchdogScript = 'exec 3<&0; "$@" </dev/null 3<&- & c=$!; (cat <&3 >/dev/null; kill -9 $c 2>/dev/null) & exec 3<&-; wait $c; r=$?; exit $r'

export function startWatchedProcess(binary: string, args: string[], options: { tailLines?: number; onStderrLine?: (line: string) => void; captureStdout?: boolean } = {}): ManagedProcess {
  const tailLines = options.tailLines ?? ffmpegStderrTailLines
  const child: ChildProcess = spawn('/bin/sh', ['-c', watchdogScript, 'sh', binary, ...args], {
    detached: true,
    stdio: ['pipe', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    env: mediaToolEnv(),
  })
  // Hardware detection reads `-version` and `-encoders` from stdout (issue 12); small, bounded by the caller's deadline.
  let stdout = ''
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk
  })
  const tail: string[] = []
  let partial = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n|\r/)
    partial = lines.pop() ?? ''
    for (const line of lines) {
      if (line.trim() === '') continue
      tail.push(line)
      if (tail.length > tailLines) tail.shift()
      options.onStderrLine?.(line)
    }
  })
  // The pipe must stay open for the watchdog; it is never written. An EPIPE after the group died is harmless.
  child.stdin?.on('error', () => {})
  let killed = false
  const killGroup = (): void => {
    if (child.pid === undefined) return
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      try {
        process.kill(child.pid, 'SIGKILL')
      } catch { /* gone */ }
    }
  }
  const exited = new Promise<{ code: number | null; signal: string | null; stderrTail: string[]; stdout?: string }>((resolve) => {
    child.once('error', (err) => {
      tail.push(`cannot start ${binary}: ${err.message}`)
      resolve({ code: 127, signal: null, stderrTail: [...tail] })
    })
    child.once('close', (code, signal) => {
      if (partial.trim() !== '') tail.push(partial)
      // The watchdog's cat (and anything else left in the group) goes with it.
      killGroup()
      child.stdin?.destroy()
      resolve({ code, signal, stderrTail: tail.slice(-tailLines), ...(options.captureStdout ? { stdout } : {}) })
    })
  })
  return {
    pid: child.pid,
    exited,
    kill() {
      if (killed) return
      killed = true
      killGroup()
    },
  }
}
