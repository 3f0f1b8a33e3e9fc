// The stream server's addresses (issue 14; contract 1.11, 9 0.3.0; protocol.md 1 RegisterRequest
// `streamServer.addresses`; docs/funnel.md). Pure: the UPnP mapping is the named actor `mapPort`
// bound in src/system/addresses-part.ts (it maps the stream port and answers with the router's
// external IP); the mesh-VPN and LAN addresses are read from the interfaces at every sync.
// The mapping is removed on shutdown by the part's closer, after this actor has stopped.
//
//   off                            ([stream] upnp = false)
//   mapping -> mapped  --refresh--> mapping        (renews the lease, notices a new external IP)
//           -> unmapped --retry---> mapping
import { assign, fromPromise, setup } from 'xstate'

export interface AddressesInput {
  upnp: boolean
  refreshMs: number
  retryMs: number
}

export interface UpnpMapping {
  /** The router's external IP; only a public one is reported (protocol.md: UPnP-mapped public IP). */
  externalIp: string
}

export interface AddressesContext extends AddressesInput {
  upnpIp: string | undefined
  lastError: string | undefined
}

export const addressesMachine = setup({
  types: {
    context: {} as AddressesContext,
    input: {} as AddressesInput,
  },
  actors: {
    mapPort: fromPromise<UpnpMapping, void>(async () => {
      throw new Error('mapPort is not bound')
    }),
  },
  guards: {
    upnpEnabled: ({ context }) => context.upnp,
  },
  actions: {
    /** Bound by the part: the UPnP address of the next sync (undefined: none), and a sync when it changed. */
    reportUpnp: (_, _params: { ip: string | undefined }) => {},
    logMappingFailed: (_, _params: { error: string }) => {},
  },
  delays: {
    refresh: ({ context }) => context.refreshMs,
    retry: ({ context }) => context.retryMs,
  },
}).createMachine({
  id: 'addresses',
  description: 'Stream-server addresses: keeps the UPnP mapping of the stream port and reports its public IP (contract 1.11).',
  context: ({ input }) => ({ ...input, upnpIp: undefined, lastError: undefined }),
  initial: 'booting',
  states: {
    booting: {
      always: [{ guard: 'upnpEnabled', target: 'mapping' }, { target: 'off' }],
    },
    off: {},
    mapping: {
      invoke: {
        id: 'mapPort',
        src: 'mapPort',
        onDone: {
          target: 'mapped',
          actions: [
            assign({ upnpIp: ({ event }) => event.output.externalIp, lastError: undefined }),
            { type: 'reportUpnp', params: ({ event }) => ({ ip: event.output.externalIp }) },
          ],
        },
        onError: {
          target: 'unmapped',
          actions: [
            assign({ upnpIp: undefined, lastError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
            { type: 'reportUpnp', params: { ip: undefined } },
            { type: 'logMappingFailed', params: ({ event }) => ({ error: event.error instanceof Error ? event.error.message : String(event.error) }) },
          ],
        },
      },
    },
    mapped: {
      after: { refresh: { target: 'mapping' } },
    },
    unmapped: {
      after: { retry: { target: 'mapping' } },
    },
  },
})
