// The timer table of the whitepaper (section 6), driven with a manual clock.
import { describe, expect, it } from 'vitest'
import {
  wgKeepaliveTimeoutMs, wgMaxHandshakeAttempts, wgRejectAfterTimeMs, wgRekeyAfterTimeMs, wgRekeyTimeoutJitterMaxMs, wgRekeyTimeoutMs,
} from '../../src/config/defaults.js'
import { MESSAGE_INITIATION, MESSAGE_TRANSPORT, readU32 } from '../../src/services/wireguard/messages.js'
import type { MemoryDatagram } from '../../src/services/wireguard/memory-udp.js'
import { createNodeUdpSocket, type UdpAddress, type WgUdpSocket } from '../../src/services/wireguard/udp.js'
import { count, createPair, ipv4, type Pair } from './wireguard-harness.js'

interface Sent {
  t: number
  type: number
  length: number
  from: string
  receiver: number
}

function record(pair: Pair, drop: (d: MemoryDatagram) => boolean = () => false): Sent[] {
  const log: Sent[] = []
  pair.net.filter = (d) => {
    log.push({ t: pair.clock.now(), type: d.data[0]!, length: d.data.length, from: d.from.address, receiver: readU32(d.data, d.data[0] === 2 ? 8 : 4) })
    return !drop(d)
  }
  return log
}

const A = '192.0.2.1'
const B = '192.0.2.2'
const isKeepalive = (s: Sent): boolean => s.type === MESSAGE_TRANSPORT && s.length === 32

async function established(options: Parameters<typeof createPair>[0] = {}): Promise<Pair> {
  const pair = await createPair(options)
  pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
  pair.clock.advance(10)
  expect(pair.b.received).toHaveLength(1)
  return pair
}

describe('WireGuard timers', () => {
  it('retransmits an unanswered initiation every 5 s plus jitter, 18 times, then gives up and later zeroes the keys', async () => {
    const pair = await createPair()
    const log = record(pair, (d) => d.to.address === B)
    const start = pair.clock.now()
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(200_000)
    const initiations = log.filter((s) => s.type === MESSAGE_INITIATION)
    expect(initiations).toHaveLength(1 + wgMaxHandshakeAttempts)
    expect(initiations[0]!.t).toBe(start)
    for (let i = 1; i < initiations.length; i++) {
      const gap = initiations[i]!.t - initiations[i - 1]!.t
      expect(gap).toBeGreaterThanOrEqual(wgRekeyTimeoutMs)
      expect(gap).toBeLessThanOrEqual(wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs)
    }
    const timeout = pair.a.events.find((e) => e.type === 'handshake-timeout')
    expect(timeout).toBeDefined()
    expect(timeout?.type === 'handshake-timeout' && timeout.error.code).toBe('MA_ERR_WG_HANDSHAKE_TIMEOUT')
    expect(pair.a.device.stats().dropped.handshakeTimeout).toBe(1)
    expect(count(pair.a, 'keys-zeroed')).toBe(0)
    pair.clock.advance(3 * wgRejectAfterTimeMs)
    expect(count(pair.a, 'keys-zeroed')).toBe(1)
  })

  it('sends a keepalive 10 s after receiving data when it has sent nothing back', async () => {
    const pair = await established()
    pair.clock.advance(30_000) // let the keepalive for the handshake's first packet go out
    const log = record(pair)
    const t0 = pair.clock.now()
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(30_000)
    const fromB = log.filter((s) => s.from === B)
    expect(fromB).toHaveLength(1)
    expect(isKeepalive(fromB[0]!)).toBe(true)
    expect(fromB[0]!.t).toBe(t0 + 1 + wgKeepaliveTimeoutMs) // 1 ms network latency
    expect(log.filter((s) => s.type === MESSAGE_INITIATION)).toHaveLength(0) // the keepalive answered A's data
  })

  it('starts a new handshake when data it sent got no answer for 15 s', async () => {
    const pair = await established()
    const log = record(pair, (d) => d.from.address === B)
    const t0 = pair.clock.now()
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(wgKeepaliveTimeoutMs + wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs + 1)
    const initiation = log.find((s) => s.from === A && s.type === MESSAGE_INITIATION)
    expect(initiation).toBeDefined()
    expect(initiation!.t - t0).toBeGreaterThanOrEqual(wgKeepaliveTimeoutMs + wgRekeyTimeoutMs)
    expect(initiation!.t - t0).toBeLessThanOrEqual(wgKeepaliveTimeoutMs + wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs)
  })

  it('sends persistent keepalives every interval of silence', async () => {
    const pair = await createPair({ persistentKeepalive: 25 })
    const log = record(pair)
    pair.clock.advance(110_000)
    expect(count(pair.a, 'handshake-complete')).toBe(1) // the first keepalive started the session
    const keepalives = log.filter((s) => s.from === A && isKeepalive(s)).map((s) => s.t)
    expect(keepalives.length).toBeGreaterThanOrEqual(4)
    for (let i = 2; i < keepalives.length; i++) expect(keepalives[i]! - keepalives[i - 1]!).toBe(25_000)
  })

  it('has the initiator rekey on the first send after 120 s, and the old key keeps working meanwhile', async () => {
    const pair = await established()
    pair.clock.advance(wgRekeyAfterTimeMs)
    const log = record(pair)
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    expect(log.map((s) => s.type).slice(0, 2)).toEqual([MESSAGE_TRANSPORT, MESSAGE_INITIATION])
    expect(pair.b.received).toHaveLength(2) // sent on the old key before the new handshake
    expect(count(pair.a, 'handshake-complete')).toBe(2)
  })

  it('keeps the responder on its old key until the initiator confirms the new one', async () => {
    const pair = await established()
    pair.clock.advance(wgRekeyAfterTimeMs)
    let confirmations = 0
    const log = record(pair, (d) => {
      // drop A's confirming keepalive after the new response, so B still has only an unconfirmed next key
      if (d.from.address === A && d.data[0] === MESSAGE_TRANSPORT && d.data.length === 32 && confirmations++ === 0) return true
      return false
    })
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    const newAIndex = log.find((s) => s.from === B && s.type === 2) // the response's receiver: A's new index
    expect(newAIndex).toBeDefined()
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    const bFirst = log.filter((s) => s.from === B && s.type === MESSAGE_TRANSPORT).at(-1)!
    expect(bFirst.receiver).not.toBe(newAIndex!.receiver) // still the previous session's index on A
    expect(pair.a.received).toHaveLength(1) // A decrypts with its previous keypair
    expect(count(pair.b, 'handshake-complete')).toBe(1)
    // A sends data on the new key: B confirms, rotates, and answers on the new key
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    expect(count(pair.b, 'handshake-complete')).toBe(2)
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    const bSecond = log.filter((s) => s.from === B && s.type === MESSAGE_TRANSPORT).at(-1)!
    expect(bSecond.receiver).toBe(newAIndex!.receiver)
    expect(pair.a.received).toHaveLength(2)
  })

  it('stops using a key 180 s after it was made, and drops packets sealed with it', async () => {
    const pair = await established()
    let captured: Uint8Array | undefined
    const log = record(pair, (d) => {
      if (d.from.address === B && d.data[0] === MESSAGE_TRANSPORT && d.data.length > 32) captured ??= d.data
      return false
    })
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    expect(pair.a.received).toHaveLength(1)
    pair.clock.advance(wgRejectAfterTimeMs)
    pair.net.inject(captured!, pair.bAddress, pair.aAddress)
    pair.clock.advance(10)
    expect(pair.a.device.stats().dropped.expiredKey).toBe(1)
    const before = log.length
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    expect(log[before]!.type).toBe(MESSAGE_INITIATION) // the responder must handshake anew
    expect(pair.a.received).toHaveLength(2) // and the staged packet follows on the new session
  })

  it('has the initiator rekey when it receives on a key older than 165 s', async () => {
    const pair = await established()
    const log = record(pair)
    pair.clock.advance(wgRejectAfterTimeMs - wgKeepaliveTimeoutMs - wgRekeyTimeoutMs + 1)
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    expect(log.filter((s) => s.from === A && s.type === MESSAGE_INITIATION)).toHaveLength(1)
  })

  it('zeroes all key material 540 s after the last session was derived', async () => {
    const pair = await established()
    expect(pair.a.device.stats().peers[0]!.hasSession).toBe(true)
    pair.clock.advance(3 * wgRejectAfterTimeMs)
    expect(count(pair.a, 'keys-zeroed')).toBe(1)
    expect(count(pair.b, 'keys-zeroed')).toBe(1)
    expect(pair.a.device.stats().peers[0]!.hasSession).toBe(false)
  })

  it('rekeys after the message limit and never sends beyond the reject limit', async () => {
    const pair = await established({ limits: { rekeyAfterMessages: 5 } })
    pair.clock.advance(30_000) // past the 5 s handshake rate limit and the first keepalive
    const log = record(pair)
    for (let i = 0; i < 6; i++) pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    const types = log.filter((s) => s.from === A).map((s) => s.type)
    // nonce 0 went with the first handshake; after sealing nonce 5 the counter passes the limit
    expect(types.slice(0, 7)).toEqual([4, 4, 4, 4, 4, MESSAGE_INITIATION, 4])
    expect(count(pair.a, 'handshake-complete')).toBe(2)
    expect(pair.b.received).toHaveLength(7)
  })

  it('stops sealing with a key at the reject-after-messages limit and handshakes anew', async () => {
    const pair = await established({ limits: { rejectAfterMessages: 10 } })
    pair.clock.advance(30_000) // B's first keepalive used nonce 0
    const log = record(pair)
    for (let i = 0; i < 12; i++) pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    pair.clock.advance(10)
    const types = log.filter((s) => s.from === B).map((s) => s.type)
    // nonce 0 was B's keepalive; nonces 1..9 go out, the 10th packet waits for a new session
    expect(types.slice(0, 10)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, MESSAGE_INITIATION])
    expect(pair.a.received).toHaveLength(12)
  })

  it('starts over with a fresh attempt on the next packet after giving up', async () => {
    const pair = await createPair()
    const log = record(pair, (d) => d.to.address === B)
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(200_000)
    expect(count(pair.a, 'handshake-timeout')).toBe(1)
    const before = log.length
    pair.net.filter = undefined
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    expect(log.length).toBe(before) // (recording stopped) but the packet got through on a new session
    expect(pair.b.received).toHaveLength(1)
  })

  it('keeps its handshake timestamps strictly increasing even when the wall clock stands still', async () => {
    const pair = await established({ limits: { rekeyAfterTimeMs: 1_000 } })
    pair.clock.wallNow = () => 1_700_000_000_000 // frozen: an equal TAI64N would be rejected as a replay
    for (let i = 0; i < 3; i++) {
      pair.clock.advance(6_000)
      pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
      pair.clock.advance(10)
    }
    expect(pair.b.device.stats().dropped.replayedInitiation).toBe(0)
    expect(count(pair.b, 'handshake-complete')).toBe(4)
  })
})

/**
 * A host firewall between device A and the network: while `blocked`, every send is refused with
 * EPERM, as sendmsg(2) answers for a packet an OUTPUT rule rejects. `mode: 'throw'` refuses in
 * send() itself; `mode: 'report'` returns and reports it afterwards, as node:dgram's callback does.
 */
function firewall(mode: 'throw' | 'report') {
  const state = { blocked: false, refused: 0 }
  const wrap = (side: 'a' | 'b', socket: WgUdpSocket): WgUdpSocket => {
    if (side === 'b') return socket
    let report: ((err: Error, to: UdpAddress | undefined) => void) | undefined
    return {
      bind: (port, address) => socket.bind(port, address),
      onMessage: (handler) => socket.onMessage(handler),
      close: () => socket.close(),
      send(data, port, address) {
        if (!state.blocked) return socket.send(data, port, address)
        state.refused++
        const err = Object.assign(new Error(`send EPERM ${address}:${port}`), { code: 'EPERM', errno: -1, syscall: 'send', address, port })
        if (mode === 'throw') throw err
        queueMicrotask(() => report?.(err, { address, port }))
      },
      ...(mode === 'report' ? { onSendError: (handler: (err: Error, to: UdpAddress | undefined) => void) => void (report = handler) } : {}),
    }
  }
  return { state, wrap }
}

describe('WireGuard timers when this host refuses to send (EPERM from a firewall)', () => {
  for (const mode of ['throw', 'report'] as const) {
    it(`treats a refused datagram as lost (${mode === 'throw' ? 'refused in send()' : 'reported after send()'}): a new handshake after 15 s, retransmits, then the give-up`, async () => {
      const fw = firewall(mode)
      const pair = await established({ wrapSocket: fw.wrap })
      pair.clock.advance(30_000) // B's keepalive for the first packet has come and gone
      fw.state.blocked = true
      const initiated = () => pair.a.events.filter((e) => e.type === 'handshake-initiated').length
      const before = initiated()
      // Data the netstack hands over: the refusal never reaches it.
      expect(() => pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))).not.toThrow()
      await Promise.resolve()
      expect(pair.b.received).toHaveLength(1) // only the packet from before the block
      // Unanswered data starts a new handshake after keepalive + rekey timeout, like a lost datagram.
      pair.clock.advance(wgKeepaliveTimeoutMs + wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs + 1)
      expect(initiated()).toBe(before + 1)
      // Its retransmits go on every 5 s: the count the VPN actor reads to call the tunnel down after 30 s.
      pair.clock.advance(2 * (wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs))
      await Promise.resolve()
      expect(pair.a.device.stats().peers[0]!.handshakeAttempts).toBeGreaterThanOrEqual(1)
      expect(initiated()).toBeGreaterThanOrEqual(before + 3)
      pair.clock.advance(200_000)
      await Promise.resolve()
      expect(count(pair.a, 'handshake-timeout')).toBe(1)
      const stats = pair.a.device.stats()
      expect(stats.dropped.sendFailed).toBe(fw.state.refused)
      expect(stats.dropped.sendFailed).toBeGreaterThanOrEqual(1 + wgMaxHandshakeAttempts)
      expect(stats.lastSendError).toMatch(/^EPERM: /)
      expect(stats.internalErrors).toBe(0)
    })
  }

  it('comes back at the next retransmit once the firewall lets datagrams through, and forgets the error', async () => {
    const fw = firewall('throw')
    const pair = await established({ wrapSocket: fw.wrap })
    pair.clock.advance(30_000)
    fw.state.blocked = true
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(wgKeepaliveTimeoutMs + wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs + 1)
    expect(pair.a.device.stats().lastSendError).toMatch(/^EPERM/)
    const completed = count(pair.a, 'handshake-complete')
    fw.state.blocked = false
    pair.clock.advance(wgRekeyTimeoutMs + wgRekeyTimeoutJitterMaxMs + 10)
    expect(count(pair.a, 'handshake-complete')).toBe(completed + 1)
    expect(pair.a.device.stats().lastSendError).toBeUndefined()
    expect(pair.a.device.stats().peers[0]!.handshakeAttempts).toBe(0)
  })
})

describe('the node:dgram socket and local send failures', () => {
  it('reports a datagram this host refuses, with its destination, instead of dropping the error silently', async () => {
    // A real refusal without a firewall rule: broadcast without SO_BROADCAST, which sendmsg(2)
    // refuses with EACCES before anything leaves the host.
    const socket = createNodeUdpSocket('udp4', 0)
    await socket.bind(0, '0.0.0.0')
    try {
      const reported = new Promise<{ err: Error; to: UdpAddress | undefined }>((resolve) => socket.onSendError!((err, to) => resolve({ err, to })))
      expect(() => socket.send(new Uint8Array(32), 9, '255.255.255.255')).not.toThrow()
      const { err, to } = await reported
      expect((err as NodeJS.ErrnoException).code).toBe('EACCES')
      expect(to).toEqual({ address: '255.255.255.255', port: 9 })
    } finally {
      await socket.close()
    }
  })
})
