import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, type AnyActorRef } from 'xstate'
import { cacheMachine } from '../../src/machines/cache.machine.js'
import { cacheShardMachine } from '../../src/machines/cache-shard.machine.js'
import { cacheEntryMachine, type CacheOpenRequest, type CacheOutcome, type VerifyOutcome } from '../../src/machines/cache-entry.machine.js'
import { planEviction } from '../../src/machines/cache-budget.js'
import { cacheEntryRefs } from '../../src/system/cache-part.js'

// The budget model of docs/hls-cache.md, on the real `cache` and `cacheEntry` machines: two
// "daemons" share one model of the cache dir (entries, and writer locks that die with their
// process). Under any sequence of writes, plays, stops and restarts: two writers never share a
// key, a commit only happens under the committer's own lock, an entry a session holds is never
// evicted, and the complete entries of each daemon are within budget unless none is idle.

const budget = 1_000
const keys = ['k0', 'k1', 'k2', 'k3']

interface ModelEntry { complete: boolean; bytes: number }

class ModelDir {
  entries = new Map<string, ModelEntry>()
  locks = new Map<string, number>()
  violations: string[] = []

  logicFor(proc: number, answers: Map<string, CacheOutcome>) {
    const entry = cacheEntryMachine.provide({
      actors: {
        acquire: fromPromise(async ({ input }: { input: { key: string } }) => {
          const holder = this.locks.get(input.key)
          if (holder !== undefined && holder !== proc) return false
          // As cache-disk.ts: a complete entry (another daemon's, written since this one's scan) is kept.
          if (this.entries.get(input.key)?.complete) return false
          this.locks.set(input.key, proc)
          this.entries.set(input.key, { complete: false, bytes: 0 })
          return true
        }),
        commit: fromPromise(async ({ input }: { input: { key: string; payload: unknown } }) => {
          if (this.locks.get(input.key) !== proc) this.violations.push(`process ${proc} committed ${input.key} without its lock`)
          const bytes = (input.payload as { bytes: number }).bytes
          this.entries.set(input.key, { complete: true, bytes })
          return { bytes }
        }),
        verify: fromPromise(async ({ input }: { input: { key: string; source: string } }): Promise<VerifyOutcome> =>
          (this.entries.get(input.key)?.complete ? { ok: true, source: input.source } : { ok: false, collision: false, reason: 'gone' })),
        tidy: fromPromise(async ({ input }: { input: { key: string } }) => {
          if (this.locks.get(input.key) === proc) this.locks.delete(input.key)
        }),
        remove: fromPromise(async ({ input }: { input: { key: string } }) => {
          const holder = this.locks.get(input.key)
          if (holder !== undefined && holder !== proc) return false
          this.entries.delete(input.key)
          this.locks.delete(input.key)
          return true
        }),
      },
      actions: {
        answer: (_, params: { requests: CacheOpenRequest[]; outcome: CacheOutcome }) => {
          for (const request of params.requests) answers.set(request.requestId, params.outcome)
        },
      },
    })
    return cacheMachine.provide({
      actors: {
        shard: cacheShardMachine.provide({ actors: { entry } }),
        removeMany: fromPromise(async ({ input }: { input: { keys: string[] } }) => {
          for (const key of input.keys) {
            if (this.locks.has(key)) continue
            this.entries.delete(key)
          }
        }),
        scan: fromPromise(async () => {
          const found = []
          for (const [key, value] of this.entries) {
            if (this.locks.has(key)) continue
            if (!value.complete) this.entries.delete(key)
            else found.push({ key, bytes: value.bytes, lastUsedAt: 0 })
          }
          return found
        }),
      },
    })
  }
}

type Command =
  | { kind: 'open'; proc: number; session: number; key: string }
  | { kind: 'finish'; proc: number; session: number; bytes: number }
  | { kind: 'stop'; proc: number; session: number }
  | { kind: 'restart'; proc: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('open' as const), proc: fc.nat(1), session: fc.nat(3), key: fc.constantFrom(...keys) }),
  fc.record({ kind: fc.constant('finish' as const), proc: fc.nat(1), session: fc.nat(3), bytes: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant('stop' as const), proc: fc.nat(1), session: fc.nat(3) }),
  fc.record({ kind: fc.constant('restart' as const), proc: fc.nat(1) }),
)

const settle = async () => {
  for (let i = 0; i < 6; i++) await new Promise((resolve) => setImmediate(resolve))
}

interface Held { key: string; outcome: CacheOutcome; written: boolean }

interface Daemon { actor: AnyActorRef; answers: Map<string, CacheOutcome>; held: Map<number, Held> }

function entrySnapshots(actor: AnyActorRef) {
  return cacheEntryRefs(actor).map((child) => child.getSnapshot() as { status: string; value: unknown; matches(value: unknown): boolean; context: { bytes: number; pins: string[] } })
}

describe('hls cache budget model', () => {
  it('plans LRU eviction of evictable entries only, down to the budget where it can', () => {
    fc.assert(fc.property(fc.array(fc.record({ bytes: fc.nat(500), lastUsedAt: fc.nat(100), evictable: fc.boolean() }), { maxLength: 30 }), fc.nat(3000), (items, limit) => {
      const entries = items.map((item, index) => ({ key: `e${index}`, ...item }))
      const victims = new Set(planEviction(entries, limit))
      for (const key of victims) expect(entries.find((entry) => entry.key === key)!.evictable).toBe(true)
      const left = entries.filter((entry) => !victims.has(entry.key))
      const total = left.reduce((sum, entry) => sum + entry.bytes, 0)
      if (total > limit) expect(left.filter((entry) => entry.evictable).every((entry) => entry.bytes === 0)).toBe(true)
      // Least recently used first: nothing kept evictable is older than something evicted (bar ties).
      const oldestKept = Math.min(...left.filter((entry) => entry.evictable && entry.bytes > 0).map((entry) => entry.lastUsedAt))
      for (const key of victims) expect(entries.find((entry) => entry.key === key)!.lastUsedAt).toBeLessThanOrEqual(oldestKept)
    }))
  })

  it('never lets two writers share a key, never evicts a held entry, and stays within budget except for what is held', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 40 }), async (commands) => {
      const dir = new ModelDir()
      const start = (proc: number): Daemon => {
        const answers = new Map<string, CacheOutcome>()
        const actor = createActor(dir.logicFor(proc, answers), { input: { budgetBytes: budget, statsLogIntervalMs: 86_400_000 } })
        actor.start()
        return { actor, answers, held: new Map() }
      }
      const daemons = [start(0), start(1)]
      let asked = 0
      await settle()
      try {
        for (const step of commands) {
          const daemon = daemons[step.proc]!
          const sessionId = `p${step.proc}s${'session' in step ? step.session : 0}`
          if (step.kind === 'open' && !daemon.held.has(step.session)) {
            const requestId = `r${asked++}`
            daemon.actor.send({ type: 'cache.open', key: step.key, request: { requestId, sessionId, source: step.key, at: asked } })
            await settle()
            const outcome = daemon.answers.get(requestId)
            expect(outcome, 'every lookup is answered').toBeDefined()
            if (outcome === 'hit' || outcome === 'write') daemon.held.set(step.session, { key: step.key, outcome, written: false })
          } else if (step.kind === 'finish') {
            const held = daemon.held.get(step.session)
            if (held?.outcome === 'write' && !held.written) {
              held.written = true
              daemon.actor.send({ type: 'cache.written', key: held.key, sessionId, payload: { bytes: step.bytes } })
            }
          } else if (step.kind === 'stop') {
            const held = daemon.held.get(step.session)
            if (held) {
              daemon.held.delete(step.session)
              daemon.actor.send({ type: 'cache.release', key: held.key, sessionId })
            }
          } else if (step.kind === 'restart') {
            // A daemon that dies: its sessions end, its locks die with its PID.
            daemon.actor.stop()
            for (const [key, holder] of dir.locks) if (holder === step.proc) dir.locks.delete(key)
            daemons[step.proc] = start(step.proc)
          }
          await settle()
          expect(dir.violations).toEqual([])
          // Two writers never share a key (across both daemons).
          const writing = daemons.flatMap((d) => [...d.held.values()].filter((held) => held.outcome === 'write').map((held) => held.key))
          expect(new Set(writing).size).toBe(writing.length)
          for (const d of daemons) {
            for (const held of d.held.values()) {
              // A held entry is still there: pinned and writing entries are never evicted.
              expect(dir.entries.has(held.key), `${held.key} is held`).toBe(true)
              if (held.outcome === 'hit') expect(dir.entries.get(held.key)!.complete).toBe(true)
            }
            const complete = entrySnapshots(d.actor).filter((snapshot) => snapshot.status === 'active' && snapshot.matches('complete'))
            const total = complete.reduce((sum, snapshot) => sum + snapshot.context.bytes, 0)
            if (total > budget) expect(complete.filter((snapshot) => snapshot.matches({ complete: 'idle' })).length, 'over budget only with nothing idle left').toBe(0)
          }
        }
      } finally {
        for (const d of daemons) d.actor.stop()
      }
    }), { numRuns: 200 })
  })
})
