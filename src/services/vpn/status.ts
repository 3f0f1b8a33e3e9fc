// The shapes of the VPN admin routes (protocol.md 7.3), shared by the daemon's part
// (src/system/vpn-part.ts) and the `media-agent vpn` command.
import type { VpnMode } from '../../protocol/wire.js'

export type VpnStateName = 'off' | 'fetching' | 'connecting' | 'up' | 'down' | 'failed'

/** `GET /api/vpn`, `media-agent vpn status --json`. */
export interface VpnStatus {
  enabled: boolean
  state: VpnStateName
  mode: VpnMode
  exitServer: string
  handshakeAgeSeconds: number | null
  rxBytes: number
  txBytes: number
  error?: string
}

/** `POST /api/vpn/check`: what vpn-config answered with probe=1. */
export type VpnCheckResult =
  | { result: 'ok' | 'disabled' | 'not_provisioned' | 'slot_on_device'; exitServer?: string }
  | { result: 'error'; error: string }

/**
 * The `error` of the status: the VPN machine's own (a refused or unusable config) first; else,
 * while the tunnel is not up, the socket's last refusal to send (EPERM from a host firewall rule,
 * ENETUNREACH with no route), which the handshake timers only count as lost datagrams and
 * which would otherwise show as a tunnel that is down for no reason. The device clears it once
 * datagrams go out again.
 */
export function vpnStatusError(state: VpnStateName, machineError: string | undefined, lastSendError: string | undefined): string | undefined {
  if (machineError) return machineError
  if (state === 'up' || state === 'off' || lastSendError === undefined) return undefined
  return `this host refuses to send to the exit server (${lastSendError}); check the firewall and routes for UDP to it`
}
