import { afterEach, describe, expect, it } from 'vitest'
import type { HwAccelDiagnostic } from '../../src/protocol/wire.js'
import { runCli, tempAgent, type TempAgent } from '../helpers/daemon.js'
import { installFakeFfmpeg, isAlive, type FakeFfmpeg } from '../helpers/fake-ffmpeg.js'
import { freePort } from '../helpers/ports.js'

// `media-agent probe-hwaccel` run as a person would (contract 4.5, protocol.md 7.2): no daemon is
// needed; `--json` prints exactly the hwAccel object of the register request; exit 0 whenever the
// diagnostic was produced.

let agent: TempAgent | undefined
let fake: FakeFfmpeg | undefined
afterEach(async () => {
  await agent?.cleanup()
  await fake?.cleanup()
  agent = undefined
  fake = undefined
})

const hwAccelKeys = ['candidates', 'chosenEncoder', 'devices', 'drivers', 'encoders', 'ffmpegPath', 'ffmpegVersion', 'maxTranscodeHeight', 'probeMs']

describe('media-agent probe-hwaccel', () => {
  it('prints the hwAccel object with --json: libx264 chosen and every listed hardware encoder failed with its real error', async () => {
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    const result = await runCli(['probe-hwaccel', '--json', '--config', agent.configPath])
    expect(result.code).toBe(0)
    const hwAccel = JSON.parse(result.stdout) as HwAccelDiagnostic
    expect(Object.keys(hwAccel).sort()).toEqual(hwAccelKeys)
    expect(hwAccel.chosenEncoder).toBe('libx264')
    expect(hwAccel.maxTranscodeHeight).toBe(1080)
    expect(hwAccel.candidates.length).toBeGreaterThan(0)
    for (const candidate of hwAccel.candidates) {
      expect(candidate.ok).toBe(false)
      expect(candidate.error).toMatch(/\w/)
    }
  })

  it('prints a table for people, every failed test encode with its error', async () => {
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    const result = await runCli(['probe-hwaccel', '--config', agent.configPath])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^ffmpeg\s+\/\S+ \(version /m)
    expect(result.stdout).toMatch(/^chosen encoder\s+libx264$/m)
    expect(result.stdout).toMatch(/^resolution cap\s+1080p$/m)
    expect(result.stdout).toMatch(/h264_nvenc\s+FAILED/)
  })

  it('chooses a working NVENC found through [transcode] ffmpeg_path', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc' })
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}`, extra: `[transcode]\nffmpeg_path = "${fake.path}"\n` })
    const result = await runCli(['probe-hwaccel', '--json', '--config', agent.configPath])
    expect(result.code).toBe(0)
    const hwAccel = JSON.parse(result.stdout) as HwAccelDiagnostic
    expect(hwAccel.ffmpegPath).toBe(fake.path)
    expect(hwAccel.chosenEncoder).toBe('h264_nvenc')
    expect(hwAccel.maxTranscodeHeight).toBe(2160)
  })

  it('still answers, exit 0, when ffmpeg hangs: the diagnostic names it and no ffmpeg is left', async () => {
    fake = await installFakeFfmpeg({ gpu: 'nvenc', hang: 'all' })
    agent = await tempAgent({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      extra: `[transcode]\nffmpeg_path = "${fake.path}"\n[testing]\nhw_diagnostic_timeout_ms = 3000\n`,
    })
    const result = await runCli(['probe-hwaccel', '--json', '--config', agent.configPath])
    expect(result.code).toBe(0)
    const hwAccel = JSON.parse(result.stdout) as HwAccelDiagnostic
    expect(hwAccel.error).toMatch(/did not answer within 3000 ms; killed/)
    const invocations = await fake.invocations()
    expect(invocations.length).toBeGreaterThan(0)
    for (const { pid } of invocations) expect(await isAlive(pid), `pid ${pid}`).toBe(false)
  })
})
