import { describe, expect, it } from 'vitest'
import { wgUnderLoadAfterMs, wgUnderLoadHandshakesPerSecond } from '../../src/config/defaults.js'
import { MESSAGE_COOKIE_REPLY, MESSAGE_INITIATION, MESSAGE_RESPONSE, MESSAGE_TRANSPORT } from '../../src/services/wireguard/messages.js'
import { wireGuardLink } from '../../src/services/wireguard/link.js'
import { count, createPair, ipv4 } from './wireguard-harness.js'

describe('two in-process WireGuard devices', () => {
  it('complete a handshake on the first packet and carry IP packets both ways', async () => {
    const { clock, net, a, b } = await createPair()
    const sizes: number[] = []
    net.filter = (d) => (sizes.push(d.data.length), true)
    const ping = ipv4('10.9.0.1', '10.9.0.2', new Uint8Array([1, 2, 3]))
    a.device.sendIp(ping)
    clock.advance(10)
    expect(sizes.slice(0, 2)).toEqual([148, 92])
    expect(b.received).toEqual([ping])
    expect(count(a, 'handshake-complete')).toBe(1)
    expect(count(b, 'handshake-complete')).toBe(1)
    const pong = ipv4('10.9.0.2', '10.9.0.1', new Uint8Array(100))
    b.device.sendIp(pong)
    clock.advance(10)
    expect(a.received).toEqual([pong])
    // transport packets are padded to 16 bytes: 23 -> 32 (+32 overhead), 120 -> 128
    expect(sizes).toContain(32 + 32)
    expect(sizes).toContain(128 + 32)
    expect(a.device.stats().peers[0]!.hasSession).toBe(true)
  })

  it('work with a pre-shared key', async () => {
    const { clock, a, b } = await createPair({ presharedKey: true })
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(b.received).toHaveLength(1)
  })

  it('drop a decrypted packet whose source is outside the sending peer\'s AllowedIPs', async () => {
    const { clock, a, b } = await createPair()
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    a.device.sendIp(ipv4('10.9.0.77', '10.9.0.2'))
    clock.advance(10)
    expect(b.received).toHaveLength(1)
    expect(b.device.stats().dropped.sourceNotAllowed).toBe(1)
  })

  it('drop packets to destinations no peer routes', async () => {
    const { a } = await createPair()
    a.device.sendIp(ipv4('10.9.0.1', '192.168.1.1'))
    a.device.sendIp(new Uint8Array([0x45, 0]))
    expect(a.device.stats().dropped.noRoute).toBe(1)
    expect(a.device.stats().dropped.badInnerPacket).toBe(1)
  })

  it('reject a replayed initiation and a replayed transport packet', async () => {
    const { clock, net, a, b, aAddress, bAddress } = await createPair()
    let initiation: Uint8Array | undefined
    let transport: Uint8Array | undefined
    net.filter = (d) => {
      if (d.data[0] === MESSAGE_INITIATION) initiation ??= d.data
      if (d.data[0] === MESSAGE_TRANSPORT && d.data.length > 32) transport ??= d.data
      return true
    }
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(b.received).toHaveLength(1)
    net.inject(transport!, aAddress, bAddress)
    clock.advance(10)
    expect(b.received).toHaveLength(1)
    expect(b.device.stats().dropped.replay).toBe(1)
    clock.advance(1000)
    net.inject(initiation!, aAddress, bAddress)
    clock.advance(10)
    expect(b.device.stats().dropped.replayedInitiation).toBe(1)
    expect(count(b, 'handshake-complete')).toBe(1)
  })

  it('drop handshake messages with a bad MAC1 without answering', async () => {
    const { clock, net, a, b, aAddress, bAddress } = await createPair()
    let initiation: Uint8Array | undefined
    net.filter = (d) => {
      if (d.data[0] === MESSAGE_INITIATION && initiation === undefined) {
        initiation = d.data
        return false
      }
      return true
    }
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    const bad = new Uint8Array(initiation!)
    bad[120] = bad[120]! ^ 1
    net.inject(bad, aAddress, bAddress)
    clock.advance(10)
    expect(b.device.stats().dropped.mac1).toBe(1)
    expect(net.delivered.filter((d) => d.data[0] === MESSAGE_RESPONSE)).toHaveLength(0)
  })

  it('demand a cookie under load and complete the handshake with MAC2 on the retransmission', async () => {
    const { clock, net, a, b } = await createPair()
    const types: number[] = []
    net.filter = (d) => (types.push(d.data[0]!), true)
    b.device.setUnderLoad(true)
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(types).toEqual([MESSAGE_INITIATION, MESSAGE_COOKIE_REPLY])
    expect(count(a, 'cookie-received')).toBe(1)
    expect(b.device.stats().dropped.cookieRequired).toBe(1)
    clock.advance(5400)
    expect(types.slice(2, 4)).toEqual([MESSAGE_INITIATION, MESSAGE_RESPONSE])
    expect(b.received).toHaveLength(1)
    expect(b.device.stats().underLoad).toBe(true)
  })

  it('enter the under-load state by itself when handshakes flood in, and leave it a second later', async () => {
    const { clock, net, a, b, aAddress, bAddress } = await createPair()
    let initiation: Uint8Array | undefined
    net.filter = (d) => {
      if (d.data[0] === MESSAGE_INITIATION) initiation ??= d.data
      return true
    }
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(b.device.stats().underLoad).toBe(false)
    for (let i = 0; i < wgUnderLoadHandshakesPerSecond; i++) net.inject(initiation!, aAddress, bAddress)
    clock.advance(10)
    expect(b.device.stats().underLoad).toBe(true)
    net.inject(initiation!, aAddress, bAddress)
    clock.advance(10)
    expect(b.device.stats().dropped.cookieRequired).toBe(1)
    clock.advance(wgUnderLoadAfterMs)
    expect(b.device.stats().underLoad).toBe(false)
  })

  it('converge when both sides start a handshake at the same moment', async () => {
    const { clock, a, b } = await createPair({ bAllowedForA: '10.9.0.1/32' })
    b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1')) // B has no endpoint for A yet: the packet waits
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    clock.advance(30_000)
    expect(b.received.length).toBeGreaterThanOrEqual(1)
    expect(a.received.length).toBeGreaterThanOrEqual(1)
    expect(a.device.stats().peers[0]!.hasSession).toBe(true)
    expect(b.device.stats().peers[0]!.hasSession).toBe(true)
  })

  it('follow the peer to a new address after an authenticated packet from there (roaming)', async () => {
    const { clock, a, b } = await createPair()
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(b.device.stats().peers[0]!.endpoint).toEqual({ address: '192.0.2.1', port: 51000 })
    a.socket.moveTo('198.51.100.7', 4444)
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(b.device.stats().peers[0]!.endpoint).toEqual({ address: '198.51.100.7', port: 4444 })
    b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1'))
    clock.advance(10)
    expect(a.received).toHaveLength(1)
    expect(b.events.some((e) => e.type === 'endpoint-changed')).toBe(true)
  })

  it('ignore an unauthenticated packet from a new address (no roaming on forgeries)', async () => {
    const { clock, net, a, b, bAddress } = await createPair()
    a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    const forged = new Uint8Array(64)
    forged[0] = MESSAGE_TRANSPORT
    net.inject(forged, { address: '203.0.113.9', port: 1 }, bAddress)
    clock.advance(10)
    expect(b.device.stats().peers[0]!.endpoint).toEqual({ address: '192.0.2.1', port: 51000 })
  })

  it('serve as the netstack\'s link: send/onPacket/mtu', async () => {
    const { clock, a, b } = await createPair()
    const linkA = wireGuardLink(a.device)
    const linkB = wireGuardLink(b.device)
    const got: Uint8Array[] = []
    linkB.onPacket((p) => got.push(new Uint8Array(p)))
    linkA.send(ipv4('10.9.0.1', '10.9.0.2'))
    clock.advance(10)
    expect(got).toHaveLength(1)
    expect(linkA.mtu).toBe(1420)
  })
})
