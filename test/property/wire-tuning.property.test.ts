import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import Wire from 'bittorrent-protocol'
import Piece from 'torrent-piece'
import Torrent from 'webtorrent/lib/torrent.js'
import { createHash } from 'node:crypto'
import { installWireTuning, nothingToRequest, receiveLent } from '../../src/services/torrent/wire-tuning.js'
import { pieceDigest } from '../../src/services/torrent/piece-hash.js'

// wire-tuning.ts replaces how webtorrent's wire parses what arrives, sends small messages and
// assembles pieces (docs/torrents.md, CPU). Whatever way TCP cuts the byte stream, every message
// must reach the wire's listeners whole and in order; whatever order blocks arrive in, a piece
// must come out byte for byte; and what is sent must leave in the order it was sent.

expect(installWireTuning()).toBeUndefined()

type WireLike = {
  write(chunk: Uint8Array): boolean
  on(event: string, listener: (...args: any[]) => void): void
  _push(data: Uint8Array): boolean
  request(index: number, offset: number, length: number, cb: (err: Error | null, block?: Uint8Array) => void): void
  have(index: number): void
  unchoke(): void
  peerChoking: boolean
  destroy(): void
}
const newWire = (type: string) => new (Wire as unknown as new (type: string, secure: number) => WireLike)(type, 0)

type Message =
  | { kind: 'piece'; index: number; offset: number; data: Uint8Array }
  | { kind: 'have'; index: number }
  | { kind: 'keep-alive' }
  | { kind: 'unchoke' }
  | { kind: 'interested' }

const u32 = (value: number) => {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(value)
  return out
}
const encode = (message: Message): Buffer => {
  switch (message.kind) {
    case 'piece':
      return Buffer.concat([u32(9 + message.data.length), Buffer.from([7]), u32(message.index), u32(message.offset), message.data])
    case 'have':
      return Buffer.concat([u32(5), Buffer.from([4]), u32(message.index)])
    case 'keep-alive':
      return u32(0)
    case 'unchoke':
      return Buffer.concat([u32(1), Buffer.from([1])])
    case 'interested':
      return Buffer.concat([u32(1), Buffer.from([2])])
  }
}
const handshake = () => Buffer.concat([Buffer.from([19]), Buffer.from('BitTorrent protocol'), Buffer.alloc(8), Buffer.alloc(20, 0xab), Buffer.alloc(20, 0xcd)])

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ kind: fc.constant('piece' as const), index: fc.nat(1000), offset: fc.nat(64).map((n) => n * 16384), data: fc.uint8Array({ minLength: 1, maxLength: 20_000 }) }),
  fc.record({ kind: fc.constant('have' as const), index: fc.nat(100_000) }),
  fc.constant({ kind: 'keep-alive' as const }),
  fc.constant({ kind: 'unchoke' as const }),
  fc.constant({ kind: 'interested' as const }),
)

/** Where each length prefix and each message of `messages` ends in the stream after the handshake. */
const boundariesOf = (messages: Message[]): number[] => {
  const out: number[] = []
  let at = handshake().length
  for (const m of messages) {
    const length = encode(m).length
    out.push(at + 4, at + length)
    at += length
  }
  return out
}

/** Cuts a byte stream at the given fractions, as TCP may, and at the chosen `exact` offsets (a message's or a length prefix's end). */
const cut = (bytes: Buffer, fractions: number[], exact: number[] = []): Buffer[] => {
  const points = [...new Set([...fractions.map((f) => Math.floor(f * bytes.length)), ...exact])].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b)
  const chunks: Buffer[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point))
    from = point
  }
  return chunks
}

/** The messages `wire` hands its listeners, in order (a block copied as it is handed on). */
const messagesOf = (wire: WireLike): Message[] => {
  const seen: Message[] = []
  wire.on('piece', (index: number, offset: number, data: Uint8Array) => seen.push({ kind: 'piece', index, offset, data: Uint8Array.from(data) }))
  wire.on('have', (index: number) => seen.push({ kind: 'have', index }))
  wire.on('keep-alive', () => seen.push({ kind: 'keep-alive' }))
  wire.on('unchoke', () => seen.push({ kind: 'unchoke' }))
  wire.on('interested', () => seen.push({ kind: 'interested' }))
  wire.on('error', () => {})
  return seen
}

describe('tuned wire receive', () => {
  it('hands every message whole and in order to its listeners, however the stream is cut into chunks', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(message, { maxLength: 30 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
      // Chunks that end exactly where a message or its length prefix ends, or a few bytes either
      // side: a message that straddles two chunks and ends exactly at the second one's end.
      fc.array(fc.record({ boundary: fc.nat(), delta: fc.integer({ min: -3, max: 3 }) }), { maxLength: 16 }),
      async (messages, fractions, picks) => {
        const wire = newWire('tcpIncoming')
        const seen = messagesOf(wire)
        let handshaken = false
        wire.on('handshake', () => { handshaken = true })
        const stream = Buffer.concat([handshake(), ...messages.map(encode)])
        const boundaries = boundariesOf(messages)
        const exact = boundaries.length ? picks.map((p) => boundaries[p.boundary % boundaries.length]! + p.delta) : []
        for (const chunk of cut(stream, fractions, exact)) wire.write(chunk)
        // streamx hands writes to _write asynchronously, over as many ticks as it likes.
        // bittorrent-protocol reports a `have` of a piece the peer already has only once.
        const had = new Set<number>()
        const want = messages
          .filter((m) => m.kind !== 'have' || (!had.has(m.index) && Boolean(had.add(m.index))))
          .map((m) => (m.kind === 'piece' ? { ...m, data: Uint8Array.from(m.data) } : m))
        await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(want.length), { timeout: 2000, interval: 1 })
        wire.destroy()
        expect(handshaken).toBe(true)
        expect(seen).toEqual(want)
      },
    ), { numRuns: Number(process.env.RUNS ?? 150) })
  })
})

describe('tuned wire receive from a lent read buffer', () => {
  // lent-reads.ts: a socket reads every chunk into one buffer that the next read overwrites. The
  // wire must hand on the same messages as from chunks of their own, and nothing it keeps (a
  // bitfield, a message split over reads) may still point into that buffer afterwards.
  it('hands every message on whole and in order and keeps none of the buffer, however the reads are cut and whatever they overwrite', () => {
    const bitfieldOf = (bytes: Uint8Array) => Buffer.concat([u32(1 + bytes.length), Buffer.from([5]), bytes])
    fc.assert(fc.property(
      fc.array(message, { maxLength: 30 }),
      fc.uint8Array({ minLength: 1, maxLength: 300 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
      fc.array(fc.record({ boundary: fc.nat(), delta: fc.integer({ min: -3, max: 3 }) }), { maxLength: 16 }),
      fc.integer({ min: 0, max: 255 }),
      (messages, bits, fractions, picks, scribble) => {
        const wire = newWire('tcpIncoming')
        const seen = messagesOf(wire)
        let bitfield: { buffer: Uint8Array } | undefined
        wire.on('bitfield', (field: { buffer: Uint8Array }) => { bitfield = field })
        // The bitfield comes first after the handshake, as peers send it.
        const stream = Buffer.concat([handshake(), bitfieldOf(bits), ...messages.map(encode)])
        const shift = 5 + bits.length
        const boundaries = boundariesOf(messages).map((at) => at + shift)
        const exact = boundaries.length ? picks.map((p) => boundaries[p.boundary % boundaries.length]! + p.delta) : []
        const shared = Buffer.allocUnsafeSlow(stream.length)
        for (const chunk of cut(stream, fractions, exact)) {
          chunk.copy(shared)
          receiveLent(wire, shared.subarray(0, chunk.length))
          shared.fill(scribble)
        }
        wire.destroy()
        // A `have` sets its bit in the peer's bitfield, and one the bitfield holds is not reported;
        // past the bitfield's end (it does not grow once received) every `have` is reported.
        const expectedBits = Buffer.from(bits)
        const inField = (index: number) => index < bits.length * 8
        const isSet = (index: number) => inField(index) && (expectedBits[index >> 3]! & (0x80 >> (index & 7))) !== 0
        const had = new Set<number>()
        const want = messages
          .filter((m) => m.kind !== 'have' || !inField(m.index) || (!isSet(m.index) && !had.has(m.index) && Boolean(had.add(m.index))))
          .map((m) => (m.kind === 'piece' ? { ...m, data: Uint8Array.from(m.data) } : m))
        for (const index of had) expectedBits[index >> 3]! |= 0x80 >> (index & 7)
        expect(seen).toEqual(want)
        expect(Buffer.from(bitfield!.buffer.subarray(0, bits.length))).toEqual(expectedBits)
      },
    ), { numRuns: Number(process.env.RUNS ?? 150) })
  })
})

describe('tuned request pipeline', () => {
  it('answers every request with the block that names it, whatever order the peer replies in', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(
        fc.constant(n),
        fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      )),
      async ([n, replyOrder]) => {
        const wire = newWire('tcpOutgoing')
        wire.on('error', () => {})
        wire.peerChoking = false
        wire.write(handshake())
        const got = new Map<number, Uint8Array[]>()
        // Requests spread over pieces and offsets; each reply's bytes name the request they answer.
        const requestAt = (k: number) => ({ index: k % 7, offset: Math.floor(k / 7) * 16384 })
        for (let k = 0; k < n; k++) {
          const { index, offset } = requestAt(k)
          wire.request(index, offset, 4, (err, block?: Uint8Array) => {
            expect(err).toBeNull()
            got.set(k, [...(got.get(k) ?? []), Uint8Array.from(block!)])
          })
        }
        for (const k of replyOrder) wire.write(encode({ kind: 'piece', ...requestAt(k), data: u32(k) }))
        await vi.waitFor(() => expect(got.size).toBe(n), { timeout: 2000, interval: 1 })
        wire.destroy()
        for (let k = 0; k < n; k++) expect(got.get(k)).toEqual([Uint8Array.from(u32(k))])
      },
    ), { numRuns: Number(process.env.RUNS ?? 100) })
  })

  it('lets webtorrent ask a peer for at most 500 blocks at once, fewer when the peer says so', () => {
    const wire = newWire('tcpOutgoing') as WireLike & { peerExtendedHandshake: { reqq?: number } }
    // No extended handshake (yet), or one without reqq: webtorrent's depth would be unbounded.
    expect(wire.peerExtendedHandshake.reqq).toBe(500)
    wire.peerExtendedHandshake = { reqq: 100_000 }
    expect(wire.peerExtendedHandshake.reqq).toBe(500)
    wire.peerExtendedHandshake = { reqq: 250 }
    expect(wire.peerExtendedHandshake.reqq).toBe(250)
    wire.peerExtendedHandshake = {}
    expect(wire.peerExtendedHandshake.reqq).toBe(500)
    wire.destroy()
  })
})

/**
 * Two requests, a have, a block and an unchoke pushed in one tick through a fresh outgoing wire
 * (with `encryptor` as its MSE state, if any): what left it, write by write, and the plain bytes.
 */
async function sendMixedMessages(encryptor?: unknown): Promise<{ out: Buffer[]; plain: Buffer }> {
  const wire = newWire('tcpOutgoing') as WireLike & { _encryptor: unknown }
  const out: Buffer[] = []
  wire.on('data', (chunk: Uint8Array) => out.push(Buffer.from(chunk)))
  wire.on('error', () => {})
  wire.peerChoking = false
  if (encryptor) wire._encryptor = encryptor
  wire.request(1, 0, 16384, () => {})
  wire.request(1, 16384, 16384, () => {})
  wire.have(7)
  const block = Buffer.alloc(16384, 0x5a)
  wire._push(block)
  wire.unchoke()
  const plain = Buffer.concat([
    u32(13), Buffer.from([6]), u32(1), u32(0), u32(16384),
    u32(13), Buffer.from([6]), u32(1), u32(16384), u32(16384),
    u32(5), Buffer.from([4]), u32(7),
    block,
    u32(1), Buffer.from([1]),
  ])
  await vi.waitFor(() => expect(Buffer.concat(out).length).toBeGreaterThanOrEqual(plain.length), { interval: 1 })
  wire.destroy()
  return { out, plain }
}

describe('tuned wire send', () => {
  it('sends the small messages of one tick as one write, in order, and large data after them', async () => {
    const { out, plain } = await sendMixedMessages()
    expect(Buffer.concat(out).equals(plain)).toBe(true)
    // Three small messages went out as one buffer before the block.
    expect(out[0]!.length).toBe(17 + 17 + 9)
  })
})

describe('tuned sends on an encrypted wire', () => {
  /** A stream cipher stand-in: XOR with a running counter, so bytes encrypted out of order or twice come out wrong. */
  const streamCipher = () => {
    let position = 0
    return (data: Uint8Array) => Uint8Array.from(data, (byte) => byte ^ ((position++ * 31 + 7) & 0xff))
  }

  it('batches the small messages of one tick once the encryption handshake is done, encrypting every byte once and in order', async () => {
    const { out, plain } = await sendMixedMessages({ state: 'done', encrypt: streamCipher(), decrypt: (d: Uint8Array) => d })
    expect(Buffer.concat(out).equals(Buffer.from(streamCipher()(plain)))).toBe(true)
    expect(out[0]!.length).toBe(17 + 17 + 9)
  })

  it('sends each message by itself, encrypted as it is pushed, while the encryption handshake runs', async () => {
    const wire = newWire('tcpOutgoing') as WireLike & { _encryptor: unknown }
    const out: Buffer[] = []
    wire.on('data', (chunk: Uint8Array) => out.push(Buffer.from(chunk)))
    wire.on('error', () => {})
    wire.peerChoking = false
    wire._encryptor = { state: 'sentPe3', encrypt: streamCipher(), decrypt: (d: Uint8Array) => d }
    wire.request(1, 0, 16384, () => {})
    wire.have(7)
    const plain = Buffer.concat([u32(13), Buffer.from([6]), u32(1), u32(0), u32(16384), u32(5), Buffer.from([4]), u32(7)])
    await vi.waitFor(() => expect(Buffer.concat(out).length).toBeGreaterThanOrEqual(plain.length), { interval: 1 })
    expect(Buffer.concat(out).equals(Buffer.from(streamCipher()(plain)))).toBe(true)
    expect(out[0]!.length).toBe(17)
    wire.destroy()
  })
})

describe('tuned request passes', () => {
  const updateWire = (Torrent as unknown as { prototype: { _updateWire(this: unknown, wire: unknown): unknown } }).prototype._updateWire
  /** A wire downloading fast from a choking peer: webtorrent's pass reads its speed, then stops at the choke. */
  const fastWire = (outstanding: number) => {
    let speedReads = 0
    const wire = {
      destroyed: false, type: 'tcpOutgoing', requests: new Array(outstanding).fill({}), peerChoking: true, hasFast: false,
      peerExtendedHandshake: { reqq: 500 }, downloadSpeed: () => { speedReads++; return 300 * 1024 * 1024 },
    }
    return { wire, passed: () => speedReads > 0 }
  }

  it('asks a peer near the 500-block cap for more only once a batch of 64 blocks has come back', () => {
    const near = fastWire(436)
    updateWire.call({}, near.wire)
    expect(near.passed()).toBe(false)
    const below = fastWire(435)
    updateWire.call({}, below.wire)
    expect(below.passed()).toBe(true)
  })
})

describe('tuned piece assembly', () => {
  type PieceLike = { reserve(): number; set(i: number, data: Uint8Array, source: unknown): boolean; flush(): Uint8Array | null; missing: number; chunkLength(i: number): number; get(i: number): Uint8Array | null | undefined }
  const newPiece = (length: number) => new (Piece as unknown as new (length: number) => PieceLike)(length)

  it('gives back exactly the piece whatever order its blocks arrive in, and only once all are there', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 * 16384 + 300 }).chain((length) => fc.tuple(
        fc.uint8Array({ minLength: length, maxLength: length }),
        fc.shuffledSubarray([...Array(Math.ceil(length / 16384)).keys()], { minLength: Math.ceil(length / 16384), maxLength: Math.ceil(length / 16384) }),
      )),
      ([data, order]) => {
        const piece = newPiece(data.length)
        for (let i = 0; i < order.length; i++) expect(piece.reserve()).toBe(i)
        order.forEach((block, n) => {
          const complete = piece.set(block, data.subarray(block * 16384, block * 16384 + piece.chunkLength(block)), 'peer')
          expect(complete).toBe(n === order.length - 1)
          expect(Buffer.from(piece.get(block)!).equals(Buffer.from(data.subarray(block * 16384, block * 16384 + piece.chunkLength(block))))).toBe(true)
          if (!complete) expect(piece.flush()).toBeNull()
        })
        expect(piece.missing).toBe(0)
        expect(Buffer.from(piece.flush()!).equals(Buffer.from(data))).toBe(true)
      },
    ))
  })

  it('takes the SHA-1 of exactly the bytes it hands out, whatever order the blocks arrive in and whichever arrive twice', () => {
    const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 9 * 16384 + 300 }).chain((length) => {
        const blocks = Math.ceil(length / 16384)
        return fc.tuple(
          fc.uint8Array({ minLength: length, maxLength: length }),
          // Mostly in order (as peers answer), sometimes shuffled; some blocks sent again with other bytes.
          fc.oneof(fc.constant([...Array(blocks).keys()]), fc.shuffledSubarray([...Array(blocks).keys()], { minLength: blocks, maxLength: blocks })),
          fc.array(fc.record({ after: fc.nat(blocks - 1), block: fc.nat(blocks - 1) }), { maxLength: 4 }),
        )
      }),
      ([data, order, repeats]) => {
        const piece = newPiece(data.length)
        for (let i = 0; i < order.length; i++) piece.reserve()
        const bytesOf = (block: number) => data.subarray(block * 16384, block * 16384 + piece.chunkLength(block))
        const setOnce = new Set<number>()
        order.forEach((block, n) => {
          piece.set(block, bytesOf(block), 'peer')
          setOnce.add(block)
          for (const r of repeats) if (r.after === n && setOnce.has(r.block) && setOnce.size < order.length) piece.set(r.block, Buffer.alloc(piece.chunkLength(r.block), 0xee), 'other')
        })
        const buf = piece.flush()!
        expect(Buffer.from(buf).equals(Buffer.from(data))).toBe(true)
        expect(pieceDigest(piece as never, buf)).toBe(sha1(data))
      },
    ), { numRuns: 300 })
  })

  it('skips a piece in the request pass only when webtorrent could not have asked for any block of it', () => {
    type Op = { kind: 'reserve' } | { kind: 'cancel'; at: number } | { kind: 'set'; at: number } | { kind: 'flush' }
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.constant({ kind: 'reserve' as const }),
      fc.record({ kind: fc.constant('cancel' as const), at: fc.nat(4) }),
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(4) }),
      fc.constant({ kind: 'flush' as const }),
    )
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 * 16384 }), fc.array(op, { maxLength: 20 }), fc.boolean(), (length, ops, hotswap) => {
      const piece = newPiece(length) as PieceLike & { cancel(i: number): void }
      const reserved: number[] = []
      for (const o of ops) {
        if (o.kind === 'reserve') {
          const i = piece.reserve()
          if (i >= 0) reserved.push(i)
        } else if (o.kind === 'cancel' && reserved.length > 0) {
          piece.cancel(reserved.splice(o.at % reserved.length, 1)[0]!)
        } else if (o.kind === 'set' && reserved.length > 0) {
          const i = reserved.splice(o.at % reserved.length, 1)[0]!
          piece.set(i, new Uint8Array(piece.chunkLength(i)), 'peer')
        } else if (o.kind === 'flush') {
          piece.flush()
        }
      }
      // Skipping is right only if reserve() - what Torrent#_request asks - would find no block.
      if (nothingToRequest(piece as never, hotswap)) expect(piece.reserve()).toBe(-1)
    }), { numRuns: 500 })
  })

  it('keeps the first copy of a block that arrives twice', () => {
    const piece = newPiece(2 * 16384)
    piece.reserve()
    piece.reserve()
    piece.set(0, Buffer.alloc(16384, 1), 'a')
    piece.set(0, Buffer.alloc(16384, 2), 'b')
    piece.set(1, Buffer.alloc(16384, 3), 'a')
    const whole = Buffer.from(piece.flush()!)
    expect(whole.subarray(0, 16384).every((b) => b === 1)).toBe(true)
    expect(whole.subarray(16384).every((b) => b === 3)).toBe(true)
  })
})
