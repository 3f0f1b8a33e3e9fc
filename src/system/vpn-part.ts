import { fromCallback, fromPromise, type AnyActorRef } from 'xstate'
import * as defaults from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import { isAgentError, VpnConfigError } from '../errors.js'
import type { Logger } from '../log.js'
import {
  vpnMachine,
  vpnStateName,
  type TunnelActorInput,
  type VpnConfigAnswer,
  type VpnEvent,
  type VpnFetchFailure,
  type VpnInput,
  type VpnRoute,
  type VpnSettings,
} from '../machines/vpn.machine.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { ServerApi } from '../services/http/server-api.js'
import { createPeerNetworkRoute, type PeerNetworkRoute } from '../services/torrent/peer-route.js'
import type { Tunnel, TunnelOptions } from '../services/tunnel/index.js'
import { systemClock } from '../services/wireguard/clock.js'
import { TunnelPeerNetwork } from '../services/vpn/tunnel-peer-network.js'
import { vpnStatusError, type VpnCheckResult, type VpnStatus } from '../services/vpn/status.js'
import type { Closer } from './create-system.js'

// The managed VPN as a part of the agent (issue 13, docs/vpn.md): the `vpn` child of the root
// (src/machines/vpn.machine.ts) bound to vpn-config, the in-process tunnel and the torrent
// engine's route; the VPN fields of every register and sync; `GET /api/vpn`, `POST /api/vpn`
// and `POST /api/vpn/check` for the `media-agent vpn` command; the `set_vpn` control.

export interface VpnPartOptions {
  config: Pick<AgentConfig, 'downloads' | 'testing'>
  logger: Logger
  api: Pick<ServerApi, 'vpnConfig'>
  agentId: string
  /** A change the server must see at once (VPNActive): sync now. */
  changed(reason: string): void
  /** Tunnel options not from the config (tests: the local address of the outer UDP socket). */
  tunnel?: Pick<TunnelOptions, 'bindAddress' | 'resolveEndpoint'>
}

export function vpnSettingsFrom(config: Pick<AgentConfig, 'testing'>): VpnSettings {
  return {
    handshakeMaxAgeMs: timing(config, 'vpnHandshakeMaxAgeMs'),
    retryUnansweredMaxMs: timing(config, 'vpnRetryUnansweredMaxMs'),
    refetchAfterMs: timing(config, 'vpnRefetchAfterMs'),
    retryBaseMs: timing(config, 'vpnRetryBaseMs'),
    retryMaxMs: timing(config, 'vpnRetryMaxMs'),
    refusalRetryMs: timing(config, 'vpnRefusalRetryMs'),
  }
}

export function createVpnPart(options: VpnPartOptions) {
  const { config } = options
  const log = options.logger.child({ component: 'vpn' })
  const network = new TunnelPeerNetwork({
    peerPort: config.downloads.torrent.port || defaults.vpnPeerPortDefault,
    logger: log.child({ component: 'vpn-peer-network' }),
  })
  const route = createPeerNetworkRoute()
  // Before any task can start the engine: with the VPN on, torrents wait for the tunnel from the first moment.
  if (config.downloads.vpn.enabled) route.set(network)
  const sampleMs = timing(config, 'vpnSampleIntervalMs')
  const kickMs = timing(config, 'vpnKickIntervalMs')
  let tunnel: Tunnel | undefined

  const logic = vpnMachine.provide({
    actors: {
      fetchConfig: fromPromise<VpnConfigAnswer, { agentId: string }>(async ({ input }) => {
        try {
          const answer = await options.api.vpnConfig(input.agentId)
          return { privateConfig: answer.config, exitServer: answer.exitServer }
        } catch (err) {
          const failure: VpnFetchFailure = err instanceof VpnConfigError
            ? { refusal: err.reason, message: err.message }
            : { message: isAgentError(err) ? `${err.message} [${err.code}]` : String((err as Error)?.message ?? err) }
          throw failure
        }
      }),
      tunnel: fromCallback<VpnEvent, TunnelActorInput>(({ input, sendBack }) => {
        let stopped = false
        let timer: NodeJS.Timeout | undefined
        let mine: Tunnel | undefined
        let retryingSince: number | undefined
        let lastKick = -Infinity
        const sample = () => {
          if (!mine) return
          const now = systemClock.now()
          const stats = mine.stats()
          const attempts = stats.wireguard.peers.reduce((max, peer) => Math.max(max, peer.handshakeAttempts), 0)
          // A retry is a second initiation in a row without an answer (attempts counts retransmits).
          if (attempts > 0) retryingSince ??= now
          else retryingSince = undefined
          const handshakeAgeMs = stats.lastHandshakeAt === undefined ? null : now - stats.lastHandshakeAt
          sendBack({ type: 'vpn.sample', handshakeAgeMs, retryingForMs: retryingSince === undefined ? 0 : now - retryingSince })
          // WireGuard starts a handshake only for traffic, and torrents wait for "up": a ping asks
          // for one. While up it keeps traffic flowing too, so a server that went away shows as
          // handshake retries (and so "down") within seconds rather than when the session expires.
          const dns = mine.dnsServers[0]
          if (dns && now - lastKick >= kickMs) {
            lastKick = now
            mine.ping(dns, kickMs).catch(() => undefined)
          }
        }
        // WireGuard and the netstack load with the first tunnel: a VPN that is off costs nothing.
        import('../services/tunnel/index.js')
          .then(({ createTunnel }) => createTunnel({ configText: input.privateConfig, logger: log.child({ component: 'tunnel' }), clock: systemClock, ...options.tunnel }))
          .then((created) => {
            if (stopped) return created.close()
            mine = created
            tunnel = created
            network.setTunnel(created)
            sample()
            timer = setInterval(sample, sampleMs)
            timer.unref()
          })
          .catch((err: unknown) => {
            if (!stopped) sendBack({ type: 'vpn.tunnelFailed', message: isAgentError(err) ? `${err.message} [${err.code}]` : String((err as Error)?.message ?? err) })
          })
        return () => {
          stopped = true
          clearInterval(timer)
          if (mine) {
            if (tunnel === mine) tunnel = undefined
            network.setTunnel(undefined)
            void mine.close()
          }
        }
      }),
    },
    actions: {
      applyRoute: (_, { route: next }: { route: VpnRoute }) => route.set(next === 'tunnel' ? network : undefined),
      setGate: (_, { open }: { open: boolean }) => network.setOpen(open),
      report: (_, params: { level: 'info' | 'warn'; msg: string; error?: string }) => log[params.level](params.error ? { error: params.error } : {}, params.msg),
      changed: (_, { reason }: { reason: string }) => options.changed(reason),
    },
  })

  let vpnActor: () => AnyActorRef | undefined = () => undefined
  const snapshot = () => vpnActor()?.getSnapshot() as { value: unknown; context: { enabled: boolean; route: VpnRoute; exitServer: string; error?: string } } | undefined

  const status = (): VpnStatus => {
    const snap = snapshot()
    const state = vpnStateName(snap?.value)
    const context = snap?.context
    const stats = tunnel?.stats()
    const peers = stats?.wireguard.peers ?? []
    const inTunnel = context?.route === 'tunnel'
    const shown: VpnStatus = {
      enabled: context?.enabled ?? config.downloads.vpn.enabled,
      state,
      mode: inTunnel ? 'wireguard' : 'off',
      exitServer: inTunnel ? context?.exitServer ?? '' : '',
      handshakeAgeSeconds: stats?.lastHandshakeAt === undefined ? null : Math.round((systemClock.now() - stats.lastHandshakeAt) / 1000),
      rxBytes: peers.reduce((sum, peer) => sum + peer.rxBytes, 0),
      txBytes: peers.reduce((sum, peer) => sum + peer.txBytes, 0),
    }
    const error = vpnStatusError(state, context?.error, stats?.wireguard.lastSendError)
    return error === undefined ? shown : { ...shown, error }
  }

  const setEnabled = (enabled: boolean) => vpnActor()?.send({ type: enabled ? 'vpn.enable' : 'vpn.disable' })

  const check = async (): Promise<VpnCheckResult> => {
    try {
      const answer = await options.api.vpnConfig(options.agentId, true)
      return { result: 'ok', exitServer: answer.exitServer }
    } catch (err) {
      if (err instanceof VpnConfigError) return { result: err.reason }
      return { result: 'error', error: isAgentError(err) ? `${err.message} [${err.code}]` : String((err as Error)?.message ?? err) }
    }
  }

  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/vpn', handle: () => ({ status: 200, json: status() }) },
    {
      method: 'POST',
      path: '/api/vpn',
      handle: ({ body }) => {
        const enabled = (body as { enabled?: unknown } | null)?.enabled
        if (typeof enabled !== 'boolean') return { status: 400, json: { error: 'bad_request', message: 'POST /api/vpn needs {"enabled": true|false}' } }
        setEnabled(enabled)
        return { status: 200, json: status() }
      },
    },
    { method: 'POST', path: '/api/vpn/check', handle: async () => ({ status: 200, json: await check() }) },
    // What went through the tunnel, by kind (diagnostics; the integration test checks it).
    { method: 'GET', path: '/api/vpn/traffic', handle: () => ({ status: 200, json: { ...network.counters } }) },
  ]

  const input: VpnInput = { enabled: config.downloads.vpn.enabled, agentId: options.agentId, settings: vpnSettingsFrom(config) }
  const closers: Closer[] = [{ name: 'vpn peer network', close: () => network.close() }]

  return {
    logic,
    input,
    closers,
    adminRoutes,
    /** The torrent engine's route (TorrentEngineOptions.route). */
    route: route as PeerNetworkRoute,
    network,
    status,
    /** The VPN fields of every register and sync (never omitted: a downed tunnel frees the slot). */
    syncFields: () => {
      const current = status()
      return { VPNActive: current.state === 'up', VPNMode: current.mode, VPNExitServer: current.exitServer }
    },
    /** The `set_vpn` control: applied live (the config file is the user's; `vpn enable|disable` persist). */
    setEnabled,
    attach(get: () => AnyActorRef | undefined) {
      vpnActor = get
    },
  }
}
