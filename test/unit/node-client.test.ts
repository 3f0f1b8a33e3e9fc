import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpClient, type HttpClient } from '../../src/services/http/node-client.js'

const servers: Server[] = []
const clients: HttpClient[] = []

const children: ChildProcess[] = []

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const client of clients.splice(0)) client.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })))
})

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
}

/**
 * A port that never completes a TCP handshake: a listener with a backlog of 0 that never accepts,
 * its queue filled by its own two connections, so the kernel drops further SYNs (what a firewall
 * dropping packets looks like). Python, because a Node server always accepts.
 */
async function blackholePort(): Promise<number> {
  const child = spawn('python3', ['-c', [
    'import socket, sys, time',
    "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)",
    'held = []',
    'for _ in range(2):',
    '    c = socket.socket(); c.setblocking(False)',
    "    try: c.connect(s.getsockname())",
    '    except BlockingIOError: pass',
    '    held.append(c)',
    'time.sleep(0.2); print(s.getsockname()[1], flush=True); time.sleep(600)',
  ].join('\n')], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const [line] = await once(child.stdout!, 'data') as [Buffer]
  return Number(line.toString().trim())
}

function client(): HttpClient {
  const created = createHttpClient()
  clients.push(created)
  return created
}

describe('the control plane HTTP client (node:http)', () => {
  it('keeps the connection alive between calls and sends the body with its length', async () => {
    const sockets = new Set<Socket>()
    const bodies: string[] = []
    const url = await serve((request, response) => {
      sockets.add(request.socket)
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        bodies.push(`${request.headers['content-length']}:${body}`)
        response.end('ok')
      })
    })
    const http = client()
    for (const payload of ['{"a":1}', '{"b":22}']) {
      const response = await http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })
      expect(response.statusCode).toBe(200)
      expect(await response.text()).toBe('ok')
    }
    expect(bodies).toEqual(['7:{"a":1}', '8:{"b":22}'])
    expect(sockets.size).toBe(1)
  })

  it('sends a call once more on a new connection when the kept-alive one was dropped as it was reused', async () => {
    const served = new WeakSet<Socket>()
    let requests = 0
    const url = await serve((request, response) => {
      requests += 1
      // A server that closed the idle connection just as the client reused it.
      if (served.has(request.socket)) return void request.socket.destroy()
      served.add(request.socket)
      response.end(`answer ${requests}`)
    })
    const http = client()
    expect(await (await http.request(url, { method: 'GET', headers: {} })).text()).toBe('answer 1')
    expect(await (await http.request(url, { method: 'GET', headers: {} })).text()).toBe('answer 3')
    expect(requests).toBe(3)
  })

  it('does not repeat a call whose fresh connection was dropped', async () => {
    let requests = 0
    const url = await serve((request) => {
      requests += 1
      request.socket.destroy()
    })
    await expect(client().request(url, { method: 'POST', headers: {}, body: '{}' })).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(requests).toBe(1)
  })

  it('fails with a TimeoutError when the response headers do not come in time, and aborts on its signal', async () => {
    const url = await serve(() => {})
    const http = client()
    await expect(http.request(url, { method: 'GET', headers: {}, headersTimeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' })
    const controller = new AbortController()
    const pending = http.request(url, { method: 'GET', headers: {}, signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })


  it('fails with a TimeoutError when a new connection is not established in time', async () => {
    const url = new URL(`http://127.0.0.1:${await blackholePort()}/wake`)
    await expect(client().request(url, { method: 'GET', headers: {}, connectTimeoutMs: 200 }))
      .rejects.toMatchObject({ name: 'TimeoutError', message: 'no connection within 200 ms' })
  })
  it('cuts calls in flight when destroyed', async () => {
    let arrived!: () => void
    const atServer = new Promise<void>((resolve) => (arrived = resolve))
    const url = await serve(() => arrived())
    const http = client()
    const pending = http.request(url, { method: 'GET', headers: {} })
    await atServer
    http.destroy()
    await expect(pending).rejects.toThrow()
  })
})
