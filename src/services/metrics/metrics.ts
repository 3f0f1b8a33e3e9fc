// The agent's Prometheus registry (protocol.md 7.7, docs/operations.md "Metrics"). One registry per
// running agent (tests run several agents in one process), fed through the small functions below
// by whichever part sees the event; gauges that describe current state (tasks, sessions) are read
// from their owners when /metrics is scraped, so nothing has to keep them in step.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { metricsEventLoopResolutionMs, metricsLatencyBucketsSeconds, metricsReadyBucketsSeconds } from '../../config/defaults.js'

/** Every family, Node's default ones included, starts with this (protocol.md 7.7). */
export const metricsPrefix = 'media_agent_'

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
  readonly registry: Registry
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

export function createMetrics(options: MetricsOptions = {}): AgentMetrics {
  const registry = new Registry()
  const name = (suffix: string) => `${metricsPrefix}${suffix}`
  if (options.defaultMetrics !== false) {
    // The event-loop delay monitor wakes the process at this resolution; 10 ms (prom-client's
    // default) would be 6000 wake-ups a minute on an idle daemon.
    collectDefaultMetrics({ register: registry, prefix: metricsPrefix, eventLoopMonitoringPrecision: metricsEventLoopResolutionMs })
  }

  const syncCycles = new Counter({ name: name('sync_cycles_total'), help: 'Sync requests finished, successful or not', registers: [registry] })
  const syncFailures = new Counter({ name: name('sync_failures_total'), help: 'Sync requests that failed (network, 5xx, 401, 404, 426)', registers: [registry] })
  const wakeToSync = new Histogram({
    name: name('wake_to_sync_seconds'),
    help: 'From a downlink wake or SSE sync frame to the end of the sync it caused',
    labelNames: ['source'],
    buckets: [...metricsLatencyBucketsSeconds],
    registers: [registry],
  })
  const downlinkMode = new Gauge({ name: name('downlink_mode'), help: 'The downlink transport in use: 1 for the current mode', labelNames: ['mode'], registers: [registry] })
  const downlinkFallbacks = new Counter({ name: name('downlink_fallbacks_total'), help: 'Times the downlink fell back from SSE to the wake long-poll', registers: [registry] })
  const childRestarts = new Counter({ name: name('child_restarts_total'), help: 'Failures of a long-lived actor that led to its restart', labelNames: ['child'], registers: [registry] })
  const streamRequests = new Counter({ name: name('stream_requests_total'), help: 'Requests answered by the stream server', labelNames: ['route', 'code'], registers: [registry] })
  const streamBytes = new Counter({ name: name('stream_bytes_total'), help: 'Bytes the stream server wrote, headers included', labelNames: ['route'], registers: [registry] })
  const streamFirstByte = new Histogram({
    name: name('stream_first_byte_seconds'),
    help: 'From a stream server request to its response head',
    labelNames: ['route'],
    buckets: [...metricsLatencyBucketsSeconds],
    registers: [registry],
  })
  const sessionReady = new Histogram({
    name: name('session_ready_seconds'),
    help: 'From a stream session actor starting to the session being ready',
    labelNames: ['kind'],
    buckets: [...metricsReadyBucketsSeconds],
    registers: [registry],
  })
  const ffmpegRestarts = new Counter({ name: name('ffmpeg_restarts_total'), help: 'ffmpeg processes restarted after exiting early', registers: [registry] })
  const cacheHits = new Counter({ name: name('cache_hits_total'), help: 'HLS segment cache lookups that found the segment', registers: [registry] })
  const cacheMisses = new Counter({ name: name('cache_misses_total'), help: 'HLS segment cache lookups that did not', registers: [registry] })
  for (const mode of ['sse', 'poll', 'none'] as const) downlinkMode.set({ mode }, mode === 'none' ? 1 : 0)

  return {
    registry,
    syncFinished: (ok) => {
      syncCycles.inc()
      if (!ok) syncFailures.inc()
    },
    wakeToSync: (source, seconds) => wakeToSync.observe({ source }, seconds),
    downlinkMode: (mode) => {
      for (const each of ['sse', 'poll', 'none'] as const) downlinkMode.set({ mode: each }, each === mode ? 1 : 0)
    },
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
    gauge: (suffix, help, labelNames, read) => {
      new Gauge({
        name: name(suffix),
        help,
        labelNames: [...labelNames],
        registers: [registry],
        collect() {
          this.reset()
          for (const sample of read()) this.set(sample.labels ?? {}, sample.value)
        },
      })
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
    close: () => registry.clear(),
  }
}
