// A debrid-like HTTPS upstream on loopback with a self-signed certificate made by openssl in a
// temp dir. It serves one byte buffer with HEAD and single-range GET, records every request and
// tells when a request's socket closed before its response was complete.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface RecordedRequest {
  method: string
  path: string
  range: string | undefined
  /** Resolves when the socket closed while the response was still unfinished. */
  abandoned: Promise<void>
  /** Resolves when the server has written the first body bytes. */
  firstBytesSent: Promise<void>
}

export interface HttpsUpstreamOptions {
  content: Buffer
  /** `Content-Type` of HEAD and GET answers. */
  contentType?: string
  /** When set, a GET writes at most this many body bytes and then holds the response open. */
  stallAfterBytes?: number
  /** Status for GET requests instead of the normal answer (to test error mapping). */
  failGetWith?: number
}

export interface HttpsUpstream {
  /** `https://127.0.0.1:<port>` */
  origin: string
  /** The self-signed certificate (PEM) to trust. */
  ca: string
  requests: RecordedRequest[]
  options: HttpsUpstreamOptions
  count(method: string): number
  close(): Promise<void>
}

export async function makeSelfSignedCert(dir: string): Promise<{ key: string; cert: string }> {
  await run('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ])
  return { key: await readFile(join(dir, 'key.pem'), 'utf8'), cert: await readFile(join(dir, 'cert.pem'), 'utf8') }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

export async function startHttpsUpstream(options: HttpsUpstreamOptions): Promise<HttpsUpstream> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-https-upstream-'))
  const { key, cert } = await makeSelfSignedCert(dir)
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const abandoned = deferred()
    const firstBytes = deferred()
    requests.push({ method: req.method ?? '', path: req.url ?? '', range: req.headers.range, abandoned: abandoned.promise, firstBytesSent: firstBytes.promise })
    res.on('close', () => {
      if (!res.writableFinished) abandoned.resolve()
    })
    const { content } = options
    const type = options.contentType ?? 'video/mp4'
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-type': type, 'content-length': String(content.length), 'accept-ranges': 'bytes', etag: '"upstream-1"', 'last-modified': 'Tue, 03 Mar 2026 10:00:00 GMT' })
      res.end()
      return
    }
    if (options.failGetWith !== undefined) {
      res.writeHead(options.failGetWith, { 'content-length': '0' })
      res.end()
      return
    }
    let start = 0
    let end = content.length - 1
    let status = 200
    const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '')
    if (match !== null) {
      start = Number(match[1])
      end = match[2] === '' ? content.length - 1 : Math.min(Number(match[2]), content.length - 1)
      status = 206
    }
    const headers: Record<string, string> = { 'content-type': type, 'content-length': String(end - start + 1), 'accept-ranges': 'bytes' }
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${content.length}`
    res.writeHead(status, headers)
    const body = content.subarray(start, end + 1)
    if (options.stallAfterBytes !== undefined && body.length > options.stallAfterBytes) {
      res.write(body.subarray(0, options.stallAfterBytes), () => firstBytes.resolve())
      return // held open until the client goes away
    }
    res.end(body, () => firstBytes.resolve())
  }

  const server: Server = createServer({ key, cert }, handler)
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    requests,
    options,
    count: (method) => requests.filter((request) => request.method === method).length,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(dir, { recursive: true, force: true })
    },
  }
}
