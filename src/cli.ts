#!/usr/bin/env -S node --max-semi-space-size=1
// The flag caps V8's young generation at 1 MiB per semi-space: ~5 MiB less idle RSS, no measured
// throughput cost (docs/operations.md "Idle footprint"). It applies wherever the daemon starts
// as `media-agent` (systemd unit, container image, npm's bin link); `npm start` passes it too.
import { setFlagsFromString } from 'node:v8'

// Loading ~350 modules makes Node's module loader (path and URL functions) hot enough for
// TurboFan, whose code then stays resident: ~5 MiB of the idle daemon's RSS. Ten times V8's
// invocation count before TurboFan (Maglev still optimizes at its own count) keeps start-up
// below it; hot paths under load still reach it within moments, at no measured throughput cost
// (docs/operations.md "Idle footprint"). Set before the CLI's modules are even resolved, hence
// the dynamic import. Every supported Node (>= 22.12, V8 12.4) knows the flag.
setFlagsFromString('--invocation-count-for-turbofan=30000')
const { runCli } = await import('./cli/index.js')

process.exitCode = await runCli(process.argv.slice(2))
