// Drives one TcpConnection by hand: segments in at exact instants, segments out recorded with
// the instant they left (the smoltcp way of testing a TCP socket).
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import type { TcpConnectionHandler, TcpSettings, TcpState } from '../../src/services/netstack/tcp-connection.js'
import { TcpConnection } from '../../src/services/netstack/tcp-connection.js'
import { tcpSettingsFromDefaults } from '../../src/services/netstack/netstack.js'
import type { TcpOptions, TcpSegment } from '../../src/services/netstack/tcp-segment.js'
import { TCP_ACK, TCP_FIN, TCP_PSH, TCP_RST, TCP_SYN } from '../../src/services/netstack/tcp-segment.js'

export const LOCAL_PORT = 49_500
export const REMOTE_PORT = 80
export const MSS = 1380

export interface Sent {
  at: number
  seg: TcpSegment
}

export interface SegmentSpec {
  seq: number
  ack?: number
  flags: string
  window?: number
  options?: TcpOptions
  payload?: Uint8Array | number
}

/** 'S' SYN, 'A' ACK, 'F' FIN, 'R' RST, 'P' PSH. */
export function flagsOf(text: string): number {
  let flags = 0
  for (const c of text) flags |= ({ S: TCP_SYN, A: TCP_ACK, F: TCP_FIN, R: TCP_RST, P: TCP_PSH } as Record<string, number>)[c] ?? 0
  return flags
}

export function flagText(flags: number): string {
  return (flags & TCP_SYN ? 'S' : '') + (flags & TCP_ACK ? 'A' : '') + (flags & TCP_FIN ? 'F' : '') + (flags & TCP_RST ? 'R' : '') + (flags & TCP_PSH ? 'P' : '')
}

export function bytes(n: number, start = 0): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (start + i) & 0xff)
}

export function segment(spec: SegmentSpec): TcpSegment {
  const payload = typeof spec.payload === 'number' ? bytes(spec.payload) : spec.payload ?? new Uint8Array(0)
  return {
    srcPort: REMOTE_PORT, dstPort: LOCAL_PORT, seq: spec.seq >>> 0, ack: (spec.ack ?? 0) >>> 0, flags: flagsOf(spec.flags),
    window: spec.window ?? 65535, options: spec.options ?? {}, payload,
  }
}

export interface Harness {
  clock: ManualClock
  conn: TcpConnection
  sent: Sent[]
  events: string[]
  states: TcpState[]
  closedWith: Array<string | undefined>
  /** Segments sent since the last call. */
  take(): TcpSegment[]
  feed(spec: SegmentSpec): void
  /** Feeds segments after moving the clock to `at`. */
  at(ms: number): void
}

export function settings(overrides: Partial<TcpSettings> = {}): TcpSettings {
  return tcpSettingsFromDefaults({ receiveBufferBytes: 65535, sendBufferBytes: 1 << 20, ...overrides })
}

type HarnessOptions = { iss?: number; settings?: Partial<TcpSettings>; mss?: number; startMs?: number }

function makeHarness(create: (init: Parameters<typeof TcpConnection.connect>[0]) => TcpConnection, options: HarnessOptions = {}): Harness {
  const clock = new ManualClock(options.startMs ?? 0)
  const sent: Sent[] = []
  const events: string[] = []
  const states: TcpState[] = []
  const closedWith: Array<string | undefined> = []
  let taken = 0
  const handler: TcpConnectionHandler = {
    established: () => events.push('established'),
    readable: () => events.push('readable'),
    writable: () => events.push('writable'),
    closed: (error) => {
      events.push('closed')
      closedWith.push(error?.code)
    },
    stateChange: (_from, to) => states.push(to),
  }
  const conn = create({
    endpoint: { localPort: LOCAL_PORT, remotePort: REMOTE_PORT },
    clock,
    random: () => options.iss ?? 1000,
    mss: options.mss ?? MSS,
    settings: settings(options.settings),
    output: (seg) => sent.push({ at: clock.now(), seg: { ...seg, payload: Uint8Array.from(seg.payload) } }),
    handler,
  })
  return {
    clock, conn, sent, events, states, closedWith,
    take() {
      const out = sent.slice(taken).map((s) => s.seg)
      taken = sent.length
      return out
    },
    feed(spec) {
      conn.input(segment(spec))
    },
    at(ms) {
      clock.advanceTo(ms)
    },
  }
}

export function activeOpen(options: HarnessOptions = {}): Harness {
  return makeHarness((init) => TcpConnection.connect(init), options)
}

export function passiveOpen(syn: SegmentSpec, options: HarnessOptions = {}): Harness {
  return makeHarness((init) => TcpConnection.accept(init, segment(syn)), options)
}

export const PEER_ISS = 5000

/** An active open completed with a SYN-ACK offering `peerOptions`; the handshake segments are
 * taken. The SYN leaves at -100 ms and the SYN-ACK arrives at 0: SRTT 100, RTTVAR 50, RTO 300. */
export function established(options: { iss?: number; settings?: Partial<TcpSettings>; peerOptions?: TcpOptions; peerWindow?: number } = {}): Harness {
  const h = activeOpen({ ...options, startMs: -100 })
  h.clock.advanceTo(0)
  const iss = options.iss ?? 1000
  h.feed({ seq: PEER_ISS, ack: iss + 1, flags: 'SA', window: options.peerWindow ?? 65535, options: options.peerOptions ?? { mss: 1460 } })
  h.take()
  return h
}

/** A compact view of a segment for assertions. */
export function view(seg: TcpSegment): { flags: string; seq: number; ack: number; len: number; window: number; sack?: Array<[number, number]> } {
  const out: ReturnType<typeof view> = { flags: flagText(seg.flags), seq: seg.seq, ack: seg.ack, len: seg.payload.length, window: seg.window }
  if (seg.options.sack) out.sack = seg.options.sack
  return out
}
