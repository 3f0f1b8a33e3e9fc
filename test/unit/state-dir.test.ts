import { mkdtemp, rm, stat, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDir } from '../../src/services/state/state-dir.js'
import { writeFileAtomic } from '../../src/services/state/atomic-file.js'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'ma-state-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('state dir', () => {
  it('keeps the same agent id across restarts', async () => {
    const first = await openStateDir(join(dir, 'state')).agentId()
    const second = await openStateDir(join(dir, 'state')).agentId()
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(second).toBe(first)
  })

  it('writes a fresh admin token with mode 0600 on every start', async () => {
    const state = openStateDir(dir)
    const first = await state.writeAdminToken()
    const second = await state.writeAdminToken()
    expect(second).not.toBe(first)
    expect(await state.readAdminToken()).toBe(second)
    expect((await stat(state.adminTokenPath())).mode & 0o777).toBe(0o600)
  })

  it('reports an unusable state dir as a typed state-file error', async () => {
    await writeFileAtomic(join(dir, 'blocker'), 'a file, not a directory')
    await expect(openStateDir(join(dir, 'blocker', 'state')).agentId()).rejects.toMatchObject({ code: 'MA_ERR_STATE_FILE' })
  })
})

describe('atomic file replacement', () => {
  it('replaces the content and leaves no temporary file behind', async () => {
    const file = join(dir, 'x.json')
    await writeFileAtomic(file, 'one')
    await writeFileAtomic(file, 'two')
    expect(await readFile(file, 'utf8')).toBe('two')
    expect(await readdir(dir)).toEqual(['x.json'])
  })
})
