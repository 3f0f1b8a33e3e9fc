// Child of torrent-tasks-kill9.test.ts: hammers tasks.json with updates until it is killed.
// Prints "durable <id>" once a newly added task is known to be on disk.
import { silentLogger } from '../../src/log.js'
import type { TaskRecord } from '../../src/machines/task.machine.js'
import { FileTasksStore } from '../../src/services/torrent/tasks-store.js'

const stateDir = process.argv[2]
if (!stateDir) throw new Error('usage: child <stateDir>')
const states = ['queued', 'fetching_metadata', 'downloading', 'paused', 'seeding', 'completed', 'error'] as const

const store = new FileTasksStore({ stateDir, logger: silentLogger(), minWriteIntervalMs: 2 })
const tasks: TaskRecord[] = await store.load()
let n = 0
for (;;) {
  const id = `t-${process.pid}-${n++}`
  const record: TaskRecord = {
    id, source: `magnet:?xt=urn:btih:${'d'.repeat(40)}`, infoHash: '', name: `task ${id} ${'x'.repeat(200)}`, state: 'queued',
    size: 1e9, downloaded: 0, uploaded: 0, progress: 0, files: [{ path: `/downloads/${id}/a.mkv`, size: 1e9, progress: 0 }], addedAt: Date.now(),
  }
  tasks.push(record)
  store.put(record, { immediate: true })
  await store.flush()
  process.stdout.write(`durable ${id}\n`)
  for (let i = 0; i < 25; i++) {
    const task = tasks[Math.floor(Math.random() * tasks.length)]!
    const progress = Math.random()
    const next = { ...task, progress, downloaded: Math.round(progress * task.size), state: states[Math.floor(Math.random() * states.length)]! }
    tasks[tasks.indexOf(task)] = next
    store.put(next, { immediate: Math.random() < 0.5 })
  }
  await new Promise((resolve) => setImmediate(resolve))
}
