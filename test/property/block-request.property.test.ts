import { createHash } from 'node:crypto'
import { EventEmitter } from 'node:events'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import Piece from 'torrent-piece'
import Torrent from 'webtorrent/lib/torrent.js'
import { requestBlock } from '../../src/services/torrent/block-request.js'
import { installWireTuning } from '../../src/services/torrent/wire-tuning.js'

// block-request.ts re-implements webtorrent's Torrent#_request for peer wires without its
// per-request async closure (docs/torrents.md, CPU). The contract is webtorrent's own method: for
// any sequence of asks (any wire, any piece, with or without hotswap) and replies (in any order;
// the right bytes, corrupt bytes or an error), both must ask the wires for the same blocks, answer
// the same, hand the same pieces to the store, tell the peers the same `have`s and warn about the
// same failed pieces. Both run here on identical torrents built from webtorrent's own Piece (with
// the engine's tuned assembly) and its own _hotswap and _markVerified.

const prototype = (Torrent as unknown as { prototype: Record<string, (...args: never[]) => unknown> }).prototype
// Taken before installWireTuning replaces it with the engine's wrapper.
const stockRequest = prototype._request!
expect(installWireTuning()).toBeUndefined()
const hotswap = prototype._hotswap!
const markVerified = prototype._markVerified!

const BLOCK = 16384

/** bittorrent-protocol's Request (piece, offset, length, callback), with the wire it went to. */
interface Sent { wire: number; piece: number; offset: number; length: number; callback: (err: Error | null, chunk?: Uint8Array) => void }

class FakeWire {
  requests: Sent[] = []
  haves: number[] = []
  peerExtendedHandshake: { reqq?: number }
  constructor(readonly id: number, readonly speed: number, reqq: number | undefined, readonly sent: Sent[]) {
    this.peerExtendedHandshake = reqq === undefined ? {} : { reqq }
  }
  downloadSpeed() {
    return this.speed
  }
  request(index: number, offset: number, length: number, callback: Sent['callback']) {
    const request = { wire: this.id, piece: index, offset, length, callback }
    this.requests.push(request)
    this.sent.push(request)
  }
  have(index: number) {
    this.haves.push(index)
  }
}

type PieceLike = { length: number }

/** What a run shows to the outside: the asks' answers, the blocks asked, the store, peers and warnings. */
interface Trace {
  answers: boolean[]
  asked: string[]
  stored: number[]
  haves: number[][]
  warnings: string[]
  verified: number[]
  updates: number
  /** webtorrent's Torrent#_reservations: which wire holds each reserved slot of each piece (its _hotswap reads them). */
  reservations: ((number | null)[] | null | undefined)[]
}

function makeTorrent(data: Buffer, pieceLength: number, speeds: number[], reqqs: (number | undefined)[]) {
  const count = Math.ceil(data.length / pieceLength)
  const sent: Sent[] = []
  const trace: Trace = { answers: [], asked: [], stored: [], haves: [], warnings: [], verified: [], updates: 0, reservations: [] }
  const emitter = new EventEmitter()
  const bits = new Array<boolean>(count).fill(false)
  const torrent = {
    destroyed: false,
    ready: true,
    pieces: Array.from({ length: count }, (_, i) => new (Piece as unknown as new (length: number) => PieceLike)(Math.min(pieceLength, data.length - i * pieceLength))) as (PieceLike | null)[],
    bitfield: { get: (i: number) => bits[i] === true, set: (i: number, value: boolean) => { bits[i] = value } },
    _reservations: [] as unknown[],
    _hashes: Array.from({ length: count }, (_, i) => createHash('sha1').update(data.subarray(i * pieceLength, (i + 1) * pieceLength)).digest('hex')),
    wires: speeds.map((speed, i) => new FakeWire(i, speed, reqqs[i], sent)),
    store: { put: (index: number, buf: Uint8Array, cb: (err?: Error | null) => void) => {
      expect(Buffer.from(buf).equals(data.subarray(index * pieceLength, (index + 1) * pieceLength))).toBe(true)
      trace.stored.push(index)
      queueMicrotask(() => cb(null))
    } },
    _hotswap: hotswap,
    _markVerified: markVerified,
    _update: () => { trace.updates++ },
    _checkDone: () => {},
    _destroy: (err: Error) => { throw err },
    _debug: () => {},
    once: (event: string, listener: () => void) => emitter.once(event, listener),
    emit: (event: string, ...args: unknown[]) => {
      if (event === 'warning') trace.warnings.push((args[0] as Error).message)
      if (event === 'verified') trace.verified.push(args[0] as number)
      return emitter.emit(event, ...args)
    },
  }
  return { torrent, sent, trace }
}

type Step =
  /** webtorrent's request pass asks a wire for blocks of a piece until _request says no: up to `times`. */
  | { kind: 'ask'; wire: number; piece: number; hotswap: boolean; times: number }
  | { kind: 'reply'; pick: number; answer: 'ok' | 'corrupt' | 'error' }

const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

async function run(method: (...args: never[]) => unknown, data: Buffer, pieceLength: number, speeds: number[], reqqs: (number | undefined)[], steps: Step[]): Promise<Trace> {
  const { torrent, sent, trace } = makeTorrent(data, pieceLength, speeds, reqqs)
  const pending: Sent[] = []
  for (const step of steps) {
    if (step.kind === 'ask') {
      const wire = torrent.wires[step.wire % torrent.wires.length]!
      const index = step.piece % torrent.pieces.length
      const before = sent.length
      // webtorrent's own request pass never asks for a piece it has or has dropped.
      if (torrent.pieces[index] === null) continue
      for (let n = 0; n < step.times; n++) {
        const answer = (method as unknown as (this: unknown, ...a: unknown[]) => boolean).call(torrent, wire, index, step.hotswap)
        trace.answers.push(answer)
        if (!answer) break
      }
      for (const request of sent.slice(before)) {
        trace.asked.push(`${request.wire}:${request.piece}:${request.offset}:${request.length}`)
        pending.push(request)
      }
    } else if (pending.length > 0) {
      const request = pending.splice(step.pick % pending.length, 1)[0]!
      const wire = torrent.wires[request.wire]!
      wire.requests.splice(wire.requests.indexOf(request), 1)
      const start = request.piece * pieceLength + request.offset
      const bytes = Buffer.from(data.subarray(start, start + request.length))
      if (step.answer === 'corrupt') bytes[0] = bytes[0]! ^ 0xff
      request.callback(step.answer === 'error' ? new Error('peer is choking') : null, step.answer === 'error' ? undefined : bytes)
    }
    await flush()
  }
  trace.haves = torrent.wires.map((wire) => wire.haves)
  trace.reservations = Array.from({ length: torrent.pieces.length }, (_, i) => {
    const holders = torrent._reservations[i] as (FakeWire | null)[] | null | undefined
    return holders ? holders.map((wire) => wire?.id ?? null) : holders
  })
  return trace
}

describe('requestBlock (Torrent#_request for peer wires)', () => {
  it('asks, stores, announces and warns exactly as webtorrent\'s own _request, for any asks and replies', async () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('ask' as const), wire: fc.nat(3), piece: fc.nat(5), hotswap: fc.boolean(), times: fc.integer({ min: 1, max: 4 }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), pick: fc.nat(40), answer: fc.constantFrom<'ok' | 'corrupt' | 'error'>('ok', 'ok', 'ok', 'corrupt', 'error') }) },
    )
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }).chain((blocks) => fc.record({
        pieceLength: fc.constant(blocks * BLOCK),
        size: fc.integer({ min: 1, max: 4 * blocks * BLOCK }),
        // A fast wire, a slow one (webtorrent takes blocks over from a wire under 3 blocks a second
        // for one at least twice as fast: hotswap), and any third; pipelines of 2 to 42 blocks.
        speeds: fc.tuple(fc.constant(40 * BLOCK), fc.constantFrom(0, BLOCK), fc.constantFrom(0, BLOCK, 4 * BLOCK, 40 * BLOCK)),
        reqqs: fc.array(fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 2 }), { minLength: 3, maxLength: 3 }),
        steps: fc.array(step, { maxLength: 40 }),
        seed: fc.integer(),
      })),
      async ({ pieceLength, size, speeds, reqqs, steps, seed }) => {
        const data = Buffer.alloc(size)
        for (let i = 0; i < size; i++) data[i] = (seed + i * 31) & 0xff
        const stock = await run(stockRequest, data, pieceLength, speeds, reqqs, steps)
        const ours = await run(requestBlock as never, data, pieceLength, speeds, reqqs, steps)
        // `updates` differ by design: webtorrent queued one request pass per block, the engine's
        // `_update` coalesces them; that every reply asks for a pass is all that matters.
        expect({ ...ours, updates: ours.updates > 0 }).toEqual({ ...stock, updates: stock.updates > 0 })
      },
    ), { numRuns: 500 })
  })

  it('goes on with a reply that arrives before the torrent is ready once it is', async () => {
    const data = Buffer.alloc(BLOCK, 7)
    const { torrent, sent, trace } = makeTorrent(data, BLOCK, [BLOCK], [undefined])
    expect(requestBlock.call(torrent as never, torrent.wires[0] as never, 0, false)).toBe(true)
    torrent.ready = false
    sent[0]!.callback(null, data)
    await flush()
    expect(trace.stored).toEqual([])
    torrent.ready = true
    torrent.emit('ready')
    await flush()
    expect(trace.stored).toEqual([0])
    expect(trace.verified).toEqual([0])
    expect(torrent.wires[0]!.haves).toEqual([0])
  })
})
