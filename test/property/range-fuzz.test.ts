// Fuzzing the stream server's parsers and the server itself: whatever the Range header, request
// target, token or query, nothing throws and every answer is a clean status.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'
import { decideRange } from '../../src/server/routes/range.js'
import { parseRequestTarget } from '../../src/server/routes/request-target.js'
import { thumbScope } from '../../src/server/routes/thumbnail.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import type { Thumbnailer } from '../../src/services/ffmpeg/thumbnail.js'
import { mapRegistry, rawRequest, testSecret, tokenFor } from '../integration/stream-kit.js'

const rangeish = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[bB]ytes= ?[-0-9, ]{0,40}$/),
  fc.array(fc.tuple(fc.option(fc.nat({ max: 20_000 })), fc.option(fc.nat({ max: 20_000 }))), { minLength: 1, maxLength: 70 })
    .map((pairs) => `bytes=${pairs.map(([a, b]) => `${a ?? ''}-${b ?? ''}`).join(',')}`),
)

describe('range parsing', () => {
  it('never throws and only yields ranges inside the file, within the limit and the size', () => {
    fc.assert(fc.property(rangeish, fc.nat({ max: 50_000 }), fc.option(fc.string()), fc.integer({ min: 0, max: 70 }), (range, size, ifRange, maxRanges) => {
      const decision = decideRange({ range, ifRange: ifRange ?? undefined, size, etag: '"a-b"', lastModified: new Date(0), maxRanges })
      if (decision.kind !== 'partial') return
      expect(decision.ranges.length).toBeGreaterThan(0)
      expect(decision.ranges.length).toBeLessThanOrEqual(maxRanges)
      let total = 0
      for (const { start, end } of decision.ranges) {
        expect(Number.isSafeInteger(start) && Number.isSafeInteger(end)).toBe(true)
        expect(0 <= start && start <= end && end < size).toBe(true)
        total += end - start + 1
      }
      expect(total).toBeLessThanOrEqual(size)
    }), { numRuns: 2000 })
  })

  it('parses any request target without throwing and never yields a segment that leaves its place', () => {
    const pieces = fc.constantFrom('/', '.', '..', '%2e', '%2E', '%2f', '%5c', '%00', '%', '%zz', '?', '&', '=', 'stream', 'token', 'a', '+', '#')
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(pieces).map((parts) => `/${parts.join('')}`)), (url) => {
      const target = parseRequestTarget(url)
      if (target === undefined) return
      for (const segment of target.segments) {
        expect(segment === '.' || segment === '..' || /[/\\\0]/.test(segment)).toBe(false)
      }
    }), { numRuns: 3000 })
  })
})

describe('the stream server under fuzzed requests', () => {
  let dir: string
  let server: StreamServer
  const clean = new Set([200, 206, 304, 400, 404, 412, 416, 422, 503])

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-fuzz-'))
    await writeFile(join(dir, 'movie.mp4'), Buffer.alloc(5000, 7))
    const sessions = mapRegistry()
    sessions.add({ sessionId: 's1', PlayMethod: 'direct', quality: 'original', filePath: join(dir, 'movie.mp4') }, createLocalFileSource(join(dir, 'movie.mp4')))
    const thumbnailer: Thumbnailer = { extract: () => Promise.resolve(Buffer.from([0xff, 0xd8, 0xff, 0xd9])) }
    server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), sessions, secret: () => testSecret, thumbnailer, allowedRoots: () => [dir] })
  })

  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('answers every fuzzed target, token and Range with a clean status and stays up', async () => {
    const goodStream = `token=${tokenFor('stream:s1')}`
    const visible = fc.stringMatching(/^[!-~]{0,30}$/)
    const target = fc.oneof(
      fc.tuple(fc.constantFrom('/stream/s1/', '/stream/', '/thumbnail', '/hls/s1/', '/'), visible, fc.constantFrom(goodStream, 'token=', 'token=v1.1.x', ''), visible)
        .map(([prefix, middle, token, tail]) => `${prefix}${middle}?${token}&${tail}`),
      fc.tuple(visible, fc.constantFrom('0', '1.5', '-1', 'x', '99999999'), fc.constantFrom('', '&w=100', '&w=0', '&w=x'))
        .map(([path, t, w]) => `/thumbnail?path=${encodeURIComponent(`${dir}/${path}`)}&t=${t}${w}&token=${tokenFor(thumbScope(`${dir}/${path}`))}`),
      visible.map((text) => `/${text}`),
    )
    const range = fc.option(fc.stringMatching(/^[ -~]{0,60}$/).map((text) => text.trim()).filter((text) => text.length > 0))
    const method = fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'PUT')
    await fc.assert(fc.asyncProperty(target, range, method, async (path, rangeHeader, verb) => {
      const headers: Record<string, string> = rangeHeader === null ? {} : { Range: rangeHeader }
      const response = await rawRequest(server.url, verb, path.replaceAll(' ', '%20'), headers)
      expect(clean.has(response.status), `${verb} ${path} -> ${response.status}`).toBe(true)
    }), { numRuns: 400 })
    const after = await rawRequest(server.url, 'GET', `/stream/s1/movie.mp4?${goodStream}`)
    expect(after.status).toBe(200)
  })
})
