import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCacheDisk } from '../../src/services/cache/cache-disk.js'
import { acquireWriterLock } from '../../src/services/cache/writer-lock.js'

// Reaping at start (contract 2.6 "orphan entries are reaped at startup"; docs/hls-cache.md):
// no marker and no live writer, temp files, run dirs of a writer that died after its commit,
// trash and dead writers' locks go; a live writer's entry (another daemon's) stays untouched.

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-ma11-disk-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const put = async (path: string, content = 'x') => {
  await mkdir(join(path, '..'), { recursive: true })
  await writeFile(path, content)
}

describe('cache dir at start', () => {
  it('reaps orphans and temp files, keeps complete entries and a live writer\'s entry, and lists what it kept', async () => {
    await put(join(dir, 'aaaaaaaa', 'seg-0.m4s'), '12345')
    await put(join(dir, 'aaaaaaaa', 'entry.json'), '{}')
    await put(join(dir, 'aaaaaaaa', '.complete'), '')
    await put(join(dir, 'aaaaaaaa', 'run-0', 'seg-0.m4s'))
    await put(join(dir, 'aaaaaaaa', 'sub-0.vtt.part'))
    await put(join(dir, 'bbbbbbbb', 'run-0', 'seg-0.m4s'))
    await put(join(dir, 'cccccccc', 'run-0', 'seg-0.m4s'))
    const live = await acquireWriterLock(join(dir, 'cccccccc.lock'))
    await writeFile(join(dir, 'dddddddd.lock'), JSON.stringify({ pid: 2 ** 22 + 7, token: 'dead' }))
    await put(join(dir, '.trash-0123', 'seg-0.m4s'))
    await put(join(dir, 'hls-sessions', 'other-daemon', 'seg-0.m4s'))

    const found = await createCacheDisk(dir).scan()

    expect(found).toEqual([{ key: 'aaaaaaaa', bytes: 7, lastUsedAt: expect.any(Number) }])
    expect((await readdir(dir)).sort()).toEqual(['aaaaaaaa', 'cccccccc', 'cccccccc.lock', 'hls-sessions'])
    expect((await readdir(join(dir, 'aaaaaaaa'))).sort()).toEqual(['.complete', 'entry.json', 'seg-0.m4s'])
    expect(await readdir(join(dir, 'cccccccc'))).toEqual(['run-0'])
    await live!.release()
  })

  it('refuses to prepare or remove an entry a live writer holds', async () => {
    const live = await acquireWriterLock(join(dir, 'eeeeeeee.lock'))
    const disk = createCacheDisk(dir)
    expect(await disk.prepare('eeeeeeee')).toBe(false)
    expect(await disk.remove('eeeeeeee')).toBe(false)
    await live!.release()
    expect(await disk.prepare('eeeeeeee')).toBe(true)
    expect(await disk.remove('eeeeeeee')).toBe(true)
    expect(await readdir(dir)).toEqual([])
  })

  it('never clears a complete entry to write it again: another daemon may be serving it as a HIT', async () => {
    // Completed by another daemon on this directory after this one's scan (its entry actor says absent).
    await put(join(dir, 'ffffffff', 'seg-0.m4s'), '12345')
    await put(join(dir, 'ffffffff', 'entry.json'), '{}')
    await put(join(dir, 'ffffffff', '.complete'), '')
    const disk = createCacheDisk(dir)
    expect(await disk.prepare('ffffffff')).toBe(false)
    expect((await readdir(join(dir, 'ffffffff'))).sort()).toEqual(['.complete', 'entry.json', 'seg-0.m4s'])
    // And its lock is not left behind: the entry stays removable and writable by others.
    expect(await readdir(dir)).toEqual(['ffffffff'])
  })
})
