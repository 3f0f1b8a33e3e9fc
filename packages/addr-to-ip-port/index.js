// addr-to-ip-port 2.0.0's parse, without its cache. The original keeps every address it has
// parsed in a module-wide Map until it holds 100,000 (then clears it): webtorrent parses each
// peer's "host:port" as it connects, so a daemon seeding for weeks kept up to ~17 MiB of peer
// addresses it would never look at again. Parsing is one regex per connection: nothing to save.
const ADDR_RE = /^\[?([^\]]+)]?:(\d+)$/ // ipv4/ipv6/hostname + port

export default function addrToIPPort (addr) {
  const m = ADDR_RE.exec(addr)
  if (!m) throw new Error(`invalid addr: ${addr}`)
  return [m[1], Number(m[2])]
}
