// At most `maxConcurrent` jobs run; up to `maxQueue` more wait in arrival order; beyond that the
// caller is told at once (the thumbnail route answers 503 with Retry-After). A waiter whose
// request is abandoned leaves the queue.

export interface JobQueue {
  /**
   * A release function once a slot is free; undefined when the queue is full. Rejects with the
   * signal's reason if the signal aborts while waiting.
   */
  acquire(signal: AbortSignal): Promise<() => void> | undefined
  readonly running: number
  readonly waiting: number
}

export function createJobQueue({ maxConcurrent, maxQueue }: { maxConcurrent: number; maxQueue: number }): JobQueue {
  let running = 0
  const waiters: { grant: () => void }[] = []

  const releaser = (): (() => void) => {
    let released = false
    return () => {
      if (released) return
      released = true
      running--
      const next = waiters.shift()
      if (next !== undefined) next.grant()
    }
  }

  return {
    get running() {
      return running
    },
    get waiting() {
      return waiters.length
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      if (running < maxConcurrent) {
        running++
        return Promise.resolve(releaser())
      }
      if (waiters.length >= maxQueue) return undefined
      return new Promise<() => void>((resolve, reject) => {
        const waiter = {
          grant: () => {
            signal.removeEventListener('abort', onAbort)
            running++
            resolve(releaser())
          },
        }
        const onAbort = (): void => {
          const index = waiters.indexOf(waiter)
          if (index !== -1) waiters.splice(index, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', onAbort, { once: true })
        waiters.push(waiter)
      })
    },
  }
}
