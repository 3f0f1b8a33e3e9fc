import { mkdir, mkdtemp, rm, symlink, writeFile, chmod, chown } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { chooseEncoder, effectiveChoice, type Detection, type TestedCandidate } from '../../src/machines/encoder-choice.js'
import type { HwAccelDiagnostic } from '../../src/protocol/wire.js'
import { parseRegisterRequest } from '../../src/reference-server/validate.js'
import { buildTestEncodeArgs } from '../../src/services/ffmpeg/hls-args.js'
import { errorLines, parseEncoders, parseVersion } from '../../src/services/encoders/detect.js'
import { readHostFacts } from '../../src/services/encoders/host-facts.js'
import { capQuality, isEncoderFailure } from '../../src/services/encoders/session-encoder.js'
import { diagnosticTable, summaryLine } from '../../src/services/encoders/summary.js'

const limits = { softwareMaxHeight: 1080 }
const failed = (encoder: string, error = 'boom'): TestedCandidate => ({ encoder, ok: false, ms: 5, error })
const passed = (encoder: string, maxHeight = 2160): TestedCandidate => ({ encoder, ok: true, ms: 5, maxHeight })

describe('choosing an encoder', () => {
  it('picks the first working hardware encoder in the auto order, else libx264 at the software cap', () => {
    expect(chooseEncoder('auto', [failed('h264_nvenc'), passed('h264_qsv'), passed('h264_vaapi')], limits)).toEqual({ encoder: 'h264_qsv', maxHeight: 2160 })
    expect(chooseEncoder('auto', [passed('h264_vaapi', 1080), passed('h264_nvenc')], limits)).toEqual({ encoder: 'h264_nvenc', maxHeight: 2160 })
    expect(chooseEncoder('auto', [failed('h264_nvenc'), failed('h264_qsv'), failed('h264_vaapi')], limits)).toEqual({ encoder: 'libx264', maxHeight: 1080 })
    expect(chooseEncoder('auto', [], limits)).toEqual({ encoder: 'libx264', maxHeight: 1080 })
  })

  it('forces a configured encoder only when its test encode passed, else uses libx264 with a warning naming why', () => {
    expect(chooseEncoder('h264_vaapi', [passed('h264_nvenc'), passed('h264_vaapi', 1080)], limits)).toEqual({ encoder: 'h264_vaapi', maxHeight: 1080 })
    const refused = chooseEncoder('h264_qsv', [passed('h264_nvenc'), failed('h264_qsv', 'MFX session: unsupported')], limits)
    expect(refused.encoder).toBe('libx264')
    expect(refused.warning).toMatch(/^\[transcode\] encoder = "h264_qsv" is not usable: its test encode failed \(MFX session: unsupported\)/)
    expect(chooseEncoder('h264_videotoolbox', [passed('h264_nvenc')], limits).warning).toMatch(/does not have it/)
    expect(chooseEncoder('libx264', [passed('h264_nvenc')], limits)).toEqual({ encoder: 'libx264', maxHeight: 1080 })
  })

  it('skips an encoder marked unhealthy until the next probe, and returns to the detection once none is', () => {
    const detection: Detection = {
      hwAccel: diagnostic({ chosenEncoder: 'h264_nvenc', maxTranscodeHeight: 2160, candidates: [passed('h264_nvenc'), passed('h264_vaapi', 1440)] }),
      caps: { h264_nvenc: 2160, h264_vaapi: 1440 },
    }
    expect(effectiveChoice('auto', detection, limits, {})).toEqual({ encoder: 'h264_nvenc', maxHeight: 2160 })
    expect(effectiveChoice('auto', detection, limits, { h264_nvenc: 'session limit' })).toEqual({ encoder: 'h264_vaapi', maxHeight: 1440 })
    expect(effectiveChoice('auto', detection, limits, { h264_nvenc: 'x', h264_vaapi: 'y' })).toEqual({ encoder: 'libx264', maxHeight: 1080 })
    expect(effectiveChoice('h264_nvenc', detection, limits, { h264_nvenc: 'session limit' }).warning).toMatch(/failed in a session \(session limit\)/)
  })

  it('gives a session libx264 when the detection found no usable ffmpeg', () => {
    const detection: Detection = { hwAccel: diagnostic({ chosenEncoder: 'none', maxTranscodeHeight: 0, error: 'ffmpeg was not found' }), caps: {} }
    expect(effectiveChoice('auto', detection, limits, {})).toEqual({ encoder: 'libx264', maxHeight: 1080 })
  })
})

describe('the resolution cap of a session', () => {
  it('lowers a quality above the cap to the tallest rung within it, and leaves anything within alone', () => {
    expect(capQuality('2160p', 2160, 1080)).toBe('1080p')
    expect(capQuality('1440p', 2160, 1080)).toBe('1080p')
    expect(capQuality('1080p', 2160, 1080)).toBe('1080p')
    expect(capQuality('720p', 2160, 1080)).toBe('720p')
    expect(capQuality('2160p', 2160, 2160)).toBe('2160p')
    expect(capQuality('2160p', 2160, undefined)).toBe('2160p')
  })

  it('caps original only for a source taller than the cap', () => {
    expect(capQuality('original', 2160, 1080)).toBe('1080p')
    expect(capQuality('original', 720, 1080)).toBe('original')
  })
})

describe('telling an encoder failure from an input failure', () => {
  it('recognises the hardware encoder failing at open or on its device', () => {
    expect(isEncoderFailure('h264_nvenc', ['[h264_nvenc @ 0x5] OpenEncodeSessionEx failed: out of memory (10): (no details)'])).toBe(true)
    expect(isEncoderFailure('h264_qsv', ['Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0'])).toBe(true)
    expect(isEncoderFailure('h264_vaapi', ['[AVHWDeviceContext @ 0x1] No VA display found for device /dev/dri/renderD128.', 'Device creation failed: -22.'])).toBe(true)
  })

  it('does not blame the GPU for a source that cannot be read', () => {
    expect(isEncoderFailure('h264_nvenc', ['http://x/y.mkv: Connection refused'])).toBe(false)
    expect(isEncoderFailure('h264_nvenc', ['/media/gone.mkv: No such file or directory'])).toBe(false)
  })
})

describe('reading ffmpeg output', () => {
  it('takes the version and the known H.264 encoders from -version and -encoders', () => {
    expect(parseVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026\nbuilt with gcc')).toBe('5.1.9-0+deb12u1')
    expect(parseVersion('not ffmpeg')).toBe('')
    const listing = ['Encoders:', ' V..... = Video', ' ------', ' V....D h264_nvenc           NVIDIA NVENC H.264 encoder (codec h264)',
      ' V..... libx264              libx264 H.264 / AVC (codec h264)', ' V..... h264_v4l2m2m         V4L2 mem2mem', ' A....D aac                  AAC'].join('\n')
    expect(parseEncoders(listing)).toEqual(['libx264', 'h264_nvenc'])
  })

  it('keeps the error lines of a level-tagged run, without addresses', () => {
    expect(errorLines([
      '[h264_nvenc @ 0x55b4b9498fc0] [verbose] Nvenc unloaded',
      '[h264_nvenc @ 0x55b4b9498fc0] [error] Cannot load libcuda.so.1',
      '[info] Conversion failed!',
      '[fatal] Error parsing global options: Invalid argument',
    ])).toBe('h264_nvenc: Cannot load libcuda.so.1; Error parsing global options: Invalid argument')
    expect(errorLines(['a', 'b', 'c', 'd'])).toBe('b; c; d')
  })

  it('test-encodes with the exact options a session gives each encoder', () => {
    const nvenc = buildTestEncodeArgs('h264_nvenc', 1080)
    expect(nvenc.join(' ')).toContain('-c:v h264_nvenc -preset p3 -rc vbr')
    expect(nvenc).not.toContain('-tune')
    expect(nvenc.join(' ')).toContain('testsrc2=size=1920x1080')
    const vaapi = buildTestEncodeArgs('h264_vaapi', 2160)
    expect(vaapi.slice(0, 6)).toEqual(['-hide_banner', '-nostdin', '-loglevel', 'level+verbose', '-vaapi_device', '/dev/dri/renderD128'])
    expect(vaapi[vaapi.indexOf('-vf') + 1]).toMatch(/,format=nv12,hwupload$/)
    expect(buildTestEncodeArgs('h264_videotoolbox', 1080)).not.toContain('-q:v')
  })
})

describe('host facts', () => {
  let root = ''
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('lists render nodes and NVIDIA devices with their drivers, and names the group a user lacks', async () => {
    root = await mkdtemp(join(tmpdir(), 'ma12-host-'))
    await mkdir(join(root, 'dev/dri'), { recursive: true })
    await writeFile(join(root, 'dev/dri/renderD128'), '')
    await chmod(join(root, 'dev/dri/renderD128'), 0o660)
    await chown(join(root, 'dev/dri/renderD128'), 0, 4242)
    await writeFile(join(root, 'dev/dri/card0'), '')
    await writeFile(join(root, 'dev/nvidia0'), '')
    await chmod(join(root, 'dev/nvidia0'), 0o666)
    await mkdir(join(root, 'sys/class/drm/renderD128/device'), { recursive: true })
    await mkdir(join(root, 'sys/bus/pci/drivers/i915'), { recursive: true })
    await symlink(join(root, 'sys/bus/pci/drivers/i915'), join(root, 'sys/class/drm/renderD128/device/driver'))
    await mkdir(join(root, 'sys/module/i915'), { recursive: true })
    await mkdir(join(root, 'sys/module/nvidia'), { recursive: true })
    await mkdir(join(root, 'proc/driver/nvidia'), { recursive: true })
    await writeFile(join(root, 'proc/driver/nvidia/version'), 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\nGCC version:  gcc version 12.2.0\n')
    await mkdir(join(root, 'etc'), { recursive: true })
    await writeFile(join(root, 'etc/group'), 'root:x:0:\nrender:x:4242:\n')

    const facts = await readHostFacts({ root, identity: { uid: 1000, gids: [1000] } })
    expect(facts.devices.map(({ path, driver }) => ({ path, driver }))).toEqual([
      { path: '/dev/dri/renderD128', driver: 'i915' },
      { path: '/dev/nvidia0', driver: 'nvidia' },
    ])
    expect(facts.devices[0]!.error).toMatch(/permission denied: \/dev\/dri\/renderD128 .*group render.*usermod -aG render/)
    expect(facts.devices[1]!.error).toBeUndefined()
    expect(facts.drivers).toEqual(['nvidia 550.54.14', 'i915'])

    const member = await readHostFacts({ root, identity: { uid: 1000, gids: [1000, 4242] } })
    expect(member.devices[0]!.error).toBeUndefined()
  })

  it('reports nothing on a host without GPU devices or drivers', async () => {
    root = await mkdtemp(join(tmpdir(), 'ma12-host-'))
    expect(await readHostFacts({ root })).toEqual({ devices: [], drivers: [] })
  })
})

describe('the diagnostic in words and on the wire', () => {
  const sample = diagnostic({
    chosenEncoder: 'libx264',
    candidates: [failed('h264_nvenc', 'h264_nvenc: Cannot load libcuda.so.1')],
  })

  it('summarises it in one line that begins with [transcode]', () => {
    const line = summaryLine({ hwAccel: sample, caps: {} })
    expect(line).toMatch(/^\[transcode\] encoder libx264, cap 1080p; ffmpeg 5\.1\.9 at \/usr\/bin\/ffmpeg; h264_nvenc failed \(h264_nvenc: Cannot load libcuda\.so\.1\)/)
    expect(summaryLine({ hwAccel: diagnostic({ error: 'ffmpeg -version did not answer within 10000 ms; killed' }), caps: {} })).toMatch(/^\[transcode\] no usable ffmpeg: /)
  })

  it('prints every candidate with its full error for people', () => {
    const text = diagnosticTable(sample).join('\n')
    expect(text).toMatch(/h264_nvenc\s+FAILED/)
    expect(text).toContain('h264_nvenc: Cannot load libcuda.so.1')
    expect(text).toMatch(/chosen encoder\s+libx264/)
  })

  it('is accepted in a register body by the reference server, and refused without its candidates', () => {
    const body = { agentId: 'a', version: '0.14.0', VPNActive: false, hwAccel: sample }
    expect(parseRegisterRequest(body).hwAccel?.candidates).toHaveLength(1)
    const { candidates: _dropped, ...withoutCandidates } = sample
    expect(() => parseRegisterRequest({ ...body, hwAccel: withoutCandidates })).toThrow(/hwAccel: candidates must be a array/)
    expect(() => parseRegisterRequest({ ...body, hwAccel: { ...sample, candidates: [{ encoder: 'h264_nvenc', ok: 'no', ms: 1 }] } })).toThrow(/candidates\[0\]: ok must be a boolean/)
  })
})

function diagnostic(overrides: Partial<HwAccelDiagnostic>): HwAccelDiagnostic {
  return {
    ffmpegVersion: '5.1.9', ffmpegPath: '/usr/bin/ffmpeg', encoders: ['libx264', 'h264_nvenc'], devices: [], drivers: [],
    chosenEncoder: 'libx264', maxTranscodeHeight: 1080, probeMs: 300, candidates: [], ...overrides,
  }
}
