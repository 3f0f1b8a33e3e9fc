import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import { resolveFfmpegBinary } from '../services/ffmpeg/binaries.js'
import type { HlsEngine, HlsEngineOptions } from '../services/hls/engine.js'
import { lazyHlsEngine } from '../services/hls/lazy-engine.js'
import type { HlsEncoder } from '../services/ffmpeg/hls-args.js'
import { timing } from '../config/schema.js'
import type { ProbeService } from '../services/ffmpeg/probe.js'
import type { Closer } from './create-system.js'
import type { EncodersPart } from './encoders-part.js'
import type { SegmentStore } from '../services/hls/segment-store.js'

// HLS transcoding as a part of the agent (issue 6, docs/hls.md). Without ffmpeg the agent still
// runs: direct play works and an hls session fails with a clear reason.

export function createHlsPart(options: {
  config: Pick<AgentConfig, 'transcode' | 'downloads' | 'testing'>
  logger: Logger
  /** Issue 12: the encoder of each session from the hardware detection, and its runtime fallback. */
  encoders?: Pick<EncodersPart, 'encoderFor' | 'encoderFailed'>
  /** Issue 11: the persistent segment cache, when enabled. */
  store?: SegmentStore | undefined
  /** Issue 18: the metrics registry the engine feeds. */
  metrics?: HlsEngineOptions['metrics']
  /** The probe cache shared with library scans (issue 16); the engine makes its own otherwise. */
  probe?: ProbeService
}): { engine: HlsEngine | undefined; closers: Closer[] } {
  const { config } = options
  const log = options.logger.child({ component: 'hls' })
  let ffmpegPath: string
  try {
    ffmpegPath = resolveFfmpegBinary('ffmpeg', { configuredPath: config.transcode.ffmpegPath })
  } catch (err) {
    log.warn({ err }, 'HLS transcoding is off: ffmpeg not found')
    return { engine: undefined, closers: [] }
  }
  // Without the detection (tests building this part alone), `auto` means libx264.
  const encoder: HlsEncoder = config.transcode.encoder === 'auto' ? 'libx264' : config.transcode.encoder
  const encoders = options.encoders
  // Imported with the first HLS session (lazy-engine.ts): an idle agent does not hold it.
  const engine = lazyHlsEngine(async () => (await import('../services/hls/engine.js')).createHlsEngine({
    ffmpegPath,
    ffprobePath: config.transcode.ffprobePath || undefined,
    // Session directories live beside the segment cache: the disk the user chose for it.
    workDir: config.downloads.hlsCache.dir,
    logger: log,
    encoder,
    ...(encoders ? { encoderFor: () => encoders.encoderFor(), onEncoderFailed: (failed: HlsEncoder, reason: string) => encoders.encoderFailed(failed, reason) } : {}),
    readinessDeadlineMs: timing(config, 'readinessDeadlineMs'),
    // The persistent segment cache (issue 11) when enabled; else plain session directories.
    ...(options.store ? { store: options.store } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.probe ? { probe: options.probe } : {}),
  }))
  return { engine, closers: [{ name: 'hls engine', close: () => engine.stopAll() }] }
}
