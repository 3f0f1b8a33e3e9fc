// One writer per cache key across processes (contract 2.6; docs/hls-cache.md "Writer lock"): a
// real second process honours the lock file, and a lock whose holder was SIGKILLed is taken over.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acquireWriterLock, lockHeld } from '../../src/services/cache/writer-lock.js'

const childScript = join(import.meta.dirname, 'cache-writer-lock-child.ts')
let dir: string
const children: ChildProcess[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-ma11-lock-'))
})
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

/** Starts the child; resolves with its first line and the process. */
function other(path: string, mode: 'hold' | 'once'): Promise<{ line: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, path, mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolve({ line: out.trim(), child })
    })
    child.once('exit', (code) => reject(new Error(`lock child exited ${String(code)} before answering`)))
  })
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())))

describe('writer lock across processes', () => {
  it('refuses a second process while this one holds the key, and lets it in after release', async () => {
    const path = join(dir, 'aaaaaaaa.lock')
    const mine = await acquireWriterLock(path)
    expect(mine).toBeDefined()
    expect((await other(path, 'once')).line).toBe('refused')
    await mine!.release()
    expect((await other(path, 'once')).line).toBe('locked')
  })

  it('refuses this process while another live process holds it', async () => {
    const path = join(dir, 'bbbbbbbb.lock')
    const { line, child } = await other(path, 'hold')
    expect(line).toBe('locked')
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: child.pid })
    expect(await acquireWriterLock(path)).toBeUndefined()
    expect(await lockHeld(path)).toBe(true)
    child.kill('SIGKILL')
    await exited(child)
    // The holder died without releasing: its lock is stale and taken over.
    expect(await lockHeld(path)).toBe(false)
    const taken = await acquireWriterLock(path)
    expect(taken).toBeDefined()
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid })
    await taken!.release()
  })

  it('treats a lock naming a live PID with another start time as stale (the PID was reused)', async () => {
    const path = join(dir, 'cccccccc.lock')
    await writeFile(path, JSON.stringify({ pid: process.pid, startTime: '1', token: 'old' }))
    const taken = await acquireWriterLock(path)
    expect(taken).toBeDefined()
    await taken!.release()
  })

  it('gives the lock to exactly one of several processes racing for it', async () => {
    const path = join(dir, 'dddddddd.lock')
    const racers = await Promise.all([0, 1, 2, 3].map(() => other(path, 'hold')))
    expect(racers.filter((racer) => racer.line === 'locked')).toHaveLength(1)
    for (const racer of racers) racer.child.kill('SIGKILL')
    await Promise.all(racers.map((racer) => exited(racer.child)))
  })
})
