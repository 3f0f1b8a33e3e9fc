// The node flags the daemon runs with: those of the CLI's shebang line (src/cli.ts, copied to
// dist/cli.js by the build), e.g. `--max-semi-space-size=1`. Benches start their daemon or engine
// child with them so that they measure what `media-agent` runs (docs/operations.md "Idle footprint").
import { readFileSync } from 'node:fs'

/** The `--` flags on the first line of `file` (`#!/usr/bin/env -S node <flags>`); none without a shebang. */
export function shebangNodeFlags(file: string): string[] {
  const shebang = readFileSync(file, 'utf8').split('\n', 1)[0] ?? ''
  return /^#!.*\bnode\b(.*)$/.exec(shebang)?.[1]?.split(/\s+/).filter((arg) => arg.startsWith('--')) ?? []
}

/**
 * The `NAME=value` settings between `env -S` and `node` on the first line of `file` (the daemon's
 * malloc settings, defaults.daemonMallocEnv): a bench's daemon gets them in its environment, as
 * `media-agent` gets them from env(1). `override` (an env value: space-separated NAME=value, ''
 * for none) replaces them.
 */
export function shebangEnv(file: string, override?: string): Record<string, string> {
  const shebang = readFileSync(file, 'utf8').split('\n', 1)[0] ?? ''
  const settings = override ?? /^#!\S*env -S (.*?)\bnode\b/.exec(shebang)?.[1] ?? ''
  return Object.fromEntries(settings.split(/\s+/).filter((word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]))
}

/** `override` (an env value: space-separated flags, '' for none) when set, else the shebang's. */
export function nodeFlagsFrom(override: string | undefined, file: string): string[] {
  return override === undefined ? shebangNodeFlags(file) : override.split(' ').filter(Boolean)
}
