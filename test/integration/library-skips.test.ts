import { execFile } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SkipKind } from '../../src/services/library/walk.js'

// Issue 16 Deliver 5: unreadable files and folders, broken symlinks, a missing root and symlink
// loops are skipped with a count (and an example path), never fatal; loops do not hang the scan.
// The scan runs in a child process as root without the capabilities that bypass file modes
// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so the owner's bits of these root-owned files apply.
// Not as `nobody`: that user may not reach the Node binary or the checkout (CI's Node sits in a
// 0700 temp dir).

const run = promisify(execFile)
const child = join(import.meta.dirname, 'library-skips-child.ts')
let dir: string

interface ChildResult {
  files: number
  skipped: number
  counts: Record<string, number>
  examples: Record<SkipKind, string[]>
  items: string[]
  dirs: string[]
}

const withoutFileModeBypass = ['--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-dac_override,-dac_read_search']

async function scanWithoutFileModeBypass(...roots: string[]): Promise<ChildResult> {
  const { stdout } = await run('setpriv', [...withoutFileModeBypass, process.execPath, '--import', 'tsx', child, ...roots.slice(0, 1), join(dir, 'state'), ...roots.slice(1)], {
    cwd: join(import.meta.dirname, '..', '..'), timeout: 60_000,
  })
  return JSON.parse(stdout) as ChildResult
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma16-skips-'))
  await chmod(dir, 0o755)
  const root = join(dir, 'lib')
  await mkdir(join(root, 'shows', 'season-1'), { recursive: true })
  await mkdir(join(root, 'locked'), { recursive: true })
  await mkdir(join(dir, 'outside'), { recursive: true })
  await mkdir(join(dir, 'state'), { recursive: true })
  await chmod(join(dir, 'state'), 0o777)
  await writeFile(join(root, 'shows', 'season-1', 'e01.wav'), 'a')
  await writeFile(join(root, 'shows', 'season-1', 'e02.wav'), 'b')
  await writeFile(join(root, 'shows', 'secret.wav'), 'c')
  await chmod(join(root, 'shows', 'secret.wav'), 0o000)
  await writeFile(join(root, 'locked', 'hidden.wav'), 'd')
  await chmod(join(root, 'locked'), 0o000)
  await writeFile(join(root, 'shows', 'reject.mkv'), 'not media')
  await writeFile(join(dir, 'outside', 'extra.wav'), 'e')
  await symlink(join(root, 'nowhere.wav'), join(root, 'dangling.wav'))
  await symlink(root, join(root, 'shows', 'season-1', 'back-to-root'))
  await symlink('self', join(root, 'self'))
  await symlink(join(dir, 'outside'), join(root, 'linked'))
  await symlink(join(root, 'shows', 'season-1'), join(root, 'season-again'))
})
afterAll(async () => rm(dir, { recursive: true, force: true }))

describe('library scan of a folder with what a real library has wrong', () => {
  it('skips and counts unreadable files and folders, broken symlinks, loops, rejects and a missing root, and lists the rest', async () => {
    const root = join(dir, 'lib')
    const result = await scanWithoutFileModeBypass(root, join(dir, 'no-such-root'))
    expect(result.items).toEqual([
      join(root, 'linked', 'extra.wav'),
      join(root, 'shows', 'season-1', 'e01.wav'),
      join(root, 'shows', 'season-1', 'e02.wav'),
    ])
    expect(result.counts).toEqual({ unreadable: 2, brokenSymlink: 1, vanished: 1, symlinkLoop: 2, notMedia: 1, probeFailed: 0 })
    expect(result.examples.unreadable.sort()).toEqual([join(root, 'locked'), join(root, 'shows', 'secret.wav')])
    expect(result.examples.brokenSymlink).toEqual([join(root, 'dangling.wav')])
    expect(result.examples.vanished).toEqual([join(dir, 'no-such-root')])
    expect(result.examples.symlinkLoop.sort()).toEqual([join(root, 'self'), join(root, 'shows', 'season-1', 'back-to-root')])
    // A second link to a folder already walked is not walked again (its files are listed once).
    expect(result.dirs).not.toContain(join(root, 'season-again'))
    // `skipped`: what could hold media and is not listed (loops and missing folders hold nothing new).
    expect(result.skipped).toBe(4)
  }, 60_000)
})
