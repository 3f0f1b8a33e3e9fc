// lazily(): the one memoized dynamic import behind the engines and parts that load on first use
// (docs/operations.md "What loads when").
import { describe, expect, it } from 'vitest'
import { lazily } from '../../src/services/runtime/lazily.js'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

describe('lazily', () => {
  it('loads nothing until the first get, and reading value or loading does not start a load', () => {
    let loads = 0
    const lazy = lazily(() => { loads++; return 'module' })
    expect(lazy.value).toBeUndefined()
    expect(lazy.loading).toBeUndefined()
    expect(loads).toBe(0)
  })

  it('shares one load between the calls made while it is in flight, and keeps its value', async () => {
    const module = deferred<{ name: string }>()
    let loads = 0
    const lazy = lazily(() => { loads++; return module.promise })
    const first = lazy.get()
    const second = lazy.get()
    expect(lazy.loading).toBe(first)
    expect(lazy.value).toBeUndefined()
    module.resolve({ name: 'engine' })
    const [a, b] = await Promise.all([first, second])
    expect(a).toBe(b)
    expect(lazy.value).toBe(a)
    expect(await lazy.get()).toBe(a)
    expect(loads).toBe(1)
  })

  it('fails every call that shared a failed load, then forgets it so that the next get loads again', async () => {
    const attempts = [deferred<string>(), deferred<string>()]
    let loads = 0
    const lazy = lazily(() => attempts[loads++]!.promise)
    const first = lazy.get()
    const second = lazy.get()
    attempts[0]!.reject(new Error('EMFILE: too many open files'))
    await expect(first).rejects.toThrow('EMFILE')
    await expect(second).rejects.toThrow('EMFILE')
    expect(lazy.loading).toBeUndefined()
    expect(lazy.value).toBeUndefined()

    const retry = lazy.get()
    attempts[1]!.resolve('module')
    expect(await retry).toBe('module')
    expect(lazy.value).toBe('module')
    expect(loads).toBe(2)
  })

  it('turns a load that throws at once into a rejected get, retried by the next one', async () => {
    let loads = 0
    const lazy = lazily(() => {
      loads++
      if (loads === 1) throw new Error('cannot find module')
      return 42
    })
    await expect(lazy.get()).rejects.toThrow('cannot find module')
    expect(await lazy.get()).toBe(42)
  })
})
