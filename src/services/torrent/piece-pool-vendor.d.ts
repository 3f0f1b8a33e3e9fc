// immediate-chunk-store ships no types; piece-pool.ts patches its class's prototype.
declare module 'immediate-chunk-store' {
  const ImmediateChunkStore: unknown
  export default ImmediateChunkStore
}
