// The agent's Prometheus metrics (protocol.md 7.7, docs/operations.md "Metrics"). One set per
// running agent (tests run several agents in one process), fed through the small functions below
// by whichever part sees the event; gauges that describe current state (tasks, sessions) are read
// from their owners when /metrics is scraped, so nothing has to keep them in step.
//
// The instruments here are plain objects in prom-client's metric shape (`get()`); prom-client
// itself (its registry, the text format and Node's default process metrics) is imported on the
// first scrape. An agent nobody scrapes never loads it: about 20 MiB of an idle daemon's memory
// (docs/operations.md "Idle footprint"). Node's event-loop and GC figures count from that scrape.
import type { Registry } from 'prom-client'
import { metricsEventLoopResolutionMs, metricsLatencyBucketsSeconds, metricsReadyBucketsSeconds } from '../../config/defaults.js'

/** Every family, Node's default ones included, starts with this (protocol.md 7.7). */
export const metricsPrefix = 'media_agent_'
/** The Prometheus text exposition format 0.0.4 (prom-client's Registry.PROMETHEUS_CONTENT_TYPE). */
export const metricsContentType = 'text/plain; version=0.0.4; charset=utf-8'

export type DownlinkModeLabel = 'sse' | 'poll' | 'none'

/** A gauge that is computed when /metrics is scraped: labels to values. */
export interface GaugeSample {
  labels?: Record<string, string>
  value: number
}

export interface StreamRequestSample {
  /** The first path segment: stream, thumbnail, hls, source, or `other` for a miss. */
  route: string
  status: number
  /** Bytes written to the socket for this response, headers included. */
  bytes: number
  /** From the request's arrival to its response head; undefined when none was sent. */
  firstByteSeconds: number | undefined
}

export interface AgentMetrics {
  /** One sync request finished (`ok`: the server answered 200). */
  syncFinished(ok: boolean): void
  /** A downlink wake or SSE `sync` frame led to a finished sync this many seconds later. */
  wakeToSync(source: 'sse' | 'wake', seconds: number): void
  /** The downlink's current transport. */
  downlinkMode(mode: DownlinkModeLabel): void
  /** The downlink gave up on SSE and fell back to the wake long-poll. */
  downlinkFallback(): void
  /** A long-lived child of the root failed and is being restarted. */
  childRestarted(child: string): void
  streamRequest(sample: StreamRequestSample): void
  /** A stream session became ready this many seconds after its actor started. */
  sessionReady(kind: 'hls' | 'direct', seconds: number): void
  /** The HLS engine restarted an ffmpeg that exited early. */
  ffmpegRestarted(): void
  /** The HLS segment cache was asked for a segment (the cache part calls this). */
  cacheLookup(hit: boolean): void
  /** A gauge read at scrape time (`help` once per name). */
  gauge(name: string, help: string, labelNames: readonly string[], read: () => readonly GaugeSample[]): void
  /** The Prometheus text exposition. */
  render(): Promise<string>
  readonly contentType: string
  /** Forgets every metric (the agent stopped). */
  close(): void
}

export interface MetricsOptions {
  /** Node's default process metrics (CPU, memory, event loop, GC); on by default. */
  defaultMetrics?: boolean
}

type Labels = Record<string, string>
interface MetricValue { labels: Labels; value: number; metricName?: string }
/** What prom-client's registry reads from a metric (its `get()`). */
interface Instrument { name: string; get(): { name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' } }

const keyOf = (labels: Labels): string => JSON.stringify(labels)

class LightCounter implements Instrument {
  private readonly series = new Map<string, MetricValue>()
  constructor(readonly name: string, private readonly help: string, private readonly type: 'counter' | 'gauge' = 'counter', labelless = true) {
    // A counter without labels shows 0 before its first increment (Prometheus expects the series).
    if (labelless) this.series.set(keyOf({}), { labels: {}, value: 0 })
  }

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels)
    const entry = this.series.get(key)
    if (entry) entry.value += by
    else this.series.set(key, { labels, value: by })
  }

  set(labels: Labels, value: number): void {
    this.series.set(keyOf(labels), { labels, value })
  }

  get() {
    return { name: this.name, help: this.help, type: this.type, values: [...this.series.values()], aggregator: 'sum' as const }
  }
}

class LightHistogram implements Instrument {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()
  constructor(readonly name: string, private readonly help: string, private readonly buckets: readonly number[]) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels)
    let entry = this.series.get(key)
    if (!entry) this.series.set(key, (entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }))
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) entry.counts[i]! += 1
    entry.sum += value
    entry.count += 1
  }

  get() {
    const values: MetricValue[] = []
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((le, i) => values.push({ labels: { ...labels, le: String(le) }, value: counts[i]!, metricName: `${this.name}_bucket` }))
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` })
      values.push({ labels, value: sum, metricName: `${this.name}_sum` })
      values.push({ labels, value: count, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' as const }
  }
}

/** A gauge computed at scrape time. */
class ReadGauge implements Instrument {
  constructor(readonly name: string, private readonly help: string, private readonly read: () => readonly GaugeSample[]) {}
  get() {
    return { name: this.name, help: this.help, type: 'gauge', values: this.read().map((sample) => ({ labels: sample.labels ?? {}, value: sample.value })), aggregator: 'sum' as const }
  }
}

export function createMetrics(options: MetricsOptions = {}): AgentMetrics {
  const name = (suffix: string) => `${metricsPrefix}${suffix}`
  const instruments: Instrument[] = []
  const add = <T extends Instrument>(instrument: T): T => {
    instruments.push(instrument)
    return instrument
  }
  const syncCycles = add(new LightCounter(name('sync_cycles_total'), 'Sync requests finished, successful or not'))
  const syncFailures = add(new LightCounter(name('sync_failures_total'), 'Sync requests that failed (network, 5xx, 401, 404, 426)'))
  const wakeToSync = add(new LightHistogram(name('wake_to_sync_seconds'), 'From a downlink wake or SSE sync frame to the end of the sync it caused', metricsLatencyBucketsSeconds))
  const downlinkMode = add(new LightCounter(name('downlink_mode'), 'The downlink transport in use: 1 for the current mode', 'gauge', false))
  const downlinkFallbacks = add(new LightCounter(name('downlink_fallbacks_total'), 'Times the downlink fell back from SSE to the wake long-poll'))
  const childRestarts = add(new LightCounter(name('child_restarts_total'), 'Failures of a long-lived actor that led to its restart', 'counter', false))
  const streamRequests = add(new LightCounter(name('stream_requests_total'), 'Requests answered by the stream server', 'counter', false))
  const streamBytes = add(new LightCounter(name('stream_bytes_total'), 'Bytes the stream server wrote, headers included', 'counter', false))
  const streamFirstByte = add(new LightHistogram(name('stream_first_byte_seconds'), 'From a stream server request to its response head', metricsLatencyBucketsSeconds))
  const sessionReady = add(new LightHistogram(name('session_ready_seconds'), 'From a stream session actor starting to the session being ready', metricsReadyBucketsSeconds))
  const ffmpegRestarts = add(new LightCounter(name('ffmpeg_restarts_total'), 'ffmpeg processes restarted after exiting early'))
  const cacheHits = add(new LightCounter(name('cache_hits_total'), 'HLS segment cache lookups that found the segment'))
  const cacheMisses = add(new LightCounter(name('cache_misses_total'), 'HLS segment cache lookups that did not'))
  const showMode = (mode: DownlinkModeLabel) => {
    for (const each of ['sse', 'poll', 'none'] as const) downlinkMode.set({ mode: each }, each === mode ? 1 : 0)
  }
  showMode('none')

  let registry: Promise<Registry> | undefined
  const load = (): Promise<Registry> =>
    (registry ??= import('prom-client').then((prom) => {
      const created = new prom.Registry()
      if (options.defaultMetrics !== false) {
        // The event-loop delay monitor wakes the process at this resolution; 10 ms (prom-client's
        // default) would be 6000 wake-ups a minute on an idle daemon.
        prom.collectDefaultMetrics({ register: created, prefix: metricsPrefix, eventLoopMonitoringPrecision: metricsEventLoopResolutionMs })
      }
      for (const instrument of instruments) created.registerMetric(instrument as never)
      return created
    }))

  return {
    syncFinished: (ok) => {
      syncCycles.inc()
      if (!ok) syncFailures.inc()
    },
    wakeToSync: (source, seconds) => wakeToSync.observe({ source }, seconds),
    downlinkMode: showMode,
    downlinkFallback: () => downlinkFallbacks.inc(),
    childRestarted: (child) => childRestarts.inc({ child }),
    streamRequest: (sample) => {
      streamRequests.inc({ route: sample.route, code: String(sample.status) })
      streamBytes.inc({ route: sample.route }, sample.bytes)
      if (sample.firstByteSeconds !== undefined) streamFirstByte.observe({ route: sample.route }, sample.firstByteSeconds)
    },
    sessionReady: (kind, seconds) => sessionReady.observe({ kind }, seconds),
    ffmpegRestarted: () => ffmpegRestarts.inc(),
    cacheLookup: (hit) => (hit ? cacheHits : cacheMisses).inc(),
    gauge: (suffix, help, _labelNames, read) => {
      const gauge = new ReadGauge(name(suffix), help, read)
      instruments.push(gauge)
      if (registry) void registry.then((created) => created.registerMetric(gauge as never))
    },
    render: async () => (await load()).metrics(),
    contentType: metricsContentType,
    close: () => {
      void registry?.then((created) => created.clear())
    },
  }
}
