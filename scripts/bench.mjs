#!/usr/bin/env node
// `npm run bench -- <name>`: runs bench/<name>.ts, which prints one JSON line of figures.
// Benchmarks are never part of `npm test` (timing goals do not belong in tests).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const names = readdirSync(join(root, 'bench')).filter((file) => file.endsWith('.ts') && !file.startsWith('_')).map((file) => file.slice(0, -3))
const name = process.argv[2]
if (!name || !existsSync(join(root, 'bench', `${name}.ts`))) {
  process.stderr.write(`usage: npm run bench -- <name>\navailable: ${names.join(', ') || '(none yet)'}\n`)
  process.exit(2)
}
const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.ts`), ...process.argv.slice(3)], { cwd: root, stdio: 'inherit' })
process.exit(result.status ?? 1)
