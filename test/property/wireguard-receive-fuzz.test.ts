// Random bytes and mutated valid packets into the receive path: nothing throws, nothing forged
// is delivered.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CookieGenerator } from '../../src/services/wireguard/messages.js'
import { parseKey } from '../../src/services/wireguard/config.js'
import { createPair, ipv4 } from '../unit/wireguard-harness.js'

describe('WireGuard receive path under fuzzing', () => {
  it('survives random datagrams and mutations of real ones without an exception or a forged delivery', async () => {
    const pair = await createPair({ seed: 42 })
    const captured: Uint8Array[] = []
    pair.net.filter = (d) => (captured.push(d.data), true)
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2', new Uint8Array(40).fill(7)))
    pair.clock.advance(10)
    pair.b.device.sendIp(ipv4('10.9.0.2', '10.9.0.1', new Uint8Array(40).fill(9)))
    pair.clock.advance(10)
    pair.b.device.setUnderLoad(true) // also exercise the cookie path
    pair.a.device.sendIp(ipv4('10.9.0.1', '10.9.0.2'))
    pair.clock.advance(10)
    pair.b.device.setUnderLoad(undefined)
    pair.net.filter = undefined
    expect(captured.length).toBeGreaterThanOrEqual(4)
    const genuine = new Set([...pair.a.received, ...pair.b.received].map((p) => Buffer.from(p).toString('hex')))
    const macsForB = new CookieGenerator(parseKey(pair.b.publicKey)!, () => pair.clock.now())
    const macsForA = new CookieGenerator(parseKey(pair.a.publicKey)!, () => pair.clock.now())

    const datagram = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.tuple(fc.constantFrom(1, 2, 3, 4), fc.constantFrom(148, 92, 64, 32, 48, 200), fc.uint8Array({ minLength: 200, maxLength: 200 }), fc.boolean()).map(([type, length, body, withMacs]) => {
        const d = body.slice(0, length)
        d[0] = type
        d[1] = d[2] = d[3] = 0
        if (withMacs && (length === 148 || length === 92)) (type === 1 ? macsForB : macsForA).addMacs(d)
        return d
      }),
      fc.tuple(fc.constantFrom(...captured), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 })).map(([packet, flips]) => {
        const d = new Uint8Array(packet)
        for (const [at, x] of flips) d[at % d.length] = d[at % d.length]! ^ x
        return d
      }),
    )
    const from = fc.constantFrom(pair.aAddress, pair.bAddress, { address: '203.0.113.5', port: 999 })
    fc.assert(
      fc.property(datagram, from, fc.boolean(), (data, source, toA) => {
        pair.net.inject(data, source, toA ? pair.aAddress : pair.bAddress)
        pair.clock.advance(2)
        expect(pair.a.device.stats().internalErrors).toBe(0)
        expect(pair.b.device.stats().internalErrors).toBe(0)
      }),
      { numRuns: 3000 },
    )
    const dropsA = pair.a.device.stats().dropped
    const dropsB = pair.b.device.stats().dropped
    // the deep paths were reached, not just the length checks
    expect(dropsB.handshakeInvalid).toBeGreaterThan(0)
    expect(dropsA.decrypt + dropsB.decrypt).toBeGreaterThan(0)
    expect(dropsA.replay + dropsB.replay).toBeGreaterThan(0)
    expect(dropsA.mac1 + dropsB.mac1).toBeGreaterThan(0)
    for (const p of [...pair.a.received, ...pair.b.received]) expect(genuine.has(Buffer.from(p).toString('hex'))).toBe(true)
  })
})
