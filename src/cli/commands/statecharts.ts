import { Command, Option } from 'clipanion'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyStateMachine } from 'xstate'
import { generatedMarker, renderStatecharts } from '../../system/statecharts.js'

// Developer verb: regenerates statecharts/ from the machine definitions (design.md house rule 8)
// or, with --check, fails while the committed files are stale. It is the one verb that loads
// machines instead of talking to the daemon: the diagrams describe the code, not a running agent.

export class StatechartsCommand extends Command {
  static override paths = [['statecharts']]
  static override usage = Command.Usage({
    category: 'Development',
    description: 'Generate the Mermaid statecharts of every machine, or check that they are up to date.',
    details:
      'Writes one Markdown file per machine registered in src/machines/index.ts plus an index README.md, and removes generated files of machines that no longer exist. With --check nothing is written: the command lists the stale, missing and extra files and exits 1, or exits 0 when the directory matches.',
    examples: [['Regenerate', '$0 statecharts'], ['In CI', '$0 statecharts --check']],
  })

  out = Option.String('--out', { description: 'Directory of the diagrams (default: statecharts/ in the package root)' })
  check = Option.Boolean('--check', false, { description: 'Write nothing; exit 1 when the directory is stale' })

  async execute(): Promise<number> {
    const { machines } = (await import('../../machines/index.js')) as { machines: Record<string, AnyStateMachine> }
    const outDir = this.out ? resolve(this.out) : join(packageRoot(), 'statecharts')
    const files = renderStatecharts(machines)
    const shown = relative(process.cwd(), outDir) || '.'
    if (this.check) {
      const drift = await compareStatecharts(outDir, files)
      if (drift.stale.length + drift.missing.length + drift.extra.length === 0) {
        this.context.stdout.write(`statecharts: ${shown} is up to date (${files.size} files)\n`)
        return 0
      }
      for (const name of drift.stale) this.context.stderr.write(`stale:   ${join(shown, name)}\n`)
      for (const name of drift.missing) this.context.stderr.write(`missing: ${join(shown, name)}\n`)
      for (const name of drift.extra) this.context.stderr.write(`extra:   ${join(shown, name)}\n`)
      this.context.stderr.write('statecharts are out of date: run `media-agent statecharts` (npm run statecharts) and commit the result\n')
      return 1
    }
    const result = await writeStatecharts(outDir, files)
    this.context.stdout.write(`statecharts: ${shown}: ${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed\n`)
    return 0
  }
}

export interface StatechartsDrift {
  /** Generated files whose content differs. */
  stale: string[]
  /** Files that would be written but do not exist. */
  missing: string[]
  /** Generated files (they carry the marker) of machines that no longer exist. */
  extra: string[]
}

export async function compareStatecharts(outDir: string, files: ReadonlyMap<string, string>): Promise<StatechartsDrift> {
  const drift: StatechartsDrift = { stale: [], missing: [], extra: [] }
  for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const current = await readIfExists(join(outDir, name))
    if (current === undefined) drift.missing.push(name)
    else if (current !== content) drift.stale.push(name)
  }
  drift.extra = (await ownedFiles(outDir)).filter((name) => !files.has(name))
  return drift
}

export interface StatechartsWriteResult {
  written: string[]
  unchanged: string[]
  removed: string[]
}

/** Writes what changed (unchanged files keep their mtime) and removes generated files nobody renders any more. */
export async function writeStatecharts(outDir: string, files: ReadonlyMap<string, string>): Promise<StatechartsWriteResult> {
  await mkdir(outDir, { recursive: true })
  const drift = await compareStatecharts(outDir, files)
  const result: StatechartsWriteResult = { written: [...drift.stale, ...drift.missing].sort(), unchanged: [], removed: drift.extra }
  for (const name of result.written) await writeFile(join(outDir, name), files.get(name)!, 'utf8')
  for (const name of drift.extra) await rm(join(outDir, name), { force: true })
  result.unchanged = [...files.keys()].filter((name) => !result.written.includes(name)).sort()
  return result
}

/** The `.md` files in the directory that this command generated (first line is the marker); hand-written files are left alone. */
async function ownedFiles(outDir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(outDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const owned: string[] = []
  for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
    const content = await readIfExists(join(outDir, name))
    if (content?.startsWith(generatedMarker)) owned.push(name)
  }
  return owned
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EISDIR') return undefined
    throw error
  }
}

/** The directory holding package.json, found from this file (src/cli/commands or dist/cli/commands), not from the cwd. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from)
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`statecharts: no package.json above ${from}`)
    dir = parent
  }
}
