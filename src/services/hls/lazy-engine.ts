import { lazily } from '../runtime/lazily.js'
import type { HlsEngine, HlsSessionHandle } from './engine.js'

// An HlsEngine whose module (the transcode machine, ffprobe and ffmpeg helpers, playlists, the
// segment store) is imported with the first HLS session: an agent that only direct-plays, or sits
// idle, never loads it (docs/operations.md "Idle footprint"). Calls made while it loads wait for it;
// a failed load fails them, and the next session tries again.
export function lazyHlsEngine(create: () => Promise<HlsEngine>): HlsEngine & { readonly loaded: boolean } {
  const lazy = lazily(create)
  const load = () => lazy.get()
  return {
    get loaded() {
      return lazy.value !== undefined
    },
    start(params, events): HlsSessionHandle {
      const engine = lazy.value
      if (engine) return engine.start(params, events)
      let stopped = false
      const handle = load().then(
        (ready) => (stopped ? undefined : ready.start(params, events)),
        (err: unknown) => {
          if (!stopped) events.onFailed(err instanceof Error ? err : new Error(String(err)))
          return undefined
        },
      )
      return {
        stop: async () => {
          stopped = true
          await (await handle)?.stop()
        },
      }
    },
    routes: async (context) => (lazy.value ?? (await load())).routes(context),
    stopAll: async () => {
      await lazy.loading?.then((ready) => ready.stopAll(), () => undefined)
    },
    inspect: () => lazy.value?.inspect() ?? [],
  }
}
