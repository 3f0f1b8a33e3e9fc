import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cacheIdentity, cacheKeyPattern } from '../../src/services/cache/cache-key.js'

// protocol.md 7.1: the first 8 lowercase hex characters of sha256 over
// `<absolute path>|<quality>|<audioIndex>` or `<cacheId>|<quality>|<audioIndex>`.

const sha8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8)

describe('cache keys', () => {
  it('are sha256 over the absolute path, quality and audio index for a local file', () => {
    expect(cacheIdentity({ source: '/media/a film.mkv', quality: '720p', audioIndex: 1 })).toEqual({ key: sha8('/media/a film.mkv|720p|1'), source: '/media/a film.mkv' })
  })

  it('make a relative path absolute first, so both spellings share an entry', () => {
    const relative = cacheIdentity({ source: 'films/x.mp4', quality: 'original', audioIndex: 0 })!
    expect(relative).toEqual({ key: sha8(`${resolve('films/x.mp4')}|original|0`), source: resolve('films/x.mp4') })
    expect(cacheIdentity({ source: resolve('films/x.mp4'), quality: 'original', audioIndex: 0 })).toEqual(relative)
  })

  it('use the cacheId as sent for a URL session, never the URL (its query carries credentials)', () => {
    const identity = cacheIdentity({ source: 'https://debrid.example/dl/x.mp4?token=secret', quality: '1080p', audioIndex: 0, cacheId: 'ABCDEF0123456789abcdef0123456789abcdef01' })
    expect(identity).toEqual({ key: sha8('ABCDEF0123456789abcdef0123456789abcdef01|1080p|0'), source: 'ABCDEF0123456789abcdef0123456789abcdef01' })
  })

  it('leave a URL session without a cacheId uncached', () => {
    expect(cacheIdentity({ source: 'https://debrid.example/x.mp4', quality: '720p', audioIndex: 0 })).toBeUndefined()
    expect(cacheIdentity({ source: '', quality: '720p', audioIndex: 0 })).toBeUndefined()
  })

  it('are always the 8 lowercase hex characters of the joined fields, whatever the path holds', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.constantFrom('480p', '720p', 'original'), fc.nat(8), (path, quality, audioIndex) => {
      const source = `/m/${path}`
      const identity = cacheIdentity({ source, quality, audioIndex })!
      expect(identity.key).toMatch(cacheKeyPattern)
      expect(identity.key).toBe(sha8(`${resolve(source)}|${quality}|${audioIndex}`))
    }))
  })
})
