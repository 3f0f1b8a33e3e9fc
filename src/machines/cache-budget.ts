// The segment cache's budget rule (contract 2.6 "eviction is LRU plus a size budget"), pure so
// the cache machine, the property model and the benchmark share it. Pinned and writing entries
// count towards the total but are never chosen; the least recently used evictable ones go first
// until the total is within budget (or nothing evictable is left).

export interface BudgetEntry {
  key: string
  bytes: number
  lastUsedAt: number
  evictable: boolean
}

export function totalBytes(entries: Iterable<BudgetEntry>): number {
  let total = 0
  for (const entry of entries) total += entry.bytes
  return total
}

/** Keys to evict, oldest first, so that the total fits `budgetBytes` where it can. */
export function planEviction(entries: readonly BudgetEntry[], budgetBytes: number, total = totalBytes(entries)): string[] {
  if (total <= budgetBytes) return []
  const candidates = entries.filter((entry) => entry.evictable).sort((a, b) => a.lastUsedAt - b.lastUsedAt || (a.key < b.key ? -1 : 1))
  const victims: string[] = []
  let left = total
  for (const entry of candidates) {
    if (left <= budgetBytes) break
    victims.push(entry.key)
    left -= entry.bytes
  }
  return victims
}
