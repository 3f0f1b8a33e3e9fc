import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { MemorySettler } from '../../src/services/runtime/memory-settle.js'
import { mediaToolEnv } from '../../src/services/runtime/child-env.js'
import * as defaults from '../../src/config/defaults.js'

// docs/torrents.md "Memory", docs/operations.md "Memory allocator".

function settler(clock: ManualClock, options: { quietMs?: number; minIntervalMs?: number } = {}) {
  const runs: number[] = []
  const memory = new MemorySettler({
    quietMs: options.quietMs ?? 5_000,
    minIntervalMs: options.minIntervalMs ?? 60_000,
    timers: clock,
    compact: () => {
      runs.push(clock.now())
      return true
    },
  })
  return { memory, runs }
}

/** The daemon's quiet time and interval; each GC and trim noted with the time it ran. */
function loggedSettler(clock: ManualClock) {
  const steps: string[] = []
  const reports: { releases: number; nativeReleases: number; compacted: boolean }[] = []
  const memory = new MemorySettler({
    quietMs: 5_000,
    minIntervalMs: 60_000,
    timers: clock,
    rss: () => 0,
    compact: () => (steps.push(`gc@${clock.now()}`), true),
    trim: () => (steps.push(`trim@${clock.now()}`), true),
    onSettled: (result) => reports.push(result),
  })
  return { memory, steps, reports }
}

/** A wave of `torrents` going dormant, one every `everyMs`. */
function dormantWave(memory: MemorySettler, clock: ManualClock, torrents: number, everyMs: number) {
  for (let i = 0; i < torrents; i++) {
    memory.released()
    clock.advance(everyMs)
  }
}

/** A wave's first announces ending one a second for `seconds`; the last says the wave is announced. */
function waveAnnounces(memory: MemorySettler, clock: ManualClock, seconds: number) {
  for (let i = 1; i <= seconds; i++) {
    clock.advance(1_000)
    if (i < seconds) memory.nativeReleased()
    else memory.wavesAnnounced()
  }
}

describe('MemorySettler: one compacting GC after a wave of dormant torrents', () => {
  it('waits until the releases have stopped for the quiet time, then compacts once for the whole wave', () => {
    const clock = new ManualClock()
    const { memory, runs } = settler(clock)
    // 300 torrents going dormant one every 100 ms: a wave of 30 s.
    dormantWave(memory, clock, 300, 100)
    expect(runs).toEqual([])
    clock.advance(4_899)
    expect(runs).toEqual([])
    clock.advance(1)
    expect(runs).toEqual([29_900 + 5_000])
    expect(memory.pending).toBe(0)
    clock.advance(600_000)
    expect(runs).toHaveLength(1)
  })

  it('runs at most once per minimum interval: a torrent going dormant every few seconds does not compact each time', () => {
    const clock = new ManualClock()
    const { memory, runs } = settler(clock, { quietMs: 1_000, minIntervalMs: 60_000 })
    dormantWave(memory, clock, 40, 5_000)
    // 200 s of single releases: the first after 1 s of quiet, then one a minute at most.
    expect(runs.length).toBeGreaterThanOrEqual(3)
    expect(runs.length).toBeLessThanOrEqual(4)
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(60_000)
    // Nothing released is left behind: the last release is compacted too, once its turn comes.
    clock.advance(120_000)
    expect(memory.pending).toBe(0)
  })

  it('does nothing without releases, and nothing once closed', () => {
    const clock = new ManualClock()
    const { memory, runs } = settler(clock)
    clock.advance(600_000)
    expect(runs).toEqual([])
    memory.released()
    memory.close()
    clock.advance(600_000)
    expect(runs).toEqual([])
    expect(clock.pending).toBe(0)
    memory.released()
    expect(clock.pending).toBe(0)
  })

  it('after the GC, asks glibc for its free memory back, and reports what the two gave back', () => {
    const clock = new ManualClock()
    const steps: string[] = []
    let rss = 300 * 1048576
    const reports: unknown[] = []
    let gcRuns = true
    const memory = new MemorySettler({
      quietMs: 10,
      minIntervalMs: 0,
      timers: clock,
      rss: () => rss,
      compact: () => {
        steps.push('gc')
        rss -= 20 * 1048576
        return gcRuns
      },
      trim: () => {
        steps.push('trim')
        rss -= 10 * 1048576
        return true
      },
      onSettled: (result) => reports.push(result),
    })
    memory.released()
    memory.released()
    clock.advance(10)
    expect(steps).toEqual(['gc', 'trim'])
    expect(reports).toEqual([{ tookMs: 0, releases: 2, nativeReleases: 0, compacted: true, trimmed: true, rssFreedMiB: 30 }])
    // Without --expose-gc nothing ran: no trim either (the dead objects' native memory is still held).
    gcRuns = false
    memory.released()
    clock.advance(10)
    expect(steps).toEqual(['gc', 'trim', 'gc'])
    expect(reports).toHaveLength(1)
  })

  it('trims without a GC after the announces end, at most once per interval, and never postpones a wave\'s GC', () => {
    const clock = new ManualClock()
    const { memory, steps, reports } = loggedSettler(clock)
    // Announces ending every second for two minutes: a trim 5 s after the first, the next a minute later.
    for (let i = 0; i < 120; i++) {
      memory.nativeReleased()
      clock.advance(1_000)
    }
    expect(steps).toEqual(['trim@5000', 'trim@65000'])
    expect(reports[0]).toMatchObject({ releases: 0, compacted: false })
    // A dormant wave among them: its GC comes once the wave is quiet, however many announces end meanwhile.
    clock.advance(60_000)
    steps.length = 0
    let lastRelease = 0
    for (let i = 0; i < 10; i++) {
      lastRelease = clock.now()
      memory.released()
      memory.nativeReleased()
      clock.advance(1_000)
    }
    for (let i = 0; i < 5; i++) {
      memory.nativeReleased()
      clock.advance(1_000)
    }
    expect(steps).toEqual([`gc@${lastRelease + 5_000}`, `trim@${lastRelease + 5_000}`])
    expect(reports.at(-1)).toMatchObject({ releases: 10, compacted: true })
    // The announces that ended after it get their trim a minute later, without a GC.
    clock.advance(60_000)
    expect(steps).toEqual([`gc@${lastRelease + 5_000}`, `trim@${lastRelease + 5_000}`, `trim@${lastRelease + 65_000}`])
    expect(memory.pending).toBe(0)
  })

  it('compacts once more when a wave\'s first announces are over (their garbage), after the minimum interval', () => {
    const clock = new ManualClock()
    const { memory, steps } = loggedSettler(clock)
    dormantWave(memory, clock, 10, 1_000)
    // The wave's GC: 5 s after its last torrent went dormant (9 s).
    clock.advance(5_000)
    expect(steps).toEqual(['gc@14000', 'trim@14000'])
    // Its first announces end over the next 50 s; the last of them says the wave is announced.
    waveAnnounces(memory, clock, 50)
    // Quiet 5 s after the last (69 s), but the minimum interval holds it to a minute after the first GC.
    clock.advance(10_000)
    expect(steps).toEqual(['gc@14000', 'trim@14000', 'gc@74000', 'trim@74000'])
    expect(memory.pending).toBe(0)
    clock.advance(600_000)
    expect(steps).toHaveLength(4)
  })

  it('does not hold a wave\'s GC back for the trims that ran while its announces ended, only for the last GC', () => {
    const clock = new ManualClock()
    const { memory, steps } = loggedSettler(clock)
    memory.released()
    clock.advance(5_000)
    expect(steps).toEqual(['gc@5000', 'trim@5000'])
    // Announces end every second for 100 s: their trims a minute apart; the last closes the wave.
    waveAnnounces(memory, clock, 100)
    clock.advance(5_000)
    // The GC 5 s after the wave's last announce (105 s), though a trim ran 40 s before it.
    expect(steps).toEqual(['gc@5000', 'trim@5000', 'trim@65000', 'gc@110000', 'trim@110000'])
  })

  it('compacts for real under --expose-gc: compactHeap is its default', () => {
    // vitest runs without --expose-gc: the default GC is a no-op then (returns false) and nothing is reported.
    const reports: unknown[] = []
    const clock = new ManualClock()
    const memory = new MemorySettler({ quietMs: 10, timers: clock, onSettled: (result) => reports.push(result) })
    memory.released()
    clock.advance(10)
    expect(reports).toEqual(typeof (globalThis as { gc?: unknown }).gc === 'function' ? [expect.objectContaining({ releases: 1 })] : [])
  })
})

describe('the daemon\'s malloc settings (defaults.daemonMallocEnv)', () => {
  const root = join(import.meta.dirname, '..', '..')
  const settings = Object.entries(defaults.daemonMallocEnv).map(([name, value]) => `${name}=${value}`).join(' ')

  it('are what the CLI\'s shebang gives env(1) before node, with the node flags', () => {
    const shebang = readFileSync(join(root, 'src', 'cli.ts'), 'utf8').split('\n', 1)[0]
    expect(shebang).toBe(`#!/usr/bin/env -S ${settings} node --max-semi-space-size=1 --expose-gc`)
  })

  it('and what `npm start` runs the CLI with: the same settings and the same node flags', () => {
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start
    const shebang = readFileSync(join(root, 'src', 'cli.ts'), 'utf8').split('\n', 1)[0]!
    const nodeFlags = shebang.slice(shebang.indexOf(' node ') + ' node '.length)
    expect(start).toBe(`node scripts/with-node.mjs env ${settings} node ${nodeFlags} dist/cli.js start`)
  })

  it('are not passed on to ffmpeg, ffprobe and the thumbnailer, unless the operator set other values', () => {
    const daemon = { PATH: '/usr/bin', HOME: '/var/lib/media-agent', ...defaults.daemonMallocEnv }
    const tools = mediaToolEnv(daemon)
    expect(tools).toEqual({ PATH: '/usr/bin', HOME: '/var/lib/media-agent' })
    expect(daemon).toMatchObject(defaults.daemonMallocEnv)
    const operator = { PATH: '/usr/bin', MALLOC_ARENA_MAX: '4' }
    expect(mediaToolEnv(operator)).toEqual(operator)
  })
})
