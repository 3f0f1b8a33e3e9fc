#!/usr/bin/env node
// Builds the daemon's optional native helper, dist/native/malloc-trim.node, from
// native/malloc-trim.c with the host's C compiler (`cc`, or $CC). Part of `npm run build`.
// Optional by design: on a host without a compiler, or not on Linux with glibc, it says so in one
// line and exits 0; the daemon runs without it and only keeps more memory after busy phases
// (docs/operations.md "Memory allocator"). A compiler that is there but fails is an error.
// Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const source = join(root, 'native', 'malloc-trim.c')
const target = join(root, 'dist', 'native', 'malloc-trim.node')

function say(message) {
  process.stderr.write(`[build-native] ${message}\n`)
}

function glibc() {
  // process.report names the C library Node was linked against; malloc_trim is glibc's.
  const header = process.report?.getReport?.().header
  return typeof header?.glibcVersionRuntime === 'string'
}

if (process.platform !== 'linux' || !glibc()) {
  say(`skipped: malloc_trim is glibc's and this is ${process.platform}${process.platform === 'linux' ? ' without glibc' : ''}`)
  process.exit(0)
}
if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) process.exit(0)

const cc = process.env.CC || 'cc'
if (spawnSync('sh', ['-c', `command -v ${JSON.stringify(cc)}`], { stdio: 'ignore' }).status !== 0) {
  say(`skipped: no C compiler (${cc}); the daemon runs without malloc_trim (docs/operations.md "Memory allocator")`)
  process.exit(0)
}
mkdirSync(dirname(target), { recursive: true })
const partial = `${target}.${process.pid}.tmp`
const result = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-shared', '-fPIC', '-o', partial, source], { stdio: 'inherit' })
if (result.status !== 0) {
  rmSync(partial, { force: true })
  say(`${cc} failed (exit ${result.status ?? result.signal}) building ${target}`)
  process.exit(1)
}
renameSync(partial, target)
