import { describe, expect, it } from 'vitest'
import { isAgentError } from '../../src/errors.js'
import { cidrContains, parseCidr, parseEndpoint, parseKey, parseWgConfig } from '../../src/services/wireguard/config.js'
import { compareTai64n, nextTai64n, tai64n } from '../../src/services/wireguard/tai64n.js'

const KEY_A = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk='
const KEY_B = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg='
const KEY_C = 'TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0='

const sample = `# from the server
[Interface]
PrivateKey = ${KEY_A}
Address = 10.64.0.2/32, fd00::2/128
DNS = 10.64.0.1, 1.1.1.1
MTU = 1380
ListenPort = 51821

[Peer]
PublicKey = ${KEY_B}
PresharedKey = ${KEY_C}
Endpoint = vpn.example.net:51820
AllowedIPs = 0.0.0.0/0, ::/0
PersistentKeepalive = 25
`

function errorOf(text: string): { code: string; message: string; line: unknown } {
  try {
    parseWgConfig(text)
  } catch (err) {
    if (!isAgentError(err)) throw err
    return { code: err.code, message: err.message, line: err.details?.line }
  }
  throw new Error('expected an error')
}

describe('wg-quick config parsing', () => {
  it('reads every [Interface] and [Peer] field', () => {
    const config = parseWgConfig(sample)
    expect(Buffer.from(config.privateKey).toString('base64')).toBe(KEY_A)
    expect(config.addresses.map((a) => a.text)).toEqual(['10.64.0.2/32', 'fd00::2/128'])
    expect(config.dns).toEqual(['10.64.0.1', '1.1.1.1'])
    expect(config.mtu).toBe(1380)
    expect(config.listenPort).toBe(51821)
    expect(config.peers).toHaveLength(1)
    const peer = config.peers[0]!
    expect(Buffer.from(peer.publicKey).toString('base64')).toBe(KEY_B)
    expect(Buffer.from(peer.presharedKey!).toString('base64')).toBe(KEY_C)
    expect(peer.endpoint).toEqual({ host: 'vpn.example.net', port: 51820 })
    expect(peer.allowedIps.map((c) => c.text)).toEqual(['0.0.0.0/0', '::/0'])
    expect(peer.persistentKeepalive).toBe(25)
  })

  it('accepts case-insensitive keys, comments, CRLF and several peers', () => {
    const text = `[interface]\r\nprivatekey=${KEY_A} # mine\r\n[Peer]\r\nPublicKey=${KEY_B}\r\nAllowedIPs=10.0.0.0/8\r\nAllowedIPs=192.168.1.7\r\n[Peer]\r\nPublicKey=${KEY_C}\r\nEndpoint=[2001:db8::1]:51820\r\n`
    const config = parseWgConfig(text)
    expect(config.peers[0]!.allowedIps.map((c) => c.text)).toEqual(['10.0.0.0/8', '192.168.1.7/32'])
    expect(config.peers[1]!.endpoint).toEqual({ host: '2001:db8::1', port: 51820 })
  })

  it.each([
    [`[Interface]\nPrivateKey = nope\n`, 2, 'PrivateKey'],
    [`[Interface]\nPrivateKey = ${KEY_A}\nMTU = big\n`, 3, 'MTU'],
    [`[Interface]\nPrivateKey = ${KEY_A}\n[Peer]\nPublicKey = ${KEY_B}\nAllowedIPs = 10.0.0.0/33\n`, 5, 'CIDR'],
    [`[Interface]\nPrivateKey = ${KEY_A}\n[Peer]\nPublicKey = ${KEY_B}\nEndpoint = host-without-port\n`, 5, 'Endpoint'],
    [`[Interface]\nPrivateKey = ${KEY_A}\n[Peer]\nAllowedIPs = 10.0.0.0/8\n`, 3, 'PublicKey'],
    [`[Interface]\nPrivateKey = ${KEY_A}\nFoo = bar\n`, 3, 'unknown'],
    [`PrivateKey = ${KEY_A}\n`, 1, 'outside'],
    [`[Interface]\nPrivateKey = ${KEY_A}\njust words\n`, 3, 'Key = Value'],
    [`[Interface]\nAddress = 10.0.0.1/32\n`, 1, 'PrivateKey'],
    [`[Interface]\nPrivateKey = ${KEY_A.slice(0, -2)}B=\n`, 2, 'base64'],
  ])('names the bad line in a typed error (%#)', (text, line, word) => {
    const error = errorOf(text)
    expect(error.code).toBe('MA_ERR_WG_CONFIG')
    expect(error.line).toBe(line)
    expect(error.message).toContain(`line ${line}`)
    expect(error.message).toContain(word)
  })

  it('never puts a private key into the error details', () => {
    try {
      parseWgConfig(`[Interface]\nPrivateKey = ${KEY_A.slice(0, 20)}\n`)
    } catch (err) {
      expect(isAgentError(err) && err.details?.text).toBe('[redacted]')
    }
  })

  it('validates keys as exactly 32 bytes of canonical base64', () => {
    expect(parseKey(KEY_A)).toHaveLength(32)
    expect(parseKey(KEY_A.slice(1))).toBeUndefined()
    expect(parseKey(Buffer.alloc(31).toString('base64'))).toBeUndefined()
    expect(parseKey(Buffer.alloc(33).toString('base64'))).toBeUndefined()
    expect(parseKey(`${KEY_A.slice(0, 42)}B=`)).toBeUndefined() // non-zero padding bits
  })

  it('parses IPv4 and IPv6 CIDRs and matches addresses against them', () => {
    const v4 = parseCidr('10.1.2.3/16')!
    expect(v4.text).toBe('10.1.0.0/16')
    expect(cidrContains(v4, Uint8Array.of(10, 1, 200, 9))).toBe(true)
    expect(cidrContains(v4, Uint8Array.of(10, 2, 0, 1))).toBe(false)
    expect(parseCidr('10.1.2.3/12')!.text).toBe('10.0.0.0/12')
    expect(parseCidr('fd00:1::5/64')!.prefix).toBe(64)
    expect(parseCidr('::ffff:10.0.0.1/128')!.family).toBe(6)
    for (const bad of ['10.0.0/8', '256.0.0.0/8', '10.0.0.1/-1', '01.2.3.4/8', '1::2::3/64', 'fd00::/129', '', '/8']) expect(parseCidr(bad)).toBeUndefined()
    expect(parseEndpoint('1.2.3.4:0')).toBeUndefined()
    expect(parseEndpoint('1.2.3.4:51820')).toEqual({ host: '1.2.3.4', port: 51820 })
  })
})

describe('TAI64N timestamps', () => {
  it('order like time and can be bumped to stay strictly increasing', () => {
    const a = tai64n(1_700_000_000_000)
    const b = tai64n(1_700_000_000_001)
    expect(a).toHaveLength(12)
    expect(compareTai64n(a, b)).toBeLessThan(0)
    expect(compareTai64n(nextTai64n(a), a)).toBeGreaterThan(0)
    expect(Buffer.from(a.subarray(0, 8)).readBigUInt64BE()).toBe(0x400000000000000an + 1_700_000_000n)
  })
})

describe('AllowedIPs routing and the manual clock', () => {
  it('picks the most specific range, for IPv4 and IPv6', async () => {
    const { AllowedIps } = await import('../../src/services/wireguard/allowed-ips.js')
    const table = new AllowedIps<string>()
    table.insert(parseCidr('0.0.0.0/0')!, 'default')
    table.insert(parseCidr('10.0.0.0/8')!, 'ten')
    table.insert(parseCidr('10.1.2.0/24')!, 'narrow')
    table.insert(parseCidr('fd00::/8')!, 'ula')
    expect(table.lookup(4, Uint8Array.of(10, 1, 2, 3))).toBe('narrow')
    expect(table.lookup(4, Uint8Array.of(10, 9, 2, 3))).toBe('ten')
    expect(table.lookup(4, Uint8Array.of(8, 8, 8, 8))).toBe('default')
    expect(table.lookup(6, parseCidr('fd12::1')!.bytes)).toBe('ula')
    expect(table.lookup(6, parseCidr('2001:db8::1')!.bytes)).toBeUndefined()
  })

  it('fires timers in time order, ties in creation order, and never a cleared one', async () => {
    const { ManualClock } = await import('../../src/services/clock/manual-clock.js')
    const clock = new ManualClock(0)
    const fired: string[] = []
    clock.setTimeout(() => fired.push('b@20'), 20)
    clock.setTimeout(() => fired.push('a@10'), 10)
    clock.setTimeout(() => fired.push('c@20'), 20)
    const cleared = clock.setTimeout(() => fired.push('never'), 15)
    clock.setTimeout(() => clock.setTimeout(() => fired.push('nested@35'), 25), 10)
    clock.clearTimeout(cleared)
    clock.advance(30)
    expect(fired).toEqual(['a@10', 'b@20', 'c@20'])
    expect(clock.now()).toBe(30)
    clock.advance(5)
    expect(fired.at(-1)).toBe('nested@35')
    expect(clock.pending).toBe(0)
  })
})
