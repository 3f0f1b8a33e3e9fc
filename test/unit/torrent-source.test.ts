import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveTorrentSource } from '../../src/services/torrent/source.js'
import { bencode, randomTorrent } from '../helpers/torrent-fixtures.js'

const fixture = randomTorrent('movie', [40_000, 1_000])
let server: Server
let base = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/movie.torrent') return res.writeHead(200, { 'content-type': 'application/x-bittorrent' }).end(fixture.torrentFile)
    if (req.url === '/moved') return res.writeHead(302, { location: '/movie.torrent' }).end()
    if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>not a torrent</body></html>')
    if (req.url === '/corrupt') return res.writeHead(200).end(fixture.torrentFile.subarray(0, fixture.torrentFile.length - 40))
    if (req.url === '/no-info') return res.writeHead(200).end(bencode({ announce: 'http://127.0.0.1:1/announce', comment: 'no info dict here' }))
    if (req.url === '/huge') return res.writeHead(200).end(Buffer.alloc(64 * 1024))
    if (req.url === '/huge-chunked') {
      res.writeHead(200)
      for (let i = 0; i < 16; i++) res.write(Buffer.alloc(8 * 1024))
      return res.end()
    }
    res.writeHead(404).end('missing')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

async function failure(source: string, options = {}) {
  return (await resolveTorrentSource(source, options).then(() => { throw new Error('resolved') }, (err: unknown) => err)) as Error & { code: string }
}

describe('torrent sources', () => {
  it('accepts a magnet URI with its display name', async () => {
    const magnet = `magnet:?xt=urn:btih:${fixture.infoHash.toUpperCase()}&dn=My%20Movie&tr=http%3A%2F%2F127.0.0.1%3A1%2Fannounce`
    expect(await resolveTorrentSource(magnet)).toEqual({ kind: 'magnet', infoHash: fixture.infoHash, name: 'My Movie', magnetURI: magnet })
  })

  it('accepts a bare 40-hex or 32-base32 info hash', async () => {
    expect(await resolveTorrentSource(fixture.infoHash.toUpperCase())).toMatchObject({ kind: 'infohash', infoHash: fixture.infoHash })
    expect(await resolveTorrentSource('MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U')).toMatchObject({ infoHash: '6162636465666768696a6b6c6d6e6f7071727374' })
  })

  it('rejects an invalid magnet with a clear typed error', async () => {
    for (const magnet of ['magnet:?xt=urn:btih:zzz', 'magnet:?dn=only-a-name', 'magnet:']) {
      const error = await failure(magnet)
      expect(error.code).toBe('MA_ERR_TORRENT_SOURCE')
      expect(error.message).toContain('invalid magnet URI')
    }
  })

  it('rejects anything that is not a magnet, URL or info hash, and never reads local files', async () => {
    for (const source of ['/etc/passwd', 'ftp://x/y.torrent', '', 'abc']) {
      expect((await failure(source)).code).toBe('MA_ERR_TORRENT_SOURCE')
    }
  })

  it('fetches a .torrent over HTTP, following redirects', async () => {
    for (const path of ['/movie.torrent', '/moved']) {
      const resolved = await resolveTorrentSource(`${base}${path}`)
      expect(resolved).toMatchObject({ kind: 'url', infoHash: fixture.infoHash, name: 'movie' })
      expect(Buffer.from(resolved.torrentFile!)).toEqual(fixture.torrentFile)
    }
  })

  it('names the HTTP status when the URL does not serve a torrent', async () => {
    const missing = await failure(`${base}/nope.torrent`)
    expect(missing).toMatchObject({ code: 'MA_ERR_TORRENT_FETCH' })
    expect(missing.message).toContain('HTTP 404')
    const page = await failure(`${base}/page`)
    expect(page.code).toBe('MA_ERR_TORRENT_METADATA')
    expect(page.message).toContain('(HTTP 200) is not a valid .torrent file')
  })

  it('rejects a corrupt or incomplete .torrent', async () => {
    expect((await failure(`${base}/corrupt`)).code).toBe('MA_ERR_TORRENT_METADATA')
    const noInfo = await failure(`${base}/no-info`)
    expect(noInfo.code).toBe('MA_ERR_TORRENT_METADATA')
    expect(noInfo.message).toContain('info')
  })

  it('caps the size of a fetched .torrent', async () => {
    for (const path of ['/huge', '/huge-chunked']) {
      const error = await failure(`${base}${path}`, { torrentFileMaxBytes: 32 * 1024 })
      expect(error.code).toBe('MA_ERR_TORRENT_FETCH')
      expect(error.message).toContain('32768-byte limit')
    }
  })

  it('reports an unreachable URL as a retryable fetch error', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await failure(`http://127.0.0.1:${port}/x.torrent`)
    expect(error).toMatchObject({ code: 'MA_ERR_TORRENT_FETCH', retryable: true })
    expect(error.message).toContain('ECONNREFUSED')
  })
})
