#!/usr/bin/env node
// Makes `npm start` and `npm test` work on a fresh machine (README "Set-up"): installs npm
// dependencies when they are missing or stale, the Debian packages the chosen mode needs when
// running as root, and builds dist/ for `start`. Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync, readdirSync, readFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { envWith, supportedNodeBin } from './node-runtime.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const mode = process.argv[2] === 'test' ? 'test' : 'start'
const manifest = JSON.parse(readFileSync(join(root, 'scripts', 'system-packages.json'), 'utf8'))

function say(message) {
  process.stderr.write(`[setup] ${message}\n`)
}

// ---- a supported Node.js (package.json engines): provisioned into .tmp/node when the system's is older
const nodeBin = supportedNodeBin()

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: envWith(nodeBin), ...options })
  if (result.status !== 0) {
    say(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
}

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

// ---- npm dependencies --------------------------------------------------------------------------
const installedMarker = join(root, 'node_modules', '.package-lock.json')
const manifestMtime = Math.max(newestMtime(join(root, 'package.json')), newestMtime(join(root, 'package-lock.json')))
if (!existsSync(installedMarker) || statSync(installedMarker).mtimeMs < manifestMtime) {
  say('installing npm dependencies')
  run('npm', ['install', '--no-audit', '--no-fund'])
}

// ---- Debian packages ---------------------------------------------------------------------------
function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0
}

const wanted = manifest[mode]
const missing = wanted.filter((entry) => !entry.commands.every(hasCommand))
if (missing.length > 0) {
  const packages = [...new Set(missing.flatMap((entry) => entry.packages))]
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && hasCommand('apt-get')) {
    say(`installing Debian packages: ${packages.join(' ')}`)
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    run('apt-get', ['update', '-qq'], { env })
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env })
  } else {
    const lines = missing.map((entry) => `  ${entry.commands.join(', ')}: ${entry.why}`)
    say(`these programs are missing:\n${lines.join('\n')}\n  install them with: sudo apt-get install ${packages.join(' ')}`)
    if (mode === 'start' && missing.some((entry) => entry.required)) process.exit(1)
    // Tests that need a missing program skip with a message naming it.
  }
}

// ---- build (start only: `npm test` builds as one of its steps) --------------------------------
if (mode === 'start') {
  const built = newestMtime(join(root, 'dist'))
  if (built === 0 || built < newestMtime(join(root, 'src')) || built < newestMtime(join(root, 'package.json'))) {
    say('building dist/')
    run('npm', ['run', '--silent', 'build'])
  }
}
