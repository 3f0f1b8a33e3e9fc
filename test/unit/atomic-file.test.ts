import * as fsp from 'node:fs/promises'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { removeStaleTemps, writeFileAtomic } from '../../src/services/state/atomic-file.js'

// A write killed mid-way leaves its temp file; the cleanup removes those and never the temp of a
// write this process has under way (a piece map being written while another torrent starts).

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return { ...actual, rename: vi.fn(actual.rename) }
})

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'ma-atomic-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('stale temp files of atomic writes', () => {
  it('removes the temps killed writers left, keeps this process\'s write under way and files of other names', async () => {
    const stale = [
      `.a.pieces.json.4242.0a1b2c3d.tmp`,
      // This process's own pid, from a killed earlier run (a container's daemon has the same pid every time).
      `.b.pieces.json.${process.pid}.deadbeef.tmp`,
    ]
    const kept = ['x.pieces.json', '.notes.tmp', `.tasks.json.4242.0a1b2c3d.tmp`]
    for (const name of [...stale, ...kept]) await writeFile(join(dir, name), 'old')

    // Hold a write between its temp file and the rename.
    const actualRename = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises')).rename
    let reached!: () => void
    const atRename = new Promise<void>((resolve) => { reached = resolve })
    let release!: () => void
    const released = new Promise<void>((resolve) => { release = resolve })
    vi.mocked(fsp.rename).mockImplementationOnce(async (from, to) => {
      reached()
      await released
      return actualRename(from, to)
    })
    const writing = writeFileAtomic(join(dir, 'c.pieces.json'), 'new')
    await atRename
    const inFlight = (await readdir(dir)).filter((name) => name.startsWith('.c.pieces.json.'))
    expect(inFlight).toHaveLength(1)

    expect(await removeStaleTemps(dir, (name) => name.endsWith('.pieces.json'))).toBe(2)
    expect((await readdir(dir)).sort()).toEqual([...kept, ...inFlight].sort())

    release()
    await writing
    expect(await readFile(join(dir, 'c.pieces.json'), 'utf8')).toBe('new')
    // Without a filter every stale temp goes; the finished write left none.
    expect(await removeStaleTemps(dir)).toBe(1)
    expect((await readdir(dir)).sort()).toEqual(['.notes.tmp', 'c.pieces.json', 'x.pieces.json'])
  })

  it('finds nothing to remove in a directory that does not exist', async () => {
    expect(await removeStaleTemps(join(dir, 'missing'))).toBe(0)
  })
})
