// UPnP mapping of the stream port (contract 1.11, 9 0.3.0) through the UPnP IGD client of
// @silentbot1/nat-api: discover the router over SSDP, AddPortMapping for TCP, and read its
// external IP. The lease is renewed by mapping again (the addresses actor does so every
// refresh); the mapping is deleted on close, which the part runs at shutdown.
import NatUpnpClient from '@silentbot1/nat-api/lib/upnp/index.js'
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

export function createUpnpMapper(options: UpnpMapperOptions = {}): UpnpMapper {
  const timeoutMs = options.timeoutMs ?? upnpTimeoutMs
  let client: NatUpnpClient | undefined
  let mapped: number | undefined
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
        await bounded('AddPortMapping', client.portMapping({
          public: port,
          private: port,
          protocol: 'TCP',
          description: options.description ?? 'media-agent stream server',
          ttl: options.leaseSeconds ?? upnpLeaseSeconds,
        }))
        mapped = port
        const externalIp = await bounded('GetExternalIPAddress', client.externalIp())
        return { externalIp }
      } catch (err) {
        if (err instanceof UpnpMappingError) throw err
        const reason = (err as Error).message === 'timeout' ? 'no UPnP gateway answered on the LAN' : (err as Error).message
        throw new UpnpMappingError(`UPnP mapping of TCP port ${port} failed: ${reason}`, { cause: err })
      }
    }),
    close() {
      closed ??= serial(async () => {
        if (!client) return
        if (mapped !== undefined) {
          try {
            await bounded('DeletePortMapping', client.portUnmapping({ public: mapped, private: mapped, protocol: 'TCP' }))
          } catch {
            // The lease runs out by itself; shutdown must not hang on a router that went away.
          }
          mapped = undefined
        }
        await client.destroy()
      })
      return closed
    },
  }
}
