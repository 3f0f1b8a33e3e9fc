#!/usr/bin/env -S node --max-semi-space-size=1
// The flag caps V8's young generation at 1 MiB per semi-space: ~5 MiB less idle RSS, no measured
// throughput cost (docs/operations.md "Idle footprint"). It applies wherever the daemon starts
// as `media-agent` (systemd unit, container image, npm's bin link); `npm start` passes it too.
import { runCli } from './cli/index.js'

process.exitCode = await runCli(process.argv.slice(2))
