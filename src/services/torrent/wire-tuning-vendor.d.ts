// webtorrent's wire and piece classes, which wire-tuning.ts tunes (they ship no types).
declare module 'bittorrent-protocol' {
  const Wire: unknown
  export default Wire
}
declare module 'torrent-piece' {
  const Piece: unknown
  export default Piece
}
declare module 'debug' {
  /** The debug logger of one namespace; `enabled` follows DEBUG and debug.enable(). */
  function createDebug(namespace: string): { readonly enabled: boolean }
  export default createDebug
}
