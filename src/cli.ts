#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=1 --expose-gc
// --max-semi-space-size=1 caps V8's young generation at 1 MiB per semi-space: ~5 MiB less idle
// RSS, no measured throughput cost. --expose-gc lets the daemon run one compacting GC once
// start-up has settled (src/services/runtime/startup-memory.ts). Both apply wherever the daemon
// starts as `media-agent` (systemd unit, container image, npm's bin link); `npm start` and the
// upgrade launcher pass them too (docs/operations.md "Idle footprint"). The MALLOC_ settings are
// glibc's (defaults.daemonMallocEnv, docs/operations.md "Memory allocator"): freed piece buffers go
// back to the system; env(1) sets them, `npm start` too, and the launcher's children inherit them.

// Loading ~350 modules makes Node's module loader (path and URL functions) hot enough for
// TurboFan, whose code then stays resident: ~5 MiB of the idle daemon's RSS. Ten times V8's
// invocation count before TurboFan (Maglev still optimizes at its own count) keeps start-up
// below it; hot paths under load still reach it within moments, at no measured throughput cost
// (docs/operations.md "Idle footprint"). Set before the CLI's modules are even resolved, hence
// the dynamic imports. Every supported Node (>= 22.12, V8 12.4) knows the flag. node:v8 through
// getBuiltinModule: an ESM import would load every lazy part of the module.
const { setFlagsFromString } = process.getBuiltinModule('node:v8')
setFlagsFromString('--invocation-count-for-turbofan=30000')

const args = process.argv.slice(2)
// `daemon`: V8's compilers wait until start-up has settled (src/services/runtime/startup-memory.ts),
// turned off here, before any import: a few imports more and Node's path functions are hot enough
// for Maglev, whose compiler pages then stay resident (~2 MiB). Not when the node command line
// names any of them (`--no-maglev`, `--opt`...): the operator's choice stands.
const held = args[0] === 'daemon' && !process.execArgv.some((arg) => /^--(no-)?(sparkplug|maglev|turbofan|opt)(=|$)/.test(arg)) ? ['sparkplug', 'maglev', 'turbofan'] : []
for (const flag of held) setFlagsFromString(`--no-${flag}`)

let exitCode: number | undefined
if (args[0] === 'daemon') {
  // The daemon without the CLI framework.
  const { adoptHeldCompilers, releaseCompilers } = await import('./services/runtime/startup-memory.js')
  adoptHeldCompilers(held)
  const { runDaemonFast } = await import('./cli/daemon-fast.js')
  exitCode = await runDaemonFast(args.slice(1))
  // Declined (help, a usage error...): the full CLI, with every compiler as usual.
  if (exitCode === undefined) releaseCompilers()
}
if (exitCode === undefined) {
  const { runCli } = await import('./cli/index.js')
  exitCode = await runCli(args)
}
process.exitCode = exitCode
