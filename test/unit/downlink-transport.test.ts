import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { createDownlinkTransport, type DownlinkTransport } from '../../src/services/http/downlink-transport.js'
import type { SseFrame } from '../../src/services/http/sse-reader.js'

const servers: Server[] = []
const transports: DownlinkTransport[] = []

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()))
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })))
})

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function deadUrl(): Promise<string> {
  const url = await serve(() => {})
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()))
  return url
}

function transport(baseUrl: string, mirrors: string[] = [], extra: { maxLineBytes?: number } = {}) {
  const created = createDownlinkTransport({ baseUrl, mirrors, accessToken: 'tok', version: '0.14.0', logger: silentLogger(), ...extra })
  transports.push(created)
  return created
}

/** Records one SSE attempt and resolves when it ends or fails. */
function watchEvents(link: DownlinkTransport) {
  const frames: SseFrame[] = []
  const connected: string[] = []
  let settle!: (outcome: { kind: 'ended' } | { kind: 'failed'; error: AgentError }) => void
  const outcome = new Promise<{ kind: 'ended' } | { kind: 'failed'; error: AgentError }>((resolve) => (settle = resolve))
  let onFrame: (() => void) | undefined
  const handle = link.openEvents({
    onConnected: ({ baseUrl }) => connected.push(baseUrl),
    onFrame: (frame) => {
      frames.push(frame)
      onFrame?.()
    },
    onEnded: () => settle({ kind: 'ended' }),
    onFailed: (error) => settle({ kind: 'failed', error }),
  })
  const framesReached = (count: number) =>
    new Promise<void>((resolve) => {
      if (frames.length >= count) return resolve()
      onFrame = () => {
        if (frames.length >= count) resolve()
      }
    })
  return { frames, connected, outcome, handle, framesReached }
}

const sseHead = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }

describe('downlink SSE transport', () => {
  it('reports the connection, every frame including heartbeat comments, and the end of the stream', async () => {
    const seen: IncomingMessage[] = []
    const url = await serve((request, response) => {
      seen.push(request)
      response.writeHead(200, sseHead)
      response.write('event: ping\ndata: {}\n\n')
      response.write(': ping\n\n')
      response.end('event: sync\ndata: {"reason":"x"}\n\n')
    })
    const watch = watchEvents(transport(url))
    expect(await watch.outcome).toEqual({ kind: 'ended' })
    expect(watch.connected).toEqual([url])
    expect(watch.frames.map((frame) => frame.event)).toEqual(['ping', 'ping', 'sync'])
    expect(seen[0]!.url).toBe('/api/internal/agent/events')
    expect(seen[0]!.headers.authorization).toBe('Bearer tok')
    expect(seen[0]!.headers.accept).toBe('text/event-stream')
    expect(seen[0]!.headers['x-agent-version']).toBe('0.14.0')
  })

  it('walks base_url and then each mirror in order on the initial connect', async () => {
    const dead = await deadUrl()
    const order: string[] = []
    const busy = await serve((_, response) => {
      order.push('busy')
      response.writeHead(503, { 'content-type': 'application/json' })
      response.end('{"error":"busy"}')
    })
    const good = await serve((_, response) => {
      order.push('good')
      response.writeHead(200, sseHead)
      response.end('event: ping\ndata: {}\n\n')
    })
    const watch = watchEvents(transport(dead, [busy, good]))
    expect(await watch.outcome).toEqual({ kind: 'ended' })
    expect(order).toEqual(['busy', 'good'])
    expect(watch.connected).toEqual([good])
  })

  it('fails with the base URL error when no URL of the pool accepts the stream', async () => {
    const dead = await deadUrl()
    const html = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<html>proxy</html>')
    })
    const watch = watchEvents(transport(dead, [html]))
    const outcome = await watch.outcome
    expect(outcome.kind).toBe('failed')
    expect(outcome.kind === 'failed' && outcome.error.code).toBe('MA_ERR_SERVER_UNREACHABLE')
    expect(watch.connected).toEqual([])
  })

  it('closes an over-long line as a typed failure instead of buffering it', async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, sseHead)
      response.write('event: ping\ndata: {}\n\n')
      response.write(`data: ${'x'.repeat(4096)}`)
    })
    const watch = watchEvents(transport(url, [], { maxLineBytes: 1024 }))
    const outcome = await watch.outcome
    expect(outcome.kind === 'failed' && outcome.error.code).toBe('MA_ERR_SSE_LIMIT')
    expect(watch.frames).toHaveLength(1)
  })

  it('stops reporting once closed and drops the connection', async () => {
    let closedByClient!: () => void
    const gone = new Promise<void>((resolve) => (closedByClient = resolve))
    const url = await serve((request, response) => {
      response.writeHead(200, sseHead)
      response.write('event: ping\ndata: {}\n\n')
      request.socket.on('close', () => closedByClient())
    })
    const watch = watchEvents(transport(url))
    await watch.framesReached(1)
    watch.handle.close()
    await gone
    const late = await Promise.race([watch.outcome, new Promise((resolve) => setImmediate(() => resolve('none')))])
    expect(late).toBe('none')
  })
})

describe('downlink wake transport', () => {
  function watchWake(link: DownlinkTransport) {
    return new Promise<{ kind: string; value?: unknown }>((resolve) => {
      link.openWake({
        onWake: (signal) => resolve({ kind: 'wake', value: signal }),
        onEnded: () => resolve({ kind: 'ended' }),
        onFailed: (error) => resolve({ kind: 'failed', value: error.code }),
      })
    })
  }

  it('reports a wake with its reason, a 204 as the end of the hold, and a 5xx as a failure', async () => {
    const answers: [number, string][] = [[200, '{"reason":"stream requested"}'], [204, ''], [502, '{"error":"bad gateway"}']]
    const seen: IncomingMessage[] = []
    const url = await serve((request, response) => {
      seen.push(request)
      const [status, body] = answers.shift()!
      response.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' })
      response.end(body)
    })
    const link = transport(url)
    expect(await watchWake(link)).toEqual({ kind: 'wake', value: { reason: 'stream requested' } })
    expect(await watchWake(link)).toEqual({ kind: 'ended' })
    expect(await watchWake(link)).toEqual({ kind: 'failed', value: 'MA_ERR_SERVER' })
    expect(seen[0]!.url).toBe('/api/internal/agent/wake')
    expect(seen[0]!.headers.authorization).toBe('Bearer tok')
  })

  it('holds a wake open with no client timeout until it is closed', async () => {
    let arrived!: () => void
    const held = new Promise<void>((resolve) => (arrived = resolve))
    let closedByClient!: () => void
    const gone = new Promise<void>((resolve) => (closedByClient = resolve))
    const url = await serve((request) => {
      arrived()
      request.socket.on('close', () => closedByClient())
    })
    const calls: string[] = []
    const handle = transport(url).openWake({ onWake: () => calls.push('wake'), onEnded: () => calls.push('ended'), onFailed: () => calls.push('failed') })
    await held
    handle.close()
    await gone
    await new Promise((resolve) => setImmediate(resolve))
    expect(calls).toEqual([])
  })
})
