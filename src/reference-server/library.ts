// The web server's side of library sync (protocol.md 7.6), in memory: per agent, the library it
// holds and the scan that library is as of. A `full` replaces it (in parts: once every part
// of the scanId has arrived); a `delta` applies to it only when its `baseScanId` is the scan the
// server holds, else `409 base_mismatch` and the agent sends a full.
import type { LibraryItem, LibraryRootSync, LibrarySync } from '../protocol/wire.js'

export interface HeldLibrary {
  /** The scan the held library is as of; undefined until a full (every part) arrived. */
  scanId: string | undefined
  libraries: { root: string; items: LibraryItem[] }[]
}

export type LibraryApplyResult =
  | { ok: true; complete: boolean }
  | { ok: false; error: 'base_mismatch'; held: string | undefined }

interface AgentLibrary {
  scanId: string | undefined
  roots: Map<string, Map<string, LibraryItem>>
  assembling: { scanId: string; parts: number; received: Map<number, LibraryRootSync[]> } | undefined
}

export class LibraryHoldings {
  readonly #agents = new Map<string, AgentLibrary>()

  #agent(agentId: string): AgentLibrary {
    let agent = this.#agents.get(agentId)
    if (!agent) {
      agent = { scanId: undefined, roots: new Map(), assembling: undefined }
      this.#agents.set(agentId, agent)
    }
    return agent
  }

  apply(upload: LibrarySync): LibraryApplyResult {
    const agent = this.#agent(upload.agentId)
    if (upload.mode === 'delta') {
      if (agent.scanId === undefined || agent.scanId !== upload.baseScanId) return { ok: false, error: 'base_mismatch', held: agent.scanId }
      for (const library of upload.libraries) {
        const items = agent.roots.get(library.root) ?? new Map<string, LibraryItem>()
        for (const path of library.removed ?? []) items.delete(path)
        for (const item of library.items) items.set(item.path, item)
        if (items.size === 0) agent.roots.delete(library.root)
        else agent.roots.set(library.root, items)
      }
      agent.scanId = upload.scanId
      return { ok: true, complete: true }
    }
    const parts = upload.parts ?? 1
    if (parts === 1) {
      agent.roots = rootsOf(upload.libraries)
      agent.scanId = upload.scanId
      agent.assembling = undefined
      return { ok: true, complete: true }
    }
    // A part of another scan than the one being assembled starts over: that scan was abandoned.
    if (agent.assembling?.scanId !== upload.scanId || agent.assembling.parts !== parts) {
      agent.assembling = { scanId: upload.scanId, parts, received: new Map() }
    }
    agent.assembling.received.set(upload.part ?? 1, upload.libraries)
    if (agent.assembling.received.size < parts) return { ok: true, complete: false }
    const all = [...agent.assembling.received.entries()].sort(([a], [b]) => a - b).flatMap(([, libraries]) => libraries)
    agent.roots = rootsOf(all)
    agent.scanId = upload.scanId
    agent.assembling = undefined
    return { ok: true, complete: true }
  }

  held(agentId: string): HeldLibrary | undefined {
    const agent = this.#agents.get(agentId)
    if (!agent) return undefined
    return { scanId: agent.scanId, libraries: [...agent.roots].map(([root, items]) => ({ root, items: [...items.values()] })) }
  }

  /** The server loses what it held for one agent (or every agent): the next delta gets base_mismatch. */
  forget(agentId?: string): void {
    if (agentId === undefined) this.#agents.clear()
    else this.#agents.delete(agentId)
  }
}

function rootsOf(libraries: readonly LibraryRootSync[]): Map<string, Map<string, LibraryItem>> {
  const roots = new Map<string, Map<string, LibraryItem>>()
  for (const library of libraries) {
    const items = roots.get(library.root) ?? new Map<string, LibraryItem>()
    for (const item of library.items) items.set(item.path, item)
    roots.set(library.root, items)
  }
  for (const [root, items] of roots) if (items.size === 0) roots.delete(root)
  return roots
}
