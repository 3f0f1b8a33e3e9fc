import { describe, expect, it } from 'vitest'
import { parseDaemonArgs } from '../../src/cli/daemon-fast.js'
import { adoptHeldCompilers, compactHeap, heldCompilers, releaseCompilers } from '../../src/services/runtime/startup-memory.js'

describe('media-agent daemon without the CLI framework (issue 18, idle footprint)', () => {
  it('takes --config and --log-level in both spellings, and info when no level is given', () => {
    expect(parseDaemonArgs([])).toEqual({ configPath: undefined, level: 'info' })
    expect(parseDaemonArgs(['--config', '/etc/media-agent/config.toml', '--log-level', 'warn'])).toEqual({ configPath: '/etc/media-agent/config.toml', level: 'warn' })
    expect(parseDaemonArgs(['--log-level=debug', '--config=./a b.toml'])).toEqual({ configPath: './a b.toml', level: 'debug' })
    expect(parseDaemonArgs(['--config', 'x=y.toml'])).toEqual({ configPath: 'x=y.toml', level: 'info' })
  })

  it('leaves help, unknown or repeated options, missing or bad values and stray words to the full CLI', () => {
    for (const args of [
      ['--help'], ['-h'], ['--version'], ['--bogus'], ['stray'], ['--config'], ['--config='], ['--config', '--log-level', 'info'],
      ['--config', 'a', '--config', 'b'], ['--log-level', 'loud'], ['--log-level', 'WARN'], ['--log-level'], ['--', '--config', 'a'],
    ]) expect(parseDaemonArgs(args), args.join(' ')).toBeUndefined()
  })
})

describe("V8's compilers during start-up and the heap once it has settled", () => {
  it('gives the compilers src/cli.ts held back once, and knows which are held meanwhile', () => {
    adoptHeldCompilers(['sparkplug', 'maglev'])
    adoptHeldCompilers(['maglev', 'turbofan'])
    expect(heldCompilers()).toEqual(['sparkplug', 'maglev', 'turbofan'])
    releaseCompilers()
    expect(heldCompilers()).toEqual([])
    releaseCompilers()
    adoptHeldCompilers([])
    expect(heldCompilers()).toEqual([])
  })

  it('runs one last-resort major GC through an exposed gc, and nothing without one', () => {
    const calls: unknown[] = []
    expect(compactHeap((options: unknown) => { calls.push(options) }, [])).toBe(true)
    expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }])
    expect(compactHeap(undefined)).toBe(false)
  })
})
