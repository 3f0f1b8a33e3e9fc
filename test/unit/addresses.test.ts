import { describe, expect, it } from 'vitest'
import type { NetworkInterfaceInfo } from 'node:os'
import { streamServerAddresses } from '../../src/services/net/addresses.js'

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, family: 'IPv4', internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: `${address}/24` })

describe('stream server addresses (contract 1.11)', () => {
  const interfaces = { lo: [v4('127.0.0.1', true)], eth0: [v4('192.168.1.20')], tailscale0: [v4('100.101.102.103')] }

  it('orders UPnP public IP, then mesh-VPN IP, then LAN IP, and reports the first as public', () => {
    const info = streamServerAddresses({ port: 7890, upnpPublicIp: '203.0.113.7', interfaces })
    expect(info.addresses.map((a) => a.kind)).toEqual(['upnp', 'mesh', 'lan'])
    expect(info.publicUrl).toBe('http://203.0.113.7:7890')
  })

  it('falls back to the mesh address without UPnP, and to the LAN address without either', () => {
    expect(streamServerAddresses({ port: 7890, interfaces }).publicUrl).toBe('http://100.101.102.103:7890')
    expect(streamServerAddresses({ port: 7890, interfaces: { eth0: [v4('10.0.0.5')] } }).publicUrl).toBe('http://10.0.0.5:7890')
  })

  it('never reports a loopback address as reachable, except when nothing else exists', () => {
    const info = streamServerAddresses({ port: 7890, interfaces: { lo: [v4('127.0.0.1', true)] } })
    expect(info.addresses).toEqual([])
    expect(info.publicUrl).toBe('http://127.0.0.1:7890')
  })
})
