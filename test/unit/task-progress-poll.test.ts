import { describe, expect, it } from 'vitest'
import type { TaskProgress } from '../../src/machines/task.machine.js'
import type { TorrentStats } from '../../src/services/torrent/engine.js'
import { ManualClock } from '../../src/services/clock/manual-clock.js'
import { createProgressPoll } from '../../src/system/task-progress-poll.js'

// A task samples its torrent only while something can change: an idle seeding torrent (no
// peers) must arm no timer at all, so a seedbox of many torrents does not wake every second.

const stats = (over: Partial<TorrentStats> = {}): TorrentStats => ({
  infoHash: 'a'.repeat(40), name: 'n', hasMetadata: true, ready: true, done: true, progress: 1, size: 100, downloaded: 100,
  uploaded: 0, downloadSpeed: 0, uploadSpeed: 0, peers: 0, etaSeconds: 0, files: [], ...over,
})

function setup(initial: TorrentStats) {
  const clock = new ManualClock()
  let current = initial
  let reads = 0
  const sent: TaskProgress[] = []
  const poll = createProgressPoll({ intervalMs: 1000, read: () => { reads++; return current }, send: (p) => sent.push(p), timers: clock })
  return { clock, poll, sent, reads: () => reads, set: (s: TorrentStats) => { current = s } }
}

describe('task progress poll', () => {
  it('stops sampling a seeding torrent without peers once nothing changes, and sends each change once', () => {
    const t = setup(stats())
    t.poll.wake()
    expect(t.sent).toHaveLength(1)
    t.clock.advance(1000)
    expect(t.poll.polling).toBe(false)
    const reads = t.reads()
    t.clock.advance(3_600_000)
    expect(t.reads()).toBe(reads)
    expect(t.clock.pending).toBe(0)
    expect(t.sent).toHaveLength(1)
  })

  it('keeps sampling while peers are connected, and until the speeds have decayed after they left', () => {
    const t = setup(stats({ peers: 1, uploadSpeed: 5000 }))
    t.poll.wake()
    t.clock.advance(10_000)
    expect(t.poll.polling).toBe(true)
    expect(t.reads()).toBe(11)
    t.set(stats({ peers: 0, uploadSpeed: 2000, uploaded: 40 }))
    t.clock.advance(1000)
    expect(t.poll.polling).toBe(true)
    t.set(stats({ peers: 0, uploadSpeed: 0, uploaded: 40 }))
    t.clock.advance(1000)
    expect(t.poll.polling).toBe(true)
    t.clock.advance(1000)
    expect(t.poll.polling).toBe(false)
    expect(t.sent.map((p) => p.uploadSpeed)).toEqual([5000, 2000, 0])
  })

  it('wakes when the engine reports a peer, and sleeps again when it is gone', () => {
    const t = setup(stats())
    t.poll.wake()
    t.clock.advance(2000)
    expect(t.poll.polling).toBe(false)
    t.set(stats({ peers: 1 }))
    t.poll.wake()
    expect(t.poll.polling).toBe(true)
    expect(t.sent.at(-1)?.peers).toBe(1)
    t.set(stats({ peers: 0, uploaded: 10 }))
    t.clock.advance(2000)
    expect(t.poll.polling).toBe(false)
    expect(t.sent.at(-1)).toMatchObject({ peers: 0, uploaded: 10 })
  })

  it('arms no timer after stop, even when woken', () => {
    const t = setup(stats({ peers: 3 }))
    t.poll.wake()
    t.poll.stop()
    t.poll.wake()
    expect(t.clock.pending).toBe(0)
  })

  it('keeps one timer armed when a sample it sends wakes it again (an engine event on the way)', () => {
    const clock = new ManualClock()
    let uploaded = 0
    const poll = createProgressPoll({
      intervalMs: 1000,
      read: () => stats({ peers: 1, uploaded: uploaded++ }),
      send: () => { if (uploaded % 2 === 0) poll.wake() },
      timers: clock,
    })
    poll.wake()
    for (let i = 0; i < 10; i++) {
      clock.advance(1000)
      expect(clock.pending).toBe(1)
    }
  })
})
