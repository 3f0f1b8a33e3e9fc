import { fromPromise, type AnyActorRef } from 'xstate'
import type { Logger } from '../log.js'
import { timing, type AgentConfig } from '../config/schema.js'
import { addressesMachine, type AddressesContext, type AddressesInput } from '../machines/addresses.machine.js'
import { isPublicIPv4, streamServerAddresses } from '../services/net/addresses.js'
import type { UpnpMapper } from '../services/net/upnp.js'
import { lazily } from '../services/runtime/lazily.js'
import type { StreamServerInfo } from '../protocol/wire.js'
import type { Closer } from './create-system.js'

// The stream server's addresses as a part of the agent (issue 14; contract 1.11): the
// `addresses` actor keeps the UPnP mapping of the stream port; every sync (and register) reads
// the addresses in contract order. The mapping is deleted by the closer at shutdown.

export interface AddressesPartOptions {
  config: Pick<AgentConfig, 'stream' | 'testing'>
  logger: Logger
  /** The UPnP address appeared, changed or went: sync now. */
  changed(reason: string): void
  mapper?: UpnpMapper
}

export function createAddressesPart(options: AddressesPartOptions) {
  const { config } = options
  const log = options.logger.child({ component: 'addresses' })
  const mapper = options.mapper ?? lazyUpnpMapper()
  let upnpIp: string | undefined
  // A LAN without a UPnP router fails every retry: say so once, then quietly until it works.
  let failureLogged = false
  let actor: (() => AnyActorRef | undefined) | undefined

  const logic = addressesMachine.provide({
    actors: {
      mapPort: fromPromise(() => mapper.map(config.stream.port)),
    },
    actions: {
      reportUpnp: (_, params) => {
        const ip = params.ip !== undefined && isPublicIPv4(params.ip) ? params.ip : undefined
        if (params.ip !== undefined && ip === undefined) log.info({ externalIp: params.ip }, 'UPnP mapped the stream port, but the router\'s external IP is not public; not reported')
        if (params.ip !== undefined) failureLogged = false
        if (ip === upnpIp) return
        upnpIp = ip
        log.info({ externalIp: ip, port: config.stream.port }, ip ? 'stream port mapped over UPnP' : 'no UPnP mapping of the stream port')
        options.changed('stream server addresses')
      },
      logMappingFailed: (_, params) => {
        const level = failureLogged ? 'debug' : 'warn'
        failureLogged = true
        log[level]({ error: params.error, retryInMs: input.retryMs }, 'UPnP mapping of the stream port failed; retrying later')
      },
    },
  })

  const input: AddressesInput = {
    upnp: config.stream.upnp,
    refreshMs: timing(config, 'addressesRefreshMs'),
    retryMs: timing(config, 'addressesRetryMs'),
  }
  const closers: Closer[] = [{ name: 'upnp mapping', close: () => mapper.close() }]

  return {
    logic,
    input,
    closers,
    streamServer: (): StreamServerInfo => streamServerAddresses({ port: config.stream.port, upnpPublicIp: upnpIp }),
    status: () => {
      const context = actor?.()?.getSnapshot().context as AddressesContext | undefined
      return { upnp: input.upnp, upnpIp: upnpIp ?? null, ...(context?.lastError ? { upnpError: context.lastError } : {}) }
    },
    attach: (get: () => AnyActorRef | undefined) => {
      actor = get
    },
  }
}

/** The UPnP client (nat-api, its XML parser, undici) loads on the first mapping: with `upnp = false` never. */
function lazyUpnpMapper(): UpnpMapper {
  const mapper = lazily(async () => (await import('../services/net/upnp.js')).createUpnpMapper())
  return {
    map: async (port) => (await mapper.get()).map(port),
    close: async () => {
      // A mapper that never loaded (its import failed) has nothing to close.
      await (await mapper.loading?.catch(() => undefined))?.close()
    },
  }
}
