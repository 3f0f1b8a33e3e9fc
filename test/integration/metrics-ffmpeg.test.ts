// media_agent_ffmpeg_restarts_total counts what an operator would want alerted on: a real ffmpeg
// of an HLS session dying mid-encode (here SIGKILLed by PID) and the engine restarting it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMetrics } from '../../src/services/metrics/metrics.js'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { startEngineKit, startSession, waitUntil } from './hls-kit.js'

let fixtures: MediaFixtures

beforeAll(async () => {
  fixtures = await createMediaFixtures()
}, 120_000)

afterAll(async () => {
  await fixtures?.cleanup()
})

describe('ffmpeg restarts in /metrics', () => {
  it('counts one restart when the running ffmpeg is killed, and none while it runs', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    // At real time the encode outlasts the test: ffmpeg is still running when it is killed.
    const kit = await startEngineKit({ metrics, extraInputArgs: ['-readrate', '1'] })
    try {
      const source = await fixtures.get('h264-360p')
      const session = startSession(kit, 'killed', source, { quality: '480p' })
      await session.ready
      expect(await metrics.render()).toContain('\nmedia_agent_ffmpeg_restarts_total 0\n')
      const [pid] = kit.engine.inspect()[0]?.pids ?? []
      expect(pid).toBeGreaterThan(0)
      process.kill(pid!, 'SIGKILL')
      expect(await waitUntil(async () => (await metrics.render()).includes('\nmedia_agent_ffmpeg_restarts_total 1\n'), 20_000)).toBe(true)
      expect(kit.engine.inspect()[0]?.restarts).toBe(1)
      await session.handle.stop()
    } finally {
      await kit.close()
    }
  }, 90_000)
})
