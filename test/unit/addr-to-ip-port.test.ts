import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
// The stand-in (packages/addr-to-ip-port, package.json "overrides"): what webtorrent and
// string2compact parse peer addresses with.
import addrToIPPort from 'addr-to-ip-port'

const root = join(import.meta.dirname, '..', '..')

describe('peer addresses are parsed without a cache that grows with every peer ever seen', () => {
  it('is the module webtorrent and string2compact load', () => {
    const stand = realpathSync(join(root, 'packages', 'addr-to-ip-port', 'index.js'))
    for (const dependent of ['webtorrent', 'string2compact']) {
      const from = createRequire(join(root, 'node_modules', dependent, 'package.json'))
      expect(realpathSync(from.resolve('addr-to-ip-port')), dependent).toBe(stand)
    }
  })

  it('splits IPv4, bracketed IPv6 and host names from their port, and refuses anything else by name', () => {
    expect(addrToIPPort('203.0.113.7:6881')).toEqual(['203.0.113.7', 6881])
    expect(addrToIPPort('[2001:db8::1]:51413')).toEqual(['2001:db8::1', 51413])
    expect(addrToIPPort('tracker.example:80')).toEqual(['tracker.example', 80])
    for (const bad of ['203.0.113.7', '203.0.113.7:', ':6881', '[2001:db8::1]', 'host:port']) expect(() => addrToIPPort(bad), bad).toThrow(`invalid addr: ${bad}`)
  })

  it('gives back any host and port it is handed, for random addresses', () => {
    const port = fc.integer({ min: 0, max: 65535 })
    fc.assert(fc.property(fc.ipV4(), port, (host, p) => { expect(addrToIPPort(`${host}:${p}`)).toEqual([host, p]) }))
    fc.assert(fc.property(fc.ipV6(), port, (host, p) => { expect(addrToIPPort(`[${host}]:${p}`)).toEqual([host, p]) }))
    fc.assert(fc.property(fc.domain(), port, (host, p) => { expect(addrToIPPort(`${host}:${p}`)).toEqual([host, p]) }))
  })

  it('keeps nothing: 100,000 distinct peers leave the heap as it was (addr-to-ip-port 2.0.0 kept ~17 MiB)', () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    gc()
    const before = process.memoryUsage().heapUsed
    for (let i = 0; i < 100_000; i++) addrToIPPort(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:${6881 + (i % 1000)}`)
    gc()
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(2 * 1024 * 1024)
  })
})
