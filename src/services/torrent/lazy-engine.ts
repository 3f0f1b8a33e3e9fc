import type { Readable } from 'node:stream'
import type { TorrentEngine } from './engine.js'

// A TorrentEngine that creates the real one on first use. Creating a webtorrent client joins
// the DHT, announces on the LAN and asks the router for a port mapping at once; an agent with no
// download task has no reason to do any of that (and a test agent must not).
export function lazyEngine(create: () => TorrentEngine): TorrentEngine & { readonly started: boolean } {
  let engine: TorrentEngine | undefined
  const get = () => (engine ??= create())
  return {
    get started() {
      return engine !== undefined
    },
    resolveSource: (source, options) => get().resolveSource(source, options),
    start: (input, listener) => get().start(input, listener),
    pause: (infoHash) => get().pause(infoHash),
    resume: (infoHash) => get().resume(infoHash),
    remove: (infoHash, options) => get().remove(infoHash, options),
    stats: (infoHash) => engine?.stats(infoHash),
    createReadStream: (infoHash, fileIndex, range): Readable => get().createReadStream(infoHash, fileIndex, range),
    listening: () => get().listening(),
    close: async () => {
      await engine?.close()
    },
  }
}
