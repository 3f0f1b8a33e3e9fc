import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock } from 'xstate'
import { cacheMachine } from '../../src/machines/cache.machine.js'

// The cache actor's clock-driven and load-time rules (docs/hls-cache.md): one log line a day with
// the figures, and entries found over budget at start removed before any actor starts for them.

const flush = async () => {
  for (let i = 0; i < 6; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('cache actor', () => {
  it('logs hits, misses, bytes and entries once a day on the injected clock', async () => {
    const clock = new SimulatedClock()
    const lines: Array<{ entries: number; bytes: number }> = []
    const logic = cacheMachine.provide({
      actors: { scan: fromPromise(async () => [{ key: 'aa000001', bytes: 300, lastUsedAt: 1 }, { key: 'bb000002', bytes: 200, lastUsedAt: 2 }]) },
      actions: { logStats: (_, params) => void lines.push(params) },
    })
    const actor = createActor(logic, { clock, input: { budgetBytes: 1_000, statsLogIntervalMs: 86_400_000 } })
    actor.start()
    await flush()
    clock.increment(86_399_999)
    expect(lines).toEqual([])
    clock.increment(1)
    expect(lines).toEqual([{ entries: 2, bytes: 500 }])
    clock.increment(86_400_000)
    expect(lines).toHaveLength(2)
    actor.stop()
  })

  it('removes the least recently used entries found over budget at start, before starting their actors', async () => {
    const removed: string[][] = []
    const logic = cacheMachine.provide({
      actors: {
        scan: fromPromise(async () => [{ key: 'aa000001', bytes: 600, lastUsedAt: 5 }, { key: 'bb000002', bytes: 600, lastUsedAt: 1 }, { key: 'cc000003', bytes: 300, lastUsedAt: 3 }]),
        removeMany: fromPromise<void, { keys: string[] }>(async ({ input }) => {
          removed.push(input.keys)
        }),
      },
    })
    const actor = createActor(logic, { input: { budgetBytes: 1_000, statsLogIntervalMs: 86_400_000 } })
    actor.start()
    await flush()
    expect(removed).toEqual([['bb000002']])
    expect(actor.getSnapshot().context).toMatchObject({ totalBytes: 900, index: { aa000001: { bytes: 600 }, cc000003: { bytes: 300 } } })
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual(['cacheShard:aa', 'cacheShard:cc'])
    actor.stop()
  })
})
