// The supported Node.js lines (package.json `engines`: >= 22.12) and, on a machine whose system
// Node is older, a supported one provisioned from the npm registry's `node` package into
// .tmp/node, as .ci/run does for its passes. Plain JavaScript: it runs before anything is built,
// under whatever Node the machine has.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const minimum = { major: 22, minor: 12 }
/** What gets provisioned when the system Node is too old: the newest maintained line. */
export const provisionedSpec = 'node@24'
const prefix = join(root, '.tmp', 'node')
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
