// The upload a scan owes the server (protocol.md 7.6), pure: `full` lists every item of every
// root; `delta` lists, per root, the items that are new or changed since the last acknowledged
// scan and the paths that are gone. A rename is a removal and an addition. A root dropped from
// the config shows as all its paths removed.
import type { LibraryItem, LibraryRootSync, LibrarySync, LibrarySyncMode } from '../../protocol/wire.js'

/** root -> path -> item, roots and paths in the order of the scan. */
export type LibrarySnapshot = ReadonlyMap<string, ReadonlyMap<string, LibraryItem>>

/** What the server holds: root -> path -> fingerprint of the item it got. */
export type AckedLibrary = ReadonlyMap<string, ReadonlyMap<string, string>>

/** Equal fingerprints: the server's copy of the item is current. */
export function fingerprint(item: LibraryItem): string {
  return JSON.stringify(item)
}

export function ackedOf(snapshot: LibrarySnapshot): AckedLibrary {
  const acked = new Map<string, Map<string, string>>()
  for (const [root, items] of snapshot) {
    const paths = new Map<string, string>()
    for (const [path, item] of items) paths.set(path, fingerprint(item))
    acked.set(root, paths)
  }
  return acked
}

export interface LibraryDelta {
  libraries: LibraryRootSync[]
  /** New or changed items. */
  items: number
  removed: number
}

export function diffLibrary(acked: AckedLibrary, current: LibrarySnapshot): LibraryDelta {
  const libraries: LibraryRootSync[] = []
  let itemCount = 0
  let removedCount = 0
  const roots = new Set([...current.keys(), ...acked.keys()])
  for (const root of roots) {
    const now = current.get(root) ?? new Map<string, LibraryItem>()
    const before = acked.get(root) ?? new Map<string, string>()
    const items: LibraryItem[] = []
    const removed: string[] = []
    for (const [path, item] of now) {
      if (before.get(path) !== fingerprint(item)) items.push(item)
    }
    for (const path of before.keys()) if (!now.has(path)) removed.push(path)
    if (items.length === 0 && removed.length === 0) continue
    libraries.push({ root, items, removed })
    itemCount += items.length
    removedCount += removed.length
  }
  return { libraries, items: itemCount, removed: removedCount }
}

/** Number of items in a snapshot. */
export function itemCount(snapshot: LibrarySnapshot): number {
  let count = 0
  for (const items of snapshot.values()) count += items.size
  return count
}

export interface SyncBodiesInput {
  agentId: string
  scanId: string
  mode: LibrarySyncMode
  baseScanId?: string | undefined
  libraries: LibraryRootSync[]
  partMaxItems: number
}

/**
 * The request bodies of one upload: a `full` over `partMaxItems` items is split into parts
 * under one scanId (`part` 1-based, `parts`); every root is named in part 1 even when empty,
 * so the server learns of an empty root too.
 */
export function librarySyncBodies(input: SyncBodiesInput): LibrarySync[] {
  const base = { agentId: input.agentId, scanId: input.scanId, mode: input.mode }
  if (input.mode === 'delta') return [{ ...base, ...(input.baseScanId === undefined ? {} : { baseScanId: input.baseScanId }), libraries: input.libraries }]
  const total = input.libraries.reduce((sum, library) => sum + library.items.length, 0)
  const max = Math.max(1, input.partMaxItems)
  if (total <= max) return [{ ...base, libraries: input.libraries.map(({ root, items }) => ({ root, items })) }]
  const parts: LibraryRootSync[][] = [[]]
  let room = max
  for (const { root, items } of input.libraries) {
    let offset = 0
    if (items.length === 0) parts[0]!.push({ root, items: [] })
    while (offset < items.length) {
      if (room === 0) {
        parts.push([])
        room = max
      }
      const slice = items.slice(offset, offset + room)
      parts.at(-1)!.push({ root, items: slice })
      offset += slice.length
      room -= slice.length
    }
  }
  return parts.map((libraries, index) => ({ ...base, part: index + 1, parts: parts.length, libraries }))
}

export interface UploadPlan {
  mode: LibrarySyncMode
  bodies: LibrarySync[]
  /** New or changed items sent (every item for a full). */
  uploadedItems: number
  removed: number
}

/**
 * What to send for `current` when the server holds `acked`: a delta, or a full when one is owed
 * (`full`) or when the delta is bigger than a part, where a full costs no more and goes in parts.
 */
export function planUpload(input: {
  agentId: string
  scanId: string
  full: boolean
  baseScanId: string | undefined
  acked: AckedLibrary
  current: LibrarySnapshot
  partMaxItems: number
}): UploadPlan {
  const common = { agentId: input.agentId, scanId: input.scanId, partMaxItems: input.partMaxItems }
  if (!input.full && input.baseScanId !== undefined) {
    const delta = diffLibrary(input.acked, input.current)
    if (delta.items + delta.removed <= input.partMaxItems) {
      return { mode: 'delta', bodies: librarySyncBodies({ ...common, mode: 'delta', baseScanId: input.baseScanId, libraries: delta.libraries }), uploadedItems: delta.items, removed: delta.removed }
    }
  }
  const libraries = [...input.current].map(([root, items]) => ({ root, items: [...items.values()] }))
  return { mode: 'full', bodies: librarySyncBodies({ ...common, mode: 'full', libraries }), uploadedItems: itemCount(input.current), removed: 0 }
}
