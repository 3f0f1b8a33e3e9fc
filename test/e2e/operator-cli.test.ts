// The first minutes of a new operator (issue 18, protocol.md 7.7): `init`, `config check`, the
// access token from the environment or a file, and the CLI run as another user than the daemon.
// Every command runs as the built CLI in a child process, so exit codes are the real ones.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/load.js'
import { runCli } from '../helpers/daemon.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma18-cli-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

// The environment of an operator without the test runner's overrides of the token.
const clean = { MEDIA_AGENT_ACCESS_TOKEN: '' }

describe('media-agent init', () => {
  it('writes the commented fresh-install file with mode 0600 in folders it makes, funnel on', async () => {
    const file = join(dir, 'etc', 'media-agent', 'config.toml')
    const result = await runCli(['init', '--config', file, '--server', 'https://media.example', '--token', 'tok-123'], clean)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`wrote ${file} (mode 0600)`)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const text = await readFile(file, 'utf8')
    expect(text).toMatch(/^# media-agent configuration/)
    const { config } = parseConfigText(text, { file, env: {} })
    expect(config.server).toMatchObject({ baseUrl: 'https://media.example', accessToken: 'tok-123' })
    // Read back as a file on disk (not fresh): the written key keeps the funnel on.
    expect(config.funnel.enabled).toBe(true)
  })

  it('never overwrites a config: exit 1 and the file untouched', async () => {
    const file = join(dir, 'config.toml')
    await writeFile(file, '# mine\n', { mode: 0o640 })
    const result = await runCli(['init', '--config', file, '--server', 'https://media.example', '--token', 't'], clean)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${file} already exists`)
    expect(await readFile(file, 'utf8')).toBe('# mine\n')
    expect((await stat(file)).mode & 0o777).toBe(0o640)
  })

  it('refuses a bad --server with exit 2 and writes nothing', async () => {
    const file = join(dir, 'config.toml')
    const result = await runCli(['init', '--config', file, '--server', 'ftp://media.example'], clean)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--server must be an http(s) URL')
    await expect(stat(file)).rejects.toThrow(/ENOENT/)
  })
})

describe('media-agent config check', () => {
  it('prints the effective config with the token and the signing secret redacted, exit 0', async () => {
    const file = join(dir, 'config.toml')
    await writeFile(file, '[server]\nbase_url = "https://media.example/"\naccess_token = "very-secret-token"\nsigning_secret = "sign-me-secret"\n[stream]\nport = 8000\n')
    const result = await runCli(['config', 'check', '--config', file], { ...clean, XDG_STATE_HOME: join(dir, 'state') })
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('very-secret-token')
    expect(result.stdout).not.toContain('sign-me-secret')
    expect(result.stdout).toContain('access_token = "[redacted]"')
    expect(result.stdout).toContain('signing_secret = "[redacted]"')
    expect(result.stdout).toContain('base_url = "https://media.example"')
    expect(result.stdout).toContain('port = 8000')
    // The defaults are filled in, paths expanded.
    expect(result.stdout).toContain(`state_dir = "${join(dir, 'state', 'media-agent')}"`)
    expect(result.stdout).toContain('listen = "127.0.0.1:7891"')
  })

  it('prints the error with the file and the key, exit 78', async () => {
    const file = join(dir, 'config.toml')
    await writeFile(file, '[server]\nbase_url = "https://media.example"\naccess_token = "t"\n[stream]\nport = "eighty"\n')
    const result = await runCli(['config', 'check', '--config', file], clean)
    expect(result.code).toBe(78)
    expect(result.stderr).toContain(file)
    expect(result.stderr).toContain('stream.port must be an integer from 1 to 65535')
    expect(result.stdout).toBe('')
  })
})

describe('usage errors', () => {
  it('exit 2 with the message on stderr and nothing on stdout, for an unknown command or a bad option value', async () => {
    const unknown = await runCli(['frobnicate'], clean)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Command not found')
    expect(unknown.stdout).toBe('')
    const badLevel = await runCli(['config', 'check', '--log-level', 'loud'], clean)
    expect(badLevel.code).toBe(2)
    expect(badLevel.stderr).toContain('--log-level must be one of')
  })
})

describe('the access token from the environment or a file', () => {
  it('takes MEDIA_AGENT_ACCESS_TOKEN first, then access_token_file (one trailing newline dropped), then access_token', async () => {
    const tokenFile = join(dir, 'token')
    await writeFile(tokenFile, 'from-the-file\n', { mode: 0o600 })
    const file = join(dir, 'config.toml')
    const text = `[server]\nbase_url = "https://media.example"\naccess_token = "from-the-key"\naccess_token_file = "${tokenFile}"\n`
    await writeFile(file, text)
    expect(parseConfigText(text, { file, env: { MEDIA_AGENT_ACCESS_TOKEN: 'from-the-env' } }).config.server.accessToken).toBe('from-the-env')
    expect(parseConfigText(text, { file, env: {} }).config.server.accessToken).toBe('from-the-file')
    expect(parseConfigText(text.replace(/access_token_file.*\n/, ''), { file, env: {} }).config.server.accessToken).toBe('from-the-key')

    const viaEnv = await runCli(['config', 'check', '--config', file], { MEDIA_AGENT_ACCESS_TOKEN: 'from-the-env' })
    expect(viaEnv.code).toBe(0)
    expect(viaEnv.stdout).toContain('# access token: from MEDIA_AGENT_ACCESS_TOKEN')
    expect(viaEnv.stdout).not.toContain('from-the-env')
    const viaFile = await runCli(['config', 'check', '--config', file], clean)
    expect(viaFile.stdout).toContain(`# access token: from ${tokenFile}`)
    expect(viaFile.stdout).not.toContain('from-the-file')
  })

  it('makes access_token optional when a token comes from elsewhere, as in a container', async () => {
    const file = join(dir, 'config.toml')
    await writeFile(file, '[server]\nbase_url = "https://media.example"\naccess_token = ""\n')
    expect((await runCli(['config', 'check', '--config', file], clean)).code).toBe(78)
    expect((await runCli(['config', 'check', '--config', file], { MEDIA_AGENT_ACCESS_TOKEN: 'abc' })).code).toBe(0)
  })

  it('names the token file and the reason when it cannot be used, exit 78', async () => {
    const file = join(dir, 'config.toml')
    const tokenFile = join(dir, 'token')
    await writeFile(file, `[server]\nbase_url = "https://media.example"\naccess_token_file = "${tokenFile}"\n`)
    const missing = await runCli(['config', 'check', '--config', file], clean)
    expect(missing.code).toBe(78)
    expect(missing.stderr).toContain(`server.access_token_file ${tokenFile} cannot be read: it does not exist`)
    await writeFile(tokenFile, 'two\nlines\n')
    const garbled = await runCli(['config', 'check', '--config', file], clean)
    expect(garbled.code).toBe(78)
    expect(garbled.stderr).toContain(`the file ${tokenFile} (server.access_token_file) must hold a non-empty token`)
    expect(garbled.stderr).not.toContain('lines')
  })
})

describe('the CLI as another user than the daemon', () => {
  it('says it may not read the admin token (which file, which user, how to fix), exit 1, not "not running"', async () => {
    const stateDir = join(dir, 'state')
    await mkdir(stateDir, { recursive: true })
    const tokenFile = join(stateDir, 'admin.token')
    await writeFile(tokenFile, 'daemon-admin-token\n', { mode: 0o600 })
    const file = join(dir, 'config.toml')
    await writeFile(file, `[server]\nbase_url = "https://media.example"\naccess_token = "t"\n[daemon]\nstate_dir = "${stateDir}"\n`, { mode: 0o644 })
    await chmod(dir, 0o755)
    let result: { code: number | null; stdout: string; stderr: string }
    if (process.getuid?.() === 0) {
      // root reads any file: run the CLI as `nobody`, as an operator's own login would be.
      result = await runAs(65534, ['status', '--config', file])
      expect(result.stderr).toContain('uid 65534')
    } else {
      await chmod(tokenFile, 0o000)
      result = await runCli(['status', '--config', file], clean)
    }
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`permission denied reading the admin token ${tokenFile}`)
    expect(result.stderr).toContain('the daemon runs as another user')
    expect(result.stderr).toContain('sudo -u media-agent media-agent status')
    expect(result.stderr).toContain('MA_ERR_ADMIN_TOKEN_ACCESS')
    expect(result.stdout).not.toContain('not running')
  })
})

function runAs(uid: number, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(args, { ...clean, HOME: '/nonexistent' }, ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups'])
}
