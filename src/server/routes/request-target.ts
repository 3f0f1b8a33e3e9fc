// Splits a request target into decoded path segments and a query without ever throwing. The
// path is never resolved against a base URL: `//host/x` or an absolute-form target must not
// change what is parsed, and a segment that decodes to `/`, `\`, NUL, `.` or `..` ends the
// request as a miss before any route sees it.

export interface RequestTarget {
  segments: string[]
  query: URLSearchParams
}

export function parseRequestTarget(url: string | undefined): RequestTarget | undefined {
  if (url === undefined || !url.startsWith('/')) return undefined
  const queryAt = url.indexOf('?')
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
  const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1)
  const segments: string[] = []
  for (const raw of rawPath.slice(1).split('/')) {
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return undefined
    segments.push(segment)
  }
  return { segments, query: new URLSearchParams(rawQuery) }
}

/** The single value of a query parameter; undefined when absent or given more than once. */
export function singleParam(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name)
  return values.length === 1 ? values[0] : undefined
}
