import { describe, expect, it } from 'vitest'
import { SseLimitError } from '../../src/errors.js'
import { downlinkHarness, frame } from './control-plane-fakes.js'

const liveness = 40_000
/** The reopen delay after the n-th consecutive unhealthy attempt: 1 s, doubling, capped at 60 s. */
const reconnect = (failures: number) => Math.min(60_000, 1_000 * 2 ** (failures - 1))
const reprobe = 300_000

describe('downlink in auto mode', () => {
  it('falls back to the wake long-poll after three SSE attempts that deliver no frame within 40 s', () => {
    const h = downlinkHarness('auto')
    expect(h.state().matches({ sse: 'attempt' })).toBe(true)
    h.advance(liveness - 1)
    expect(h.context().failures).toBe(0)
    h.advance(1)
    expect(h.context().failures).toBe(1)
    expect(h.sse.isOpen).toBe(false)
    h.advance(reconnect(1) + liveness)
    expect(h.context().failures).toBe(2)
    expect(h.state().matches('sse')).toBe(true)
    h.advance(reconnect(2) + liveness)
    expect(h.state().matches('poll')).toBe(true)
    expect(h.sse.opened).toBe(3)
    expect(h.wake.opened).toBe(1)
    expect(h.context().fallbacks).toBe(1)
  })

  it('counts an attempt whose connect preamble arrived and then went silent as unhealthy', () => {
    const h = downlinkHarness('auto')
    for (let attempt = 1; attempt <= 3; attempt++) {
      h.sse.send({ type: 'downlink.sse.connected', baseUrl: 'http://server' })
      h.sse.send(frame('ping'))
      h.advance(liveness)
      expect(h.context().failures).toBe(attempt)
      if (attempt < 3) h.advance(reconnect(attempt))
    }
    expect(h.state().matches('poll')).toBe(true)
  })

  it('stays on one SSE stream for five minutes while heartbeats arrive every 15 s', () => {
    const h = downlinkHarness('auto')
    h.sse.send(frame('ping'))
    for (let t = 0; t < reprobe; t += 15_000) {
      h.advance(15_000)
      h.sse.send(frame('ping', ''))
    }
    expect(h.state().matches({ sse: 'attempt' })).toBe(true)
    expect(h.sse.opened).toBe(1)
    expect(h.context().failures).toBe(0)
  })

  it('reopens a healthy stream that drops, and counts from zero again', () => {
    const h = downlinkHarness('auto')
    // Two unhealthy attempts first.
    h.advance(liveness + reconnect(1))
    h.advance(liveness + reconnect(2))
    expect(h.context().failures).toBe(2)
    // The third attempt proves itself: a frame arrives a full liveness window after it began.
    h.sse.send(frame('ping'))
    h.advance(20_000)
    h.sse.send(frame('ping'))
    h.advance(20_000)
    expect(h.context().failures).toBe(2)
    h.sse.send(frame('ping'))
    expect(h.context().failures).toBe(0)
    h.sse.send({ type: 'downlink.sse.ended' })
    expect(h.context().failures).toBe(1)
    expect(h.state().matches({ sse: 'reopening' })).toBe(true)
    h.advance(reconnect(1))
    expect(h.sse.opened).toBe(4)
    expect(h.state().matches({ sse: 'attempt' })).toBe(true)
  })

  it('treats an over-long SSE line like any other unhealthy attempt', () => {
    const h = downlinkHarness('auto')
    h.sse.send({ type: 'downlink.sse.failed', error: new SseLimitError('line', 262_144) })
    expect(h.context().failures).toBe(1)
    expect(h.context().lastProblem).toContain('MA_ERR_SSE_LIMIT')
    h.advance(reconnect(1))
    h.sse.send({ type: 'downlink.sse.failed', error: new Error('socket hang up') })
    h.advance(reconnect(2))
    h.sse.send({ type: 'downlink.sse.ended' })
    expect(h.state().matches('poll')).toBe(true)
  })

  it('probes SSE again after exactly five minutes of long-polling', () => {
    const h = downlinkHarness('auto')
    for (let attempt = 0; attempt < 3; attempt++) {
      h.sse.send({ type: 'downlink.sse.failed', error: new Error('refused') })
      if (attempt < 2) h.advance(reconnect(attempt + 1))
    }
    expect(h.state().matches('poll')).toBe(true)
    h.advance(reprobe - 1)
    expect(h.state().matches('poll')).toBe(true)
    expect(h.sse.opened).toBe(3)
    h.advance(1)
    expect(h.state().matches({ sse: 'attempt' })).toBe(true)
    expect(h.sse.opened).toBe(4)
    expect(h.wake.isOpen).toBe(false)
    expect(h.context().failures).toBe(0)
  })

  it('keeps the re-probe timer running while wakes return', () => {
    const h = downlinkHarness('auto')
    for (let attempt = 0; attempt < 3; attempt++) {
      h.sse.send({ type: 'downlink.sse.failed', error: new Error('refused') })
      if (attempt < 2) h.advance(reconnect(attempt + 1))
    }
    h.advance(100_000)
    h.wake.send({ type: 'downlink.wake.woke', reason: 'stream' })
    h.advance(100_000)
    h.wake.send({ type: 'downlink.wake.ended' })
    h.advance(100_000)
    expect(h.state().matches({ sse: 'attempt' })).toBe(true)
  })
})

describe('downlink in sse mode', () => {
  it('reopens SSE after every failure and never falls back', () => {
    const h = downlinkHarness('sse')
    for (let attempt = 1; attempt <= 10; attempt++) {
      h.advance(liveness)
      expect(h.state().matches('sse')).toBe(true)
      h.advance(reconnect(attempt))
    }
    expect(h.sse.opened).toBe(11)
    expect(h.wake.opened).toBe(0)
  })

  it('waits longer between reopens of a server that refuses at once, up to a minute', () => {
    const h = downlinkHarness('sse')
    const gaps: number[] = []
    for (let attempt = 1; attempt <= 9; attempt++) {
      h.sse.send({ type: 'downlink.sse.failed', error: new Error('ECONNREFUSED') })
      const opened = h.sse.opened
      let waited = 0
      while (h.sse.opened === opened) {
        h.advance(500)
        waited += 500
      }
      gaps.push(waited)
    }
    expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
  })
})

describe('downlink in poll mode', () => {
  it('only long-polls, even after ten minutes', () => {
    const h = downlinkHarness('poll')
    h.advance(600_000)
    expect(h.state().matches({ poll: 'listening' })).toBe(true)
    expect(h.sse.opened).toBe(0)
    expect(h.wake.opened).toBe(1)
  })

  it('asks for a sync when a wake returns and reconnects the long-poll', () => {
    const h = downlinkHarness('poll')
    h.wake.send({ type: 'downlink.wake.woke', reason: 'download queued' })
    expect(h.syncs).toEqual([{ source: 'wake', reason: 'download queued' }])
    expect(h.wake.opened).toBe(2)
    expect(h.wake.closed).toBe(1)
    expect(h.wake.isOpen).toBe(true)
  })

  it('reconnects without a sync when the server ends the hold with 204', () => {
    const h = downlinkHarness('poll')
    h.wake.send({ type: 'downlink.wake.ended' })
    expect(h.syncs).toEqual([])
    expect(h.wake.opened).toBe(2)
  })

  it('retries a failed long-poll after the wake retry delay, doubling while it keeps failing', () => {
    const h = downlinkHarness('poll')
    h.wake.send({ type: 'downlink.wake.failed', error: new Error('ECONNREFUSED') })
    expect(h.wake.isOpen).toBe(false)
    h.advance(999)
    expect(h.wake.opened).toBe(1)
    h.advance(1)
    expect(h.wake.opened).toBe(2)
    h.wake.send({ type: 'downlink.wake.failed', error: new Error('ECONNREFUSED') })
    h.advance(1_999)
    expect(h.wake.opened).toBe(2)
    h.advance(1)
    expect(h.wake.opened).toBe(3)
    h.wake.send({ type: 'downlink.wake.woke', reason: 'back' })
    h.wake.send({ type: 'downlink.wake.failed', error: new Error('ECONNRESET') })
    h.advance(1_000)
    expect(h.wake.opened).toBe(5)
  })
})

describe('downlink SSE frames', () => {
  it('turns a sync event into a sync request, a command into a control, and ignores pings', () => {
    const h = downlinkHarness('sse')
    h.sse.send(frame('ping'))
    h.sse.send({ type: 'downlink.sse.frame', frame: { event: 'ping', data: 'ping', comment: true } })
    h.sse.send(frame('sync', '{"reason":"scan"}'))
    h.sse.send(frame('command', '{"id":"c1","kind":"pause_task","taskId":"t1"}'))
    h.sse.send(frame('command', 'not json'))
    h.sse.send(frame('command', '{"kind":"pause_task"}'))
    expect(h.syncs).toEqual([{ source: 'sse', reason: 'scan' }])
    expect(h.commands).toEqual([{ id: 'c1', kind: 'pause_task', taskId: 't1' }])
    expect(h.context().frames).toBe(6)
  })

  it('restarts the liveness timer on every frame', () => {
    const h = downlinkHarness('sse')
    for (let i = 0; i < 10; i++) {
      h.advance(liveness - 1)
      h.sse.send(frame('ping'))
    }
    expect(h.sse.opened).toBe(1)
    h.advance(liveness)
    expect(h.state().matches({ sse: 'reopening' })).toBe(true)
  })
})

describe('downlink mode changes', () => {
  it('switches from sse to poll and back when told', () => {
    const h = downlinkHarness('sse')
    h.actor.send({ type: 'downlink.setMode', mode: 'poll' })
    expect(h.sse.isOpen).toBe(false)
    expect(h.wake.isOpen).toBe(true)
    h.actor.send({ type: 'downlink.setMode', mode: 'auto' })
    expect(h.sse.isOpen).toBe(true)
    expect(h.wake.isOpen).toBe(false)
  })
})
