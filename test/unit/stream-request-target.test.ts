import { describe, expect, it } from 'vitest'
import { parseRequestTarget, singleParam } from '../../src/server/routes/request-target.js'

describe('request targets', () => {
  it('decodes path segments and keeps the query apart', () => {
    const target = parseRequestTarget('/stream/abc%20d/movie%2Bx.mp4?token=v1.1.x&a=1')
    expect(target?.segments).toEqual(['stream', 'abc d', 'movie+x.mp4'])
    expect(target && singleParam(target.query, 'token')).toBe('v1.1.x')
  })

  it('refuses targets that would step out of their segment or are not origin-form', () => {
    for (const url of ['/stream/..', '/stream/%2e%2e/x', '/stream/a%2fb', '/stream/a%5cb', '/a/%00', '/x/%E0%A4%A', 'http://evil/stream', '*', '']) {
      expect(parseRequestTarget(url), url).toBeUndefined()
    }
  })

  it('treats a parameter given twice as absent', () => {
    const target = parseRequestTarget('/thumbnail?path=/a&path=/b')!
    expect(singleParam(target.query, 'path')).toBeUndefined()
  })
})
