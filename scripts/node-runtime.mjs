// The supported Node.js lines (package.json `engines`: >= 22.12) and, on a machine whose system
// Node is older, a supported one provisioned from the npm registry's `node` package into
// .tmp/node, as .ci/run does for its passes. Plain JavaScript: it runs before anything is built,
// under whatever Node the machine has.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const minimum = { major: 22, minor: 12 }
/** What gets provisioned when the system Node is too old: the newest maintained line. */
export const provisionedSpec = 'node@24'
const prefix = join(root, '.tmp', 'node')
/**
 * The manifest of the folder `node` is installed into. `npm install --prefix` makes that folder the
 * project, so its allowScripts is the one npm (>= 11.16) reads: the `node` package's preinstall
 * (`node installArchSpecificPackage`, which fetches this platform's binary) must run, and saying
 * so keeps npm from warning that it is unreviewed (and from blocking it where scripts are opt-in).
 * .ci/run writes the same manifest for its passes.
 */
export const provisionManifest = { private: true, description: 'Node.js provisioned by scripts/node-runtime.mjs', allowScripts: { node: true } }
const provisionedBin = join(prefix, 'node_modules', 'node', 'bin')

export function isSupported(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  return major > minimum.major || (major === minimum.major && minor >= minimum.minor)
}

function versionOf(nodePath) {
  const result = spawnSync(nodePath, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : undefined
}

/**
 * The folder whose `node` to put first on PATH: undefined when the running Node is supported;
 * otherwise .tmp/node's, installed from the registry when missing (one line on stderr says so).
 */
export function supportedNodeBin({ say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (isSupported()) return undefined
  const existing = existsSync(join(provisionedBin, 'node')) ? versionOf(join(provisionedBin, 'node')) : undefined
  if (existing !== undefined && isSupported(existing)) return provisionedBin
  say(`[setup] Node ${process.version} is older than the supported ${minimum.major}.${minimum.minor}; installing ${provisionedSpec} from the npm registry into .tmp/node`)
  mkdirSync(prefix, { recursive: true })
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify(provisionManifest, null, 2)}\n`)
  const result = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', provisionedSpec], { stdio: ['ignore', 'ignore', 'inherit'] })
  const installed = existsSync(join(provisionedBin, 'node')) ? versionOf(join(provisionedBin, 'node')) : undefined
  if (result.status !== 0 || installed === undefined || !isSupported(installed)) {
    say(`[setup] could not install ${provisionedSpec} (exit ${result.status}); install Node.js ${minimum.major}.${minimum.minor} or newer (https://nodejs.org)`)
    process.exit(1)
  }
  return provisionedBin
}

/** process.env with `bin` first on PATH, so `node`, `npm` and every `#!/usr/bin/env node` script use it. */
export function envWith(bin, env = process.env) {
  return bin === undefined ? env : { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` }
}
