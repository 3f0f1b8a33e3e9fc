import type { Logger } from '../log.js'
import type { AgentConfig } from '../config/schema.js'
import { resolveFfmpegBinary } from '../services/ffmpeg/binaries.js'
import { createHlsEngine, type HlsEngine } from '../services/hls/engine.js'
import type { HlsEncoder } from '../services/ffmpeg/hls-args.js'
import { timing } from '../config/schema.js'
import type { ProbeService } from '../services/ffmpeg/probe.js'
import type { Closer } from './create-system.js'

// HLS transcoding as a part of the agent (issue 6, docs/hls.md). Without ffmpeg the agent still
// runs: direct play works and an hls session fails with a clear reason.

export function createHlsPart(options: {
  config: Pick<AgentConfig, 'transcode' | 'downloads' | 'testing'>
  logger: Logger
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
  // Picking a hardware encoder by test-encoding is another capability; `auto` means libx264 here.
  const encoder: HlsEncoder = config.transcode.encoder === 'auto' ? 'libx264' : config.transcode.encoder
  const engine = createHlsEngine({
    ffmpegPath,
    ffprobePath: config.transcode.ffprobePath || undefined,
    // Session directories live beside the segment cache: the disk the user chose for it.
    workDir: config.downloads.hlsCache.dir,
    logger: log,
    encoder,
    readinessDeadlineMs: timing(config, 'readinessDeadlineMs'),
    ...(options.probe ? { probe: options.probe } : {}),
  })
  return { engine, closers: [{ name: 'hls engine', close: () => engine.stopAll() }] }
}
