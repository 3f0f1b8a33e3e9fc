// The tunnel helper stand-in for tests (test/fixtures/funnel/fake-cloudflared.c, documented there
// and in docs/funnel.md): compiled with gcc, padded to a realistic size (cloudflared is tens of
// MB; the agent refuses anything under funnelHelperMinBytes), and served as the release asset by
// a loopback HTTP server that streams it in slices, so concurrent downloads really overlap.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'

const source = resolve(import.meta.dirname, '..', 'fixtures', 'funnel', 'fake-cloudflared.c')

export interface FakeHelperAssets {
  /** The padded executable. */
  bytes: Buffer
  /** `http://127.0.0.1:<port>/releases/` : `[funnel] helper_url`. */
  baseUrl: string
  /** Requests per path. */
  requests: Map<string, number>
  close(): Promise<void>
}

/** Compiles the fake helper and pads it to `sizeBytes` (zeros after the ELF image run harmlessly). */
export async function buildFakeHelper(sizeBytes = 12 * 1024 * 1024): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'ma14-cf-'))
  try {
    const out = join(dir, 'cloudflared')
    execFileSync('gcc', ['-O1', '-o', out, source])
    const image = await readFile(out)
    return Buffer.concat([image, Buffer.alloc(Math.max(0, sizeBytes - image.length))])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Serves `/releases/cloudflared-linux-<arch>` (the helper) and, for refusal tests, the same
 * bytes under other names (`assets`). Each body goes out in 256 KiB slices `sliceDelayMs` apart.
 */
export async function serveFakeHelper(bytes: Buffer, options: { sliceDelayMs?: number; assets?: Record<string, Buffer> } = {}): Promise<FakeHelperAssets> {
  const requests = new Map<string, number>()
  const arch = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386' }[process.arch as 'x64'] ?? process.arch
  const assets: Record<string, Buffer> = { [`/releases/cloudflared-linux-${arch}`]: bytes }
  for (const [name, body] of Object.entries(options.assets ?? {})) assets[`/alt/${name}/cloudflared-linux-${arch}`] = body
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/'
    requests.set(path, (requests.get(path) ?? 0) + 1)
    const body = assets[path]
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
      return
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length })
    let at = 0
    const pump = () => {
      if (res.destroyed) return
      if (at >= body.length) return void res.end()
      res.write(body.subarray(at, at + 256 * 1024))
      at += 256 * 1024
      setTimeout(pump, options.sliceDelayMs ?? 0)
    }
    pump()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    bytes,
    baseUrl: `http://127.0.0.1:${port}/releases/`,
    requests,
    close: () => new Promise((done) => {
      server.closeAllConnections()
      server.close(() => done())
    }),
  }
}

/** The runs the fake helper at `path` recorded: pid and argv. */
export async function helperRuns(path: string): Promise<{ pid: number; args: string[] }[]> {
  let text = ''
  try {
    text = await readFile(`${path}.runs`, 'utf8')
  } catch {
    return []
  }
  return text.trim().split('\n').filter(Boolean).map((line) => {
    const [pid, ...args] = line.split(' ')
    return { pid: Number(pid), args }
  })
}

export async function setHelperMode(path: string, lines: string[]): Promise<void> {
  await writeFile(`${path}.mode`, `${lines.join('\n')}\n`)
}

/** Whether `pid` runs; a zombie (exited, not yet reaped: PID 1 of a container may never reap it) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}
