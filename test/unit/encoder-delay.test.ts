import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encoderDelayFrames, knownEncoderDelayFrames, parseEncoderDelayFrames, watchedEncoderDelayRunner } from '../../src/services/ffmpeg/encoder-delay.js'

// framecrc as Debian ffmpeg 5.1 prints it for libx264 superfast (stream, dts, pts, duration, size, crc).
const x264 = `#tb 0: 1/25
#media_type 0: video
#codec_id 0: h264
#dimensions 0: 640x360
#sar 0: 1/1
0,         -2,          0,        1,     5654, 0x2de88113, S=1,        8
0,         -1,          4,        1,     2529, 0x9662ca3d, F=0x0, S=1,        8
`

describe('the encoder delay probe', () => {
  it("reads the delay in frames from the first packet's decode time", () => {
    expect(parseEncoderDelayFrames(x264)).toBe(2)
    expect(parseEncoderDelayFrames('#tb 0: 1/25\n0,          0,          0,        1,     5193, 0x9a08a3ba, S=1,        8\n')).toBe(0)
  })

  it('answers undefined, never a number, for output without a packet line', () => {
    expect(parseEncoderDelayFrames('')).toBeUndefined()
    expect(parseEncoderDelayFrames('#tb 0: 1/25\n')).toBeUndefined()
    expect(parseEncoderDelayFrames('0, x, 0\n')).toBeUndefined()
  })

  it('never throws and answers a non-negative whole number or undefined, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const frames = parseEncoderDelayFrames(text)
      expect(frames === undefined || (Number.isInteger(frames) && frames >= 0)).toBe(true)
    }))
  })

  it('measures once per ffmpeg and encoder, and tries again after a failed probe', async () => {
    let calls = 0
    const ok = async () => { calls++; return x264 }
    expect(await encoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi', { run: ok })).toBe(2)
    expect(await encoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi', { run: ok })).toBe(2)
    expect(calls).toBe(1)
    expect(knownEncoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi')).toBe(2)
    await expect(encoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv', { run: () => Promise.reject(new Error('no device')) })).rejects.toThrow('no device')
    expect(knownEncoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv')).toBeUndefined()
    expect(await encoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv', { run: ok })).toBe(2)
  })
})

// A stand-in ffmpeg (a real process, sh) that prints the framecrc, fails, or hangs like a GPU
// driver that never answers; it writes its PID so the test can see it is gone.
describe("the encoder delay probe's process", () => {
  let dir: string
  const fake = async (name: string, body: string) => {
    const path = join(dir, name)
    await writeFile(path, `#!/bin/sh\necho $$ > "${path}.pid"\n${body}\n`)
    await chmod(path, 0o755)
    return path
  }
  // Running, not a zombie waiting for a reaper that this container's PID 1 may never be.
  const alive = async (pid: number) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    return stat !== '' && !/^\d+ \(.*\) Z/.test(stat)
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-rvh-delay-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("answers ffmpeg's framecrc output", async () => {
    const ffmpeg = await fake('ok', `cat <<'OUT'\n${x264}OUT`)
    expect(parseEncoderDelayFrames(await watchedEncoderDelayRunner(5_000)(ffmpeg, ['-f', 'framecrc', '-']))).toBe(2)
  })

  it("fails with ffmpeg's last words when it exits with an error", async () => {
    const ffmpeg = await fake('broken', 'echo "Device creation failed: -5." >&2; exit 1')
    await expect(watchedEncoderDelayRunner(5_000)(ffmpeg, [])).rejects.toThrow(/exited with code 1: Device creation failed/)
  })

  it('kills a probe that hangs past its deadline, by PID, and fails', async () => {
    const ffmpeg = await fake('hangs', 'exec sleep 30')
    await expect(watchedEncoderDelayRunner(300)(ffmpeg, [])).rejects.toThrow(/did not finish within 300 ms; killed/)
    const pid = Number(await readFile(`${ffmpeg}.pid`, 'utf8'))
    await expect.poll(() => alive(pid)).toBe(false)
  })

  it('kills a running probe when the engine stops (its signal aborts)', async () => {
    const ffmpeg = await fake('stopped', 'exec sleep 30')
    const stop = new AbortController()
    const probe = watchedEncoderDelayRunner(60_000)(ffmpeg, [], stop.signal)
    await expect.poll(async () => readFile(`${ffmpeg}.pid`, 'utf8').catch(() => '')).not.toBe('')
    const pid = Number(await readFile(`${ffmpeg}.pid`, 'utf8'))
    stop.abort()
    await expect(probe).rejects.toThrow(/stopped with the engine/)
    await expect.poll(() => alive(pid)).toBe(false)
  })
})
