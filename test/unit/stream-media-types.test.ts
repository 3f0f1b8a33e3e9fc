import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createSessionSource } from '../../src/services/media/session-source.js'
import { contentTypeForName } from '../../src/services/media/byte-source.js'
import { directUrlRejection } from '../../src/services/media/direct-url-source.js'

describe('media types of direct play', () => {
  it('serves mp4 and m4v as video/mp4 and other containers by their own type', () => {
    expect(contentTypeForName('/a/Movie.MP4')).toBe('video/mp4')
    expect(contentTypeForName('clip.m4v')).toBe('video/mp4')
    expect(contentTypeForName('film.mkv')).toBe('video/x-matroska')
    expect(contentTypeForName('film.webm')).toBe('video/webm')
    expect(contentTypeForName('film.avi')).toBe('video/x-msvideo')
    expect(contentTypeForName('film.ts')).toBe('video/mp2t')
    expect(contentTypeForName('no-extension')).toBe('application/octet-stream')
  })

  it('accepts https debrid links to mp4, m4v or no extension and refuses other containers', () => {
    expect(directUrlRejection('https://cdn.example/dl/ABC/Movie.mp4?sig=1')).toBeUndefined()
    expect(directUrlRejection('https://cdn.example/dl/ABC/Movie.M4V')).toBeUndefined()
    expect(directUrlRejection('https://cdn.example/dl/ABC123')).toBeUndefined()
    expect(directUrlRejection('https://cdn.example/dl/Movie.mkv')).toMatch(/\.mkv/)
    expect(directUrlRejection('https://cdn.example/dl/Movie%2Eavi')).toMatch(/\.avi/)
    expect(directUrlRejection('http://cdn.example/dl/Movie.mp4')).toMatch(/https/)
    expect(directUrlRejection('not a url')).toBeDefined()
  })
})

describe('choosing the source of a direct-play session', () => {
  it('reads a local path from disk and a path the torrent engine still downloads from the engine', async () => {
    const base = { sessionId: 's', PlayMethod: 'direct', quality: 'original' }
    const local = await createSessionSource({ ...base, filePath: '/media/a.mp4' }, { logger: silentLogger() })
    expect(local.source.label).toBe('file:a.mp4')
    const provider = { createReadStream: () => Readable.from([]) }
    const torrent = await createSessionSource({ ...base, filePath: '/dl/b.mkv' }, {
      logger: silentLogger(),
      inProgress: (path) => (path === '/dl/b.mkv' ? { provider, infoHash: 'c'.repeat(40), fileIndex: 2, size: 10, name: 'b.mkv' } : undefined),
    })
    expect(torrent.source.label).toBe(`torrent:${'c'.repeat(40)}/2`)
    await expect(createSessionSource(base, { logger: silentLogger() })).rejects.toThrow(/neither DirectURL nor filePath/)
  })
})
