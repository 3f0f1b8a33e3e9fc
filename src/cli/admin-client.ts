import { join } from 'node:path'
import { readFile, stat } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { adminRequestTimeoutMs, adminTokenFileName } from '../config/defaults.js'
import { AdminAuthError, AdminRequestError, AdminTokenAccessError, DaemonNotRunningError, isAgentError, type AgentError } from '../errors.js'
import { createHttpClient, type HttpResponse } from '../services/http/node-client.js'
import type { AgentConfig } from '../config/schema.js'

// The CLI's only way into the daemon (design.md house rule 7): HTTP to the loopback admin
// listener with the token the daemon wrote into its state dir.

export interface AdminClient {
  get<T>(path: string): Promise<T>
  /** POSTs `body` as JSON; resolves with the JSON answer of a 200. `timeoutMs`: for a route that waits (`update`). */
  post<T>(path: string, body?: unknown, options?: { timeoutMs?: number }): Promise<T>
  /** GETs a text route (`/metrics`). */
  getText(path: string): Promise<string>
}

export function adminClient(config: AgentConfig): AdminClient {
  const { host, port } = config.admin.listen
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const tokenFile = join(config.daemon.stateDir, adminTokenFileName)
  async function call(path: string, method: 'GET' | 'POST', body?: unknown, timeoutMs = adminRequestTimeoutMs) {
    let token: string
    try {
      token = (await readFile(tokenFile, 'utf8')).trim()
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EACCES' || code === 'EPERM') throw await tokenAccessError(tokenFile, error)
      throw new DaemonNotRunningError(`the daemon is not running (no admin token at ${tokenFile})`)
    }
    // One connection per call, dropped after it: a kept-alive socket must not hold the CLI open.
    const client = createHttpClient({ maxSockets: 1 })
    try {
      let response: HttpResponse
      try {
        response = await client.request(new URL(`${base}${path}`), {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          connectTimeoutMs: adminRequestTimeoutMs,
          headersTimeoutMs: timeoutMs,
        })
      } catch (error) {
        throw new DaemonNotRunningError(`the daemon is not running (nothing answers at ${base})`, { cause: error })
      }
      // The body within the same time as the headers (undici's bodyTimeout did this before): a
      // daemon that sent its headers and then stalled would otherwise hold the command for ever.
      const stalled = setTimeout(() => client.destroy(), timeoutMs)
      let text: string
      try {
        text = await response.text()
      } catch (error) {
        throw new AdminRequestError(`the daemon at ${base} stopped answering ${method} ${path} mid-answer (${response.statusCode}, nothing more within ${timeoutMs} ms)`, {
          cause: error,
          details: { status: response.statusCode, path },
        })
      } finally {
        clearTimeout(stalled)
      }
      if (response.statusCode === 401) {
        throw new AdminAuthError(`the daemon at ${base} refused the admin token in ${tokenFile}; is another agent using this port?`)
      }
      if (response.statusCode !== 200) {
        // The daemon runs but would not do it: a route it does not know (a daemon older than
        // this CLI), a request it refused, or its own failure. Not "not running" (exit 3).
        const hint = response.statusCode === 404 ? ' (a daemon older than this command? restart it after an upgrade)' : ''
        throw new AdminRequestError(`the daemon at ${base} answered ${response.statusCode} to ${method} ${path}${hint}: ${answerText(text)}`, {
          details: { status: response.statusCode, path },
        })
      }
      return text
    } finally {
      client.destroy()
    }
  }
  // A 200 that is not JSON (something else on the admin port, a proxy's page) is a clear error, not a SyntaxError.
  const json = <T>(text: string, method: string, path: string): T => {
    try {
      return JSON.parse(text) as T
    } catch (error) {
      throw new AdminRequestError(`the daemon at ${base} answered ${method} ${path} with something that is not JSON: ${answerText(text)}`, { cause: error, details: { status: 200, path } })
    }
  }
  return {
    get: async <T>(path: string) => json<T>(await call(path, 'GET'), 'GET', path),
    post: async <T>(path: string, body?: unknown, options?: { timeoutMs?: number }) => json<T>(await call(path, 'POST', body ?? {}, options?.timeoutMs), 'POST', path),
    getText: (path: string) => call(path, 'GET'),
  }
}

/** The daemon's own words from an error answer (`{ "error": ... }` or text), cut to one line. */
function answerText(text: string): string {
  let said = text
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown }
    const message = parsed.message ?? parsed.error
    if (typeof message === 'string') said = message
  } catch {
    // not JSON: the text itself
  }
  return said.replace(/\s+/g, ' ').trim().slice(0, 200) || '(no body)'
}

/**
 * The daemon runs as another user (systemd's `media-agent`, a container): say which file, whose it
 * is, who asked, and how to get in, instead of "not running" (docs/operations.md).
 */
async function tokenAccessError(tokenFile: string, cause: unknown): Promise<AdminTokenAccessError> {
  const me = `${safeUserName()} (uid ${process.getuid?.() ?? '?'})`
  const owner = await stat(tokenFile).then((info) => `uid ${info.uid}, gid ${info.gid}, mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}`, () => 'owner unknown')
  return new AdminTokenAccessError(
    `permission denied reading the admin token ${tokenFile} (${owner}) as ${me}: the daemon runs as another user. ` +
      'Run this command as that user (e.g. `sudo -u media-agent media-agent status`), or pass --config with the config of a daemon you own.',
    { cause, details: { file: tokenFile } },
  )
}

function safeUserName(): string {
  try {
    return userInfo().username
  } catch {
    return 'this user'
  }
}

/** The exit code of a command that needed the daemon and found none (protocol.md 7.7, like `systemctl status`). */
export const exitDaemonNotRunning = 3

export function isDaemonNotRunning(error: unknown): error is AgentError {
  return isAgentError(error) && error.code === 'MA_ERR_DAEMON_NOT_RUNNING'
}

/**
 * The catch of a command that needs the daemon: "not running" is said on stderr and becomes exit
 * 3; any other error goes on to clipanion's handler.
 */
export function daemonNotRunning(error: unknown, stderr: NodeJS.WritableStream): number {
  if (!isDaemonNotRunning(error)) throw error
  stderr.write(`media-agent: ${error.message}\n`)
  return exitDaemonNotRunning
}
