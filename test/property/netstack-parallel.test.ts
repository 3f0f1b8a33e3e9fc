import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { collect, drive, pair, seededBytes, sha256, writeAll } from './netstack-drive.js'

describe('many TCP connections over one in-memory link', () => {
  it('100 parallel connections each echo 64 KiB intact over a lossy, reordering link', async () => {
    const { clock, a, b } = pair({ latencyMs: 5, jitterMs: 10, lossRate: 0.01, reorderRate: 0.05, duplicateRate: 0.01, seed: 42 })
    b.listen(8000, (socket) => socket.pipe(socket)) // echo; pipe ends the echo when the client ends
    const results: Array<{ sent: string; got: ReturnType<typeof collect> }> = []
    const sockets: TcpSocket[] = []
    for (let i = 0; i < 100; i++) {
      void a.connect('10.0.0.2', 8000).then((socket) => {
        sockets.push(socket)
        const data = seededBytes(64 * 1024, 1000 + i)
        results.push({ sent: sha256(data), got: collect(socket) })
        void writeAll(socket, data)
      })
    }
    await drive(clock, () => results.length === 100 && results.every((r) => r.got.done), 10 * 60_000)
    for (const r of results) {
      expect(r.got.error).toBeUndefined()
      expect(r.got.hash()).toBe(r.sent)
    }
    expect(new Set(sockets.map((s) => s.localPort)).size).toBe(100)
    a.close()
    b.close()
  })
})

describe('bulk transfer under seeded impairments', () => {
  it('any seed of loss, duplication and reordering delivers 256 KiB each way with equal sha256', async () => {
    await fc.assert(fc.asyncProperty(
      fc.record({
        seed: fc.nat(),
        lossRate: fc.double({ min: 0, max: 0.1, noNaN: true }),
        duplicateRate: fc.double({ min: 0, max: 0.05, noNaN: true }),
        reorderRate: fc.double({ min: 0, max: 0.3, noNaN: true }),
        latencyMs: fc.integer({ min: 1, max: 50 }),
      }),
      async (link) => {
        const { clock, a, b } = pair({ ...link, jitterMs: 20 })
        const size = 256 * 1024
        const fromA = seededBytes(size, link.seed)
        const fromB = seededBytes(size, link.seed + 1)
        let server: ReturnType<typeof collect> | undefined
        b.listen(5000, (socket) => {
          server = collect(socket)
          void writeAll(socket, fromB)
        })
        let client: ReturnType<typeof collect> | undefined
        void a.connect('10.0.0.2', 5000).then((socket) => {
          client = collect(socket)
          void writeAll(socket, fromA)
        })
        await drive(clock, () => (client?.done ?? false) && (server?.done ?? false), 60 * 60_000)
        expect(client!.error).toBeUndefined()
        expect(server!.error).toBeUndefined()
        expect(server!.hash()).toBe(sha256(fromA))
        expect(client!.hash()).toBe(sha256(fromB))
        a.close()
        b.close()
      },
    ), { numRuns: 25 })
  }, 120_000)
})
