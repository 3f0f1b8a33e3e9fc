#!/usr/bin/env -S node --max-semi-space-size=1
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/cli.js
import { setFlagsFromString } from "node:v8";
if (Number(process.versions.v8.split(".")[0]) >= 12)
  setFlagsFromString("--invocation-count-for-turbofan=30000");
var { runCli } = await import("./cli-HZVWXZ4Y.js");
process.exitCode = await runCli(process.argv.slice(2));
