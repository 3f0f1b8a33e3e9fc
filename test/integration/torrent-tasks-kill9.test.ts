import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { FileTasksStore, parseTasksFile } from '../../src/services/torrent/tasks-store.js'

const child = join(import.meta.dirname, 'torrent-tasks-kill9-child.ts')
const dirs: string[] = []
const pids = new Set<number>()

afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** Starts the child, waits until it has made `wanted` tasks durable, kills it with SIGKILL `extraMs` later. */
function runAndKill(stateDir: string, wanted: number, extraMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, stateDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    if (proc.pid) pids.add(proc.pid)
    const durable: string[] = []
    let stderr = ''
    let buffered = ''
    let killing = false
    proc.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) if (line.startsWith('durable ')) durable.push(line.slice(8))
      if (!killing && durable.length >= wanted) {
        killing = true
        // A random point in the middle of the child's write storm.
        setTimeout(() => proc.kill('SIGKILL'), extraMs)
      }
    })
    proc.on('error', reject)
    proc.on('exit', (code, signal) => {
      if (proc.pid) pids.delete(proc.pid)
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code ?? signal}: ${stderr}`))
      else resolve(durable)
    })
  })
}

describe('tasks.json under kill -9', () => {
  it('always parses and keeps every task after the writer is killed at random points', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'ma-kill9-'))
    dirs.push(stateDir)
    const expected = new Set<string>()
    for (let round = 0; round < 12; round++) {
      const durable = await runAndKill(stateDir, 1 + Math.floor(Math.random() * 4), Math.floor(Math.random() * 40))
      for (const id of durable) expected.add(id)
      const text = await readFile(join(stateDir, 'tasks.json'), 'utf8')
      const tasks = parseTasksFile(text)
      const ids = new Set(tasks.map((t) => t.id))
      expect([...expected].filter((id) => !ids.has(id))).toEqual([])
      // The store the agent starts with loads it too (and clears temp files the kill left).
      const loaded = await new FileTasksStore({ stateDir, logger: silentLogger() }).load()
      expect(loaded.length).toBe(tasks.length)
    }
    expect(expected.size).toBeGreaterThan(12)
  }, 120_000)
})
