import { describe, expect, it } from 'vitest'
import { createJobQueue } from '../../src/server/routes/job-queue.js'

describe('the thumbnail job queue', () => {
  it('runs up to the limit, queues in order, and refuses beyond the queue', async () => {
    const queue = createJobQueue({ maxConcurrent: 2, maxQueue: 2 })
    const signal = new AbortController().signal
    const a = await queue.acquire(signal)!
    const b = await queue.acquire(signal)!
    const order: string[] = []
    const c = queue.acquire(signal)!.then((release) => (order.push('c'), release))
    const d = queue.acquire(signal)!.then((release) => (order.push('d'), release))
    expect(queue.acquire(signal)).toBeUndefined()
    expect([queue.running, queue.waiting]).toEqual([2, 2])
    a()
    a()
    const releaseC = await c
    b()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    expect([queue.running, queue.waiting]).toEqual([0, 0])
  })

  it('drops a waiter whose request was abandoned', async () => {
    const queue = createJobQueue({ maxConcurrent: 1, maxQueue: 1 })
    const release = await queue.acquire(new AbortController().signal)!
    const controller = new AbortController()
    const waiting = queue.acquire(controller.signal)!
    controller.abort(new Error('player left'))
    await expect(waiting).rejects.toThrow('player left')
    expect(queue.waiting).toBe(0)
    release()
    expect(queue.running).toBe(0)
  })
})
