import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encoderDelayFrames, knownEncoderDelayFrames, parseEncoderDelayFrames } from '../../src/services/ffmpeg/encoder-delay.js'

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
    expect(await encoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi', ok)).toBe(2)
    expect(await encoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi', ok)).toBe(2)
    expect(calls).toBe(1)
    expect(knownEncoderDelayFrames('/opt/ffmpeg-a', 'h264_vaapi')).toBe(2)
    await expect(encoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv', () => Promise.reject(new Error('no device')))).rejects.toThrow('no device')
    expect(knownEncoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv')).toBeUndefined()
    expect(await encoderDelayFrames('/opt/ffmpeg-b', 'h264_qsv', ok)).toBe(2)
  })
})
