import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { access, mkdir, readFile, readlink, rename, rm, symlink, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { UpgradeOffer } from '../../protocol/wire.js'
import { upgradeCurrentLinkName } from '../../config/defaults.js'
import { UpgradeInstallError } from '../../errors.js'
import { updateUpgradeState, versionsDir } from './upgrade-store.js'

// The side-by-side install of protocol.md 7.5: extract into a staging dir, check it is
// media-agent at the offered version, smoke-test its `--version`, move it to versions/<v>,
// write the pending marker, then switch `versions/current` atomically (a new symlink renamed
// over the old one). Any failure before the switch leaves versions/current and the running
// process as they were, and removes what this attempt wrote.

const run = promisify(execFile)

export interface Installer {
  install(params: { offer: UpgradeOffer; artifactPath: string; fromVersion: string }): Promise<void>
}

export interface InstallerOptions {
  stateDir: string
  extractTimeoutMs: number
  smokeTestTimeoutMs: number
  /** The Node binary the installed version runs under (the one running now). */
  nodePath?: string
}

const versionName = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/

export function createInstaller(options: InstallerOptions): Installer {
  const dir = versionsDir(options.stateDir)
  const nodePath = options.nodePath ?? process.execPath
  return {
    async install({ offer, artifactPath, fromVersion }) {
      const version = offer.targetVersion
      // The version names a directory: nothing that could climb out of versions/.
      if (!versionName.test(version) || version === upgradeCurrentLinkName) throw new UpgradeInstallError(`the offered targetVersion ${JSON.stringify(version)} is not a usable version name`)
      const staging = join(dir, `.staging-${version}-${randomBytes(4).toString('hex')}`)
      const target = join(dir, version)
      const current = join(dir, upgradeCurrentLinkName)
      try {
        await mkdir(staging, { recursive: true, mode: 0o755 })
        try {
          // GNU tar refuses member names with `..` and strips a leading `/`; the artifact is
          // also verified against the offer's sha256 before it gets here.
          await run('tar', ['-xzf', artifactPath, '-C', staging, '--strip-components=1', '--no-same-owner', '--no-same-permissions'], { timeout: options.extractTimeoutMs })
        } catch (error) {
          throw new UpgradeInstallError(`cannot extract the upgrade artifact: ${firstLine(error)}`, { cause: error })
        }
        await checkPackage(staging, version)
        let printed: string
        try {
          const { stdout } = await run(nodePath, [join(staging, 'dist', 'cli.js'), '--version'], { timeout: options.smokeTestTimeoutMs, env: { ...process.env, MEDIA_AGENT_DELEGATED: '1' } })
          printed = stdout.trim()
        } catch (error) {
          throw new UpgradeInstallError(`the new version's smoke test (\`media-agent --version\`) failed: ${firstLine(error)}`, { cause: error })
        }
        if (printed !== version) throw new UpgradeInstallError(`the new version's smoke test printed ${JSON.stringify(printed.slice(0, 80))}, expected ${version}`)

        const previous = await readlink(current).catch(() => null)
        if (previous === version) throw new UpgradeInstallError(`versions/current already names ${version}`)
        await rm(target, { recursive: true, force: true })
        await rename(staging, target)
        await updateUpgradeState(options.stateDir, (state) => ({ ...state, pending: { fromVersion, toVersion: version, previous, launched: false } }))
        try {
          await switchCurrent(dir, version)
        } catch (error) {
          await updateUpgradeState(options.stateDir, (state) => ({ ...state, pending: null }))
          throw new UpgradeInstallError(`cannot switch versions/current to ${version}: ${(error as Error).message}`, { cause: error })
        }
      } finally {
        await rm(staging, { recursive: true, force: true }).catch(() => {})
        await unlink(artifactPath).catch(() => {})
      }
    },
  }
}

/** Points `versions/current` at `name` (a directory beside it) in one rename; `null` removes it. */
export async function switchCurrent(dir: string, name: string | null): Promise<void> {
  const current = join(dir, upgradeCurrentLinkName)
  if (name === null) {
    await unlink(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
    return
  }
  const temp = join(dir, `.current-${randomBytes(4).toString('hex')}`)
  await symlink(name, temp)
  try {
    await rename(temp, current)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
}

async function checkPackage(root: string, version: string): Promise<void> {
  let manifest: { name?: unknown; version?: unknown }
  try {
    manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as typeof manifest
  } catch (error) {
    throw new UpgradeInstallError(`the upgrade artifact has no readable package.json at its top: ${(error as Error).message}`, { cause: error })
  }
  if (manifest.name !== 'media-agent') throw new UpgradeInstallError(`the upgrade artifact is the package ${JSON.stringify(manifest.name)}, not media-agent`)
  if (manifest.version !== version) throw new UpgradeInstallError(`the upgrade artifact is version ${JSON.stringify(manifest.version)}, the server offered ${version}`)
  try {
    await access(join(root, 'dist', 'cli.js'))
    await access(join(root, 'node_modules'))
  } catch {
    throw new UpgradeInstallError('the upgrade artifact is not self-contained: dist/cli.js or node_modules is missing (build it with `npm run release`)')
  }
}

function firstLine(error: unknown): string {
  const record = error as { stderr?: string; message?: string; killed?: boolean; signal?: string }
  if (record.killed) return `timed out (${record.signal ?? 'killed'})`
  const text = (record.stderr?.trim() || record.message || String(error)).split('\n')[0]!
  return text.slice(0, 300)
}
