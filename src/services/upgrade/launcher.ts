import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readlink, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '../../log.js'
import { upgradeCurrentLinkName } from '../../config/defaults.js'
import { switchCurrent } from './installer.js'
import { readUpgradeState, updateUpgradeState, versionsDir, type UpgradeState } from './upgrade-store.js'

// The start wrapper of protocol.md 7.5: `media-agent daemon` (and `start` with a config file),
// started again the same way after an exit 75, runs the version that `<state_dir>/versions/
// current` names when that is not itself: same arguments and environment, signals passed on,
// its exit code returned. Before that it settles a pending upgrade: a new version that was
// launched and never registered (its marker is still there) is rolled back here, and its
// `failure` is left in upgrade.json for the agent that now runs to post.

/** Set in the environment of a delegated version: it runs in-process and never delegates again. */
export const delegatedEnvVar = 'MEDIA_AGENT_DELEGATED'

export interface LaunchOptions {
  stateDir: string
  /** The command line after `node cli.js` (`daemon --config ...`), passed on unchanged. */
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  /** The root of the package running now (the directory holding dist/ and package.json). */
  ownRoot: string
  log: Logger
  nodePath?: string
}

/** `undefined`: run the agent in this process. A number: the delegated version ran; exit with it. */
export async function launchCurrentVersion(options: LaunchOptions): Promise<number | undefined> {
  if (options.env[delegatedEnvVar] === '1') return undefined
  const dir = versionsDir(options.stateDir)
  if (!existsSync(dir)) return undefined
  const log = options.log.child({ component: 'launcher' })

  await settlePending(options.stateDir, log)
  const name = await readlink(join(dir, upgradeCurrentLinkName)).catch(() => null)
  if (name === null) return undefined
  const root = join(dir, name)
  const [mine, theirs] = await Promise.all([realpath(options.ownRoot).catch(() => options.ownRoot), realpath(root).catch(() => null)])
  if (theirs === mine) return undefined
  const cli = join(root, 'dist', 'cli.js')
  if (theirs === null || !existsSync(cli)) {
    log.error({ current: root }, 'versions/current names a version that is not installed; running this one')
    return undefined
  }
  log.info({ version: name, cli }, 'running the version versions/current names')
  return runDelegate(options, cli, name, log)
}

/** Rolls back a launched-but-never-registered version; drops a marker whose switch never happened. */
async function settlePending(stateDir: string, log: Logger): Promise<void> {
  const dir = versionsDir(stateDir)
  const state = await readUpgradeState(stateDir)
  const pending = state.pending
  if (!pending) return
  const current = await readlink(join(dir, upgradeCurrentLinkName)).catch(() => null)
  if (current !== pending.toVersion) {
    // The process died between writing the marker and switching the link: nothing to undo.
    await updateUpgradeState(stateDir, (s) => ({ ...s, pending: null }))
    return
  }
  if (!pending.launched) {
    await updateUpgradeState(stateDir, (s) => ({ ...s, pending: s.pending && { ...s.pending, launched: true } }))
    return
  }
  const reason = `version ${pending.toVersion} did not come up (${pending.exit ?? 'it stopped before registering'}); rolled back to ${pending.fromVersion}`
  log.warn({ from: pending.toVersion, to: pending.fromVersion, previous: pending.previous }, reason)
  await switchCurrent(dir, pending.previous)
  await updateUpgradeState(stateDir, (s): UpgradeState => ({
    pending: null,
    results: [
      ...s.results.filter((entry) => entry.result.toVersion !== pending.toVersion),
      { result: { outcome: 'failure', fromVersion: pending.fromVersion, toVersion: pending.toVersion, error: reason }, posted: false },
    ],
  }))
}

function runDelegate(options: LaunchOptions, cli: string, version: string, log: Logger): Promise<number> {
  return new Promise((resolve) => {
    // The idle-memory flags of the CLI's shebang follow the daemon into the version it runs (docs/operations.md).
    const memoryFlags = process.execArgv.filter((arg) => arg.startsWith('--max-semi-space-size') || arg === '--expose-gc')
    const child = spawn(options.nodePath ?? process.execPath, [...memoryFlags, cli, ...options.argv], {
      env: { ...options.env, [delegatedEnvVar]: '1' },
      stdio: 'inherit',
    })
    let stopRequested = false
    const forward = (signal: NodeJS.Signals) => () => {
      if (signal !== 'SIGHUP') stopRequested = true
      child.kill(signal)
    }
    const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const)
    for (const [signal, handler] of handlers) process.on(signal, handler)
    let finished = false
    const finish = async (code: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return
      finished = true
      for (const [name, handler] of handlers) process.off(name, handler)
      let exitCode = code ?? 1
      try {
        const state = await readUpgradeState(options.stateDir)
        if (state.pending?.toVersion === version && state.pending.launched) {
          // Still pending: the new version never registered. A stop asked for by the operator is
          // no verdict on it; anything else is, and the next start rolls it back.
          const exit = code !== null ? `exited with code ${code}` : `killed by ${signal}`
          await updateUpgradeState(options.stateDir, (s) => ({ ...s, pending: s.pending && (stopRequested ? { ...s.pending, launched: false } : { ...s.pending, exit }) }))
          if (!stopRequested && exitCode === 0) exitCode = 1 // so Restart=on-failure comes back and rolls it back
        }
      } catch (error) {
        log.warn({ err: error }, 'cannot record how the new version ended')
      }
      resolve(exitCode)
    }
    child.once('error', (error) => {
      log.error({ err: error, cli }, 'cannot start the version versions/current names')
      void finish(1, null)
    })
    child.once('exit', (code, signal) => void finish(code, signal))
  })
}
