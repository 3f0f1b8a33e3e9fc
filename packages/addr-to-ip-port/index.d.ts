/** `host:port` or `[ipv6]:port` split into host and port; throws `invalid addr: <addr>` otherwise. */
export default function addrToIPPort(addr: string): [host: string, port: number]
