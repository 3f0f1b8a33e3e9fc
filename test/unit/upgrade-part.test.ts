import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createActor, waitFor, type AnyActorRef } from 'xstate'
import type { UpgradeOffer, UpgradeResult } from '../../src/protocol/wire.js'
import { readUpgradeState, writeUpgradeState } from '../../src/services/upgrade/upgrade-store.js'
import { createUpgradePart } from '../../src/system/upgrade-part.js'

// The upgrade part's wiring (docs/upgrade.md): what upgrade.json gives the actor at start, what
// the report writes before and after the post, and the `update` admin route. The download and
// install are fakes here; test/integration/upgrade-services.test.ts runs the real ones.

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma15-part-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const offer = (targetVersion: string): UpgradeOffer => ({ targetVersion, artifactUrl: 'http://files/a.tgz', sha256: 'a'.repeat(64) })

async function part(options: { post?: (result: UpgradeResult) => Promise<void> } = {}) {
  const posted: UpgradeResult[] = []
  const ref: { actor?: AnyActorRef } = {}
  const syncs: string[] = []
  const built = await createUpgradePart({
    config: { server: { baseUrl: 'http://server', accessToken: 't', mirrors: [] } as never, daemon: { stateDir: dir, downlink: 'auto' } },
    logger: pino({ level: 'silent' }),
    api: { upgradeResult: options.post ?? (async (result) => { posted.push(result) }) },
    actor: () => ref.actor,
    requestSync: (reason) => syncs.push(reason),
    syncCycles: () => syncs.length,
    supervisor: 'restart',
    currentVersion: '1.0.0',
    downloader: { download: async () => { throw Object.assign(new Error('the upgrade artifact answered HTTP 404'), { code: 'MA_ERR_UPGRADE_DOWNLOAD' }) } },
    installer: { install: async () => {} },
  })
  const actor = createActor(built.logic, { input: built.input }).start()
  ref.actor = actor
  const route = (method: string) => built.adminRoutes.find((r) => r.method === method && r.path === '/api/upgrade')!
  return { built, actor, posted, syncs, route }
}

describe('the upgrade part', () => {
  it('moves a damaged upgrade.json aside and starts with no upgrade state', async () => {
    await writeFile(join(dir, 'upgrade.json'), '{ not json')
    const { built } = await part()
    expect(built.input).toMatchObject({ reported: [], unposted: [] })
    expect((await readdir(dir)).some((name) => name.startsWith('upgrade.json.corrupt-'))).toBe(true)
  })

  it('posts a result left unposted, marks it posted, and a version just installed reports success after registering', async () => {
    const left: UpgradeResult = { outcome: 'failure', fromVersion: '0.9.0', toVersion: '1.1.0', error: 'rolled back' }
    await writeUpgradeState(dir, { pending: { fromVersion: '0.9.0', toVersion: '1.0.0', previous: null, launched: true }, results: [{ result: left, posted: false }] })
    const { actor, posted } = await part()
    await waitFor(actor, (snapshot) => snapshot.matches('confirming'))
    actor.send({ type: 'upgrade.registered' })
    await waitFor(actor, (snapshot) => snapshot.matches('idle'))
    expect(posted).toEqual([left, { outcome: 'success', fromVersion: '0.9.0', toVersion: '1.0.0' }])
    const state = await readUpgradeState(dir)
    expect(state.pending).toBeNull()
    expect(state.results.map((entry) => [entry.result.toVersion, entry.posted])).toEqual([['1.1.0', true], ['1.0.0', true]])
  })

  it('keeps a decided result unposted while the server cannot take it', async () => {
    const { actor } = await part({ post: async () => { throw new Error('server down') } })
    actor.send({ type: 'upgrade.sync', requested: true, offer: offer('1.0.0'), cycle: 1 })
    await waitFor(actor, (snapshot) => snapshot.matches('reportBackoff'))
    expect((await readUpgradeState(dir)).results).toEqual([{ result: { outcome: 'noop', fromVersion: '1.0.0', toVersion: '1.0.0' }, posted: false }])
    actor.stop()
  })

  it('answers update with the attempt it led to, and a second update with that same attempt while it is under way', async () => {
    const { actor, route, syncs, posted } = await part()
    const reply = route('POST').handle({ url: new URL('http://admin/api/upgrade'), body: {} })
    await Promise.resolve()
    expect(syncs).toEqual(['update'])
    // An answer already on its way when update asked does not count as "none offered".
    actor.send({ type: 'upgrade.sync', requested: false, cycle: 0 })
    actor.send({ type: 'upgrade.sync', requested: true, offer: offer('1.2.0'), cycle: 1 })
    expect(actor.getSnapshot().value).toBe('downloading')
    const joined = route('POST').handle({ url: new URL('http://admin/api/upgrade'), body: {} })
    const outcome = { status: 200, json: { seq: 1, outcome: 'failure', targetVersion: '1.2.0', error: 'the upgrade artifact answered HTTP 404', currentVersion: '1.0.0' } }
    expect(await reply).toEqual(outcome)
    // The second update asked for no sync of its own and reports the attempt that was under way.
    expect(await joined).toEqual(outcome)
    expect(syncs).toEqual(['update'])
    expect(posted).toHaveLength(1)
    expect(await route('GET').handle({ url: new URL('http://admin/api/upgrade'), body: {} })).toMatchObject({ json: { state: 'idle', supervisor: 'restart', last: { outcome: 'failure' } } })

    const none = route('POST').handle({ url: new URL('http://admin/api/upgrade'), body: {} })
    await Promise.resolve()
    actor.send({ type: 'upgrade.sync', requested: false, cycle: 2 })
    expect(await none).toMatchObject({ json: { outcome: 'none', currentVersion: '1.0.0' } })
    // The flag seen down: the remembered result is dropped from upgrade.json.
    await expect.poll(async () => (await readUpgradeState(dir)).results, { timeout: 5_000 }).toEqual([])
  })
})
