// What tests await instead of sleeping: every fact the server observes is an event, and
// `waitFor` resolves on the next one that matches (future events only).
import { EventEmitter } from 'node:events'
import { referenceWaitForTimeoutMs } from '../config/defaults.js'
import { ReferenceServerError } from '../errors.js'

export class TypedEmitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #emitter = new EventEmitter()

  constructor() {
    this.#emitter.setMaxListeners(0)
  }

  on<K extends keyof Events & string>(name: K, listener: (payload: Events[K]) => void): () => void {
    this.#emitter.on(name, listener)
    return () => this.#emitter.off(name, listener)
  }

  once<K extends keyof Events & string>(name: K, listener: (payload: Events[K]) => void): () => void {
    this.#emitter.once(name, listener)
    return () => this.#emitter.off(name, listener)
  }

  emit<K extends keyof Events & string>(name: K, payload: Events[K]): void {
    this.#emitter.emit(name, payload)
  }

  /** Resolves with the next `name` event for which `predicate` holds; rejects after `timeoutMs`. */
  waitFor<K extends keyof Events & string>(name: K, predicate: (payload: Events[K]) => boolean = () => true, timeoutMs: number = referenceWaitForTimeoutMs): Promise<Events[K]> {
    return new Promise((resolve, reject) => {
      const listener = (payload: Events[K]): void => {
        let matched = false
        try {
          matched = predicate(payload)
        } catch (err) {
          cleanup()
          reject(err)
          return
        }
        if (!matched) return
        cleanup()
        resolve(payload)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new ReferenceServerError(`no matching '${name}' event within ${timeoutMs} ms`, { details: { event: name, timeoutMs } }))
      }, timeoutMs)
      const cleanup = (): void => {
        clearTimeout(timer)
        this.#emitter.off(name, listener)
      }
      this.#emitter.on(name, listener)
    })
  }
}
