// The UPnP client of @silentbot1/nat-api (node_modules/@silentbot1/nat-api/lib/upnp/index.js),
// which ships no types. Each call discovers the gateway over SSDP, then speaks SOAP to it.
declare module '@silentbot1/nat-api/lib/upnp/index.js' {
  export default class NatUpnpClient {
    constructor(options?: { permanentFallback?: boolean })
    /** SSDP search timeout in ms (1800 by default). */
    timeout: number
    portMapping(options: { public: number; private: number; protocol?: 'TCP' | 'UDP'; description?: string; ttl?: number }): Promise<unknown>
    portUnmapping(options: { public: number; private: number; protocol?: 'TCP' | 'UDP' }): Promise<unknown>
    externalIp(): Promise<string>
    destroy(): Promise<unknown>
  }
}
