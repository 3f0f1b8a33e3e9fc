import type { Readable } from 'node:stream'
import { TorrentEngineError, TorrentNotFoundError, toAgentError } from '../../errors.js'
import { lazily } from '../runtime/lazily.js'
import type { TorrentEngine } from './engine.js'

// A TorrentEngine that creates the real one on first use. Creating a webtorrent client joins
// the DHT, announces on the LAN and asks the router for a port mapping at once; an agent with no
// download task has no reason to do any of that (and a test agent must not). `create` may be
// async so that the engine's module (webtorrent and its ~40 MiB of dependencies) is imported only
// then: an idle agent does not hold it (docs/operations.md "Idle footprint"). A failed load fails
// the calls that waited for it; the next one tries again.
export function lazyEngine(create: () => TorrentEngine | Promise<TorrentEngine>): TorrentEngine & { readonly started: boolean } {
  const lazy = lazily(create)
  const load = () => lazy.get()
  return {
    get started() {
      return lazy.loading !== undefined
    },
    resolveSource: async (source, options) => (await load()).resolveSource(source, options),
    start: (input, listener) => {
      const engine = lazy.value
      if (engine) return engine.start(input, listener)
      // Subscribed once the engine is there, unless unsubscribed before.
      let unsubscribe: (() => void) | undefined
      let cancelled = false
      load().then(
        (ready) => {
          if (!cancelled) unsubscribe = ready.start(input, listener)
        },
        (err: unknown) => {
          if (!cancelled) listener({ type: 'error', infoHash: input.infoHash, error: new TorrentEngineError(`the torrent engine could not be loaded: ${toAgentError(err).message}`, { cause: err }) })
        },
      )
      return () => {
        cancelled = true
        unsubscribe?.()
      }
    },
    // Only a torrent already started can be listened to: no engine, no torrent.
    listen: (infoHash, listener) => lazy.value?.listen?.(infoHash, listener),
    pause: async (infoHash) => (await load()).pause(infoHash),
    resume: async (infoHash) => (await load()).resume(infoHash),
    recheck: async (infoHash) => (await load()).recheck(infoHash),
    remove: async (infoHash, options) => (await load()).remove(infoHash, options),
    stats: (infoHash) => lazy.value?.stats(infoHash),
    createReadStream: (infoHash, fileIndex, range): Readable => {
      const engine = lazy.value
      // No engine yet means no torrent has started: nothing to read, as the engine itself says.
      if (!engine) throw new TorrentNotFoundError(`torrent ${infoHash} is not active`)
      return engine.createReadStream(infoHash, fileIndex, range)
    },
    listening: async () => (await load()).listening(),
    dormancy: () => lazy.value?.dormancy?.() ?? { live: 0, dormant: 0, announces: 0 },
    close: async () => {
      // A load in flight finishes first, so the engine it makes is closed too.
      await lazy.loading?.then((ready) => ready.close(), () => undefined)
    },
  }
}
