// Every miss of the stream server is the same 404, byte for byte (contract 5.2, 7; protocol.md 2):
// bad MAC, expiry, another session's or another path's token, unknown sessions, missing files,
// traversal (plain, percent-encoded, through symlinks), wrong methods, routes not there yet.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import type { Thumbnailer } from '../../src/services/ffmpeg/thumbnail.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { thumbScope } from '../../src/server/routes/thumbnail.js'
import { mapRegistry, rawRequest, testSecret, tokenFor, type RawResponse } from './stream-kit.js'

const fakeJpeg = Buffer.from([0xff, 0xd8, 0x00, 0xff, 0xd9])
const fakeThumbnailer: Thumbnailer = { extract: () => Promise.resolve(fakeJpeg) }

describe('the stream server gives nothing away to a request it will not serve', () => {
  let dir: string
  let lib: string
  let server: StreamServer
  let reference: RawResponse
  const expired = Math.floor(Date.now() / 1000) - 3600

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-security-'))
    lib = join(dir, 'lib')
    await mkdir(lib)
    await mkdir(join(dir, 'private'))
    await writeFile(join(lib, 'movie.mp4'), 'movie bytes')
    await writeFile(join(lib, 'other.mp4'), 'other bytes')
    await writeFile(join(dir, 'private', 'secret.mp4'), 'secret bytes')
    await symlink(join(dir, 'private', 'secret.mp4'), join(lib, 'escape.mp4'))
    await symlink(join(dir, 'private'), join(lib, 'escape-dir'))
    const sessions = mapRegistry()
    sessions.add({ sessionId: 's1', filePath: join(lib, 'movie.mp4'), PlayMethod: 'direct', quality: 'original' }, createLocalFileSource(join(lib, 'movie.mp4')))
    sessions.add({ sessionId: 's2', filePath: join(lib, 'other.mp4'), PlayMethod: 'direct', quality: 'original' }, createLocalFileSource(join(lib, 'other.mp4')))
    sessions.add({ sessionId: 'gone', filePath: join(lib, 'deleted.mp4'), PlayMethod: 'direct', quality: 'original' }, createLocalFileSource(join(lib, 'deleted.mp4')))
    sessions.add({ sessionId: 'h1', filePath: join(lib, 'movie.mp4'), PlayMethod: 'hls', quality: '720p' }, createLocalFileSource(join(lib, 'movie.mp4')))
    server = await createStreamServer({
      host: '127.0.0.1', port: 0, logger: silentLogger(), sessions, secret: () => testSecret,
      thumbnailer: fakeThumbnailer, allowedRoots: () => [lib],
    })
    reference = await rawRequest(server.url, 'GET', '/no-such-route')
  })

  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const thumb = (path: string, token: string, extra = '&t=1') => `/thumbnail?path=${encodeURIComponent(path)}${extra}&token=${token}`

  it('serves the same session and thumbnail when the token is right (the misses below are not vacuous)', async () => {
    const stream = await rawRequest(server.url, 'GET', `/stream/s1/movie.mp4?token=${tokenFor('stream:s1')}`)
    expect(stream.status).toBe(200)
    expect(stream.body.toString()).toBe('movie bytes')
    const image = await rawRequest(server.url, 'GET', thumb(join(lib, 'movie.mp4'), tokenFor(thumbScope(join(lib, 'movie.mp4')))))
    expect(image.status).toBe(200)
    expect(reference.status).toBe(404)
    expect(reference.head).not.toMatch(/^date:/im)
  })

  const misses: { name: string; method?: string; path: () => string }[] = [
    { name: 'a token signed with another secret', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1', { secret: 'another secret' })}` },
    { name: 'an expired token', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1', { expiresAtSeconds: expired })}` },
    { name: "another session's token", path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s2')}` },
    { name: 'no token', path: () => '/stream/s1/movie.mp4' },
    { name: 'two tokens', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1')}&token=${tokenFor('stream:s1')}` },
    { name: 'a mangled token', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1').slice(0, -2)}xx` },
    { name: 'an unknown session with its own valid token', path: () => `/stream/nope/movie.mp4?token=${tokenFor('stream:nope')}` },
    { name: 'a session whose file is gone', path: () => `/stream/gone/deleted.mp4?token=${tokenFor('stream:gone')}` },
    { name: 'an HLS session on the direct-play route', path: () => `/stream/h1/movie.mp4?token=${tokenFor('stream:h1')}` },
    { name: 'POST with a valid token', method: 'POST', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1')}` },
    { name: 'DELETE with a valid token', method: 'DELETE', path: () => `/stream/s1/movie.mp4?token=${tokenFor('stream:s1')}` },
    { name: 'dot-dot segments after the session', path: () => `/stream/s1/../../etc/passwd?token=${tokenFor('stream:s1')}` },
    { name: 'percent-encoded dot-dot and slashes', path: () => `/stream/s1/..%2f..%2fetc%2fpasswd?token=${tokenFor('stream:s1')}` },
    { name: 'a percent-encoded dot-dot session', path: () => `/stream/%2e%2e/movie.mp4?token=${tokenFor('stream:..')}` },
    { name: 'a broken percent escape', path: () => `/stream/s1/%E0%A4%A?token=${tokenFor('stream:s1')}` },
    { name: 'an HLS path (not served yet)', path: () => `/hls/s1/${tokenFor('hls:s1')}/master.m3u8` },
    { name: 'a thumb token for one path used on another', path: () => thumb(join(lib, 'other.mp4'), tokenFor(thumbScope(join(lib, 'movie.mp4')))) },
    { name: 'an expired thumb token', path: () => thumb(join(lib, 'movie.mp4'), tokenFor(thumbScope(join(lib, 'movie.mp4')), { expiresAtSeconds: expired })) },
    { name: 'a stream token on a thumbnail', path: () => thumb(join(lib, 'movie.mp4'), tokenFor('stream:s1')) },
    { name: 'a thumbnail path with dot-dot out of the library', path: () => { const p = `${lib}/../private/secret.mp4`; return thumb(p, tokenFor(thumbScope(p))) } },
    { name: 'a thumbnail path with percent-encoded dot-dot', path: () => { const p = `${lib}/%2e%2e/private/secret.mp4`; return `/thumbnail?path=${p}&t=1&token=${tokenFor(thumbScope(decodeURIComponent(p)))}` } },
    { name: 'a symlink in the library pointing out of it', path: () => { const p = join(lib, 'escape.mp4'); return thumb(p, tokenFor(thumbScope(p))) } },
    { name: 'a file under a symlinked directory pointing out', path: () => { const p = join(lib, 'escape-dir', 'secret.mp4'); return thumb(p, tokenFor(thumbScope(p))) } },
    { name: 'a directory as thumbnail path', path: () => thumb(lib, tokenFor(thumbScope(lib))) },
    { name: 'a relative thumbnail path', path: () => thumb('lib/movie.mp4', tokenFor(thumbScope('lib/movie.mp4'))) },
    { name: 'a device as thumbnail path', path: () => thumb('/dev/zero', tokenFor(thumbScope('/dev/zero'))) },
    { name: 'HEAD on the thumbnail route', method: 'HEAD', path: () => thumb(join(lib, 'movie.mp4'), tokenFor(thumbScope(join(lib, 'movie.mp4')))) },
  ]

  it.each(misses)('answers $name with the byte-identical 404', async ({ method = 'GET', path }) => {
    const response = await rawRequest(server.url, method, path())
    if (method === 'HEAD') {
      expect(response.head).toBe(reference.head)
      expect(response.body.length).toBe(0)
      return
    }
    expect(response.head).toBe(reference.head)
    expect(response.body.equals(reference.body)).toBe(true)
  })
})
