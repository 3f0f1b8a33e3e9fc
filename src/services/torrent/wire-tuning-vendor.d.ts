// webtorrent's wire and piece classes, which wire-tuning.ts tunes (they ship no types).
declare module 'bittorrent-protocol' {
  const Wire: unknown
  export default Wire
}
declare module 'torrent-piece' {
  const Piece: unknown
  export default Piece
}
