// Raw HTTP and SSE clients for the reference server tests: node:http with no connection reuse,
// so each test sees exactly the bytes the server wrote.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ClientRequest } from 'node:http'
import { gzipSync } from 'node:zlib'

export const accessToken = 'test-access-token'
export const agentVersion = '0.14.0'

export function agentHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${accessToken}`, 'x-agent-version': agentVersion, 'user-agent': `media-agent/${agentVersion}`, ...extra }
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json: any
}

export function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown; gzip?: boolean } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) }
    let payload: Buffer | undefined
    if (options.body !== undefined) {
      payload = Buffer.isBuffer(options.body) ? options.body : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body))
      if (options.gzip) {
        payload = gzipSync(payload)
        headers['content-encoding'] = 'gzip'
      }
      headers['content-type'] ??= 'application/json'
      headers['content-length'] = String(payload.length)
    }
    const req = httpRequest(url, { method: options.method ?? (payload ? 'POST' : 'GET'), headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try {
          json = text ? JSON.parse(text) : undefined
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

export interface SseFrame {
  event?: string
  data?: string
  comment?: string
  raw: string
}

function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { raw }
  const data: string[] = []
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim()
    else if (line.startsWith('event:')) frame.event = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (data.length > 0) frame.data = data.join('\n')
  return frame
}

/** An SSE reader that keeps every byte and splits frames on blank lines. */
export class RawSse {
  readonly frames: SseFrame[] = []
  bytes = ''
  readonly #waiters: ((frame: SseFrame) => void)[] = []
  #buffer = ''
  /** Resolves when the response ends: 'end' with the terminating chunk, 'aborted' when cut. */
  readonly ended: Promise<'end' | 'aborted'>

  private constructor(readonly req: ClientRequest, readonly res: IncomingMessage) {
    res.setEncoding('utf8')
    this.ended = new Promise((resolve) => {
      let aborted = false
      res.on('aborted', () => {
        aborted = true
      })
      res.on('error', () => {
        aborted = true
      })
      res.on('close', () => resolve(aborted || !res.complete ? 'aborted' : 'end'))
    })
    res.on('data', (chunk: string) => {
      this.bytes += chunk
      this.#buffer += chunk
      let index: number
      while ((index = this.#buffer.indexOf('\n\n')) >= 0) {
        const frame = parseFrame(this.#buffer.slice(0, index))
        this.#buffer = this.#buffer.slice(index + 2)
        const waiter = this.#waiters.shift()
        if (waiter) waiter(frame)
        else this.frames.push(frame)
      }
    })
  }

  static open(url: string, headers: Record<string, string> = agentHeaders()): Promise<RawSse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => resolve(new RawSse(req, res)))
      req.on('error', reject)
      req.end()
    })
  }

  get status(): number {
    return this.res.statusCode ?? 0
  }

  get headers(): IncomingHttpHeaders {
    return this.res.headers
  }

  nextFrame(timeoutMs = 5_000): Promise<SseFrame> {
    const queued = this.frames.shift()
    if (queued) return Promise.resolve(queued)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.#waiters.indexOf(waiter)
        if (index >= 0) this.#waiters.splice(index, 1)
        reject(new Error(`no SSE frame within ${timeoutMs} ms`))
      }, timeoutMs)
      const waiter = (frame: SseFrame): void => {
        clearTimeout(timer)
        resolve(frame)
      }
      this.#waiters.push(waiter)
    })
  }

  /** Skips heartbeat comments. */
  async nextEvent(timeoutMs = 5_000): Promise<SseFrame> {
    for (;;) {
      const frame = await this.nextFrame(timeoutMs)
      if (frame.event !== undefined) return frame
    }
  }

  close(): void {
    this.req.destroy()
  }
}

/** A pending long-poll wake request. */
export function holdWake(baseUrl: string, headers: Record<string, string> = agentHeaders()): Promise<RawResponse> {
  return call(`${baseUrl}/api/internal/agent/wake`, { headers })
}

export function syncBody(agentId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agentId,
    version: agentVersion,
    tasks: [],
    sessions: [],
    appliedControls: [],
    FunnelURL: '',
    VPNActive: false,
    VPNMode: 'off',
    VPNExitServer: '',
    streamServer: { port: 7890, publicUrl: 'http://127.0.0.1:7890', addresses: [{ kind: 'lan', url: 'http://127.0.0.1:7890' }] },
    ...extra,
  }
}

export function registerBody(agentId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agentId,
    version: agentVersion,
    hostname: 'nas',
    platform: { os: 'linux', arch: 'x64', node: process.versions.node, container: false },
    streamServer: { port: 7890, publicUrl: 'http://127.0.0.1:7890', addresses: [{ kind: 'lan', url: 'http://127.0.0.1:7890' }] },
    FunnelURL: '',
    VPNActive: false,
    VPNMode: 'off',
    VPNExitServer: '',
    hwAccel: {
      ffmpegVersion: '5.1.9', ffmpegPath: '/usr/bin/ffmpeg', encoders: ['libx264'], devices: [], drivers: [],
      chosenEncoder: 'libx264', maxTranscodeHeight: 1080, probeMs: 12, candidates: [],
    },
    ...extra,
  }
}
