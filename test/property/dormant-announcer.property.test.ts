import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DueQueue, type DueTimers } from '../../src/services/torrent/due-queue.js'
import { DormantAnnouncer, type AnnounceResult, type DormantTarget } from '../../src/services/torrent/dormant-announcer.js'

// The engine-wide schedule of dormant torrents (docs/torrents.md, Dormant torrents): one timer
// for all of them, never one per torrent; the first announces of torrents that went dormant
// together spread over the first-announce window; each next one within the tracker's interval
// (shortened by the jitter, never longer); a torrent woken or removed is never announced again.

/** A clock whose timeouts run only when the test advances it; counts how many are armed at once. */
class FakeClock implements DueTimers {
  current = 0
  readonly timeouts = new Map<number, { fn: () => void; at: number }>()
  maxArmed = 0
  #id = 0
  now() {
    return this.current
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.#id
    this.timeouts.set(id, { fn, at: this.current + ms })
    this.maxArmed = Math.max(this.maxArmed, this.timeouts.size)
    return id
  }
  clearTimeout(handle: unknown) {
    this.timeouts.delete(handle as number)
  }
  /** Runs every timeout due by `until`, in order, moving the clock to each. */
  async advanceTo(until: number) {
    for (;;) {
      const next = [...this.timeouts.entries()].sort((a, b) => a[1].at - b[1].at)[0]
      if (!next || next[1].at > until) break
      this.timeouts.delete(next[0])
      this.current = Math.max(this.current, next[1].at)
      next[1].fn()
      // Let announces (promises) settle before the next timer.
      for (let i = 0; i < 5; i++) await Promise.resolve()
    }
    this.current = until
  }
}

const target = (i: number): DormantTarget => ({ infoHash: i.toString(16).padStart(40, '0'), announce: ['http://tracker.invalid/announce'], private: false, uploaded: 0 })

describe('DueQueue', () => {
  it('hands each key on once, not before its due time, with never more than one timer armed', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ key: fc.integer({ min: 0, max: 30 }), at: fc.integer({ min: 0, max: 10_000 }), drop: fc.boolean() }), { maxLength: 60 }),
      async (ops) => {
        const clock = new FakeClock()
        const fired: { key: number; at: number }[] = []
        const queue = new DueQueue<number>({ timers: clock, onDue: (keys) => { for (const key of keys) fired.push({ key, at: clock.now() }) } })
        const expected = new Map<number, number>()
        for (const op of ops) {
          if (op.drop) {
            queue.delete(op.key)
            expected.delete(op.key)
          } else {
            queue.set(op.key, op.at)
            expected.set(op.key, op.at)
          }
        }
        await clock.advanceTo(20_000)
        expect(clock.maxArmed).toBeLessThanOrEqual(1)
        expect(fired.map((f) => f.key).sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b))
        for (const { key, at } of fired) expect(at).toBeGreaterThanOrEqual(expected.get(key)!)
        // Nothing left, nothing armed: an empty queue wakes nothing.
        expect(queue.size).toBe(0)
        expect(clock.timeouts.size).toBe(0)
      },
    ))
  })
})

describe('DormantAnnouncer', () => {
  it('spreads the first announces over the window and each next one within the tracker interval, with one timer for all', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1_000, max: 120_000 }),
      fc.integer({ min: 60_000, max: 3_600_000 }),
      fc.double({ min: 0, max: 0.5, noNaN: true }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      async (count, spreadMs, intervalMs, jitter, seed) => {
        const clock = new FakeClock()
        let state = seed
        const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
        const announces = new Map<string, number[]>()
        const announcer = new DormantAnnouncer({
          timers: clock, random, firstSpreadMs: spreadMs, defaultIntervalMs: 1_800_000, jitter, retryMinMs: 2_000, retryMaxMs: 300_000,
          announceOnce: async (t): Promise<AnnounceResult> => {
            announces.set(t.infoHash, [...(announces.get(t.infoHash) ?? []), clock.now()])
            return { answered: 1, trackers: 1, intervalMs }
          },
          maxInFlight: 1_000,
        })
        for (let i = 0; i < count; i++) announcer.add(target(i))
        await clock.advanceTo(spreadMs + 2 * intervalMs + 1)
        expect(clock.maxArmed).toBe(1)
        const firsts = [...announces.values()].map((times) => times[0]!)
        expect(firsts).toHaveLength(count)
        for (const first of firsts) expect(first).toBeLessThan(spreadMs)
        for (const times of announces.values()) {
          for (let i = 1; i < times.length; i++) {
            const gap = times[i]! - times[i - 1]!
            expect(gap).toBeLessThanOrEqual(intervalMs)
            expect(gap).toBeGreaterThanOrEqual(Math.floor(intervalMs * (1 - Math.min(jitter, 0.5))))
          }
          expect(times.length).toBeGreaterThanOrEqual(2)
        }
        // Spread, not a burst: with many torrents no single millisecond holds more than a handful.
        if (count >= 50 && spreadMs >= 10_000) {
          const perInstant = new Map<number, number>()
          for (const first of firsts) perInstant.set(first, (perInstant.get(first) ?? 0) + 1)
          expect(Math.max(...perInstant.values())).toBeLessThan(count / 4)
        }
      },
    ), { numRuns: 40 })
  })

  it('never announces a torrent again once it is woken, even with its announce in flight, and keeps the in-flight limit', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 2, max: 40 }),
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 20 }),
      async (count, maxInFlight, woken) => {
        const clock = new FakeClock()
        let inFlight = 0
        let maxSeen = 0
        const release: (() => void)[] = []
        const after = new Map<string, number>()
        const deleted = new Set<string>()
        // The memory settler's cue (onIdle): only ever with nothing in flight.
        const idleWithInFlight: number[] = []
        let idles = 0
        let announced = 0
        const announcer = new DormantAnnouncer({
          timers: clock, firstSpreadMs: 0, defaultIntervalMs: 60_000, jitter: 0.1, retryMinMs: 2_000, retryMaxMs: 300_000, maxInFlight,
          onIdle: () => {
            idles++
            if (inFlight !== 0) idleWithInFlight.push(inFlight)
          },
          announceOnce: async (t) => {
            announced++
            if (deleted.has(t.infoHash)) after.set(t.infoHash, (after.get(t.infoHash) ?? 0) + 1)
            inFlight++
            maxSeen = Math.max(maxSeen, inFlight)
            await new Promise<void>((resolve) => release.push(resolve))
            inFlight--
            return { answered: 1, trackers: 1 }
          },
        })
        for (let i = 0; i < count; i++) announcer.add(target(i))
        await clock.advanceTo(1)
        // Some wake while their first announce is in flight or still waiting for a slot.
        for (const i of woken) {
          if (i >= count) continue
          announcer.delete(target(i).infoHash)
          deleted.add(target(i).infoHash)
        }
        for (let round = 0; round < 200 && (release.length > 0 || clock.timeouts.size > 0); round++) {
          for (const done of release.splice(0)) done()
          for (let i = 0; i < 5; i++) await Promise.resolve()
          await clock.advanceTo(clock.now() + 70_000)
        }
        expect(maxSeen).toBeLessThanOrEqual(maxInFlight)
        expect(idleWithInFlight).toEqual([])
        expect(idles).toBeLessThanOrEqual(announced)
        expect([...after.keys()]).toEqual([])
        expect(announcer.size).toBe(count - deleted.size)
        // Nothing stays scheduled for a woken torrent (no timer kept for it).
        for (const infoHash of deleted) expect(announcer.dueAt(infoHash)).toBeUndefined()
        announcer.close()
        expect(clock.timeouts.size).toBe(0)
      },
    ), { numRuns: 40 })
  })

  it('says it is idle once the last announce in flight has ended, not before', async () => {
    const clock = new FakeClock()
    const release: (() => void)[] = []
    let idles = 0
    const announcer = new DormantAnnouncer({
      timers: clock, firstSpreadMs: 0, defaultIntervalMs: 60_000, jitter: 0, retryMinMs: 2_000, retryMaxMs: 300_000, maxInFlight: 2,
      onIdle: () => idles++,
      announceOnce: async () => {
        await new Promise<void>((resolve) => release.push(resolve))
        return { answered: 1, trackers: 1 }
      },
    })
    for (let i = 0; i < 3; i++) announcer.add(target(i))
    await clock.advanceTo(1)
    expect(release).toHaveLength(2)
    // The first ends: the third takes its slot; still busy.
    release.shift()!()
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(release).toHaveLength(2)
    expect(idles).toBe(0)
    release.shift()!()
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(idles).toBe(0)
    release.shift()!()
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(idles).toBe(1)
    announcer.close()
  })

  it('says the first announces are done once, when the last first announce of a wave has ended, and not for the later ones', async () => {
    const clock = new FakeClock()
    const release: (() => void)[] = []
    const idles: boolean[] = []
    const announcer = new DormantAnnouncer({
      timers: clock, firstSpreadMs: 0, defaultIntervalMs: 60_000, jitter: 0, retryMinMs: 2_000, retryMaxMs: 300_000, maxInFlight: 1,
      onIdle: ({ firstAnnouncesDone }) => idles.push(firstAnnouncesDone),
      announceOnce: async () => {
        await new Promise<void>((resolve) => release.push(resolve))
        return { answered: 1, trackers: 1 }
      },
    })
    const settle = async () => { for (let i = 0; i < 5; i++) await Promise.resolve() }
    announcer.add(target(1))
    announcer.add(target(2))
    await clock.advanceTo(1)
    // One slot: the first ends and the second starts at once, so nothing is idle in between.
    release.shift()!()
    await settle()
    expect(idles).toEqual([])
    // A torrent that goes dormant meanwhile belongs to the wave: its first announce is awaited too.
    announcer.add(target(3))
    await clock.advanceTo(2)
    release.shift()!()
    await settle()
    expect(idles).toEqual([])
    release.shift()!()
    await settle()
    expect(idles).toEqual([true])
    // The next round of announces (the interval later) is no wave's first.
    await clock.advanceTo(61_000)
    for (let n = 0; n < 3; n++) {
      release.shift()!()
      await settle()
    }
    expect(idles).toEqual([true, false])
    announcer.close()
  })

  it('says the first announces are done exactly when a first announce ended and none of a torrent still asleep is left, whatever wakes and sleeps again meanwhile', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ torrent: fc.integer({ min: 0, max: 7 }), op: fc.constantFrom('add', 'delete', 'end') }), { minLength: 1, maxLength: 40 }),
      async (ops) => {
        const clock = new FakeClock()
        const release: (() => void)[] = []
        const idles: boolean[] = []
        // The model: torrents asleep whose first announce since they went dormant has not ended,
        // and the target each sleep was added with (an announce is of the sleep it was sent for).
        const firstPending = new Set<number>()
        const current = new Map<number, DormantTarget>()
        const inFlight: DormantTarget[] = []
        let firstEnded = false
        const announcer = new DormantAnnouncer({
          timers: clock, firstSpreadMs: 0, defaultIntervalMs: 3_600_000, jitter: 0, retryMinMs: 3_600_000, retryMaxMs: 3_600_000,
          onIdle: ({ firstAnnouncesDone }) => {
            idles.push(firstAnnouncesDone)
            expect(firstAnnouncesDone).toBe(firstEnded && firstPending.size === 0)
            if (firstAnnouncesDone) firstEnded = false
          },
          announceOnce: async (t) => {
            inFlight.push(t)
            await new Promise<void>((resolve) => release.push(resolve))
            return { answered: 1, trackers: 1 }
          },
        })
        const settle = async () => { for (let i = 0; i < 5; i++) await Promise.resolve() }
        const endOne = async () => {
          const t = inFlight.shift()!
          const i = Number.parseInt(t.infoHash, 16)
          if (current.get(i) === t && firstPending.delete(i)) firstEnded = true
          release.shift()!()
          await settle()
        }
        for (const { torrent, op } of ops) {
          if (op === 'add') {
            const t = target(torrent)
            current.set(torrent, t)
            announcer.add(t)
            firstPending.add(torrent)
            await clock.advanceTo(clock.now() + 1)
          } else if (op === 'delete') {
            announcer.delete(target(torrent).infoHash)
            current.delete(torrent)
            firstPending.delete(torrent)
          } else if (release.length > 0) {
            await endOne()
          }
        }
        // Let everything in flight end: the wave is over.
        while (release.length > 0) {
          await endOne()
          await clock.advanceTo(clock.now() + 1)
        }
        expect([...firstPending]).toEqual([])
        expect(firstEnded).toBe(false)
        announcer.close()
      },
    ), { numRuns: 100 })
  })

  it('keeps the in-flight limit when a torrent sleeps again while its last announce is still in flight', async () => {
    const clock = new FakeClock()
    let inFlight = 0
    let maxSeen = 0
    const release: (() => void)[] = []
    const announcer = new DormantAnnouncer({
      timers: clock, firstSpreadMs: 0, defaultIntervalMs: 60_000, jitter: 0, retryMinMs: 2_000, retryMaxMs: 300_000, maxInFlight: 2,
      announceOnce: async () => {
        inFlight++
        maxSeen = Math.max(maxSeen, inFlight)
        await new Promise<void>((resolve) => release.push(resolve))
        inFlight--
        return { answered: 1, trackers: 1 }
      },
    })
    announcer.add(target(1))
    await clock.advanceTo(1)
    expect(inFlight).toBe(1)
    // Woken and dormant again before its announce came back; another torrent is due too.
    announcer.delete(target(1).infoHash)
    announcer.add(target(1))
    announcer.add(target(2))
    await clock.advanceTo(2)
    expect(maxSeen).toBe(2)
    for (const done of release.splice(0)) done()
    for (let i = 0; i < 10; i++) await Promise.resolve()
    expect(maxSeen).toBe(2)
    announcer.close()
  })

  it('asks again sooner when no tracker answered, doubling up to the maximum, then keeps the tracker interval', async () => {
    const clock = new FakeClock()
    const times: number[] = []
    let failures = 4
    const announcer = new DormantAnnouncer({
      timers: clock, firstSpreadMs: 0, defaultIntervalMs: 1_800_000, jitter: 0, retryMinMs: 2_000, retryMaxMs: 10_000, random: () => 0,
      announceOnce: async () => {
        times.push(clock.now())
        return failures-- > 0 ? { answered: 0, trackers: 1 } : { answered: 1, trackers: 1, intervalMs: 900_000 }
      },
    })
    announcer.add(target(1), { started: true })
    await clock.advanceTo(2_000_000)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(gaps.slice(0, 5)).toEqual([2_000, 4_000, 8_000, 10_000, 900_000])
  })
})
