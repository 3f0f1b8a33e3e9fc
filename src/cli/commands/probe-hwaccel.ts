import { Command, Option } from 'clipanion'
import { AgentCommand } from '../options.js'
import { loadConfigForCli } from '../load.js'
import { timing } from '../../config/schema.js'
import { detectHwAccel } from '../../services/encoders/detect.js'
import { diagnosticTable } from '../../services/encoders/summary.js'

// `media-agent probe-hwaccel` (contract 4.5, protocol.md 7.2, docs/encoders.md). It runs the
// detection itself, with the daemon's config and the same service, instead of asking the daemon:
// the diagnostic is about this host and needs no daemon, a person runs it right after fixing
// something (a driver, the render group) and wants a fresh answer, and a probe may take up to
// 10 s, longer than the CLI waits for an admin route.
export class ProbeHwaccelCommand extends AgentCommand {
  static override paths = [['probe-hwaccel']]
  static override usage = Command.Usage({
    description: 'Detect the hardware encoders and print the diagnostic the agent reports to the server.',
    details:
      'Finds ffmpeg as the daemon does (`[transcode] ffmpeg_path`, FFMPEG_PATH, PATH), lists its H.264 encoders, the GPU device files and drivers, and test-encodes one frame with each hardware encoder using the options a session uses. ' +
      '`--json` prints exactly the `hwAccel` object of the register request. Bounded by 10 s. Exit code 0 whenever the diagnostic was produced, also when only libx264 works.',
    examples: [['For people', '$0 probe-hwaccel'], ['The register object', '$0 probe-hwaccel --json']],
  })

  json = Option.Boolean('--json', false, { description: 'Print the hwAccel object as JSON' })

  async execute(): Promise<number> {
    const loaded = await loadConfigForCli(this.configPath, this.context.stderr)
    if (typeof loaded === 'number') return loaded
    const { config } = loaded
    const detection = await detectHwAccel({
      preference: config.transcode.encoder,
      ffmpegPath: config.transcode.ffmpegPath,
      timeoutMs: timing(config, 'hwDiagnosticTimeoutMs'),
    })
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(detection.hwAccel)}\n`)
      if (detection.warning) this.context.stderr.write(`media-agent: ${detection.warning}\n`)
      return 0
    }
    for (const line of diagnosticTable(detection.hwAccel, detection.warning)) this.context.stdout.write(`${line}\n`)
    return 0
  }
}
