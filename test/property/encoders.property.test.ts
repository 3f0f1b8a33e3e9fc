import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { chooseEncoder, effectiveChoice, hardwareEncoderOrder, type Detection, type EncoderPreference, type TestedCandidate } from '../../src/machines/encoder-choice.js'
import { encodersMachine, type EncodersContext } from '../../src/machines/encoders.machine.js'
import { HttpError } from '../../src/reference-server/http.js'
import { parseRegisterRequest } from '../../src/reference-server/validate.js'
import { errorLines, parseEncoders, parseVersion } from '../../src/services/encoders/detect.js'
import { allTransitions, describePath, shortestPaths, uncoveredTransitions } from '../helpers/machine-paths.js'

// The encoders actor (issue 12, docs/encoders.md): paths generated from its statechart take every
// transition; along them an encoder is unhealthy only between a session failure and the next
// probe, libx264 is never marked, and the choice never hands a session a failed encoder.

const detection = (chosen: string): Detection => ({
  hwAccel: {
    ffmpegVersion: '5.1.9', ffmpegPath: '/usr/bin/ffmpeg', encoders: ['libx264', 'h264_nvenc', 'h264_vaapi'], devices: [], drivers: [],
    chosenEncoder: chosen, maxTranscodeHeight: 2160, probeMs: 100,
    candidates: [{ encoder: 'h264_nvenc', ok: chosen === 'h264_nvenc', ms: 50 }, { encoder: 'h264_vaapi', ok: true, ms: 60 }],
  },
  caps: { h264_vaapi: 1440, ...(chosen === 'h264_nvenc' ? { h264_nvenc: 2160 } : {}) },
})

describe('encoders machine paths', () => {
  const events: AnyEventObject[] = [
    { type: 'xstate.done.actor.detect', output: detection('h264_nvenc') },
    { type: 'xstate.done.actor.detect', output: detection('h264_vaapi') },
    { type: 'xstate.error.actor.detect', error: new Error('ffmpeg vanished') },
    { type: 'encoders.failed', encoder: 'h264_nvenc', reason: 'OpenEncodeSessionEx failed' },
    { type: 'encoders.failed', encoder: 'h264_vaapi', reason: 'vaapi gone' },
    { type: 'encoders.failed', encoder: 'libx264', reason: 'not a GPU' },
    { type: 'encoders.reprobe' },
    { type: 'xstate.after.reprobeAfterFailure.encoders.degraded' },
  ]
  const eventsIn = (snapshot: AnyMachineSnapshot) => events.filter((event) => !event.type.startsWith('xstate.') || event.type.includes('after') || snapshot.children.detect !== undefined)
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as EncodersContext
    return JSON.stringify([snapshot.value, Object.keys(context.unhealthy).sort(), context.detection?.hwAccel.chosenEncoder, context.probeError !== undefined, Math.min(context.probes, 2)])
  }
  const paths = shortestPaths(encodersMachine, { input: { preference: 'auto', reprobeAfterFailureMs: 600_000 }, events: eventsIn, serializeState: serializeState as never })

  it('cover every transition of the encoders machine', () => {
    expect(allTransitions(encodersMachine).length).toBe(8)
    expect(uncoveredTransitions(encodersMachine, paths)).toEqual([])
  })

  it('mark only hardware encoders, only between a session failure and the next probe', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const snapshot = step.state as AnyMachineSnapshot
        const context = snapshot.context as EncodersContext
        expect(snapshot.status, describePath(path)).not.toBe('error')
        expect(Object.keys(context.unhealthy).every((name) => (hardwareEncoderOrder as readonly string[]).includes(name)), describePath(path)).toBe(true)
        if (snapshot.matches('ready')) expect(context.unhealthy, describePath(path)).toEqual({})
        if (step.event.type === 'xstate.done.actor.detect') {
          expect(context.unhealthy, describePath(path)).toEqual({})
          expect(context.detection, describePath(path)).toBe((step.event as unknown as { output: Detection }).output)
        }
        if (snapshot.matches('degraded')) expect(Object.keys(context.unhealthy).length, describePath(path)).toBeGreaterThan(0)
      }
    }
  })
})

describe('the re-probe after a session failure', () => {
  it('comes exactly the injected delay after the first failure, and clears the mark when the encoder passes again', async () => {
    const clock = new SimulatedClock()
    let probes = 0
    const machine = encodersMachine.provide({ actors: { detect: fromPromise(async () => (probes++, detection('h264_nvenc'))) } })
    const actor = createActor(machine, { clock, input: { preference: 'auto', reprobeAfterFailureMs: 600_000 } })
    actor.start()
    await new Promise((resolve) => setImmediate(resolve))
    expect(actor.getSnapshot().value).toBe('ready')
    actor.send({ type: 'encoders.failed', encoder: 'h264_nvenc', reason: 'session limit' })
    expect(actor.getSnapshot().value).toBe('degraded')
    const limits = { softwareMaxHeight: 1080 }
    const { context } = actor.getSnapshot()
    expect(effectiveChoice(context.preference, context.detection!, limits, context.unhealthy)).toEqual({ encoder: 'h264_vaapi', maxHeight: 1440 })
    clock.increment(599_999)
    expect(actor.getSnapshot().value).toBe('degraded')
    clock.increment(1)
    expect(actor.getSnapshot().value).toBe('probing')
    await new Promise((resolve) => setImmediate(resolve))
    expect(actor.getSnapshot().value).toBe('ready')
    expect(actor.getSnapshot().context.unhealthy).toEqual({})
    expect(probes).toBe(2)
    actor.stop()
  })
})

describe('the encoder choice', () => {
  const encoderArb = fc.constantFrom(...hardwareEncoderOrder)
  const candidateArb = fc.record({ encoder: encoderArb, ok: fc.boolean(), ms: fc.nat(5_000), maxHeight: fc.constantFrom(1080, 1440, 2160) })
  const candidatesArb = fc.uniqueArray(candidateArb, { selector: (candidate) => candidate.encoder, maxLength: 4 })
  const preferenceArb = fc.constantFrom<EncoderPreference>('auto', 'libx264', ...hardwareEncoderOrder)
  const unhealthyArb = fc.subarray([...hardwareEncoderOrder]).map((names) => Object.fromEntries(names.map((name) => [name, 'failed'])))

  it('never gives a session an encoder whose test encode failed or that is marked unhealthy', () => {
    fc.assert(fc.property(preferenceArb, candidatesArb, unhealthyArb, (preference, candidates: TestedCandidate[], unhealthy) => {
      const choice = chooseEncoder(preference, candidates, { softwareMaxHeight: 1080 }, unhealthy)
      if (choice.encoder === 'libx264') {
        expect(choice.maxHeight).toBe(1080)
        return
      }
      const candidate = candidates.find((found) => found.encoder === choice.encoder)
      expect(candidate?.ok).toBe(true)
      expect(unhealthy[choice.encoder]).toBeUndefined()
      expect(choice.maxHeight).toBe(candidate?.maxHeight)
      if (preference !== 'auto') expect(choice.encoder).toBe(preference)
      else {
        // The first usable one in the auto order.
        const earlier = hardwareEncoderOrder.slice(0, hardwareEncoderOrder.indexOf(choice.encoder))
        expect(earlier.some((name) => candidates.some((found) => found.encoder === name && found.ok) && unhealthy[name] === undefined)).toBe(false)
      }
    }))
  })

  it('warns exactly when a forced hardware encoder cannot be used', () => {
    fc.assert(fc.property(preferenceArb, candidatesArb, unhealthyArb, (preference, candidates: TestedCandidate[], unhealthy) => {
      const choice = chooseEncoder(preference, candidates, { softwareMaxHeight: 1080 }, unhealthy)
      const forcedHardware = preference !== 'auto' && preference !== 'libx264'
      expect(choice.warning !== undefined).toBe(forcedHardware && choice.encoder === 'libx264')
    }))
  })
})

describe('parsing what ffmpeg and agents send', () => {
  const line = fc.oneof(
    fc.string(),
    fc.constantFrom(' V....D h264_nvenc  NVIDIA', ' V..... libx264  x264', '[h264_qsv @ 0x1] [error] MFX', '[fatal] Error parsing', 'ffmpeg version n7.1 Copyright'),
  )
  it('never throws on any ffmpeg output, and lists only encoders the agent knows', () => {
    fc.assert(fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
      const text = lines.join('\n')
      expect(parseEncoders(text).every((name) => name === 'libx264' || (hardwareEncoderOrder as readonly string[]).includes(name))).toBe(true)
      expect(typeof parseVersion(text)).toBe('string')
      expect(typeof errorLines(lines)).toBe('string')
    }))
  })

  it('accepts or refuses any register body with a 400 naming the field, never anything else', () => {
    const hwAccel = fc.record({
      ffmpegVersion: fc.oneof(fc.string(), fc.integer()), ffmpegPath: fc.string(), encoders: fc.array(fc.oneof(fc.string(), fc.integer())),
      devices: fc.array(fc.oneof(fc.record({ path: fc.string(), driver: fc.oneof(fc.string(), fc.constant(null)) }), fc.string())),
      drivers: fc.array(fc.string()), chosenEncoder: fc.string(), maxTranscodeHeight: fc.oneof(fc.integer(), fc.string()), probeMs: fc.nat(),
      candidates: fc.oneof(fc.array(fc.record({ encoder: fc.string(), ok: fc.oneof(fc.boolean(), fc.string()), ms: fc.nat() })), fc.string()),
    }, { requiredKeys: [] })
    fc.assert(fc.property(fc.oneof(hwAccel, fc.anything()), (value) => {
      try {
        parseRegisterRequest({ agentId: 'a', version: '0.14.0', VPNActive: false, hwAccel: value })
      } catch (error) {
        expect(error).toBeInstanceOf(HttpError)
        expect((error as HttpError).status).toBe(400)
        expect((error as HttpError).message).toMatch(/^register: hwAccel/)
      }
    }))
  })
})

