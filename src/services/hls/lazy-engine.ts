import type { HlsEngine, HlsSessionHandle } from './engine.js'

// An HlsEngine whose module (the transcode machine, ffprobe and ffmpeg helpers, playlists, the
// segment store) is imported with the first HLS session: an agent that only direct-plays, or sits
// idle, never loads it (docs/operations.md "Idle footprint"). Calls made while it loads wait for it.
export function lazyHlsEngine(create: () => Promise<HlsEngine>): HlsEngine & { readonly loaded: boolean } {
  let engine: HlsEngine | undefined
  let loading: Promise<HlsEngine> | undefined
  const load = (): Promise<HlsEngine> => (loading ??= create().then((created) => (engine = created)))
  return {
    get loaded() {
      return engine !== undefined
    },
    start(params, events): HlsSessionHandle {
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
    routes: async (context) => (engine ?? (await load())).routes(context),
    stopAll: async () => {
      if (loading) await loading.then((ready) => ready.stopAll(), () => undefined)
    },
    inspect: () => engine?.inspect() ?? [],
  }
}
