import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { once } from 'node:events'
import type { Dispatcher } from 'undici'
import type { UpgradeOffer } from '../../protocol/wire.js'
import { UpgradeDownloadError, UpgradeVerifyError } from '../../errors.js'
import { userAgent } from '../../version.js'

// Fetches an upgrade artifact into the versions dir and checks it against the offer before
// anything else touches it (contract 1.8; protocol.md 7.5: the sha256 is over the tarball's
// bytes). The size cap holds whether or not the server sends a Content-Length.

export interface ArtifactDownloader {
  /** Resolves with the path of a verified artifact; rejects with MA_ERR_UPGRADE_DOWNLOAD / _VERIFY. */
  download(offer: UpgradeOffer): Promise<string>
}

export interface ArtifactDownloaderOptions {
  /** Where the artifact is written (the versions dir: same filesystem as the install). */
  dir: string
  maxBytes: number
  timeoutMs: number
  /** The web server: its access token goes only to an artifact URL of the same origin. */
  server: { baseUrl: string; accessToken: string }
  dispatcher?: Dispatcher
}

export function createArtifactDownloader(options: ArtifactDownloaderOptions): ArtifactDownloader {
  return {
    async download(offer) {
      let url: URL
      try {
        url = new URL(offer.artifactUrl)
      } catch {
        throw new UpgradeDownloadError(`the upgrade artifactUrl is not a URL: ${JSON.stringify(offer.artifactUrl)}`, { retryable: false })
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UpgradeDownloadError(`the upgrade artifactUrl must be http(s), not ${url.protocol}`, { retryable: false })
      const expected = offer.sha256.trim().toLowerCase()
      if (!/^[0-9a-f]{64}$/.test(expected)) throw new UpgradeVerifyError(`the offered sha256 is not 64 hex digits: ${JSON.stringify(offer.sha256)}`)

      const sameOrigin = url.origin === new URL(options.server.baseUrl).origin
      const headers: Record<string, string> = { 'user-agent': userAgent }
      if (sameOrigin) headers.authorization = `Bearer ${options.server.accessToken}`
      await mkdir(options.dir, { recursive: true })
      const path = join(options.dir, `.download-${randomBytes(6).toString('hex')}.tgz`)
      // A timer of our own, cleared when done: a timeout signal left armed would abort (and
      // raise on) a body nobody reads any more.
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs)
      const signal = controller.signal
      try {
        let response: Dispatcher.ResponseData
        try {
          // undici loads with the first download, not with the agent (docs/operations.md "Idle footprint").
          const { request } = await import('undici')
          response = await request(url, { method: 'GET', headers, signal, ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}) })
        } catch (error) {
          throw new UpgradeDownloadError(`cannot fetch the upgrade artifact ${url.origin}${url.pathname}: ${(error as Error).message}`, { cause: error })
        }
        if (response.statusCode < 200 || response.statusCode > 299) {
          await response.body.dump().catch(() => {})
          throw new UpgradeDownloadError(`the upgrade artifact ${url.origin}${url.pathname} answered HTTP ${response.statusCode}`, { retryable: response.statusCode >= 500 })
        }
        const declared = Number(response.headers['content-length'])
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          discard(response.body)
          throw new UpgradeVerifyError(`the upgrade artifact is ${declared} bytes, over the ${options.maxBytes}-byte cap`)
        }
        const hash = createHash('sha256')
        const file = createWriteStream(path, { flags: 'wx', mode: 0o600 })
        let bytes = 0
        try {
          for await (const chunk of response.body as AsyncIterable<Buffer>) {
            bytes += chunk.length
            if (bytes > options.maxBytes) throw new UpgradeVerifyError(`the upgrade artifact is over the ${options.maxBytes}-byte cap`)
            hash.update(chunk)
            if (!file.write(chunk)) await once(file, 'drain')
          }
        } catch (error) {
          discard(response.body)
          if (error instanceof UpgradeVerifyError) throw error
          throw new UpgradeDownloadError(`the upgrade artifact download broke off after ${bytes} bytes: ${(error as Error).message}`, { cause: error })
        } finally {
          file.end()
          await once(file, 'close').catch(() => {})
        }
        const actual = hash.digest('hex')
        if (actual !== expected) throw new UpgradeVerifyError(`the upgrade artifact's sha256 is ${actual}, the server offered ${expected}`)
        return path
      } catch (error) {
        await unlink(path).catch(() => {})
        throw error
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {})
  body.destroy()
}
