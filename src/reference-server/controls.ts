// Typed controls (protocol.md 1) queued by a test or a person. A control is listed in every sync
// response to its agent until a sync from that agent names its id in `appliedControls`; it also
// goes out at once as an SSE `command` to connected streams. A control queued without an agent id
// binds to the first agent whose sync delivers or acknowledges it.
import type { IncomingControl } from '../protocol/wire.js'

export interface ControlRecord {
  control: IncomingControl
  agentId: string | undefined
  queuedAt: number
  deliveries: number
  appliedAt: number | undefined
}

export type ControlInput = { kind: string; id?: string; [key: string]: unknown }

export class ControlQueue {
  readonly #records = new Map<string, ControlRecord>()

  constructor(private readonly newId: () => string, private readonly now: () => number) {}

  queue(input: ControlInput, agentId?: string): ControlRecord {
    const control = { ...input, id: input.id ?? this.newId() } as IncomingControl
    const record: ControlRecord = { control, agentId, queuedAt: this.now(), deliveries: 0, appliedAt: undefined }
    this.#records.set(control.id, record)
    return record
  }

  acknowledge(agentId: string, appliedIds: readonly string[]): void {
    for (const id of appliedIds) {
      const record = this.#records.get(id)
      if (!record || record.appliedAt !== undefined) continue
      if (record.agentId !== undefined && record.agentId !== agentId) continue
      record.agentId = agentId
      record.appliedAt = this.now()
    }
  }

  controlsFor(agentId: string): IncomingControl[] {
    const controls: IncomingControl[] = []
    for (const record of this.#records.values()) {
      if (record.appliedAt !== undefined) continue
      if (record.agentId !== undefined && record.agentId !== agentId) continue
      record.agentId = agentId
      record.deliveries += 1
      controls.push(record.control)
    }
    return controls
  }

  get(id: string): ControlRecord | undefined {
    return this.#records.get(id)
  }

  list(): ControlRecord[] {
    return [...this.#records.values()]
  }
}
