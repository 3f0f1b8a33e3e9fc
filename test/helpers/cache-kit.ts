// A persistent HLS cache as the daemon builds it (cache part: the `cache` actor with its
// `cacheEntry:<key>` children, the SegmentStore), without the rest of the agent: for the cache's
// integration tests, its child process (a second daemon on the same dir) and `bench/cache.ts`.
import { createActor, type AnyActorRef } from 'xstate'
import { pino, type Logger } from 'pino'
import { createCachePart, type CachePart, type CachePartOptions } from '../../src/system/cache-part.js'
import { loadConfig } from '../../src/config/load.js'

export interface CacheKit {
  part: CachePart
  actor: AnyActorRef
  stop(): void
}

export async function startCacheKit(options: { dir: string; sizeGb?: number; logger?: Logger; onLookup?: CachePartOptions['onLookup']; disk?: CachePartOptions['disk'] }): Promise<CacheKit> {
  const config = await configFor(options.dir, options.sizeGb ?? 5)
  const logger = options.logger ?? pino({ level: process.env.HLS_TEST_LOG ?? 'silent' })
  const part = createCachePart({ config, logger, ...(options.onLookup ? { onLookup: options.onLookup } : {}), ...(options.disk ? { disk: options.disk } : {}) })
  const actor = createActor(part.logic, { input: part.input, systemId: 'cache' })
  part.attach(() => actor)
  actor.start()
  // Until the dir is scanned (and trimmed): the scan reaps every entry without `.complete`, so a
  // test that lays out an entry must not race it. The state value is `{ loading: 'scanning' }`
  // there, never the string 'loading': compare with matches(), or this wait returns at once and,
  // under load, the scan trashes an entry the test is still writing.
  await waitUntil(() => actor.getSnapshot().matches('running'), 10_000, 'the cache dir to be scanned')
  return { part, actor, stop: () => actor.stop() }
}

async function configFor(dir: string, sizeGb: number) {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const home = await mkdtemp(join(tmpdir(), 'media-agent-cache-cfg-'))
  const file = join(home, 'config.toml')
  await writeFile(file, `[server]\nbase_url = "http://127.0.0.1:1"\naccess_token = "t"\n\n[downloads.hls_cache]\nenabled = true\nsize_gb = ${sizeGb}\ndir = ${JSON.stringify(dir)}\n`)
  // The home only carries the file to load: the part reads nothing from disk through the config.
  try {
    const loaded = await loadConfig({ path: file, env: {}, homedir: home })
    return loaded.config
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

/** Polls `check` every 10 ms until it holds (bounded; throws with `what` past the bound). */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
