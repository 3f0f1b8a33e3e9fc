// The UPnP client of @silentbot1/nat-api (node_modules/@silentbot1/nat-api/lib/upnp/index.js and
// device.js), which ships no types: only what src/services/net/upnp.ts uses.
declare module '@silentbot1/nat-api/lib/upnp/index.js' {
  export interface UpnpDevice {
    /** The WAN connection service types it looks for, in order. */
    services: string[]
    /** Reads the gateway's description: the first matching service and its absolute control URL. */
    _getService(types: string[]): Promise<{ service: string; controlURL: string; SCPDURL: string }>
  }
  export default class NatUpnpClient {
    constructor(options?: { permanentFallback?: boolean })
    /** SSDP search timeout in ms (1800 by default). */
    timeout: number
    /** SSDP M-SEARCH for an InternetGatewayDevice; `address` is this host's address on that LAN. */
    findGateway(): Promise<{ gateway: UpnpDevice; address: string }>
    destroy(): Promise<unknown>
  }
}
