// The stream server's Range, If-Range, HEAD and conditional answers, request by request against a
// real nginx serving the same file. Deliberate differences are listed in docs/stream-server.md
// (multipart boundaries, the bodies of 416/412 answers).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { startNginx, type RunningNginx } from '../helpers/nginx.js'
import { mapRegistry, parseMultipart, patternBytes, rawRequest, testSecret, tokenFor, type RawResponse } from './stream-kit.js'

const size = 10_000
const many = (count: number, step: number) => Array.from({ length: count }, (_, i) => `${i * step}-${i * step + 1}`).join(',')

interface Case {
  name: string
  method?: 'GET' | 'HEAD'
  headers: Record<string, string>
}

// `{etag}` and `{lastModified}` are replaced by each server's own validators.
const corpus: Case[] = [
  { name: 'no Range', headers: {} },
  { name: 'HEAD without Range', method: 'HEAD', headers: {} },
  { name: 'first byte', headers: { Range: 'bytes=0-0' } },
  { name: 'first hundred bytes', headers: { Range: 'bytes=0-99' } },
  { name: 'a middle slice', headers: { Range: 'bytes=100-199' } },
  { name: 'the last ten bytes by position', headers: { Range: 'bytes=9990-9999' } },
  { name: 'the last byte by position', headers: { Range: 'bytes=9999-9999' } },
  { name: 'open-ended from the middle', headers: { Range: 'bytes=500-' } },
  { name: 'open-ended from zero', headers: { Range: 'bytes=0-' } },
  { name: 'suffix of one byte', headers: { Range: 'bytes=-1' } },
  { name: 'suffix of 500 bytes', headers: { Range: 'bytes=-500' } },
  { name: 'suffix exactly the size', headers: { Range: 'bytes=-10000' } },
  { name: 'suffix longer than the file', headers: { Range: 'bytes=-20000' } },
  { name: 'suffix of zero bytes', headers: { Range: 'bytes=-0' } },
  { name: 'start at EOF', headers: { Range: 'bytes=10000-' } },
  { name: 'closed range past EOF', headers: { Range: 'bytes=10000-10010' } },
  { name: 'end past EOF is clamped', headers: { Range: 'bytes=9000-20000' } },
  { name: 'huge end is clamped', headers: { Range: 'bytes=0-99999999999' } },
  { name: 'start after end', headers: { Range: 'bytes=200-100' } },
  { name: 'not a number', headers: { Range: 'bytes=abc' } },
  { name: 'empty range set', headers: { Range: 'bytes=' } },
  { name: 'start without dash', headers: { Range: 'bytes=5' } },
  { name: 'unknown unit', headers: { Range: 'items=0-5' } },
  { name: 'unit in capitals', headers: { Range: 'Bytes=0-5' } },
  { name: 'two disjoint ranges', headers: { Range: 'bytes=0-5,10-15' } },
  { name: 'two overlapping ranges', headers: { Range: 'bytes=0-5,3-8' } },
  { name: 'first and last byte', headers: { Range: 'bytes=0-0,-1' } },
  { name: 'ranges out of order', headers: { Range: 'bytes=100-199,0-9' } },
  { name: 'two whole-file ranges', headers: { Range: 'bytes=0-,0-' } },
  { name: 'two halves adding up to the file', headers: { Range: 'bytes=0-4999,5000-' } },
  { name: 'two ranges one byte more than the file', headers: { Range: 'bytes=0-5000,5000-' } },
  { name: 'one satisfiable of two', headers: { Range: 'bytes=0-5,20000-30000' } },
  { name: 'no satisfiable of two', headers: { Range: 'bytes=20000-,30000-' } },
  { name: 'spaces around ranges', headers: { Range: 'bytes= 0 - 5 , 10 - 15' } },
  { name: 'trailing comma', headers: { Range: 'bytes=0-5,' } },
  { name: 'leading comma', headers: { Range: 'bytes=,0-5' } },
  { name: 'double dash', headers: { Range: 'bytes=0--5' } },
  { name: 'suffix with a second dash', headers: { Range: 'bytes=-5-6' } },
  { name: 'start beyond 2^63', headers: { Range: 'bytes=99999999999999999999-' } },
  { name: 'end beyond 2^63', headers: { Range: 'bytes=0-99999999999999999999' } },
  { name: 'exactly max_ranges small ranges', headers: { Range: `bytes=${many(64, 10)}` } },
  { name: 'one more than max_ranges', headers: { Range: `bytes=${many(65, 10)}` } },
  { name: 'If-Range with the current ETag', headers: { Range: 'bytes=0-99', 'If-Range': '{etag}' } },
  { name: 'If-Range with another ETag', headers: { Range: 'bytes=0-99', 'If-Range': '"other"' } },
  { name: 'If-Range with the weak form of the ETag', headers: { Range: 'bytes=0-99', 'If-Range': 'W/{etag}' } },
  { name: 'If-Range with the Last-Modified date', headers: { Range: 'bytes=0-99', 'If-Range': '{lastModified}' } },
  { name: 'If-Range with an old date', headers: { Range: 'bytes=0-99', 'If-Range': 'Thu, 01 Jan 1970 00:00:00 GMT' } },
  { name: 'If-Range with garbage', headers: { Range: 'bytes=0-99', 'If-Range': 'garbage' } },
  { name: 'If-Range with the ETag and a multi-range', headers: { Range: 'bytes=0-1,5-6', 'If-Range': '{etag}' } },
  { name: 'If-Range mismatch with an unsatisfiable range', headers: { Range: 'bytes=20000-', 'If-Range': '"other"' } },
  { name: 'HEAD with a range', method: 'HEAD', headers: { Range: 'bytes=0-99' } },
  { name: 'HEAD with two ranges', method: 'HEAD', headers: { Range: 'bytes=0-1,5-6' } },
  { name: 'HEAD with an unsatisfiable range', method: 'HEAD', headers: { Range: 'bytes=20000-' } },
  { name: 'If-None-Match with the ETag', headers: { 'If-None-Match': '{etag}' } },
  { name: 'If-None-Match with another ETag', headers: { 'If-None-Match': '"x"' } },
  { name: 'If-None-Match star', headers: { 'If-None-Match': '*' } },
  { name: 'If-None-Match with the ETag and a range', headers: { 'If-None-Match': '{etag}', Range: 'bytes=0-9' } },
  { name: 'If-Modified-Since the Last-Modified date', headers: { 'If-Modified-Since': '{lastModified}' } },
  { name: 'If-Modified-Since an old date', headers: { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } },
  { name: 'If-Match with another ETag', headers: { 'If-Match': '"x"' } },
  { name: 'If-Match with the ETag and a range', headers: { 'If-Match': '{etag}', Range: 'bytes=0-9' } },
  { name: 'If-Unmodified-Since an old date', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } },
  { name: 'If-Unmodified-Since the Last-Modified date', headers: { 'If-Unmodified-Since': '{lastModified}' } },
]

describe('direct play of a local file answers Range requests as nginx does', () => {
  let dir: string
  let nginx: RunningNginx
  let server: StreamServer
  let ours: { etag: string; lastModified: string }
  let theirs: { etag: string; lastModified: string }
  const content = patternBytes(size)
  const streamPath = `/stream/s1/video.mp4?token=${tokenFor('stream:s1')}`

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-range-'))
    await writeFile(join(dir, 'video.mp4'), content)
    nginx = await startNginx({ root: dir, httpDirectives: 'max_ranges 64;\n  if_modified_since before;' })
    const sessions = mapRegistry()
    sessions.add({ sessionId: 's1', filePath: join(dir, 'video.mp4'), PlayMethod: 'direct', quality: 'original' }, createLocalFileSource(join(dir, 'video.mp4')))
    server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), sessions, secret: () => testSecret })
    const ourHead = await rawRequest(server.url, 'HEAD', streamPath)
    const theirHead = await rawRequest(nginx.url, 'HEAD', '/video.mp4')
    ours = { etag: ourHead.headers.etag!, lastModified: ourHead.headers['last-modified']! }
    theirs = { etag: theirHead.headers.etag!, lastModified: theirHead.headers['last-modified']! }
  })

  afterAll(async () => {
    await server?.close()
    await nginx?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('has a corpus of at least 40 requests', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40)
  })

  it('sends the same validators as nginx for the same file', () => {
    expect(ours).toEqual(theirs)
  })

  const fill = (headers: Record<string, string>, validators: { etag: string; lastModified: string }) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('{etag}', validators.etag).replace('{lastModified}', validators.lastModified)]))

  function summary(response: RawResponse, method: string) {
    const type = response.headers['content-type'] ?? ''
    const multipart = response.status === 206 && type.startsWith('multipart/byteranges')
    const base = { status: response.status, contentRange: response.headers['content-range'] }
    if (response.status === 304 || response.status === 412) return { ...base, bodyBytes: response.body.length === 0 ? 0 : 'some' }
    if (response.status === 416) return base
    if (multipart) {
      if (method === 'HEAD') return { ...base, multipart: true, bodyBytes: response.body.length }
      const parts = parseMultipart(type, response.body).map((part) => ({ type: part.contentType, range: part.contentRange, bytes: part.data.toString('hex') }))
      return { ...base, multipart: true, parts }
    }
    return { ...base, contentLength: response.headers['content-length'], contentType: type, body: response.body.toString('hex') }
  }

  it.each(corpus)('answers "$name" like nginx', async ({ method = 'GET', headers }) => {
    const [mine, reference] = await Promise.all([
      rawRequest(server.url, method, streamPath, fill(headers, ours)),
      rawRequest(nginx.url, method, '/video.mp4', fill(headers, theirs)),
    ])
    expect(summary(mine, method)).toEqual(summary(reference, method))
    if (mine.status === 206 && (mine.headers['content-type'] ?? '').startsWith('multipart/') && method === 'GET') {
      expect(Number(mine.headers['content-length'])).toBe(mine.body.length)
    }
  })
})
