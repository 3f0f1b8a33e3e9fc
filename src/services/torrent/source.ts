import { isAbsolute, join, resolve, sep } from 'node:path'
import parseTorrent, { type ParsedTorrent } from 'parse-torrent'
import { Agent, request, interceptors, type Dispatcher } from 'undici'
import * as defaults from '../../config/defaults.js'
import { TorrentFetchError, TorrentMetadataError, TorrentSourceError } from '../../errors.js'

// A task's `source` (protocol.md 1, add_task) turned into something the engine can start without
// guessing: webtorrent itself treats any string it cannot parse as a file path or URL to fetch,
// so nothing unvalidated is ever handed to it.

export type TorrentSourceKind = 'magnet' | 'url' | 'infohash'

export interface ResolvedSource {
  kind: TorrentSourceKind
  /** Lower-case hex, 40 characters. */
  infoHash: string
  /** The display name when the source carries one (`dn`, or the .torrent's name); else ''. */
  name: string
  /** Set for magnet and bare info-hash sources. */
  magnetURI?: string
  /** The .torrent bytes, set for URL sources. */
  torrentFile?: Uint8Array
}

export interface ResolveOptions {
  torrentFileMaxBytes?: number
  fetchTimeoutMs?: number
  /** undici dispatcher for the .torrent fetch; defaults to a shared Agent that follows redirects. */
  dispatcher?: Dispatcher
  signal?: AbortSignal
}

const hex40 = /^[0-9a-f]{40}$/i
const base32 = /^[a-z2-7]{32}$/i

export async function resolveTorrentSource(source: string, options: ResolveOptions = {}): Promise<ResolvedSource> {
  const text = typeof source === 'string' ? source.trim() : ''
  if (/^magnet:/i.test(text)) {
    let parsed: ParsedTorrent
    try {
      parsed = await parseTorrent(text)
    } catch (err) {
      throw new TorrentSourceError(`invalid magnet URI "${clip(text)}": it needs xt=urn:btih:<40 hex or 32 base32 info hash>`, { cause: err })
    }
    if (!hex40.test(parsed.infoHash ?? '')) throw new TorrentSourceError(`invalid magnet URI "${clip(text)}": the info hash is malformed`)
    return { kind: 'magnet', infoHash: parsed.infoHash.toLowerCase(), name: stringOr(parsed.dn ?? parsed.name), magnetURI: text }
  }
  if (hex40.test(text) || base32.test(text)) {
    const parsed = await parseTorrent(text)
    const infoHash = parsed.infoHash.toLowerCase()
    return { kind: 'infohash', infoHash, name: '', magnetURI: `magnet:?xt=urn:btih:${infoHash}` }
  }
  if (/^https?:\/\//i.test(text)) {
    const { body, status } = await fetchTorrentFile(text, options)
    const parsed = await parseTorrentFile(body, `${text} (HTTP ${status})`)
    return { kind: 'url', infoHash: parsed.infoHash, name: stringOr(parsed.name), torrentFile: body }
  }
  throw new TorrentSourceError(
    `unsupported torrent source "${clip(text)}": expected a magnet URI, an http(s) URL of a .torrent file or a 40-hex / 32-base32 info hash`,
  )
}

/** Parses .torrent bytes; anything that is not a complete single- or multi-file torrent is a typed error. */
export async function parseTorrentFile(bytes: Uint8Array, origin: string): Promise<ParsedTorrent> {
  // parse-torrent reads 20 bytes as a binary info hash, not as a file.
  if (bytes.length <= 20) throw new TorrentMetadataError(`${origin} is not a .torrent file: only ${bytes.length} bytes`)
  let parsed: ParsedTorrent
  try {
    parsed = await parseTorrent(bytes)
  } catch (err) {
    throw new TorrentMetadataError(`${origin} is not a valid .torrent file: ${(err as Error).message}`, { cause: err })
  }
  if (!parsed.info || !Array.isArray(parsed.files) || parsed.files.length === 0 || !hex40.test(parsed.infoHash)) {
    throw new TorrentMetadataError(`${origin} is not a valid .torrent file: no file list`)
  }
  for (const file of parsed.files) {
    if (!Number.isSafeInteger(file.length) || file.length < 0) throw new TorrentMetadataError(`${origin} is not a valid .torrent file: bad length of "${file.path}"`)
    if (file.path === '' || isAbsolute(file.path) || file.path.split(/[/\\]/).includes('..')) {
      throw new TorrentMetadataError(`${origin} is unsafe: file path "${file.path}" leaves the download directory`)
    }
  }
  return parsed
}

/** Where a torrent's file lands on disk: fs-chunk-store's rule (reserved characters are dropped from the base name). */
export function torrentFilePath(downloadDir: string, relativePath: string): string {
  const parts = relativePath.split(/[/\\]/)
  const base = (parts.pop() ?? '').replace(/[<>:"/\\|?*\u0000-\u001F]/g, '')
  const full = join(resolve(join(downloadDir, ...parts)), base)
  const root = resolve(downloadDir)
  if (full !== root && !full.startsWith(root + sep)) throw new TorrentMetadataError(`file path "${relativePath}" leaves the download directory`)
  return full
}

let redirectingDispatcher: Dispatcher | undefined

async function fetchTorrentFile(url: string, options: ResolveOptions): Promise<{ body: Uint8Array; status: number }> {
  const maxBytes = options.torrentFileMaxBytes ?? defaults.torrentFileMaxBytes
  const timeoutMs = options.fetchTimeoutMs ?? defaults.torrentFetchTimeoutMs
  // Our own Agent: the global dispatcher may be Node's bundled undici, whose handler API differs.
  redirectingDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 }))
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]
  let response: Dispatcher.ResponseData
  try {
    response = await request(url, {
      method: 'GET',
      dispatcher: options.dispatcher ?? redirectingDispatcher,
      signal: AbortSignal.any(signals),
      headers: { accept: 'application/x-bittorrent, */*;q=0.5' },
    })
  } catch (err) {
    const reason = (err as { code?: string }).code ?? (err as Error).name
    throw new TorrentFetchError(`GET ${url} failed: ${reason}: ${(err as Error).message}`, { cause: err, url })
  }
  const { statusCode, headers, body } = response
  if (statusCode < 200 || statusCode > 299) {
    await body.dump().catch(() => {})
    throw new TorrentFetchError(`GET ${url} failed: HTTP ${statusCode}`, { status: statusCode, url, retryable: statusCode >= 500 || statusCode === 429 || statusCode === 408 })
  }
  const declared = Number(headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.dump().catch(() => {})
    throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}): .torrent of ${declared} bytes exceeds the ${maxBytes}-byte limit`, { status: statusCode, url, retryable: false })
  }
  const chunks: Buffer[] = []
  let total = 0
  try {
    for await (const chunk of body) {
      total += (chunk as Buffer).length
      if (total > maxBytes) {
        body.destroy()
        throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}): .torrent exceeds the ${maxBytes}-byte limit`, { status: statusCode, url, retryable: false })
      }
      chunks.push(chunk as Buffer)
    }
  } catch (err) {
    if (err instanceof TorrentFetchError) throw err
    throw new TorrentFetchError(`GET ${url} (HTTP ${statusCode}) failed while reading the body: ${(err as Error).message}`, { cause: err, status: statusCode, url })
  }
  return { body: new Uint8Array(Buffer.concat(chunks)), status: statusCode }
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
