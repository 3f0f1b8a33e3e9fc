import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { internetChecksum } from '../../src/services/netstack/checksum.js'
import { parseIpv4 } from '../../src/services/netstack/ipv4.js'
import { seqAdd, seqLe } from '../../src/services/netstack/seq.js'
import { writeTcp } from '../../src/services/netstack/tcp-segment.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'
import { established } from '../unit/netstack-tcp-harness.js'
import { collect, drive, pair, seededBytes, writeAll } from './netstack-drive.js'

/** Two stacks mid-transfer, and the packets a sent so far (material for mutation). */
async function midTransfer() {
  const p = pair({ latencyMs: 2 })
  const captured: Uint8Array[] = []
  p.linkA.tap = (packet) => {
    if (captured.length < 200) captured.push(Uint8Array.from(packet))
  }
  let server: TcpSocket | undefined
  p.b.listen(5000, (socket) => {
    server = socket
    socket.resume()
  })
  p.b.createUdpSocket({ port: 6881 }).on('message', () => {})
  let client: TcpSocket | undefined
  void p.a.connect('10.0.0.2', 5000).then((socket) => (client = socket))
  await drive(p.clock, () => client !== undefined && server !== undefined, 10_000)
  void writeAll(client!, seededBytes(64 * 1024, 5))
  client!.on('error', () => {})
  server!.on('error', () => {})
  await drive(p.clock, () => captured.length > 30, 10_000)
  p.linkA.tap = undefined
  return { ...p, captured, client: client!, server: server! }
}

/** Re-computes the IPv4 header checksum and, for TCP, the TCP checksum, so mutations get past
 * the checksum checks and into the protocol logic. */
function repair(packet: Uint8Array): Uint8Array {
  const out = Uint8Array.from(packet)
  if (out.length < 20) return out
  const ihl = (out[0]! & 0x0f) * 4
  if (ihl < 20 || ihl > out.length) return out
  out[10] = out[11] = 0
  const c = internetChecksum(out, 0, ihl)
  out[10] = c >> 8
  out[11] = c & 0xff
  const ip = parseIpv4(out)
  if (ip.ok && ip.packet.protocol === 6 && ip.packet.payload.length >= 20) withTcpChecksum(ip.packet.payload, ip.packet.src, ip.packet.dst)
  return out
}

/** Writes a correct TCP checksum into `body` in place (fuzzed options and all) and returns it. */
function withTcpChecksum(body: Uint8Array, src: number, dst: number): Uint8Array {
  body[16] = body[17] = 0
  let sum = (src >>> 16) + (src & 0xffff) + (dst >>> 16) + (dst & 0xffff) + 6 + body.length
  for (let i = 0; i + 1 < body.length; i += 2) sum += (body[i]! << 8) | body[i + 1]!
  if (body.length & 1) sum += body[body.length - 1]! << 8
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000)
  const c = ~sum & 0xffff
  body[16] = c >> 8
  body[17] = c & 0xff
  return body
}

describe('receive path fuzzing', () => {
  it('random bytes never throw and never reach the error counter', async () => {
    const { clock, b, linkA } = await midTransfer()
    fc.assert(fc.property(fc.uint8Array({ maxLength: 1500 }), (bytes) => {
      linkA.send(bytes)
      clock.advance(5)
      expect(b.stats().receiveErrors).toBe(0)
    }), { numRuns: 500 })
  })

  it('mutated real packets with repaired checksums never throw and never reach the error counter', async () => {
    const { clock, a, b, linkA, captured } = await midTransfer()
    fc.assert(fc.property(
      fc.nat({ max: captured.length - 1 }),
      fc.array(fc.tuple(fc.nat({ max: 1499 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.option(fc.nat({ max: 1500 })),
      (index, flips, truncate) => {
        let packet = Uint8Array.from(captured[index]!)
        for (const [at, value] of flips) if (at < packet.length) packet[at] = value
        if (truncate !== null) packet = packet.subarray(0, truncate)
        linkA.send(repair(packet))
        clock.advance(5)
        expect(b.stats().receiveErrors).toBe(0)
        expect(a.stats().receiveErrors).toBe(0)
      },
    ), { numRuns: 1000 })
  })

  it('arbitrary well-formed TCP segments near the live sequence numbers keep a connection consistent', () => {
    fc.assert(fc.property(
      fc.array(fc.record({
        seqOffset: fc.integer({ min: -70_000, max: 70_000 }),
        ackOffset: fc.integer({ min: -70_000, max: 70_000 }),
        flags: fc.nat({ max: 0x3f }),
        window: fc.nat({ max: 0xffff }),
        payload: fc.nat({ max: 1500 }),
        sack: fc.option(fc.array(fc.tuple(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff })), { maxLength: 4 })),
        advanceMs: fc.nat({ max: 2000 }),
        write: fc.nat({ max: 5000 }),
      }), { maxLength: 40 }),
      (steps) => {
        const h = established({ peerOptions: { mss: 1460, sackPermitted: true, windowScale: 3 } })
        for (const step of steps) {
          if (h.conn.state === 'CLOSED') break
          if (step.write > 0 && !h.conn.finQueued && h.conn.state !== 'TIME_WAIT') h.conn.write(new Uint8Array(step.write))
          h.conn.input({
            srcPort: 80, dstPort: h.conn.endpoint.localPort, seq: seqAdd(h.conn.rcvNxt, step.seqOffset), ack: seqAdd(h.conn.sndUna, step.ackOffset),
            flags: step.flags, window: step.window, options: step.sack ? { sack: step.sack } : {}, payload: new Uint8Array(step.payload),
          })
          h.clock.advance(step.advanceMs)
          expect(seqLe(h.conn.sndUna, h.conn.sndNxt)).toBe(true)
          expect(seqLe(h.conn.sndNxt, h.conn.sndMax)).toBe(true)
          expect(h.conn.rcvWnd).toBeGreaterThanOrEqual(0)
          for (const { seg } of h.sent) {
            const out = new Uint8Array(20 + 60 + seg.payload.length)
            expect(() => writeTcp(out, 0, seg, 1, 2)).not.toThrow()
          }
        }
      },
    ), { numRuns: 300 })
  })

  it('the stack still carries data after the fuzzing', async () => {
    const { clock, a, b, linkA } = await midTransfer()
    for (let i = 0; i < 50; i++) linkA.send(seededBytes(40 + i, i))
    b.listen(9000, (socket) => socket.end('still here'))
    let got: ReturnType<typeof collect> | undefined
    void a.connect('10.0.0.2', 9000).then((socket) => (got = collect(socket)))
    await drive(clock, () => got?.done ?? false, 20_000)
    expect(got!.bytes).toBe(10)
  })
})
