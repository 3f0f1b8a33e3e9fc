// `npm run bench -- hwaccel`: how long the start-up hardware detection takes on this host
// (contract 8 bounds it by 10 s; docs/encoders.md). The anchor is the floor for a detection that
// runs its ffmpeg in parallel: one bare `ffmpeg -version` plus the slowest single test encode run
// alone, each as a plain spawn. `ratio` = detection p50 / anchor: how much the orchestration
// (host facts, -encoders, the parallel candidates on a loaded machine) costs over that floor.
// Samples: BENCH_HWACCEL_N (default 5). Prints ONE JSON line; the load average goes with it.
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { hwDiagnosticTimeoutMs } from '../src/config/defaults.js'
import { hardwareEncoderOrder } from '../src/machines/encoder-choice.js'
import { buildTestEncodeArgs } from '../src/services/ffmpeg/hls-args.js'
import { detectHwAccel } from '../src/services/encoders/detect.js'

const n = Number(process.env.BENCH_HWACCEL_N ?? 5)
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg'
const round = (value: number) => Number(value.toFixed(1))

function timed(args: string[]): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: 'ignore' })
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - started))
  })
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const first = await detectHwAccel({ preference: 'auto' })
const candidates = first.hwAccel.candidates.map((candidate) => candidate.encoder).filter((name) => (hardwareEncoderOrder as readonly string[]).includes(name))
const detections: number[] = []
const anchors: number[] = []
for (let i = 0; i < n; i++) {
  const version = await timed(['-hide_banner', '-version'])
  let slowest = 0
  for (const encoder of candidates) slowest = Math.max(slowest, await timed(buildTestEncodeArgs(encoder as never, 1080)))
  anchors.push(version + slowest)
  const started = performance.now()
  await detectHwAccel({ preference: 'auto' })
  detections.push(performance.now() - started)
}
const detectP50 = median(detections)
const anchorP50 = median(anchors)
process.stdout.write(`${JSON.stringify({
  bench: 'hwaccel',
  n,
  candidates,
  chosen: first.hwAccel.chosenEncoder,
  detectP50Ms: round(detectP50),
  detectMaxMs: round(Math.max(...detections)),
  anchorP50Ms: round(anchorP50),
  ratio: round(detectP50 / anchorP50),
  boundMs: hwDiagnosticTimeoutMs,
  boundUsed: Number((Math.max(...detections) / hwDiagnosticTimeoutMs).toFixed(3)),
  loadavg1m: round(loadavg()[0]!),
  cores: availableParallelism(),
})}\n`)
