import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { jitterAnnounces, jitteredIntervalMs, parkIdleTimers, trackerTimerPeriodMs } from '../../src/services/torrent/idle-timers.js'

// Idle seeding wakes nothing per torrent: webtorrent's re-choke timer runs only while a torrent
// has peers, its no-peers timer never, and tracker re-announces of torrents started together
// drift apart instead of arriving as one burst.

/** Shaped like webtorrent 3's Torrent where idle-timers.ts touches it. */
class FakeTorrent extends EventEmitter {
  destroyed = false
  wires: EventEmitter[] = []
  _rechokeIntervalId: NodeJS.Timeout | null = null
  _noPeersIntervalId: NodeJS.Timeout | null = null
  rechokes = 0
  _rechoke() {
    this.rechokes++
  }
  /** What webtorrent's _onParsedTorrent and _startDiscovery do. */
  start() {
    this._rechokeIntervalId = setInterval(() => this._rechoke(), 10_000)
    this.emit('infoHash')
    this._noPeersIntervalId = setInterval(() => this.emit('noPeers'), 30_000)
    if (this._noPeersIntervalId.unref) this._noPeersIntervalId.unref()
  }
}

describe('idle torrent timers', () => {
  it('arms no timer for a torrent without peers, a re-choke timer while a peer is connected, and none after it left', () => {
    vi.useFakeTimers()
    try {
      const torrent = new FakeTorrent()
      const noPeers = vi.fn()
      torrent.on('noPeers', noPeers)
      expect(parkIdleTimers(torrent)).toBeUndefined()
      torrent.start()
      expect(torrent._rechokeIntervalId).toBeNull()
      // Both of webtorrent's intervals were armed and neither is left: two idle minutes wake nothing.
      expect(vi.getTimerCount()).toBe(0)
      vi.advanceTimersByTime(120_000)
      expect(torrent.rechokes).toBe(0)
      expect(noPeers).not.toHaveBeenCalled()
      const wire = new EventEmitter()
      torrent.wires.push(wire)
      torrent.emit('wire', wire)
      // webtorrent's period while a peer is connected.
      vi.advanceTimersByTime(9_999)
      expect(torrent.rechokes).toBe(0)
      vi.advanceTimersByTime(20_001)
      expect(torrent.rechokes).toBe(3)
      torrent.wires.pop()
      wire.emit('close')
      // The park runs on the next turn (webtorrent drops the wire right after 'close').
      vi.advanceTimersByTime(0)
      expect(vi.getTimerCount()).toBe(0)
      vi.advanceTimersByTime(120_000)
      expect(torrent.rechokes).toBe(3)
      expect(noPeers).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves a torrent of another shape alone and says why', () => {
    expect(parkIdleTimers(new EventEmitter())).toMatch(/_rechoke/)
  })
})

describe('announce jitter', () => {
  it('shortens a re-announce period by at most the jitter fraction and never lengthens it', () => {
    expect(jitteredIntervalMs(1_800_000, 0.1, () => 0)).toBe(1_800_000)
    expect(jitteredIntervalMs(1_800_000, 0.1, () => 0.5)).toBe(1_710_000)
    expect(jitteredIntervalMs(1_800_000, 0.1, () => 0.999999)).toBeGreaterThanOrEqual(1_620_000)
  })

  it('gives live trackers periods of 10 s and more in whole seconds, so that torrents share a bounded set of timer lists', () => {
    const periods = new Set<number>()
    for (let i = 0; i < 10_000; i++) {
      const ms = trackerTimerPeriodMs(1_800_000, 0.1, () => i / 10_000)
      expect(ms % 1000).toBe(0)
      expect(ms).toBeLessThanOrEqual(1_800_000)
      periods.add(ms)
    }
    expect(periods.size).toBeLessThanOrEqual(181)
    expect(trackerTimerPeriodMs(12_345, 0.1, () => 0)).toBe(12_000)
    // Short periods keep their milliseconds.
    expect(trackerTimerPeriodMs(5_000, 0.1, () => 0.5)).toBe(4_750)
  })

  it('spreads the periods the trackers of many torrents are given', () => {
    class BaseTracker {
      periods: (number | undefined)[] = []
      setInterval(ms?: number) {
        this.periods.push(ms)
      }
    }
    class HttpTracker extends BaseTracker {}
    const trackers = Array.from({ length: 100 }, () => new HttpTracker())
    let n = 0
    expect(jitterAnnounces({ _trackers: [trackers[0]!] }, 0.1, () => (n++ % 100) / 100)).toBeUndefined()
    for (const tracker of trackers) tracker.setInterval(1_800_000)
    const periods = trackers.map((t) => t.periods[0]!)
    expect(Math.max(...periods)).toBe(1_800_000)
    expect(Math.min(...periods)).toBeLessThan(1_800_000 * 0.91)
    expect(new Set(periods).size).toBe(100)
    expect(periods.every((period) => period % 1000 === 0)).toBe(true)
    // A default period (no number) stays webtorrent's.
    trackers[0]!.setInterval()
    expect(trackers[0]!.periods[1]).toBeUndefined()
  })
})
