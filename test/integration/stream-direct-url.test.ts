// Direct play of a debrid direct link against a local HTTPS upstream with a self-signed
// certificate: one HEAD at registration, no GET for HEAD requests, a fresh ranged GET per seek,
// upstream errors as 502, and the upstream request aborted when the player disconnects.
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DirectUrlUnsupportedError, UpstreamError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { createDirectUrlSource, type DirectUrlSource } from '../../src/services/media/direct-url-source.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { startHttpsUpstream, type HttpsUpstream } from '../helpers/https-upstream.js'
import { mapRegistry, patternBytes, rawRequest, testSecret, tokenFor } from './stream-kit.js'

const content = patternBytes(1024 * 1024, 11)

describe('direct play of a debrid direct link', () => {
  let upstream: HttpsUpstream
  let failing: HttpsUpstream
  let stalling: HttpsUpstream
  let server: StreamServer
  const sources: DirectUrlSource[] = []
  const sessions = mapRegistry()
  const logger = silentLogger()
  const path = (id: string, name = 'movie') => `/stream/${id}/${name}?token=${tokenFor(`stream:${id}`)}`

  async function register(id: string, from: HttpsUpstream, urlPath: string): Promise<DirectUrlSource> {
    const url = `${from.origin}${urlPath}`
    const source = await createDirectUrlSource({ url, logger, ca: from.ca })
    sources.push(source)
    sessions.add({ sessionId: id, DirectURL: url, PlayMethod: 'direct', quality: 'original', cacheId: 'a'.repeat(40) }, source)
    return source
  }

  beforeAll(async () => {
    // The upstream says octet-stream; the player must still get video/mp4 (contract 4.2).
    upstream = await startHttpsUpstream({ content, contentType: 'application/octet-stream' })
    failing = await startHttpsUpstream({ content, failGetWith: 503 })
    stalling = await startHttpsUpstream({ content, stallAfterBytes: 64 * 1024 })
    server = await createStreamServer({ host: '127.0.0.1', port: 0, logger, sessions, secret: () => testSecret })
  })

  afterAll(async () => {
    await server?.close()
    for (const source of sources) await source.dispose()
    await Promise.all([upstream?.close(), failing?.close(), stalling?.close()])
  })

  it('makes exactly one HEAD at registration and no GET until a body is read', async () => {
    const source = await register('d1', upstream, '/dl/abc123')
    expect(source.size).toBe(content.length)
    expect(upstream.count('HEAD')).toBe(1)
    expect(upstream.count('GET')).toBe(0)

    const head = await rawRequest(server.url, 'HEAD', path('d1'))
    const rangedHead = await rawRequest(server.url, 'HEAD', path('d1'), { Range: 'bytes=100-' })
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(content.length))
    expect(head.headers['content-type']).toBe('video/mp4')
    expect(rangedHead.status).toBe(206)
    expect(upstream.count('HEAD')).toBe(1)
    expect(upstream.count('GET')).toBe(0)
  })

  it('serves every seek with a fresh ranged GET and video/mp4', async () => {
    const before = upstream.count('GET')
    const first = await rawRequest(server.url, 'GET', path('d1', 'movie.mp4'), { Range: 'bytes=0-99' })
    const seek = await rawRequest(server.url, 'GET', path('d1', 'movie.mp4'), { Range: 'bytes=500000-' })
    const full = await rawRequest(server.url, 'GET', path('d1', 'movie.mp4'))

    expect(first.status).toBe(206)
    expect(first.headers['content-type']).toBe('video/mp4')
    expect(first.body.equals(content.subarray(0, 100))).toBe(true)
    expect(seek.status).toBe(206)
    expect(seek.headers['content-range']).toBe(`bytes 500000-${content.length - 1}/${content.length}`)
    expect(seek.body.equals(content.subarray(500000))).toBe(true)
    expect(full.status).toBe(200)
    expect(full.body.equals(content)).toBe(true)

    const gets = upstream.requests.filter((request) => request.method === 'GET').slice(before)
    expect(gets.map((request) => request.range)).toEqual(['bytes=0-99', `bytes=500000-${content.length - 1}`, `bytes=0-${content.length - 1}`])
    expect(upstream.count('HEAD')).toBe(1)
  })

  it('answers 502 when the upstream fails a GET', async () => {
    await register('d2', failing, '/dl/file.mp4')
    const response = await rawRequest(server.url, 'GET', path('d2'), { Range: 'bytes=0-10' })
    expect(response.status).toBe(502)
    expect(failing.count('GET')).toBe(1)
  })

  it('aborts the upstream request as soon as the player disconnects', async () => {
    await register('d3', stalling, '/dl/slow.m4v')
    const { hostname, port } = new URL(server.url)
    const socket = connect({ host: hostname, port: Number(port) })
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      // The first body bytes prove the upstream GET is streaming; then the player goes away.
      let seen = 0
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.length
        if (seen > 1024) {
          socket.destroy()
          resolve()
        }
      })
      socket.write(`GET ${path('d3', 'slow.m4v')} HTTP/1.1\r\nHost: x\r\n\r\n`)
    })
    const request = stalling.requests.find((entry) => entry.method === 'GET')
    expect(request).toBeDefined()
    await request!.abandoned
  })

  it('refuses links to other containers before any request is made', async () => {
    const before = upstream.requests.length
    await expect(createDirectUrlSource({ url: `${upstream.origin}/dl/movie.mkv`, logger, ca: upstream.ca })).rejects.toBeInstanceOf(DirectUrlUnsupportedError)
    await expect(createDirectUrlSource({ url: `${upstream.origin.replace('https:', 'http:')}/dl/movie.mp4`, logger })).rejects.toBeInstanceOf(DirectUrlUnsupportedError)
    expect(upstream.requests.length).toBe(before)
  })

  it('refuses a host whose certificate the trust store does not know', async () => {
    await expect(createDirectUrlSource({ url: `${upstream.origin}/dl/movie.mp4`, logger })).rejects.toBeInstanceOf(UpstreamError)
  })
})
