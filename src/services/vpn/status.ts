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
