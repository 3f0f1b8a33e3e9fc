// A bounded, secret-free summary of any value, for the debug endpoints: actor contexts hold
// signing secrets, tokens and keys, and may hold large buffers or maps.

const secretKey = /secret|token|password|private|presharedkey|authorization|credential/i
const maxDepth = 3
const maxEntries = 20
const maxString = 200

export function summarize(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value
  switch (typeof value) {
    case 'string':
      return value.length > maxString ? `${value.slice(0, maxString)}…(${value.length} chars)` : value
    case 'number':
    case 'boolean':
      return value
    case 'bigint':
      return value.toString()
    case 'function':
      return '[function]'
    case 'symbol':
      return value.toString()
  }
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Error) return `${value.name}: ${value.message}`
  if (isActorRef(value)) return `[actor ${value.id}]`
  if (depth >= maxDepth) return Array.isArray(value) ? `[array(${value.length})]` : '[object]'
  if (Array.isArray(value)) {
    const items = value.slice(0, maxEntries).map((item) => summarize(item, depth + 1))
    return value.length > maxEntries ? [...items, `…(${value.length - maxEntries} more)`] : items
  }
  if (value instanceof Map) return summarize(Object.fromEntries(value), depth)
  if (value instanceof Set) return summarize([...value], depth)
  const out: Record<string, unknown> = {}
  const entries = Object.entries(value as Record<string, unknown>)
  for (const [key, item] of entries.slice(0, maxEntries)) {
    out[key] = secretKey.test(key) ? (item === '' || item === undefined ? item : '[redacted]') : summarize(item, depth + 1)
  }
  if (entries.length > maxEntries) out['…'] = `${entries.length - maxEntries} more keys`
  return out
}

function isActorRef(value: unknown): value is { id: string } {
  return typeof value === 'object' && value !== null && 'sessionId' in value && 'send' in value && 'id' in value
}
