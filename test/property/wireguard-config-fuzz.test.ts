import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAgentError } from '../../src/errors.js'
import { parseCidr, parseEndpoint, parseIp, parseKey, parseWgConfig } from '../../src/services/wireguard/config.js'

const valid = `[Interface]
PrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=
Address = 10.64.0.2/32
DNS = 10.64.0.1
MTU = 1380
ListenPort = 51821

[Peer]
PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=
PresharedKey = TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=
Endpoint = 198.51.100.1:51820
AllowedIPs = 0.0.0.0/0, ::/0
PersistentKeepalive = 25
`

function parsesOrTypedError(text: string): void {
  try {
    parseWgConfig(text)
  } catch (err) {
    expect(isAgentError(err)).toBe(true)
    if (isAgentError(err)) {
      expect(err.code).toBe('MA_ERR_WG_CONFIG')
      expect(typeof err.details?.line).toBe('number')
    }
  }
}

const configAlphabet = fc.constantFrom(...'[]=#,./:\n\r \tabcdefPIAKS0123456789+'.split(''), 'PrivateKey', 'PublicKey', 'AllowedIPs', 'Endpoint', '[Peer]', '[Interface]', '::')

describe('wg-quick config parser under fuzzing', () => {
  it('never throws anything but a typed error on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), parsesOrTypedError), { numRuns: 1000 })
    fc.assert(fc.property(fc.array(configAlphabet, { maxLength: 200 }).map((a) => a.join('')), parsesOrTypedError), { numRuns: 1000 })
  })

  it('never throws anything but a typed error on mutated valid configs', () => {
    const mutation = fc.tuple(fc.nat(valid.length), fc.nat(40), fc.string({ maxLength: 12 }))
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let text = valid
        for (const [at, remove, insert] of mutations) text = text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + remove)
        parsesOrTypedError(text)
      }),
      { numRuns: 2000 },
    )
  })

  it('address, CIDR, key and endpoint parsers return undefined rather than throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        parseCidr(s)
        parseIp(s)
        parseKey(s)
        parseEndpoint(s)
      }),
      { numRuns: 3000 },
    )
  })

  it('round-trips generated IPv4 CIDRs', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), (ip, prefix) => {
        const cidr = parseCidr(`${ip}/${prefix}`)
        expect(cidr).toBeDefined()
        expect(parseCidr(cidr!.text)!.text).toBe(cidr!.text)
      }),
    )
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(parseCidr(`${ip}/64`)?.family).toBe(6)
      }),
    )
  })
})
