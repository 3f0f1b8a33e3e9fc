// A torrent file still downloading, played through the stream server: the head goes out at once
// with the full size, bytes flow as pieces arrive, and a player that stops reading stops the
// reads from the torrent (backpressure).
import { request, type IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { createInProgressFileSource, type TorrentFileProvider } from '../../src/services/media/in-progress-file-source.js'
import { createStreamServer, type StreamServer } from '../../src/server/stream-server.js'
import { mapRegistry, patternBytes, testSecret, tokenFor } from './stream-kit.js'

/** Hands out bytes only up to `available`; reads past it wait for `deliver`. */
class SlowTorrentFile implements TorrentFileProvider {
  available = 0
  pushed = 0
  private readonly waiting = new Set<() => void>()

  constructor(readonly content: Buffer) {}

  createReadStream(_infoHash: string, _fileIndex: number, range: { start: number; end: number }): Readable {
    let position = range.start
    const stream = new Readable({
      highWaterMark: 64 * 1024,
      read: () => {
        const attempt = (): void => {
          if (position > range.end) {
            stream.push(null)
            return
          }
          if (position >= this.available) {
            this.waiting.add(attempt)
            return
          }
          const until = Math.min(range.end + 1, this.available, position + 64 * 1024)
          const chunk = this.content.subarray(position, until)
          position = until
          this.pushed += chunk.length
          stream.push(chunk)
        }
        attempt()
      },
    })
    return stream
  }

  deliver(upTo: number): void {
    this.available = Math.min(upTo, this.content.length)
    const wake = [...this.waiting]
    this.waiting.clear()
    for (const attempt of wake) attempt()
  }
}

function get(url: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, resolve).on('error', reject).end()
  })
}

function readBytes(response: IncomingMessage, count: number, into: Buffer[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let total = into.reduce((sum, chunk) => sum + chunk.length, 0)
    if (total >= count) {
      resolve()
      return
    }
    const onData = (chunk: Buffer): void => {
      into.push(chunk)
      total += chunk.length
      if (total >= count) {
        response.off('data', onData)
        response.pause()
        resolve()
      }
    }
    response.on('data', onData)
    response.once('error', reject)
    response.resume()
  })
}

/** Resolves once `read()` returns the same value over many event-loop turns with I/O between. */
async function settled(read: () => number): Promise<number> {
  let last = read()
  let stable = 0
  while (stable < 200) {
    await new Promise((resolve) => setImmediate(resolve))
    const now = read()
    stable = now === last ? stable + 1 : 0
    last = now
  }
  return last
}

describe('direct play of a torrent file that is still downloading', () => {
  let server: StreamServer
  const sessions = mapRegistry()

  beforeAll(async () => {
    server = await createStreamServer({ host: '127.0.0.1', port: 0, logger: silentLogger(), sessions, secret: () => testSecret })
  })

  afterAll(async () => {
    await server?.close()
  })

  function register(id: string, file: SlowTorrentFile): string {
    sessions.add(
      { sessionId: id, PlayMethod: 'direct', quality: 'original', cacheId: 'b'.repeat(40) },
      createInProgressFileSource({ provider: file, infoHash: 'B'.repeat(40), fileIndex: 0, size: file.content.length, name: 'Movie.mkv' }),
    )
    return `${server.url}/stream/${id}/Movie.mkv?token=${tokenFor(`stream:${id}`)}`
  }

  it('sends the head at once and the bytes as the pieces arrive', async () => {
    const file = new SlowTorrentFile(patternBytes(300_000, 3))
    const response = await get(register('t1', file), { range: 'bytes=100000-' })
    expect(response.statusCode).toBe(206)
    expect(response.headers['content-type']).toBe('video/x-matroska')
    expect(response.headers['content-range']).toBe('bytes 100000-299999/300000')
    expect(response.headers.etag).toBe(`"${'b'.repeat(40)}-0-493e0"`)

    const received: Buffer[] = []
    file.deliver(150_000)
    await readBytes(response, 50_000, received)
    expect(Buffer.concat(received).length).toBe(50_000)

    file.deliver(300_000)
    const rest = new Promise<void>((resolve) => response.once('end', resolve))
    response.on('data', (chunk: Buffer) => received.push(chunk))
    response.resume()
    await rest
    expect(Buffer.concat(received).equals(file.content.subarray(100_000))).toBe(true)
  })

  it('stops reading from the torrent while the player is not reading', async () => {
    const file = new SlowTorrentFile(patternBytes(64 * 1024 * 1024, 5))
    file.deliver(file.content.length)
    const response = await get(register('t2', file))
    expect(response.statusCode).toBe(200)
    response.pause()
    const pushedWhilePaused = await settled(() => file.pushed)
    expect(pushedWhilePaused).toBeLessThan(file.content.length / 2)

    let total = 0
    const done = new Promise<void>((resolve) => response.once('end', resolve))
    response.on('data', (chunk: Buffer) => {
      total += chunk.length
    })
    response.resume()
    await done
    expect(total).toBe(file.content.length)
  })
})
