import { Cli } from 'clipanion'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { machines } from '../../src/machines/index.js'
import { compareStatecharts, packageRoot, StatechartsCommand, writeStatecharts } from '../../src/cli/commands/statecharts.js'
import { generatedMarker, renderStatecharts } from '../../src/system/statecharts.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-statecharts-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = new Cli({ binaryName: 'media-agent' })
  cli.register(StatechartsCommand)
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out: string[] = []
  const err: string[] = []
  stdout.on('data', (chunk) => out.push(String(chunk)))
  stderr.on('data', (chunk) => err.push(String(chunk)))
  const code = await cli.run(args, { stdin: process.stdin, stdout, stderr })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('media-agent statecharts', () => {
  it('writes a diagram per registered machine and an index, then --check passes', async () => {
    const write = await run(['statecharts', '--out', dir])
    expect(write.code).toBe(0)
    const names = (await readdir(dir)).sort()
    expect(names).toEqual([...renderStatecharts(machines).keys()].sort())
    expect(names).toContain('README.md')
    expect(names).toContain('agent.md')
    const check = await run(['statecharts', '--out', dir, '--check'])
    expect(check.code).toBe(0)
    expect(check.stdout).toContain('up to date')
  })

  it('--check exits 1 naming the stale, missing and extra files, and writes nothing', async () => {
    await run(['statecharts', '--out', dir])
    await writeFile(join(dir, 'agent.md'), 'edited by hand\n')
    await rm(join(dir, 'README.md'))
    await writeFile(join(dir, 'retired.md'), `${generatedMarker}\n\n# retired\n`)
    const check = await run(['statecharts', '--out', dir, '--check'])
    expect(check.code).toBe(1)
    expect(check.stderr).toMatch(/stale: +\S*agent\.md/)
    expect(check.stderr).toMatch(/missing: +\S*README\.md/)
    expect(check.stderr).toMatch(/extra: +\S*retired\.md/)
    expect(await readFile(join(dir, 'agent.md'), 'utf8')).toBe('edited by hand\n')
    expect(existsSync(join(dir, 'README.md'))).toBe(false)
  })

  it('regenerating removes diagrams of machines that are gone but keeps hand-written files', async () => {
    const files = renderStatecharts(machines)
    await writeStatecharts(dir, files)
    const header = files.get('README.md')!.split('\n')[0]
    await writeFile(join(dir, 'retired.md'), `${header}\n\n# retired\n`)
    await writeFile(join(dir, 'notes.md'), '# written by a person\n')
    const result = await writeStatecharts(dir, files)
    expect(result.removed).toEqual(['retired.md'])
    expect(result.written).toEqual([])
    expect(existsSync(join(dir, 'retired.md'))).toBe(false)
    expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('# written by a person\n')
    expect(await compareStatecharts(dir, files)).toEqual({ stale: [], missing: [], extra: [] })
  })

  it('defaults to statecharts/ in the package root, whatever the working directory', () => {
    const root = packageRoot()
    expect(existsSync(join(root, 'package.json'))).toBe(true)
    expect(root).toBe(join(import.meta.dirname, '..', '..'))
  })

  it('the committed statecharts/ directory matches the machines', async () => {
    // Same check as `npm run statecharts:check`, without needing a build.
    const drift = await compareStatecharts(join(packageRoot(), 'statecharts'), renderStatecharts(machines))
    expect(drift, 'run `media-agent statecharts` (npm run statecharts) and commit the result').toEqual({ stale: [], missing: [], extra: [] })
  })
})
