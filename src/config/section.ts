// Reads one table of a parsed TOML document: typed values with the key that failed, and the
// keys nobody asked for (unknown or removed) for the warnings of protocol.md 5.
import { ConfigError } from '../errors.js'

export type RawTable = Record<string, unknown>

/** A parser returns undefined when the value does not fit. */
export type Parse<T> = (value: unknown) => T | undefined

export const REQUIRED = Symbol('required')

export interface ReadOptions {
  /** Never echo the value in an error message (tokens, secrets). */
  secret?: boolean
}

/** Shared by every section of one document. */
export class DocumentReport {
  readonly unknown: string[] = []
  readonly removed: string[] = []
  constructor(readonly file: string) {}

  fail(key: string, expected: string, value: unknown, options: ReadOptions & { because?: string } = {}): never {
    const got = value === undefined ? 'it is missing' : `got ${options.secret === true ? kindOf(value) : describe(value)}`
    const because = options.because === undefined ? '' : ` (${options.because})`
    throw new ConfigError(`Invalid config ${this.file}: ${key} must be ${expected}${because}; ${got}.`, {
      file: this.file,
      key,
      expected,
    })
  }
}

export function isTable(value: unknown): value is RawTable {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === null || proto === Object.prototype
}

const bareKey = /^[A-Za-z0-9_-]+$/

/** Joins TOML keys as a reader would type them: `downloads.hls_cache.size_gb`, quoting odd ones. */
export function dotted(prefix: string, name: string): string {
  const part = bareKey.test(name) ? name : JSON.stringify(name)
  return prefix === '' ? part : `${prefix}.${part}`
}

export class Section {
  private readonly seen = new Set<string>()

  constructor(
    readonly report: DocumentReport,
    readonly raw: RawTable,
    /** Dotted key of this table; '' for the document root. */
    readonly path: string,
  ) {}

  key(name: string): string {
    return dotted(this.path, name)
  }

  /** The raw value, marking the key as known. */
  take(name: string): unknown {
    this.seen.add(name)
    return Object.hasOwn(this.raw, name) ? this.raw[name] : undefined
  }

  section(name: string): Section {
    const value = this.take(name)
    if (value === undefined) return new Section(this.report, Object.create(null) as RawTable, this.key(name))
    if (!isTable(value)) this.report.fail(this.key(name), `a table ([${this.key(name)}])`, value)
    return new Section(this.report, value, this.key(name))
  }

  read<T>(name: string, expected: string, parse: Parse<T>, fallback: T | typeof REQUIRED, options: ReadOptions = {}): T {
    const value = this.take(name)
    if (value === undefined) {
      if (fallback === REQUIRED) return this.report.fail(this.key(name), expected, undefined, options)
      return fallback
    }
    const parsed = parse(value)
    if (parsed === undefined) return this.report.fail(this.key(name), expected, value, options)
    return parsed
  }

  /** An array whose items are checked one by one, so the error names `key[index]`. */
  readArray<T>(name: string, expected: { array: string; item: string }, parse: Parse<T>, fallback: readonly T[]): T[] {
    const value = this.take(name)
    if (value === undefined) return [...fallback]
    if (!Array.isArray(value)) return this.report.fail(this.key(name), expected.array, value)
    return value.map((item: unknown, index) => {
      const parsed = parse(item)
      if (parsed === undefined) return this.report.fail(`${this.key(name)}[${index}]`, expected.item, item)
      return parsed
    })
  }

  /**
   * Records every key not read so far: names in `removed` as removed settings, the rest as
   * unknown. Call after all reads of this table.
   */
  finish(removed: readonly string[] = []): void {
    for (const name of Object.keys(this.raw)) {
      if (this.seen.has(name)) continue
      if (removed.includes(name)) this.report.removed.push(this.key(name))
      else this.report.unknown.push(this.key(name))
    }
  }
}

// ---- value parsers ---------------------------------------------------------------------------

export const asString: Parse<string> = (value) => (typeof value === 'string' ? value : undefined)

export const asNonEmptyString: Parse<string> = (value) => (typeof value === 'string' && value !== '' ? value : undefined)

export const asBoolean: Parse<boolean> = (value) => (typeof value === 'boolean' ? value : undefined)

export function asNumber(accept: (n: number) => boolean): Parse<number> {
  return (value) => (typeof value === 'number' && Number.isFinite(value) && accept(value) ? value : undefined)
}

export const asPort: Parse<number> = asNumber((n) => Number.isInteger(n) && n >= 1 && n <= 65_535)

export function asEnum<const T extends string>(values: readonly T[]): Parse<T> {
  return (value) => (typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined)
}

/** An http(s) URL without query or fragment; returned normalised, without a trailing slash. */
export const asHttpUrl: Parse<string> = (value) => {
  if (typeof value !== 'string' || value.trim() !== value || value === '') return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.hostname === '' || url.search !== '' || url.hash !== '' || value.includes('#') || value.includes('?')) return undefined
  return url.href.replace(/\/+$/, '')
}

// ---- descriptions for messages ---------------------------------------------------------------

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (isTable(value)) return 'a table'
  if (value instanceof Date) return 'a date'
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string'
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number'
  if (typeof value === 'boolean') return 'a boolean'
  if (typeof value === 'object' && value !== null) return 'a date'
  return typeof value
}

function describe(value: unknown): string {
  if (typeof value === 'string') {
    if (value === '') return 'an empty string'
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value
    return JSON.stringify(shown)
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return kindOf(value)
}
