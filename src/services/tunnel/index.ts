// The in-process VPN tunnel: WireGuard device + userspace TCP/IP stack (docs/tunnel.md).
export { createTunnel } from './tunnel.js'
export type { Tunnel, TunnelEvent, TunnelOptions, TunnelStats, TunnelStatus } from './tunnel.js'
export type { TcpSocket } from '../netstack/tcp-socket.js'
export type { UdpSocket } from '../netstack/udp.js'
export type { ConnectOptions, ListenOptions, TcpListener } from '../netstack/netstack.js'
