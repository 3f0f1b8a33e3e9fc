// A module imported on first use (docs/operations.md "What loads when"): an idle agent must not
// hold what only a download, an HLS session, a scan or a UPnP mapping needs. The first get()
// starts the load and every call made meanwhile shares it; a loaded value is kept. A failed load
// is forgotten, so the next get() tries again: the import (or the construction behind it) may have
// failed for a passing reason (EMFILE, a version being installed side by side), and one failure
// must not disable the feature until the daemon restarts. The calls that shared it get its error.

export interface Lazy<T> {
  /** The value, loading it now if no load is in flight or done. */
  get(): Promise<T>
  /** The loaded value; undefined before the first load finished and after a failed one. Never starts a load. */
  readonly value: T | undefined
  /** The load in flight or done; undefined before the first get() and after a failed load. Never starts a load. */
  readonly loading: Promise<T> | undefined
}

export function lazily<T>(load: () => T | Promise<T>): Lazy<T> {
  let value: T | undefined
  let loading: Promise<T> | undefined
  return {
    get() {
      if (loading) return loading
      // Through a resolved promise, so a load that throws at once rejects like one that fails later.
      const attempt: Promise<T> = Promise.resolve()
        .then(load)
        .then(
          (loaded) => (value = loaded),
          (error: unknown) => {
            if (loading === attempt) loading = undefined
            throw error
          },
        )
      loading = attempt
      return attempt
    },
    get value() {
      return value
    },
    get loading() {
      return loading
    },
  }
}
