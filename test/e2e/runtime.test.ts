// The supported runtime (issue 18): `engines` >= 22.12, and the README's commands run their steps
// under a supported Node even where the system's is older (scripts/node-runtime.mjs, with-node.mjs).
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript (it runs before anything is built), no declarations
import { isSupported } from '../../scripts/node-runtime.mjs'
import { repoRoot } from '../helpers/daemon.js'

const run = promisify(execFile)

describe('the supported Node.js lines', () => {
  it('are 22.12 and newer, as package.json engines says', async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }
    expect(manifest.engines.node).toBe('>=22.12')
    for (const version of ['20.20.2', '22.11.0', '21.7.3']) expect(isSupported(version), version).toBe(false)
    for (const version of ['22.12.0', '22.23.3', '24.0.0', '26.1.0']) expect(isSupported(version), version).toBe(true)
  })

  it('runs a script step under a supported Node whatever Node started it, and passes its exit code on', async () => {
    const wrapper = join(repoRoot, 'scripts', 'with-node.mjs')
    // The system's node starts the wrapper, as npm does with the scripts in package.json.
    const { stdout, stderr } = await run('node', [wrapper, 'node', '-p', 'process.versions.node'], { cwd: repoRoot, timeout: 300_000 })
    expect(isSupported(stdout.trim())).toBe(true)
    const system = (await run('node', ['-p', 'process.versions.node'])).stdout.trim()
    // One line says so when the system's Node was too old; none when it was fine.
    expect(stderr.includes('under the Node.js in .tmp/node')).toBe(!isSupported(system))
    const failed = await run('node', [wrapper, 'node', '-e', 'process.exit(7)'], { cwd: repoRoot }).then(() => 0, (error: { code?: number }) => error.code)
    expect(failed).toBe(7)
  })
})
