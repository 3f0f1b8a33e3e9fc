import { describe, expect, it } from 'vitest'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { collect, drive, pair, seededBytes, sha256, writeAll } from './netstack-drive.js'

const MiB = 1024 * 1024

async function bidirectional(sizeBytes: number, link: Parameters<typeof pair>[0], simulatedLimitMs: number) {
  const { clock, a, b } = pair(link)
  const fromA = seededBytes(sizeBytes, 1)
  const fromB = seededBytes(sizeBytes, 2)
  let serverSide: ReturnType<typeof collect> | undefined
  // Half-open on both ends: whichever direction finishes first must not end the other one early
  // (with allowHalfOpen false the first FIN would end the other side's writing, as node:net does).
  b.listen(5000, (socket) => {
    serverSide = collect(socket)
    void writeAll(socket, fromB)
  }, { allowHalfOpen: true })
  let client: TcpSocket | undefined
  const connecting = a.connect('10.0.0.2', 5000, { allowHalfOpen: true }).then((socket) => (client = socket))
  await drive(clock, () => client !== undefined, 60_000)
  await connecting
  const clientSide = collect(client!)
  void writeAll(client!, fromA)
  await drive(clock, () => clientSide.done && (serverSide?.done ?? false), simulatedLimitMs)
  expect(clientSide.error).toBeUndefined()
  expect(serverSide!.error).toBeUndefined()
  expect(serverSide!.bytes).toBe(sizeBytes)
  expect(clientSide.bytes).toBe(sizeBytes)
  expect(serverSide!.hash()).toBe(sha256(fromA))
  expect(clientSide.hash()).toBe(sha256(fromB))
  return { clock, a, b }
}

describe('TCP over an in-memory link', () => {
  it('moves 4 MiB each way over a clean 1420-byte MTU link with identical sha256', async () => {
    const { a, b } = await bidirectional(4 * MiB, { mtu: 1420, latencyMs: 5 }, 120_000)
    a.close()
    b.close()
  })

  for (const seed of [1, 2, 3]) {
    it(`moves 2 MiB each way despite 3% loss, 2% duplication and 10% reordering (seed ${seed})`, async () => {
      const { a, b } = await bidirectional(2 * MiB, { mtu: 1420, latencyMs: 10, jitterMs: 15, lossRate: 0.03, duplicateRate: 0.02, reorderRate: 0.1, seed }, 30 * 60_000)
      a.close()
      b.close()
    })
  }
})
