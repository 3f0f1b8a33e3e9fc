import { createServer, type Server } from 'node:http'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { adminClient, daemonNotRunning, exitDaemonNotRunning } from '../../src/cli/admin-client.js'
import type { AgentConfig } from '../../src/config/schema.js'
import { adminTokenFileName } from '../../src/config/defaults.js'

// The CLI's side of the admin API against a plain node:http server standing in for the daemon:
// what a person sees for each kind of answer (docs/errors.md).

let dir: string
let server: Server | undefined
let openConnections = 0

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-admin-client-'))
  await writeFile(join(dir, adminTokenFileName), 'secret-token\n', { mode: 0o600 })
})

afterEach(async () => {
  if (server !== undefined) await new Promise((resolve) => server!.close(resolve))
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

async function daemonAnswering(status: number, body: string): Promise<AgentConfig> {
  server = createServer((request, response) => {
    const authorized = request.headers.authorization === 'Bearer secret-token'
    response.writeHead(authorized ? status : 401, { 'content-type': 'application/json' })
    response.end(authorized ? body : '{"error":"unauthorized"}')
  })
  server.on('connection', (socket) => {
    openConnections += 1
    socket.once('close', () => { openConnections -= 1 })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return configFor(address.port)
}

function configFor(port: number): AgentConfig {
  return { admin: { listen: { host: '127.0.0.1', port } }, daemon: { stateDir: dir } } as unknown as AgentConfig
}

function stderrSink(): { stream: Writable; text: () => string } {
  let text = ''
  const stream = new Writable({ write(chunk, _encoding, done) { text += String(chunk); done() } })
  return { stream, text: () => text }
}

describe('the CLI admin client', () => {
  it('returns the JSON of a 200 answer and leaves no connection open behind it', async () => {
    const client = adminClient(await daemonAnswering(200, '{"running":true,"tasks":2}'))
    await expect(client.get('/api/status')).resolves.toEqual({ running: true, tasks: 2 })
    await expect(client.post('/api/torrents/recheck', { task: '1' })).resolves.toEqual({ running: true, tasks: 2 })
    await expect(client.getText('/metrics')).resolves.toBe('{"running":true,"tasks":2}')
    await expect.poll(() => openConnections).toBe(0)
  })

  it('says a route the daemon does not know is a daemon older than the command, not "not running"', async () => {
    const client = adminClient(await daemonAnswering(404, '{"error":"not_found"}'))
    const error = await client.post('/api/encoders/reprobe').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'MA_ERR_ADMIN_REQUEST', details: { status: 404, path: '/api/encoders/reprobe' } })
    expect((error as Error).message).toContain('answered 404 to POST /api/encoders/reprobe')
    expect((error as Error).message).toContain('older than this command')
    // The commands' "not running" catch lets it through to the CLI's handler (exit 1, not 3).
    const stderr = stderrSink()
    expect(() => daemonNotRunning(error, stderr.stream)).toThrow(error as Error)
    expect(stderr.text()).toBe('')
  })

  it("carries the daemon's own reason for a refused request, on one line", async () => {
    const client = adminClient(await daemonAnswering(400, '{"error":"bad_request","message":"task must be\\n a task id or an info hash"}'))
    await expect(client.post('/api/torrents/recheck', { task: '' })).rejects.toThrow(/answered 400 to POST \/api\/torrents\/recheck: task must be a task id or an info hash$/)
  })

  it('says a 200 answer that is not JSON is one, naming what came back', async () => {
    const client = adminClient(await daemonAnswering(200, '<html>a proxy page</html>'))
    await expect(client.get('/api/status')).rejects.toMatchObject({ code: 'MA_ERR_ADMIN_REQUEST', message: expect.stringContaining('with something that is not JSON: <html>a proxy page</html>') })
  })

  it('gives up on a daemon that sent its headers and then stalled, within the timeout, instead of waiting for ever', async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"running":')
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const error = await adminClient(configFor(address.port)).post('/api/update', {}, { timeoutMs: 300 }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'MA_ERR_ADMIN_REQUEST', details: { status: 200, path: '/api/update' } })
    expect((error as Error).message).toContain('stopped answering POST /api/update mid-answer')
    server.closeAllConnections()
  })

  it('says the token was refused when the daemon answers 401', async () => {
    const config = await daemonAnswering(200, '{}')
    await writeFile(join(dir, adminTokenFileName), 'another-token\n')
    await expect(adminClient(config).get('/api/status')).rejects.toMatchObject({ code: 'MA_ERR_ADMIN_AUTH' })
  })

  it('says "not running" (exit 3) when nothing answers or no token was written', async () => {
    await daemonAnswering(200, '{}')
    const address = server!.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    await new Promise((resolve) => server!.close(resolve))
    server = undefined
    const refused = await adminClient(configFor(port)).get('/api/status').catch((caught: unknown) => caught)
    expect(refused).toMatchObject({ code: 'MA_ERR_DAEMON_NOT_RUNNING' })
    const stderr = stderrSink()
    expect(daemonNotRunning(refused, stderr.stream)).toBe(exitDaemonNotRunning)
    expect(stderr.text()).toContain(`nothing answers at http://127.0.0.1:${port}`)

    await rm(join(dir, adminTokenFileName))
    await expect(adminClient(configFor(port)).get('/api/status')).rejects.toThrow(/no admin token at/)
  })
})
