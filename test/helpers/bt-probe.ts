// A BitTorrent peer that only asks "do you seed this torrent?": it connects to a client's peer
// port, sends the handshake for one info hash (no extension bits, so the answer is a plain
// bitfield rather than the fast extension's HAVE_ALL) and reads what the client says before it
// would send data. True when the client announces every piece (a bitfield with all bits, or HAVE
// messages for all); false when it refuses the torrent, closes, or has not announced them all
// within the time allowed. The same question for every client: what a peer out there sees.
// `transport: 'utp'` asks over uTP (utp-native, as webtorrent dials it) instead of TCP.
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'

const protocol = Buffer.from('\x13BitTorrent protocol', 'latin1')

/** utp-native's `connect`: a duplex that emits `connect` like a TCP socket. */
const utpConnect = (port: number): Duplex => (createRequire(import.meta.url)('utp-native') as { connect(port: number, host: string): Duplex }).connect(port, '127.0.0.1')

export async function seedsTorrent(port: number, infoHash: string, pieces: number, timeoutMs = 2000, transport: 'tcp' | 'utp' = 'tcp'): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = transport === 'utp' ? utpConnect(port) : connect({ host: '127.0.0.1', port })
    let buffered = Buffer.alloc(0)
    let handshaken = false
    const have = new Uint8Array(pieces)
    let haveCount = 0
    const finish = (result: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(result)
    }
    const timer = setTimeout(() => finish(false), timeoutMs)
    const mark = (index: number) => {
      if (index < pieces && have[index] === 0) {
        have[index] = 1
        haveCount++
      }
    }
    socket.once('connect', () => {
      const peerId = Buffer.from(`-MB0001-${Math.random().toString(36).slice(2, 14).padEnd(12, '0')}`, 'latin1')
      socket.write(Buffer.concat([protocol, Buffer.alloc(8), Buffer.from(infoHash, 'hex'), peerId]))
    })
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      if (!handshaken) {
        if (buffered.length < 68) return
        if (!buffered.subarray(0, 20).equals(protocol) || buffered.subarray(28, 48).toString('hex') !== infoHash.toLowerCase()) return finish(false)
        handshaken = true
        buffered = buffered.subarray(68)
      }
      while (buffered.length >= 4) {
        const length = buffered.readUInt32BE(0)
        if (buffered.length < 4 + length) return
        const id = length > 0 ? buffered[4] : -1
        const payload = buffered.subarray(5, 4 + length)
        buffered = buffered.subarray(4 + length)
        if (id === 5) {
          for (let i = 0; i < pieces; i++) if ((payload[i >> 3]! >> (7 - (i & 7))) & 1) mark(i)
        } else if (id === 4) {
          mark(payload.readUInt32BE(0))
        } else if (id === 14) {
          // HAVE_ALL (fast extension), should a client send it anyway.
          for (let i = 0; i < pieces; i++) mark(i)
        }
        if (haveCount === pieces) return finish(true)
      }
    })
    socket.once('error', () => finish(false))
    socket.once('close', () => finish(haveCount === pieces))
  })
}

/**
 * Probes every torrent (at most `concurrency` at once) again and again until each has been seen
 * seeding; resolves with when each first was (performance.now() ms), or rejects at the deadline.
 */
export async function waitUntilAllSeed(port: number, torrents: readonly { infoHash: string; pieces: number }[], options: { timeoutMs: number; concurrency?: number; probeTimeoutMs?: number }): Promise<Map<string, number>> {
  const seenAt = new Map<string, number>()
  const deadline = performance.now() + options.timeoutMs
  const concurrency = options.concurrency ?? 64
  while (seenAt.size < torrents.length) {
    if (performance.now() > deadline) throw new Error(`${torrents.length - seenAt.size} of ${torrents.length} torrents not seeding after ${options.timeoutMs} ms`)
    const left = torrents.filter((t) => !seenAt.has(t.infoHash))
    let next = 0
    await Promise.all(Array.from({ length: Math.min(concurrency, left.length) }, async () => {
      while (next < left.length) {
        const torrent = left[next++]!
        if (await seedsTorrent(port, torrent.infoHash, torrent.pieces, options.probeTimeoutMs ?? 500)) seenAt.set(torrent.infoHash, performance.now())
      }
    }))
    if (seenAt.size < torrents.length) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return seenAt
}
