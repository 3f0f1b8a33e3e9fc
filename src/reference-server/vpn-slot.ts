// The account's single WireGuard slot (contract 3, protocol.md 1 vpn-config):
// - without probe the first agent to ask claims the slot; the holder may ask again;
// - any other agent gets slot_on_device while it is held;
// - a sync with VPNActive false from the holder frees it;
// - probe=1 validates enabled/provisioned only and never claims or frees.
import type { VpnConfigErrorCode } from '../protocol/wire.js'
import { placeholderWireGuardFields, renderWireGuardConfig, type WireGuardFields } from './wg-config.js'

export interface VpnSettings {
  /** The managed VPN feature for the account; false answers 403 disabled. */
  enabled: boolean
  /** Whether the account has a WireGuard key pair; false answers 412 not_provisioned. */
  provisioned: boolean
  /** Served verbatim when set; otherwise rendered from `fields`. */
  config: string | undefined
  fields: WireGuardFields
  /** Sent as `X-VPN-Exit-Server`. */
  exitServer: string
}

export type VpnFetchResult =
  | { ok: true; config: string; exitServer: string; claimed: boolean }
  | { ok: false; code: VpnConfigErrorCode; holder?: string }

export function defaultVpnSettings(): VpnSettings {
  return { enabled: false, provisioned: false, config: undefined, fields: placeholderWireGuardFields(), exitServer: 'ref-exit-1' }
}

export class VpnSlot {
  settings: VpnSettings
  #holder: string | undefined

  constructor(settings: Partial<VpnSettings> = {}) {
    this.settings = { ...defaultVpnSettings(), ...settings }
  }

  get holder(): string | undefined {
    return this.#holder
  }

  update(patch: Partial<VpnSettings>): void {
    this.settings = { ...this.settings, ...patch, fields: { ...this.settings.fields, ...patch.fields } }
  }

  fetch(agentId: string, probe: boolean): VpnFetchResult {
    if (!this.settings.enabled) return { ok: false, code: 'disabled' }
    if (!this.settings.provisioned) return { ok: false, code: 'not_provisioned' }
    let claimed = false
    if (!probe) {
      if (this.#holder !== undefined && this.#holder !== agentId) return { ok: false, code: 'slot_on_device', holder: this.#holder }
      claimed = this.#holder === undefined
      this.#holder = agentId
    }
    const config = this.settings.config ?? renderWireGuardConfig(this.settings.fields)
    return { ok: true, config, exitServer: this.settings.exitServer, claimed }
  }

  /** A sync's VPN state; returns true when it freed the slot. */
  reportActive(agentId: string, active: boolean): boolean {
    if (active || this.#holder !== agentId) return false
    this.#holder = undefined
    return true
  }

  release(): void {
    this.#holder = undefined
  }
}
