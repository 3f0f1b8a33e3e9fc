import { mkdir, readFile, chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { randomBytes, randomUUID } from 'node:crypto'
import { StateFileError } from '../../errors.js'
import { adminTokenFileName, agentIdFileName } from '../../config/defaults.js'
import { writeFileAtomic } from './atomic-file.js'

// The agent's state directory: agent id (stable across restarts, protocol.md RegisterRequest),
// the admin token (rewritten on every daemon start, mode 0600, protocol.md 6) and tasks.json.

export interface StateDir {
  readonly path: string
  agentId(): Promise<string>
  writeAdminToken(): Promise<string>
  readAdminToken(): Promise<string | undefined>
  adminTokenPath(): string
}

export function openStateDir(path: string): StateDir {
  const adminTokenPath = join(path, adminTokenFileName)
  return {
    path,
    adminTokenPath: () => adminTokenPath,
    async agentId() {
      const file = join(path, agentIdFileName)
      try {
        const existing = (await readFile(file, 'utf8')).trim()
        if (/^[0-9a-f-]{36}$/i.test(existing)) return existing
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw stateError(file, error)
      }
      const id = randomUUID()
      await ensureDir(path)
      await writeFileAtomic(file, `${id}\n`).catch((error) => { throw stateError(file, error) })
      return id
    },
    async writeAdminToken() {
      await ensureDir(path)
      const token = randomBytes(32).toString('base64url')
      await writeFileAtomic(adminTokenPath, `${token}\n`, { mode: 0o600 }).catch((error) => { throw stateError(adminTokenPath, error) })
      // The umask can only remove bits; make the mode exact in case the file pre-existed.
      await chmod(adminTokenPath, 0o600)
      return token
    },
    async readAdminToken() {
      try {
        return (await readFile(adminTokenPath, 'utf8')).trim() || undefined
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw stateError(adminTokenPath, error)
      }
    },
  }

  async function ensureDir(dir: string) {
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch((error) => { throw stateError(dir, error) })
  }
}

function stateError(file: string, cause: unknown): StateFileError {
  const reason = (cause as Error)?.message ?? String(cause)
  return new StateFileError(`cannot use state file ${file}: ${reason}`, { cause, details: { file } })
}
