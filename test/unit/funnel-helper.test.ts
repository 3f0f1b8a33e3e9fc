import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { elfProblem, helperDownloadUrl, helperTarget } from '../../src/services/funnel/helper-download.js'
import { helperArgs, isRateLimitedLine, quickTunnelUrlIn } from '../../src/services/funnel/helper-process.js'

const window = { minBytes: 1000, maxBytes: 5000 }

function elfHeader(elfClass: number, machine: number, endian = 1): Uint8Array {
  const header = new Uint8Array(64)
  header.set([0x7f, 0x45, 0x4c, 0x46, elfClass, endian, 1], 0)
  header[18] = machine & 0xff
  header[19] = machine >> 8
  return header
}

describe('the tunnel helper file', () => {
  it('picks the provider asset by architecture for linux amd64, arm64, armhf and 386, and refuses anything else', () => {
    expect(['x64', 'arm64', 'arm', 'ia32'].map((arch) => helperTarget('linux', arch).asset)).toEqual([
      'cloudflared-linux-amd64', 'cloudflared-linux-arm64', 'cloudflared-linux-arm', 'cloudflared-linux-386',
    ])
    expect(() => helperTarget('linux', 'riscv64')).toThrow(/MA_ERR|no tunnel helper download for linux\/riscv64/)
    expect(() => helperTarget('darwin', 'arm64')).toThrow(/helper_path/)
  })

  it('appends the asset name to the configured base, with or without a trailing slash', () => {
    const target = helperTarget('linux', 'x64')
    expect(helperDownloadUrl('https://mirror.example/cf/', target)).toBe('https://mirror.example/cf/cloudflared-linux-amd64')
    expect(helperDownloadUrl('https://mirror.example/cf', target)).toBe('https://mirror.example/cf/cloudflared-linux-amd64')
  })

  it('accepts an ELF of the right class and machine within the size window, and says what is wrong otherwise', () => {
    const amd64 = helperTarget('linux', 'x64')
    expect(elfProblem(elfHeader(2, 62), 2000, amd64, window)).toBeUndefined()
    expect(elfProblem(new TextEncoder().encode('<!DOCTYPE html><html>rate limited</html>'), 2000, amd64, window)).toMatch(/magic/)
    expect(elfProblem(elfHeader(1, 62), 2000, amd64, window)).toMatch(/class/)
    expect(elfProblem(elfHeader(2, 183), 2000, amd64, window)).toMatch(/machine 183/)
    expect(elfProblem(elfHeader(2, 62, 2), 2000, amd64, window)).toMatch(/little-endian/)
    expect(elfProblem(elfHeader(2, 62), 999, amd64, window)).toMatch(/size/)
    expect(elfProblem(elfHeader(2, 62), 5001, amd64, window)).toMatch(/size/)
    expect(elfProblem(elfHeader(1, 40), 2000, helperTarget('linux', 'arm'), window)).toBeUndefined()
  })

  it('accepts no byte string that is not a little-endian ELF of the expected machine (fuzzed)', () => {
    const amd64 = helperTarget('linux', 'x64')
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(10_000), (bytes, size) => {
      const ok = elfProblem(bytes, size, amd64, window) === undefined
      const valid = bytes.length >= 20 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46 &&
        bytes[4] === 2 && bytes[5] === 1 && (bytes[18]! | (bytes[19]! << 8)) === 62 && size >= 1000 && size <= 5000
      expect(ok).toBe(valid)
    }), { numRuns: 2000 })
  })
})

describe('the tunnel helper output', () => {
  it('is started with auto-update off, metrics on loopback and the stream server as origin', () => {
    expect(helperArgs(45678, 7890)).toEqual(['tunnel', '--no-autoupdate', '--metrics', '127.0.0.1:45678', '--url', 'http://127.0.0.1:7890'])
  })

  it('takes the quick-tunnel URL from the banner cloudflared writes, never the API host', () => {
    expect(quickTunnelUrlIn('2024-05-01T10:00:00Z INF |  https://Seasonal-Deck-Purple-Organized.trycloudflare.com                     |')).toBe('https://seasonal-deck-purple-organized.trycloudflare.com')
    expect(quickTunnelUrlIn('ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": EOF')).toBeUndefined()
    expect(quickTunnelUrlIn('INF Requesting new quick Tunnel on trycloudflare.com...')).toBeUndefined()
  })

  it('recognises the provider refusing for too many requests (429, error 1015)', () => {
    expect(isRateLimitedLine('ERR Error unmarshaling QuickTunnel response: error="invalid character \'e\'" status_code="429 Too Many Requests"')).toBe(true)
    expect(isRateLimitedLine('error code: 1015')).toBe(true)
    expect(isRateLimitedLine('INF Registered tunnel connection connIndex=0')).toBe(false)
  })
})
