// One run of the tunnel helper (protocol.md 7.4): started as
//   <helper> tunnel --no-autoupdate --metrics 127.0.0.1:<port> --url http://127.0.0.1:<stream port>
// The URL is the first https://<name>.trycloudflare.com the helper writes (cloudflared logs to
// stderr), confirmed by GET /quicktunnel on its metrics address, and reported only once GET
// /ready there answers 200 (a connection to the provider's edge is up). A later, different URL in
// its output (the provider rotated the tunnel) is confirmed and reported the same way.
//
// The process runs under the same watchdog as ffmpeg (src/services/hls/process.ts), so it dies
// with the agent however the agent dies, and is killed by process group, never by name.
import { createServer } from 'node:net'
import { request } from 'undici'
import { funnelHelperOutputTailLines, funnelMetricsRequestTimeoutMs, funnelReadyPollMs } from '../../config/defaults.js'
import { startWatchedProcess, type ManagedProcess } from '../hls/process.js'

export type HelperRunEvent =
  | { type: 'funnel.helper.ready'; url: string }
  | { type: 'funnel.helper.exited'; code: number | null; signal: string | null; rateLimited: boolean; stderrTail: string[] }

export interface HelperRunOptions {
  helperPath: string
  streamPort: number
  /** Metrics port; a free loopback port is picked when absent. */
  metricsPort?: number
  onEvent(event: HelperRunEvent): void
  pollMs?: number
}

export interface HelperRun {
  readonly pid: number | undefined
  readonly metricsPort: Promise<number>
  /** Kills the helper's process group; resolves once it has exited. */
  stop(): Promise<void>
}

const quickTunnelUrl = /https:\/\/((?!api\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\.trycloudflare\.com/i
// cloudflared's words when the provider refuses a quick tunnel for too many requests.
const rateLimitedLine = /429 Too Many Requests|status_code="?429|error code:? ?1015/i

export function helperArgs(metricsPort: number, streamPort: number): string[] {
  return ['tunnel', '--no-autoupdate', '--metrics', `127.0.0.1:${metricsPort}`, '--url', `http://127.0.0.1:${streamPort}`]
}

/** The first quick-tunnel URL in a line of helper output, lower-cased, or undefined. */
export function quickTunnelUrlIn(line: string): string | undefined {
  const match = quickTunnelUrl.exec(line)
  return match ? `https://${match[1]!.toLowerCase()}.trycloudflare.com` : undefined
}

export function isRateLimitedLine(line: string): boolean {
  return rateLimitedLine.test(line)
}

export function startHelperRun(options: HelperRunOptions): HelperRun {
  const pollMs = options.pollMs ?? funnelReadyPollMs
  let child: ManagedProcess | undefined
  let stopped = false
  let rateLimited = false
  let pending: string | undefined
  let reported: string | undefined
  let confirming = false
  let exited: Promise<unknown> = Promise.resolve()

  const metricsPort = options.metricsPort !== undefined ? Promise.resolve(options.metricsPort) : freeLoopbackPort()

  const confirm = async (port: number) => {
    if (confirming) return
    confirming = true
    try {
      while (!stopped && pending !== undefined && pending !== reported) {
        const url = pending
        const host = new URL(url).hostname
        if ((await quickTunnelHost(port)) === host && (await ready(port))) {
          if (stopped || pending !== url) continue
          reported = url
          options.onEvent({ type: 'funnel.helper.ready', url })
          break
        }
        await delay(pollMs)
      }
    } finally {
      confirming = false
    }
  }

  const started = metricsPort.then((port) => {
    if (stopped) return
    child = startWatchedProcess(options.helperPath, helperArgs(port, options.streamPort), {
      tailLines: funnelHelperOutputTailLines,
      onStderrLine: (line) => {
        if (isRateLimitedLine(line)) rateLimited = true
        const url = quickTunnelUrlIn(line)
        if (url !== undefined && url !== pending) {
          pending = url
          void confirm(port)
        }
      },
    })
    exited = child.exited.then((result) => {
      stopped = true
      options.onEvent({ type: 'funnel.helper.exited', code: result.code, signal: result.signal, rateLimited, stderrTail: result.stderrTail })
    })
  })

  return {
    get pid() {
      return child?.pid
    },
    metricsPort,
    async stop() {
      stopped = true
      await started.catch(() => undefined)
      child?.kill()
      await exited
    },
  }
}

async function quickTunnelHost(port: number): Promise<string | undefined> {
  try {
    const response = await request(`http://127.0.0.1:${port}/quicktunnel`, { headersTimeout: funnelMetricsRequestTimeoutMs, bodyTimeout: funnelMetricsRequestTimeoutMs })
    if (response.statusCode !== 200) {
      await response.body.dump()
      return undefined
    }
    const body = (await response.body.json()) as { hostname?: unknown }
    return typeof body.hostname === 'string' ? body.hostname.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

async function ready(port: number): Promise<boolean> {
  try {
    const response = await request(`http://127.0.0.1:${port}/ready`, { headersTimeout: funnelMetricsRequestTimeoutMs, bodyTimeout: funnelMetricsRequestTimeoutMs })
    await response.body.dump()
    return response.statusCode === 200
  } catch {
    return false
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
