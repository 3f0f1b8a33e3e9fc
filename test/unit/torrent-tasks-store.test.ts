import * as fs from 'node:fs/promises'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TasksFileCorruptError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import type { TaskRecord } from '../../src/machines/task.machine.js'
import { FileTasksStore, type StoreFs } from '../../src/services/torrent/tasks-store.js'

function record(id: string, over: Partial<TaskRecord> = {}): TaskRecord {
  return { id, source: 'b'.repeat(40), infoHash: 'b'.repeat(40), name: id, state: 'downloading', size: 10, downloaded: 1, uploaded: 0, progress: 0.1, files: [], addedAt: 1, ...over }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma-tasks-store-'))
})
afterEach(async () => {
  vi.useRealTimers()
  await rm(dir, { recursive: true, force: true })
})

async function fileTasks(): Promise<TaskRecord[]> {
  return (JSON.parse(await readFile(join(dir, 'tasks.json'), 'utf8')) as { tasks: TaskRecord[] }).tasks
}

describe('tasks.json store', () => {
  it('starts empty without a file and writes a state change at once', async () => {
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger() })
    expect(await store.load()).toEqual([])
    store.put(record('t1'), { immediate: true })
    await store.flush()
    expect(await fileTasks()).toEqual([record('t1')])
    // No temp file is left behind.
    expect((await readdir(dir)).sort()).toEqual(['tasks.json'])
  })

  it('writes progress at most once per interval but never loses the latest numbers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const opened: string[] = []
    const countingFs: StoreFs = { ...fs, open: ((path: string, ...rest: unknown[]) => { opened.push(String(path)); return (fs.open as (...a: unknown[]) => unknown)(path, ...rest) }) as StoreFs['open'] }
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 1000, fs: countingFs })
    await store.load()
    store.put(record('t1', { progress: 0.1 }), { immediate: false })
    await vi.waitFor(async () => expect((await fileTasks())[0]?.progress).toBe(0.1))
    const writes = () => opened.filter((p) => p.endsWith('.tmp')).length
    expect(writes()).toBe(1)
    for (let i = 2; i <= 9; i++) store.put(record('t1', { progress: i / 10 }), { immediate: false })
    await vi.advanceTimersByTimeAsync(500)
    expect(writes()).toBe(1)
    await vi.advanceTimersByTimeAsync(600)
    await vi.waitFor(() => expect(writes()).toBe(2))
    await store.flush()
    expect((await fileTasks())[0]?.progress).toBe(0.9)
  })

  it('writes a state change immediately even inside the coalescing window', async () => {
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), minWriteIntervalMs: 60_000 })
    await store.load()
    store.put(record('t1'), { immediate: false })
    await store.flush()
    store.put(record('t1', { state: 'paused' }), { immediate: true })
    await vi.waitFor(async () => expect((await fileTasks())[0]?.state).toBe('paused'))
  })

  it('moves a corrupt tasks.json aside and says so with a typed error', async () => {
    await writeFile(join(dir, 'tasks.json'), '{"version":1,"tasks":[{"id":"t1","sou')
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger(), now: () => Date.UTC(2026, 0, 2, 3, 4, 5) })
    const error = await store.load().catch((err: unknown) => err)
    expect(error).toBeInstanceOf(TasksFileCorruptError)
    expect((error as TasksFileCorruptError).code).toBe('MA_ERR_TASKS_FILE_CORRUPT')
    const movedTo = (error as TasksFileCorruptError).details?.movedTo as string
    expect((error as Error).message).toContain(movedTo)
    expect(await readFile(movedTo, 'utf8')).toContain('"sou')
    // The next start finds no file and begins empty; nothing was silently dropped.
    expect(await store.load()).toEqual([])
  })

  it('keeps every task in memory through a full disk and writes them once space is back', async () => {
    let full = true
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    const flakyFs: StoreFs = {
      ...fs,
      open: (async (path: string, flags: string, mode?: number) => {
        const handle = await fs.open(path, flags, mode)
        if (!full || !String(path).endsWith('.tmp')) return handle
        return Object.assign(Object.create(handle), { writeFile: async () => { throw enospc }, close: () => handle.close() })
      }) as StoreFs['open'],
    }
    const warnings: unknown[] = []
    const logger = silentLogger()
    logger.warn = ((obj: unknown) => { warnings.push(obj) }) as typeof logger.warn
    const store = new FileTasksStore({ stateDir: dir, logger, minWriteIntervalMs: 10, fs: flakyFs })
    await store.load()
    store.put(record('t1'), { immediate: true })
    store.put(record('t2'), { immediate: true })
    await store.flush()
    expect(warnings.length).toBeGreaterThan(0)
    expect(store.records().map((r) => r.id)).toEqual(['t1', 't2'])
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([])
    full = false
    await vi.waitFor(async () => expect((await fileTasks()).map((t) => t.id)).toEqual(['t1', 't2']))
    await store.close()
  })

  it('removes a deleted task and stale temp files from an earlier crash', async () => {
    await writeFile(join(dir, '.tasks.json.4242.7.tmp'), '{"half')
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger() })
    await store.load()
    expect(await readdir(dir)).toEqual([])
    store.put(record('t1'), { immediate: true })
    store.put(record('t2'), { immediate: true })
    store.remove('t1')
    await store.flush()
    expect((await fileTasks()).map((t) => t.id)).toEqual(['t2'])
    const again = new FileTasksStore({ stateDir: dir, logger: silentLogger() })
    expect((await again.load()).map((t) => t.id)).toEqual(['t2'])
  })

  it('keeps torrent metadata beside tasks.json', async () => {
    const store = new FileTasksStore({ stateDir: dir, logger: silentLogger() })
    const infoHash = 'c'.repeat(40)
    expect(await store.readMetadata(infoHash)).toBeUndefined()
    await store.saveMetadata(infoHash, new Uint8Array([1, 2, 3]))
    expect(await readFile(join(dir, 'torrents', `${infoHash}.torrent`))).toEqual(Buffer.from([1, 2, 3]))
    expect(await store.readMetadata(infoHash)).toEqual(new Uint8Array([1, 2, 3]))
    await store.deleteMetadata(infoHash)
    expect(await store.readMetadata(infoHash)).toBeUndefined()
  })
})
