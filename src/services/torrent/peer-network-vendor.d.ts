// webtorrent's Torrent and Peer classes, which peer-network.ts and lent-reads.ts hook (webtorrent ships no types).
declare module 'webtorrent/lib/torrent.js' {
  const Torrent: unknown
  export default Torrent
}
declare module 'webtorrent/lib/peer.js' {
  const Peer: unknown
  export default Peer
}
