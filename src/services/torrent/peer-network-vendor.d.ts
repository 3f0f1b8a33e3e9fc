// webtorrent's Torrent class, which peer-network.ts hooks (webtorrent ships no types).
declare module 'webtorrent/lib/torrent.js' {
  const Torrent: unknown
  export default Torrent
}
