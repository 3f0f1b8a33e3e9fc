import { describe, expect, it } from 'vitest'
import { vpnStatusError } from '../../src/services/vpn/status.js'

// What `media-agent vpn status` says went wrong (protocol.md 7.3 `error`).

describe('the error vpn status shows', () => {
  const eperm = 'EPERM: send EPERM 198.51.100.7:51820'

  it("names the host's refusal to send while the tunnel is down or connecting, so a firewall rule is not a silent outage", () => {
    for (const state of ['down', 'connecting', 'fetching', 'failed'] as const) {
      expect(vpnStatusError(state, undefined, eperm)).toBe(`this host refuses to send to the exit server (${eperm}); check the firewall and routes for UDP to it`)
    }
  })

  it("prefers the VPN machine's own error (a refused or unusable config)", () => {
    expect(vpnStatusError('failed', 'the WireGuard config has no [Peer]', eperm)).toBe('the WireGuard config has no [Peer]')
  })

  it('says nothing of an old send error once the tunnel is up, or when the VPN is off', () => {
    expect(vpnStatusError('up', undefined, eperm)).toBeUndefined()
    expect(vpnStatusError('off', undefined, eperm)).toBeUndefined()
    expect(vpnStatusError('down', undefined, undefined)).toBeUndefined()
  })
})
