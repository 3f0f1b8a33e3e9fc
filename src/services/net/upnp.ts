// UPnP mapping of the stream port (contract 1.11, 9 0.3.0). @silentbot1/nat-api finds the router
// (SSDP M-SEARCH on every interface) and reads its description for the WAN connection service;
// the three SOAP actions are posted here with undici. nat-api's own SOAP call sets a numeric
// Content-Length header by hand, which the fetch of a process that uses undici 7 (this one)
// refuses ("invalid content-length header"). The lease is renewed by mapping again (the
// addresses actor does so every refresh); the mapping is deleted on close, which the part runs
// at shutdown.
import NatUpnpClient from '@silentbot1/nat-api/lib/upnp/index.js'
import { request } from 'undici'
import { upnpLeaseSeconds, upnpTimeoutMs } from '../../config/defaults.js'
import { UpnpMappingError } from '../../errors.js'

export interface UpnpMapper {
  /** Maps `port` (TCP, same port outside and in) and answers with the router's external IP. */
  map(port: number): Promise<{ externalIp: string }>
  /** Deletes the mapping made, if any, and frees the sockets. Idempotent. */
  close(): Promise<void>
}

export interface UpnpMapperOptions {
  description?: string
  leaseSeconds?: number
  timeoutMs?: number
}

interface WanService {
  service: string
  controlURL: string
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Posts one SOAP action; resolves with the response text, rejects with the UPnP error. */
async function soap(wan: WanService, action: string, args: [string, string | number][], timeoutMs: number): Promise<string> {
  const body = '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>' +
    `<u:${action} xmlns:u="${wan.service}">${args.map(([name, value]) => `<${name}>${xmlEscape(String(value))}</${name}>`).join('')}</u:${action}>` +
    '</s:Body></s:Envelope>'
  const response = await request(wan.controlURL, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset="utf-8"', soapaction: `"${wan.service}#${action}"` },
    body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  })
  const text = await response.body.text()
  if (response.statusCode !== 200) {
    const code = /<errorCode>\s*(\d+)\s*<\/errorCode>/.exec(text)?.[1]
    const description = /<errorDescription>([^<]*)<\/errorDescription>/.exec(text)?.[1]
    throw new Error(`${action} answered HTTP ${response.statusCode}${code ? ` (UPnP error ${code}${description ? ` ${description}` : ''})` : ''}`)
  }
  return text
}

export function createUpnpMapper(options: UpnpMapperOptions = {}): UpnpMapper {
  const timeoutMs = options.timeoutMs ?? upnpTimeoutMs
  let client: NatUpnpClient | undefined
  let mapped: { port: number; wan: WanService } | undefined
  let closed: Promise<void> | undefined
  // One call at a time: close() waits for a mapping in flight, so it never outlives the unmap.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const bounded = <T>(what: string, work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UpnpMappingError(`UPnP ${what} got no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
  }

  return {
    map: (port) => serial(async () => {
      if (closed) throw new UpnpMappingError('the UPnP mapper is closed')
      client ??= new NatUpnpClient()
      try {
        const { gateway, address } = await bounded('discovery', client.findGateway())
        const wan = await bounded('description', gateway._getService(gateway.services))
        await bounded('AddPortMapping', soap(wan, 'AddPortMapping', [
          ['NewRemoteHost', ''],
          ['NewExternalPort', port],
          ['NewProtocol', 'TCP'],
          ['NewInternalPort', port],
          ['NewInternalClient', address],
          ['NewEnabled', 1],
          ['NewPortMappingDescription', options.description ?? 'media-agent stream server'],
          ['NewLeaseDuration', options.leaseSeconds ?? upnpLeaseSeconds],
        ], timeoutMs))
        mapped = { port, wan }
        const answer = await bounded('GetExternalIPAddress', soap(wan, 'GetExternalIPAddress', [], timeoutMs))
        const externalIp = /<NewExternalIPAddress>\s*([^<\s]*)\s*<\/NewExternalIPAddress>/.exec(answer)?.[1] ?? ''
        return { externalIp }
      } catch (err) {
        // nat-api's SSDP search leaves its listener behind when no router answers: a fresh client
        // per failed attempt keeps a LAN without UPnP from piling them up, retry after retry.
        const failed = client
        client = undefined
        await failed?.destroy().catch(() => undefined)
        if (err instanceof UpnpMappingError) throw err
        const reason = (err as Error).message === 'timeout' ? 'no UPnP gateway answered on the LAN' : (err as Error).message
        throw new UpnpMappingError(`UPnP mapping of TCP port ${port} failed: ${reason}`, { cause: err })
      }
    }),
    close() {
      closed ??= serial(async () => {
        if (mapped) {
          try {
            await bounded('DeletePortMapping', soap(mapped.wan, 'DeletePortMapping', [['NewRemoteHost', ''], ['NewExternalPort', mapped.port], ['NewProtocol', 'TCP']], timeoutMs))
          } catch {
            // The lease runs out by itself; shutdown must not hang on a router that went away.
          }
          mapped = undefined
        }
        await client?.destroy()
      })
      return closed
    },
  }
}
