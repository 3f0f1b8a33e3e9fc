#!/usr/bin/env node
// `npm run release [-- --version X.Y.Z] [--out DIR] [--no-build]`: writes
// `<out>/media-agent-<version>.tgz` (default out: release/), the self-contained upgrade artifact of
// protocol.md 7.5: package.json, dist/, packages/ and the production dependencies in
// node_modules, under `package/` like `npm pack`. It runs after extraction with no registry
// access. The dependencies come from `npm ci --omit=dev --prefer-offline`, i.e. from the npm cache
// when it has them; install scripts stay off, as in package.json's allowScripts (only optional
// native speed-ups have any). `--version` stamps another version into the staged package.json
// (tests and release candidates); the working tree is never changed.
// Prints one JSON line: { "path", "version", "sha256", "bytes" }.
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  if (at === -1) return undefined
  const value = args[at + 1]
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`)
  return value
}
function fail(message) {
  process.stderr.write(`release: ${message}\n`)
  process.exit(2)
}
const known = new Set(['--version', '--out', '--no-build'])
for (const arg of args) if (arg.startsWith('--') && !known.has(arg)) fail(`unknown option ${arg} (known: ${[...known].join(', ')})`)

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const version = option('--version') ?? manifest.version
if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version)) fail(`--version must be a semantic version, not ${JSON.stringify(version)}`)
const out = resolve(option('--out') ?? join(root, 'release'))
const run = (command, commandArgs, cwd) => execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'ignore', 'inherit'] })

if (!args.includes('--no-build')) run('npm', ['run', 'build', '--silent'], root)
if (!existsSync(join(root, 'dist', 'cli.js'))) fail('dist/cli.js is missing: run `npm run build` first')

mkdirSync(out, { recursive: true })
const stage = join(out, `.stage-${randomBytes(4).toString('hex')}`)
const pkg = join(stage, 'package')
try {
  mkdirSync(pkg, { recursive: true })
  for (const entry of ['dist', 'packages', 'package-lock.json', 'README.md', 'LICENSE']) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(pkg, entry), { recursive: true })
  }
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`)
  run('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], pkg)
  const file = join(out, `media-agent-${version}.tgz`)
  run('tar', ['-czf', file, '-C', stage, 'package'], root)
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex')
  process.stdout.write(`${JSON.stringify({ path: file, version, sha256, bytes: statSync(file).size })}\n`)
} finally {
  rmSync(stage, { recursive: true, force: true })
}
