import { describe, expect, it } from 'vitest'
import { fromCallback, waitFor, type AnyActorLogic } from 'xstate'
import { createSystem } from '../../src/system/create-system.js'
import { silentLogger } from '../../src/log.js'

function recordingChild(log: string[], name: string, options: { failAfterStart?: { count: number } } = {}): AnyActorLogic {
  return fromCallback(({ sendBack: _sendBack }) => {
    log.push(`start ${name}`)
    if (options.failAfterStart && options.failAfterStart.count > 0) {
      options.failAfterStart.count--
      throw new Error(`${name} broke`)
    }
    return () => log.push(`stop ${name}`)
  })
}

const supervisor = { childRestartBaseMs: 1, childRestartMaxMs: 5 }

describe('the actor system', () => {
  it('starts children in order and stops them in reverse before closing services in order', async () => {
    const log: string[] = []
    const system = createSystem({
      logger: silentLogger(),
      supervisor,
      parts: {
        children: [{ name: 'controlPlane', logic: recordingChild(log, 'controlPlane') }],
        closers: [
          { name: 'tasks', close: async () => { log.push('close tasks') } },
          { name: 'stream server', close: async () => { log.push('close stream server') } },
        ],
      },
    })
    expect(system.actorTree().children.map((child) => child.id)).toEqual(['controlPlane'])
    expect(await system.shutdown()).toEqual({ clean: true })
    expect(log).toEqual(['start controlPlane', 'stop controlPlane', 'close tasks', 'close stream server'])
    expect(system.root.getSnapshot().status).toBe('done')
  })

  it('restarts a failing child with backoff and never takes the root down', async () => {
    const log: string[] = []
    const failures = { count: 3 }
    const system = createSystem({ logger: silentLogger(), supervisor, parts: { children: [{ name: 'controlPlane', logic: recordingChild(log, 'controlPlane', { failAfterStart: failures }) }], closers: [] } })
    const snapshot = await waitFor(system.root, (s) => s.context.restarts.controlPlane === 3 && s.children.controlPlane?.getSnapshot().status === 'active')
    expect(snapshot.status).toBe('active')
    expect(snapshot.context.restarts.controlPlane).toBe(3)
    expect(snapshot.context.lastFailure.controlPlane).toContain('controlPlane broke')
    expect(log.filter((line) => line === 'start controlPlane')).toHaveLength(4)
    await system.shutdown()
  })

  it('gives up waiting for a part that hangs once the shutdown deadline passes', async () => {
    const system = createSystem({
      logger: silentLogger(),
      supervisor,
      shutdownDeadlineMs: 50,
      parts: { children: [], closers: [{ name: 'stuck', close: () => new Promise<void>(() => {}) }] },
    })
    expect(await system.shutdown()).toEqual({ clean: false })
  })
})
