import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { UpgradeResult } from '../../protocol/wire.js'
import { upgradeStateFileName, upgradeVersionsDirName } from '../../config/defaults.js'
import { StateFileError } from '../../errors.js'
import { writeFileAtomic } from '../state/atomic-file.js'

// `<state_dir>/upgrade.json`: what must survive the exit for a restart and a rollback
// (protocol.md 7.5). One file, written atomically, so the pending marker and the results move
// together: the version just installed turns its marker into a `success` in one write.

/** Written just before `versions/current` is switched; cleared once the new version registered. */
export interface PendingUpgrade {
  fromVersion: string
  toVersion: string
  /** What `versions/current` named before the switch (a version directory name), or null: the base install. */
  previous: string | null
  /** Set by the launcher when it starts the new version; a marker still launched at the next start means it never registered. */
  launched: boolean
  /** How the last launch of the new version ended, for the rollback's reason. */
  exit?: string
}

export interface RememberedResult {
  result: UpgradeResult
  posted: boolean
}

export interface UpgradeState {
  pending: PendingUpgrade | null
  /** One entry per target whose result was decided, kept until a sync shows the flag cleared. */
  results: RememberedResult[]
}

export const emptyUpgradeState = (): UpgradeState => ({ pending: null, results: [] })

export const versionsDir = (stateDir: string): string => join(stateDir, upgradeVersionsDirName)
export const upgradeStatePath = (stateDir: string): string => join(stateDir, upgradeStateFileName)

export async function readUpgradeState(stateDir: string): Promise<UpgradeState> {
  const path = upgradeStatePath(stateDir)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyUpgradeState()
    throw new StateFileError(`cannot read ${path}: ${(error as Error).message}`, { cause: error })
  }
  try {
    return parseUpgradeState(text)
  } catch (error) {
    throw new StateFileError(`${path} is not a valid upgrade state file: ${(error as Error).message}`, { cause: error })
  }
}

export async function writeUpgradeState(stateDir: string, state: UpgradeState): Promise<void> {
  await writeFileAtomic(upgradeStatePath(stateDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
}

/** Read, change, write: the callers (launcher, then the one daemon) never run at the same time. */
export async function updateUpgradeState(stateDir: string, change: (state: UpgradeState) => UpgradeState): Promise<UpgradeState> {
  const next = change(await readUpgradeState(stateDir))
  await writeUpgradeState(stateDir, next)
  return next
}

const outcomes = new Set(['success', 'failure', 'noop'])

export function parseUpgradeState(text: string): UpgradeState {
  const value = JSON.parse(text) as unknown
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object')
  const record = value as Record<string, unknown>
  const state = emptyUpgradeState()
  if (record.pending !== null && record.pending !== undefined) {
    const pending = record.pending as Record<string, unknown>
    if (typeof pending !== 'object' || typeof pending.fromVersion !== 'string' || typeof pending.toVersion !== 'string' || typeof pending.launched !== 'boolean'
      || !(pending.previous === null || typeof pending.previous === 'string')) throw new Error('pending: expected fromVersion, toVersion, previous, launched')
    state.pending = { fromVersion: pending.fromVersion, toVersion: pending.toVersion, previous: pending.previous as string | null, launched: pending.launched }
    if (typeof pending.exit === 'string') state.pending.exit = pending.exit
  }
  if (!Array.isArray(record.results)) throw new Error('results: expected an array')
  for (const entry of record.results as unknown[]) {
    const item = entry as { result?: Record<string, unknown>; posted?: unknown }
    const result = item?.result
    if (typeof result !== 'object' || result === null || typeof result.outcome !== 'string' || !outcomes.has(result.outcome)
      || typeof result.fromVersion !== 'string' || typeof result.toVersion !== 'string' || typeof item.posted !== 'boolean'
      || (result.error !== undefined && typeof result.error !== 'string')) throw new Error('results: expected { result: UpgradeResult, posted }')
    state.results.push({ result: result as unknown as UpgradeResult, posted: item.posted })
  }
  return state
}
