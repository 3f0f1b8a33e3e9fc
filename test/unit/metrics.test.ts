import { describe, expect, it } from 'vitest'
import { createMetrics } from '../../src/services/metrics/metrics.js'

describe('the metrics registry', () => {
  it('counts cache hits and misses through the one call the cache makes', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    metrics.cacheLookup(true)
    metrics.cacheLookup(true)
    metrics.cacheLookup(false)
    const text = await metrics.render()
    expect(text).toContain('\nmedia_agent_cache_hits_total 2\n')
    expect(text).toContain('\nmedia_agent_cache_misses_total 1\n')
  })

  it('keeps one registry per agent, so two agents in one process do not add up', async () => {
    const first = createMetrics({ defaultMetrics: false })
    const second = createMetrics({ defaultMetrics: false })
    first.ffmpegRestarted()
    expect(await first.render()).toContain('\nmedia_agent_ffmpeg_restarts_total 1\n')
    expect(await second.render()).toContain('\nmedia_agent_ffmpeg_restarts_total 0\n')
  })

  it('shows exactly one downlink mode as current', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    metrics.downlinkMode('poll')
    const text = await metrics.render()
    expect(text).toContain('media_agent_downlink_mode{mode="poll"} 1')
    expect(text).toContain('media_agent_downlink_mode{mode="sse"} 0')
    expect(text).toContain('media_agent_downlink_mode{mode="none"} 0')
  })
})
