import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { mintStreamToken } from '../../src/services/auth/stream-token.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import type { SessionRegistry } from '../../src/services/sessions/registry.js'

// The local-file source reuses its read buffers once a response has gone to the kernel
// (docs/stream-server.md). A buffer handed back too early would put one player's bytes into
// another's answer. Many concurrent ranges of every size over keep-alive connections, some cut off
// by the client mid-body, with the open-file cache dropping its descriptor under them: every
// completed body must be exactly the file's bytes.

const MiB = 1024 * 1024
const size = 24 * MiB + 12_345
const data = randomBytes(size)
const secret = 'buffer-reuse-secret'
let dir = ''
let file = ''
let server: StreamServer
const urls = { inline: '', threadPool: '' }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-buffer-reuse-'))
  file = join(dir, 'film.mp4')
  await writeFile(file, data)
  // Reads on the event loop (page-cache hits) and reads in the thread pool, overlapped with the
  // socket's writes: two sessions on the same file, one per way.
  const sources = {
    inline: createLocalFileSource(file, { openCacheMs: 200 }),
    threadPool: createLocalFileSource(file, { openCacheMs: 200, inlineReadBytes: 0 }),
  }
  const sessions: SessionRegistry = {
    get: (id) => (id === 'inline' || id === 'threadPool' ? { session: { sessionId: id, PlayMethod: 'direct', quality: 'original', filePath: file }, source: sources[id] } : undefined),
  }
  server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), secret: () => secret, sessions })
  for (const id of ['inline', 'threadPool'] as const) {
    const token = mintStreamToken({ secret, scope: `stream:${id}`, expiresAtSeconds: Math.floor(Date.now() / 1000) + 3600 })
    urls[id] = `${server.url}/stream/${id}/film.mp4?token=${token}`
  }
})

afterAll(async () => {
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

// Deterministic pseudo-random ranges, so a failure can be replayed.
function rangeFor(i: number): { start: number; end: number; abort: boolean } {
  const mix = (i * 2_654_435_761) >>> 0
  const lengths = [1 + (mix % 70_000), MiB, 1 + (mix % (3 * MiB)), 64 * 1024 + 1, 1 + (mix % MiB)]
  const length = lengths[i % lengths.length]!
  const start = Math.min(mix % size, size - length)
  return { start, end: start + length - 1, abort: i % 7 === 3 }
}

function fetchRange(agent: Agent, i: number, url: string): Promise<'ok' | 'aborted' | { bad: string }> {
  const { start, end, abort } = rangeFor(i)
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { range: `bytes=${start}-${end}` } }, (res) => {
      const chunks: Buffer[] = []
      let paused = false
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        if (abort) req.destroy()
        // A slow player: the server's answer waits in its socket's write queue meanwhile,
        // which is exactly when a buffer handed back too early would be overwritten.
        if (i % 3 === 0 && !paused) {
          paused = true
          res.pause()
          setTimeout(() => res.resume(), 15)
        }
      })
      res.on('end', () => {
        const body = Buffer.concat(chunks)
        resolve(res.statusCode === 206 && body.equals(data.subarray(start, end + 1)) ? 'ok' : { bad: `request ${i} bytes=${start}-${end}: status ${res.statusCode}, ${body.length} bytes` })
      })
      res.on('aborted', () => resolve('aborted'))
      res.on('error', () => resolve('aborted'))
    })
    req.on('error', () => resolve('aborted'))
    req.end()
  })
}

describe('reused read buffers', () => {
  it('never put one answer\'s bytes into another, with concurrent, cut-off and expiring-cache requests, inline and thread-pool reads', async () => {
    // A descriptor is kept while its file is unchanged; touching the file makes the cache drop
    // and reopen it under the running requests every revalidation.
    let touches = 0
    const toucher = setInterval(() => {
      const at = new Date(Date.now() - 1000 * ++touches)
      void utimes(file, at, at).catch(() => undefined)
    }, 100)
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const results: Awaited<ReturnType<typeof fetchRange>>[] = []
    let next = 0
    const total = 1200
    await Promise.all(Array.from({ length: 8 }, async (_, worker) => {
      const url = worker % 2 === 0 ? urls.inline : urls.threadPool
      while (next < total) results.push(await fetchRange(agent, next++, url))
    }))
    clearInterval(toucher)
    agent.destroy()
    const bad = results.filter((result) => typeof result === 'object')
    expect(bad).toEqual([])
    expect(results.filter((result) => result === 'ok').length).toBeGreaterThan(total * 0.8)
  })
})
