// Pending task actions and when they count as delivered (docs/reference-server.md "Delivery rules"):
// - add_task is repeated in every sync response to its agent until a sync from that agent lists a
//   task with that id;
// - delete_task is repeated until a sync from that agent, received after the action was first
//   delivered, no longer lists the task (a sync already in flight cannot acknowledge it);
// - an action queued without an agent id binds to the first agent whose sync delivers it;
// - deleting a task whose add_task was never delivered simply withdraws the add_task.
import type { SyncAction } from '../protocol/wire.js'

export type AddState = 'pending' | 'acknowledged' | 'withdrawn' | 'none'

export interface TaskRecord {
  taskId: string
  /** magnet URI, .torrent URL or hex info hash; empty for a delete of a task never queued here. */
  source: string
  agentId: string | undefined
  queuedAt: number
  add: AddState
  addDeliveries: number
  delete: { deleteFiles: boolean; queuedAt: number; deliveries: number; acknowledged: boolean } | undefined
}

export class TaskQueue {
  readonly #records = new Map<string, TaskRecord>()

  constructor(private readonly newId: () => string, private readonly now: () => number) {}

  queue(source: string, agentId?: string, taskId: string = this.newId()): TaskRecord {
    const record: TaskRecord = { taskId, source, agentId, queuedAt: this.now(), add: 'pending', addDeliveries: 0, delete: undefined }
    this.#records.set(taskId, record)
    return record
  }

  /** Returns whether a delete_task will be delivered (false when a pending add was only withdrawn). */
  delete(taskId: string, options: { deleteFiles?: boolean; agentId?: string } = {}): boolean {
    let record = this.#records.get(taskId)
    if (!record) {
      record = { taskId, source: '', agentId: options.agentId, queuedAt: this.now(), add: 'none', addDeliveries: 0, delete: undefined }
      this.#records.set(taskId, record)
    }
    if (record.add === 'pending') {
      record.add = 'withdrawn'
      if (record.addDeliveries === 0) return false
    }
    record.agentId ??= options.agentId
    record.delete = { deleteFiles: options.deleteFiles ?? false, queuedAt: this.now(), deliveries: 0, acknowledged: false }
    return true
  }

  /** Applies what a sync from `agentId` reports, before its response is built. */
  acknowledge(agentId: string, listedTaskIds: ReadonlySet<string>): void {
    for (const record of this.#records.values()) {
      if (record.agentId !== undefined && record.agentId !== agentId) continue
      if (record.add === 'pending' && listedTaskIds.has(record.taskId)) {
        record.add = 'acknowledged'
        record.agentId = agentId
      }
      const pendingDelete = record.delete
      if (pendingDelete && !pendingDelete.acknowledged && pendingDelete.deliveries > 0 && record.agentId === agentId && !listedTaskIds.has(record.taskId)) {
        pendingDelete.acknowledged = true
      }
    }
  }

  /** The actions for one sync response; counts the delivery and binds unbound actions. */
  actionsFor(agentId: string): SyncAction[] {
    const actions: SyncAction[] = []
    for (const record of this.#records.values()) {
      if (record.agentId !== undefined && record.agentId !== agentId) continue
      if (record.add === 'pending') {
        record.agentId = agentId
        record.addDeliveries += 1
        actions.push({ type: 'add_task', taskId: record.taskId, source: record.source })
      }
      if (record.delete && !record.delete.acknowledged) {
        record.agentId = agentId
        record.delete.deliveries += 1
        actions.push({ type: 'delete_task', taskId: record.taskId, deleteFiles: record.delete.deleteFiles })
      }
    }
    return actions
  }

  get(taskId: string): TaskRecord | undefined {
    return this.#records.get(taskId)
  }

  list(): TaskRecord[] {
    return [...this.#records.values()]
  }
}
