import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import * as defaults from '../../src/config/defaults.js'
import { loadMallocTrim, mallocTrimAddonPath } from '../../src/services/runtime/malloc-trim.js'

// The optional native helper (native/malloc-trim.c, built into dist/native/ by `npm run build`,
// which `npm test` runs first; docs/operations.md "Memory allocator").

const hasCompiler = spawnSync('sh', ['-c', `command -v ${process.env.CC || 'cc'}`], { stdio: 'ignore' }).status === 0
const glibc = typeof (process.report.getReport() as { header?: { glibcVersionRuntime?: unknown } }).header?.glibcVersionRuntime === 'string'
const dir = mkdtempSync(join(tmpdir(), 'malloc-trim-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A child process with the daemon's malloc settings frees most of 150 MiB of Buffers below live
// ones (so glibc cannot give it back from the top of its heap), waits until V8 has really freed
// them, and prints its RSS before and after a trim (or a second look, without one).
const fragment = `
const [addon, doTrim] = process.argv.slice(-2)
const trimmer = require(addon)
const rss = () => process.memoryUsage.rss() / 1048576
const kept = []
let buffers = []
for (let i = 0; i < 1600; i++) {
  const b = Buffer.alloc(96 * 1024, 1)
  if (i % 16 === 15) kept.push(b)
  else buffers.push(b)
}
const full = rss()
buffers = null
const wait = () => new Promise((resolve) => setImmediate(resolve))
;(async () => {
  // The ArrayBuffers' memory is freed by V8's sweeper after the GC, on another thread: wait until
  // Node counts it gone, not for a time.
  while (process.memoryUsage().arrayBuffers > 20 * 1048576) { gc(); await wait() }
  const freed = rss()
  const released = doTrim === 'trim' ? trimmer.trim() : false
  console.log(JSON.stringify({ full, freed, after: rss(), released, kept: kept.length }))
})()
`

function runFragment(trim: boolean): { full: number; freed: number; after: number; released: boolean } {
  const script = join(dir, 'fragment.cjs')
  writeFileSync(script, fragment)
  const result = spawnSync(process.execPath, ['--expose-gc', script, mallocTrimAddonPath, trim ? 'trim' : 'look'], {
    env: { ...process.env, ...defaults.daemonMallocEnv },
    encoding: 'utf8',
  })
  expect(result.stderr).toBe('')
  return JSON.parse(result.stdout) as { full: number; freed: number; after: number; released: boolean }
}

describe('malloc_trim helper', () => {
  it('is built wherever the build had a C compiler on glibc Linux, and loads', () => {
    const load = loadMallocTrim()
    if (hasCompiler && glibc && process.platform === 'linux') {
      expect(load).toMatchObject({ available: true })
    } else {
      expect(load.available).toBe(false)
    }
  })

  it('a missing or wrong addon is a reason naming the file, never a throw', () => {
    const missing = loadMallocTrim(join(dir, 'nope.node'))
    expect(missing).toEqual({ available: false, reason: expect.stringContaining('nope.node was not built') })
    const wrong = join(dir, 'wrong.cjs')
    writeFileSync(wrong, 'module.exports = { trim: 1 }')
    expect(loadMallocTrim(wrong)).toEqual({ available: false, reason: `${wrong} exports no trim()` })
    const broken = join(dir, 'broken.node')
    writeFileSync(broken, 'not an ELF file')
    expect(loadMallocTrim(broken)).toEqual({ available: false, reason: expect.stringMatching(/broken\.node could not be loaded: /) })
  })

  it.runIf(loadMallocTrim().available)('gives back memory freed below live allocations, which free() alone keeps', () => {
    // Without a trim the freed ~140 MiB stay resident...
    const look = runFragment(false)
    expect(look.freed).toBeGreaterThan(look.full - 20)
    expect(look.after).toBeGreaterThan(look.full - 20)
    // ...with one, most of them go.
    const trim = runFragment(true)
    expect(trim.released).toBe(true)
    expect(trim.freed - trim.after).toBeGreaterThan(100)
  })
})
