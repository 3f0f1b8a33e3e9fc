import { describe, expect, it } from 'vitest'
import { evaluatePreconditions } from '../../src/server/routes/conditional.js'
import { parseHttpDate } from '../../src/services/media/http-date.js'

const validators = { etag: '"abc"', lastModified: new Date('2026-03-03T10:00:00Z') }
const at = 'Tue, 03 Mar 2026 10:00:00 GMT'
const before = 'Tue, 03 Mar 2026 09:59:59 GMT'

describe('conditional requests', () => {
  it('answers 304 for a matching If-None-Match, weakly compared, or a fresh If-Modified-Since', () => {
    expect(evaluatePreconditions('GET', { ifNoneMatch: '"abc"' }, validators)).toBe('not-modified')
    expect(evaluatePreconditions('HEAD', { ifNoneMatch: 'W/"abc", "zzz"' }, validators)).toBe('not-modified')
    expect(evaluatePreconditions('GET', { ifNoneMatch: '*' }, validators)).toBe('not-modified')
    expect(evaluatePreconditions('GET', { ifModifiedSince: at }, validators)).toBe('not-modified')
    expect(evaluatePreconditions('GET', { ifModifiedSince: before }, validators)).toBe('proceed')
  })

  it('lets If-None-Match decide alone when both it and If-Modified-Since are sent (RFC 9110 13.2.2)', () => {
    expect(evaluatePreconditions('GET', { ifNoneMatch: '"other"', ifModifiedSince: at }, validators)).toBe('proceed')
  })

  it('fails If-Match and If-Unmodified-Since with 412', () => {
    expect(evaluatePreconditions('GET', { ifMatch: '"other"' }, validators)).toBe('failed')
    expect(evaluatePreconditions('GET', { ifMatch: 'W/"abc"' }, validators)).toBe('failed')
    expect(evaluatePreconditions('GET', { ifMatch: '"abc"' }, validators)).toBe('proceed')
    expect(evaluatePreconditions('GET', { ifUnmodifiedSince: before }, validators)).toBe('failed')
    expect(evaluatePreconditions('GET', { ifUnmodifiedSince: at }, validators)).toBe('proceed')
  })

  it('ignores dates that are not HTTP-dates', () => {
    expect(evaluatePreconditions('GET', { ifModifiedSince: '2099' }, validators)).toBe('proceed')
    expect(parseHttpDate('2099')).toBeUndefined()
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')?.toISOString()).toBe('1994-11-06T08:49:37.000Z')
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')?.toISOString()).toBe('1994-11-06T08:49:37.000Z')
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')?.toISOString()).toBe('1994-11-06T08:49:37.000Z')
  })
})
