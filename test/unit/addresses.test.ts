import { describe, expect, it } from 'vitest'
import type { NetworkInterfaceInfo } from 'node:os'
import { defaultRouteInterfacesIn, isPublicIPv4, streamServerAddresses } from '../../src/services/net/addresses.js'

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, family: 'IPv4', internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: `${address}/24` })

const procNetRoute = [
  'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
  'wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0',
  'eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0',
  'eth0\t0000000A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0',
  'docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0',
].join('\n')

describe('stream server addresses (contract 1.11)', () => {
  const interfaces = { lo: [v4('127.0.0.1', true)], eth0: [v4('192.168.1.20')], tailscale0: [v4('100.101.102.103')], docker0: [v4('172.17.0.1')] }

  it('orders UPnP public IP, then mesh-VPN IP, then LAN IP, and reports the first as public', () => {
    const info = streamServerAddresses({ port: 7890, upnpPublicIp: '81.2.69.160', interfaces, defaultRouteInterfaces: ['eth0'] })
    expect(info.addresses).toEqual([
      { kind: 'upnp', url: 'http://81.2.69.160:7890' },
      { kind: 'mesh', url: 'http://100.101.102.103:7890' },
      { kind: 'lan', url: 'http://192.168.1.20:7890' },
    ])
    expect(info.publicUrl).toBe('http://81.2.69.160:7890')
  })

  it('falls back to the mesh address without UPnP, and to the LAN address without either', () => {
    expect(streamServerAddresses({ port: 7890, interfaces, defaultRouteInterfaces: ['eth0'] }).publicUrl).toBe('http://100.101.102.103:7890')
    expect(streamServerAddresses({ port: 7890, interfaces: { eth0: [v4('10.0.0.5')] }, defaultRouteInterfaces: ['eth0'] }).publicUrl).toBe('http://10.0.0.5:7890')
  })

  it('takes a mesh VPN by its interface name, not by a 100.64/10 address on a plain interface (carrier-grade NAT)', () => {
    const info = streamServerAddresses({ port: 7890, interfaces: { eth0: [v4('100.72.1.9')], wg0: [v4('10.8.0.2')], zt3jnkd: [v4('10.147.17.4')] }, defaultRouteInterfaces: ['eth0'] })
    expect(info.addresses).toEqual([
      { kind: 'mesh', url: 'http://10.8.0.2:7890' },
      { kind: 'mesh', url: 'http://10.147.17.4:7890' },
      { kind: 'lan', url: 'http://100.72.1.9:7890' },
    ])
  })

  it('reports as LAN the address of the default route interface, not a bridge or a container network', () => {
    const info = streamServerAddresses({ port: 7890, interfaces, defaultRouteInterfaces: defaultRouteInterfacesIn(procNetRoute) })
    expect(info.addresses.filter((a) => a.kind === 'lan')).toEqual([{ kind: 'lan', url: 'http://192.168.1.20:7890' }])
  })

  it('reads the default routes of /proc/net/route, lowest metric first', () => {
    expect(defaultRouteInterfacesIn(procNetRoute)).toEqual(['eth0', 'wlan0'])
    expect(defaultRouteInterfacesIn('Iface\tDestination\n')).toEqual([])
  })

  it('leaves out a UPnP external IP that is not public (a router behind another NAT)', () => {
    for (const ip of ['10.0.0.1', '192.168.0.1', '100.64.0.1', '172.16.5.5', '0.0.0.0', '203.0.113.7', 'not an ip']) {
      expect(isPublicIPv4(ip)).toBe(false)
      expect(streamServerAddresses({ port: 7890, upnpPublicIp: ip, interfaces, defaultRouteInterfaces: ['eth0'] }).addresses[0]?.kind).toBe('mesh')
    }
    expect(isPublicIPv4('1.2.3.4')).toBe(true)
  })

  it('never reports a loopback address as reachable, except when nothing else exists', () => {
    const info = streamServerAddresses({ port: 7890, interfaces: { lo: [v4('127.0.0.1', true)] }, defaultRouteInterfaces: [] })
    expect(info.addresses).toEqual([])
    expect(info.publicUrl).toBe('http://127.0.0.1:7890')
  })
})
