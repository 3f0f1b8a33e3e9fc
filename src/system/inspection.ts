import type { InspectionEvent } from 'xstate'
import { summarize } from './summarize.js'

// Inspection events of the whole actor system, kept in a bounded ring buffer for
// `GET /debug/events` (protocol.md 6). Only a compact, secret-free record is kept: holding the
// raw events would pin every snapshot in memory.

export interface InspectionRecord {
  seq: number
  at: number
  type: 'actor' | 'event' | 'snapshot' | 'action'
  actorId: string
  systemId?: string
  eventType?: string
  sourceId?: string
  value?: unknown
  status?: string
  action?: string
}

export type InspectionListener = (record: InspectionRecord) => void

export class InspectionHub {
  private readonly ring: (InspectionRecord | undefined)[]
  private next = 0
  private seq = 0
  private readonly listeners = new Set<InspectionListener>()

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ring = new Array(capacity)
  }

  /** The observer handed to createActor({ inspect }). */
  readonly inspect = (event: InspectionEvent): void => {
    const record = this.toRecord(event)
    if (record === undefined) return
    this.ring[this.next] = record
    this.next = (this.next + 1) % this.capacity
    for (const listener of this.listeners) listener(record)
  }

  /** Buffered records, oldest first; `afterSeq` skips those already seen (SSE Last-Event-ID). */
  recent(afterSeq = 0): InspectionRecord[] {
    const out: InspectionRecord[] = []
    for (let i = 0; i < this.capacity; i++) {
      const record = this.ring[(this.next + i) % this.capacity]
      if (record !== undefined && record.seq > afterSeq) out.push(record)
    }
    return out
  }

  subscribe(listener: InspectionListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private toRecord(event: InspectionEvent): InspectionRecord | undefined {
    const ref = event.actorRef as { id?: string; systemId?: string; sessionId?: string }
    const base = { seq: ++this.seq, at: this.now(), actorId: ref.id ?? ref.sessionId ?? '?', ...(ref.systemId ? { systemId: ref.systemId } : {}) }
    switch (event.type) {
      case '@xstate.actor':
        return { ...base, type: 'actor' }
      case '@xstate.event': {
        const source = event.sourceRef as { id?: string } | undefined
        return { ...base, type: 'event', eventType: event.event.type, ...(source?.id ? { sourceId: source.id } : {}) }
      }
      case '@xstate.snapshot': {
        const snapshot = event.snapshot as { value?: unknown; status?: string }
        return { ...base, type: 'snapshot', eventType: event.event.type, value: summarize(snapshot.value), ...(snapshot.status ? { status: snapshot.status } : {}) }
      }
      case '@xstate.action':
        return { ...base, type: 'action', action: event.action.type }
      default:
        this.seq-- // microsteps and transitions repeat what snapshots say
        return undefined
    }
  }
}
