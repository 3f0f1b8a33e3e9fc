// What the daemon's start-up leaves resident once it is idle (issue 18, goal: idle RSS under
// 60 MiB; docs/operations.md "Idle footprint"). Two measured levers, both undone or done once:
//
// - While ~200 modules load and the parts start, V8's baseline and optimizing compilers
//   (Sparkplug, Maglev, TurboFan) compile the module loader's own hot functions; their compiler
//   code is then resident in the node executable's pages and their output in the code space,
//   for work that never runs again. `src/cli.ts` turns them off before the daemon's modules
//   load; `releaseCompilers()` turns them back on once start-up has settled, so every hot path
//   under load is optimized as before (about 2 MiB of idle RSS).
// - Start-up garbage, and bytecode only start-up ran, stay in V8's heap pages until a full GC
//   with compaction: `compactHeap()` runs one "last resort" GC (the memory-reducing kind V8 runs
//   under memory pressure) through the `gc` that `--expose-gc` (the CLI's shebang) provides,
//   flushing the bytecode only start-up ran (about 3.3 MiB). Without the flag it does nothing.
//   After it, glibc gives back what start-up freed in its arenas (malloc-trim.ts), when the native
//   helper was built.
import * as defaults from '../../config/defaults.js'
import { trimMalloc } from './malloc-trim.js'

const { setFlagsFromString } = process.getBuiltinModule('node:v8')

let held: string[] = []
let holdTimer: NodeJS.Timeout | undefined

/**
 * Records compilers `src/cli.ts` turned off (`--no-<flag>`) from its first line, before any
 * import: one import more and Node's path functions are hot enough for Maglev, whose compiler
 * pages then stay resident (about 2 MiB). They come back with `releaseCompilers()` or, whatever
 * happens to start-up, after `startupCompilerHoldMaxMs`.
 */
export function adoptHeldCompilers(flags: readonly string[]): void {
  if (flags.length === 0) return
  held = [...new Set([...held, ...flags])]
  clearTimeout(holdTimer)
  holdTimer = setTimeout(releaseCompilers, defaults.startupCompilerHoldMaxMs)
  holdTimer.unref()
}

/** Turns the held compilers back on (V8's defaults); idempotent. */
export function releaseCompilers(): void {
  clearTimeout(holdTimer)
  holdTimer = undefined
  for (const flag of held) setFlagsFromString(`--${flag}`)
  held = []
}

/** The compilers currently held off. */
export function heldCompilers(): readonly string[] {
  return held
}

type ExposedGc = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void

/** V8's `--bytecode-old-age` (the GCs a function's bytecode survives unused), 6 in V8 12.4-13.6. */
const v8BytecodeOldAge = 6

/**
 * One compacting, memory-reducing full GC when `--expose-gc` is on; returns whether it ran.
 * For this one GC, bytecode unused since the previous GC is flushed (`--bytecode-old-age=1`):
 * what only start-up ran (about 0.8 MiB); a function that runs again is recompiled from its
 * source, as V8 does for any function it flushed. A node command line that sets the age keeps it.
 */
export function compactHeap(gc: unknown = (globalThis as { gc?: unknown }).gc, execArgv: readonly string[] = process.execArgv): boolean {
  if (typeof gc !== 'function') return false
  const ageIsOurs = !execArgv.some((arg) => /^--bytecode[-_]old[-_]age\b/.test(arg))
  if (ageIsOurs) setFlagsFromString('--bytecode-old-age=1')
  try {
    ;(gc as ExposedGc)({ type: 'major', execution: 'sync', flavor: 'last-resort' })
  } finally {
    if (ageIsOurs) setFlagsFromString(`--bytecode-old-age=${v8BytecodeOldAge}`)
  }
  return true
}

/**
 * After start-up: waits `startupMemorySettleMs` (the encoder probe's test encodes, register and
 * the first sync run meanwhile), then releases the compilers and compacts the heap. Returns a
 * cancel for a daemon that stops first.
 */
export function settleAfterStartup(onSettled?: (result: { compacted: boolean; trimmed: boolean; released: readonly string[] }) => void): () => void {
  const timer = setTimeout(() => {
    const released = heldCompilers().slice()
    releaseCompilers()
    const compacted = compactHeap()
    // What start-up's parsers and module loads freed in glibc's arenas (malloc-trim.ts).
    const trimmed = compacted && trimMalloc()
    onSettled?.({ compacted, trimmed, released })
  }, defaults.startupMemorySettleMs)
  timer.unref()
  return () => clearTimeout(timer)
}
