// Conditional requests (RFC 9110 13.2.2 order): If-Match, If-Unmodified-Since, If-None-Match,
// If-Modified-Since; Range comes after (range.ts). If-Modified-Since uses "not modified since"
// (Last-Modified <= the date), which is nginx's `if_modified_since before`.
import { parseHttpDate } from '../../services/media/http-date.js'

export type Precondition = 'proceed' | 'not-modified' | 'failed'

export interface ConditionalHeaders {
  ifMatch?: string | undefined
  ifNoneMatch?: string | undefined
  ifModifiedSince?: string | undefined
  ifUnmodifiedSince?: string | undefined
}

export interface Validators {
  etag?: string | undefined
  lastModified?: Date | undefined
}

function tagList(header: string): string[] {
  return header.split(',').map((tag) => tag.trim()).filter((tag) => tag.length > 0)
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag
}

function strongMatch(header: string, etag: string | undefined): boolean {
  return tagList(header).some((tag) => tag === '*' || (etag !== undefined && !etag.startsWith('W/') && !tag.startsWith('W/') && tag === etag))
}

function weakMatch(header: string, etag: string | undefined): boolean {
  return tagList(header).some((tag) => tag === '*' || (etag !== undefined && opaque(tag) === opaque(etag)))
}

export function evaluatePreconditions(method: string, headers: ConditionalHeaders, validators: Validators): Precondition {
  const { etag, lastModified } = validators
  if (headers.ifMatch !== undefined) {
    if (!strongMatch(headers.ifMatch, etag)) return 'failed'
  } else if (headers.ifUnmodifiedSince !== undefined && lastModified !== undefined) {
    const date = parseHttpDate(headers.ifUnmodifiedSince)
    if (date !== undefined && lastModified.getTime() > date.getTime()) return 'failed'
  }
  const safe = method === 'GET' || method === 'HEAD'
  if (headers.ifNoneMatch !== undefined) {
    if (weakMatch(headers.ifNoneMatch, etag)) return safe ? 'not-modified' : 'failed'
  } else if (safe && headers.ifModifiedSince !== undefined && lastModified !== undefined) {
    const date = parseHttpDate(headers.ifModifiedSince)
    if (date !== undefined && lastModified.getTime() <= date.getTime()) return 'not-modified'
  }
  return 'proceed'
}
