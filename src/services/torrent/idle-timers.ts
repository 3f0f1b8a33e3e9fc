import type { EventEmitter } from 'node:events'

// Idle seeding should cost nothing per torrent (docs/torrents.md, Idle). webtorrent 3 arms two
// intervals per torrent that fire whether or not it has peers - `_rechokeIntervalId` (every
// 10 s: re-choke the torrent's wires) and `_noPeersIntervalId` (every 30 s: emit `noPeers`,
// which nothing in webtorrent or the agent listens to) - and bittorrent-tracker re-announces
// every torrent on the tracker's exact interval, so torrents started together (a restart)
// announce together forever. Here:
// - the no-peers interval is cleared;
// - the re-choke interval runs only while the torrent has wires: it is cleared when the last
//   wire closes and armed again (same period, same call) when a wire arrives;
// - each tracker's re-announce period is shortened by a random fraction of up to `jitter`
//   (never lengthened: a tracker forgets a peer that announces later than its interval), so
//   their announces drift apart instead of arriving in one burst.

/** webtorrent 3's lib/torrent.js RECHOKE_INTERVAL. */
export const RECHOKE_INTERVAL_MS = 10_000

interface IdleTorrent extends EventEmitter {
  destroyed: boolean
  wires: unknown[]
  _rechokeIntervalId: NodeJS.Timeout | null
  _noPeersIntervalId: NodeJS.Timeout | null
  _rechoke(): void
}

/**
 * Parks the torrent's timers while it has no wires. Call right after `client.add`; returns why
 * nothing was changed when the torrent is not shaped as in webtorrent 3.0.
 */
export function parkIdleTimers(torrent: EventEmitter): string | undefined {
  const t = torrent as IdleTorrent
  if (typeof t._rechoke !== 'function' || !('_rechokeIntervalId' in t) || !('_noPeersIntervalId' in t)) {
    return 'webtorrent Torrent has no _rechoke / _rechokeIntervalId / _noPeersIntervalId'
  }
  // The no-peers interval is armed when discovery starts (`_startDiscovery`): cleared as it is set.
  // webtorrent calls .unref() on it right after: the cleared timer object stays readable.
  let noPeers = t._noPeersIntervalId
  if (noPeers) clearInterval(noPeers)
  Object.defineProperty(t, '_noPeersIntervalId', {
    configurable: true,
    enumerable: true,
    get: () => noPeers,
    set: (id: NodeJS.Timeout | null) => {
      clearInterval(id ?? undefined)
      noPeers = id
    },
  })
  const park = () => {
    if (t.wires.length === 0 && t._rechokeIntervalId) {
      clearInterval(t._rechokeIntervalId)
      t._rechokeIntervalId = null
    }
  }
  // The re-choke interval is armed once the info hash is known (`_onParsedTorrent`, which then emits 'infoHash').
  if (t._rechokeIntervalId) park()
  else t.once('infoHash', park)
  t.on('wire', (wire: EventEmitter) => {
    if (!t._rechokeIntervalId && !t.destroyed) {
      t._rechokeIntervalId = setInterval(() => t._rechoke(), RECHOKE_INTERVAL_MS)
      t._rechokeIntervalId.unref()
    }
    // webtorrent takes the wire out of `wires` when its peer is destroyed, right after 'close'.
    wire.once('close', () => setImmediate(() => { if (!t.destroyed) park() }))
  })
  return undefined
}

interface AnnounceTracker {
  setInterval(intervalMs?: number): void
}

const jittered = new WeakSet<object>()

/**
 * Shortens every re-announce period set on the client's trackers by a random fraction of up to
 * `jitter` (0.1: up to 10 %). Patches the trackers' class once, found through the first tracker.
 */
export function jitterAnnounces(client: { _trackers?: object[] } | undefined, jitter: number, random: () => number = Math.random): string | undefined {
  const tracker = client?._trackers?.[0]
  if (!tracker || !(jitter > 0)) return undefined
  let owner: object | null = Object.getPrototypeOf(tracker)
  while (owner && !Object.prototype.hasOwnProperty.call(owner, 'setInterval')) owner = Object.getPrototypeOf(owner)
  if (!owner) return 'bittorrent-tracker trackers have no setInterval()'
  if (jittered.has(owner)) return undefined
  jittered.add(owner)
  const original = (owner as AnnounceTracker).setInterval
  ;(owner as AnnounceTracker).setInterval = function (this: AnnounceTracker, intervalMs?: number) {
    const ms = typeof intervalMs === 'number' && intervalMs > 0 ? trackerTimerPeriodMs(intervalMs, jitter, random) : intervalMs
    return original.call(this, ms)
  }
  return undefined
}

/** A re-announce period shortened by a random fraction in [0, jitter). */
export function jitteredIntervalMs(intervalMs: number, jitter: number, random: () => number = Math.random): number {
  return Math.max(1, Math.round(intervalMs * (1 - Math.min(Math.max(jitter, 0), 0.5) * random())))
}

/**
 * A live tracker's timer period: jittered, and from 10 s up in whole seconds (rounded down: never
 * longer than asked). Why whole seconds: Node keeps one timer list per distinct duration, and the
 * list of an unref'd timer (the trackers' are) outlives the timer's clearing until its expiry. To
 * the millisecond every torrent had lists of its own (a heap snapshot of 1,000 dormant torrents
 * held 2,007 lists, nearly all empty, each due to wake the event loop once, up to 30 min after
 * its torrent went dormant; 494 since); in seconds a 30 min period with 10 % jitter has 180
 * possible values, whatever the number of torrents. The dormant announcer keeps one timer for
 * all torrents: its periods need no rounding.
 */
export function trackerTimerPeriodMs(intervalMs: number, jitter: number, random: () => number = Math.random): number {
  const ms = jitteredIntervalMs(intervalMs, jitter, random)
  return intervalMs >= 10_000 ? Math.floor(ms / 1000) * 1000 : ms
}
