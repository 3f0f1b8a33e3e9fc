import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

// glibc's malloc_trim(0), through the optional native helper native/malloc-trim.c (built into
// dist/native/ by scripts/build-native.mjs when the host has a C compiler; docs/operations.md
// "Memory allocator"). Why: glibc's free() gives memory back to the system only from the top of
// an arena. What a busy phase freed below live allocations (piece verification, uploads, 1,000
// torrents going dormant) stays resident, and Node never calls malloc_trim. Measured with 1,000
// torrents gone dormant: 5.5 MiB less anonymous memory with it (docs/torrents.md "Memory").
// Without the helper (no compiler at build time, not glibc) nothing is trimmed and the daemon is
// otherwise the same.

export interface MallocTrimmer {
  /** Calls malloc_trim(0); whether it released anything. */
  trim(): boolean
}

export type MallocTrimLoad = { available: true; trimmer: MallocTrimmer } | { available: false; reason: string }

/** <package>/dist/native/malloc-trim.node, from this module in src/ (tests) or dist/ (the daemon). */
export const mallocTrimAddonPath = fileURLToPath(new URL('../../../dist/native/malloc-trim.node', import.meta.url))

const require = createRequire(import.meta.url)

/** Loads the helper; never throws: a missing or unloadable addon is a reason, not an error. */
export function loadMallocTrim(file: string = mallocTrimAddonPath): MallocTrimLoad {
  let loaded: unknown
  try {
    loaded = require(file)
  } catch (err) {
    const code = (err as { code?: unknown }).code
    const reason = code === 'MODULE_NOT_FOUND' ? `${file} was not built (no C compiler when the agent was built?)` : `${file} could not be loaded: ${(err as Error).message}`
    return { available: false, reason }
  }
  const trim = (loaded as { trim?: unknown } | null)?.trim
  if (typeof trim !== 'function') return { available: false, reason: `${file} exports no trim()` }
  return { available: true, trimmer: { trim: () => trim() === true } }
}

let loadedOnce: MallocTrimLoad | undefined

/** The daemon's helper, loaded on first use. */
export function mallocTrim(): MallocTrimLoad {
  loadedOnce ??= loadMallocTrim()
  return loadedOnce
}

/** malloc_trim(0) when the helper is there; false when it released nothing or is missing. */
export function trimMalloc(): boolean {
  const load = mallocTrim()
  return load.available ? load.trimmer.trim() : false
}
