// The service files an operator installs (issue 18, docs/operations.md): the systemd unit, checked
// by systemd's own `systemd-analyze verify`, and the Dockerfile, checked by a Dockerfile linter
// (npm `dockerfile-utils`, the validator behind the Dockerfile language server). Neither is built
// or started here (no service manager, no container engine); each check is shown to catch a
// broken copy, so a pass means something.
import { execFile } from 'node:child_process'
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { validate } from 'dockerfile-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/daemon.js'

const run = promisify(execFile)
const unitPath = join(repoRoot, 'packaging', 'systemd', 'media-agent.service')
const dockerfilePath = join(repoRoot, 'packaging', 'docker', 'Dockerfile')
let root: string

beforeAll(async () => {
  // A root for `--root`: the host's unit library (for network-online.target and friends) and a
  // stand-in executable at the unit's ExecStart path, which verify insists exists.
  root = await mkdtemp(join(tmpdir(), 'ma18-systemd-'))
  await mkdir(join(root, 'usr', 'lib', 'systemd'), { recursive: true })
  await cp('/usr/lib/systemd/system', join(root, 'usr', 'lib', 'systemd', 'system'), { recursive: true })
  await mkdir(join(root, 'usr', 'bin'), { recursive: true })
  await writeFile(join(root, 'usr', 'bin', 'media-agent'), '#!/bin/sh\nexit 0\n')
  await chmod(join(root, 'usr', 'bin', 'media-agent'), 0o755)
  await mkdir(join(root, 'etc', 'systemd', 'system'), { recursive: true })
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** `systemd-analyze verify` of unit text; it exits 0 on unknown keys and bad values, so its stderr counts too. */
async function verifyUnit(text: string): Promise<{ code: number; stderr: string }> {
  const file = join(root, 'etc', 'systemd', 'system', 'media-agent.service')
  await writeFile(file, text)
  try {
    const { stderr } = await run('systemd-analyze', ['verify', `--root=${root}`, '--man=no', file], { cwd: root })
    return { code: 0, stderr }
  } catch (error) {
    const failed = error as { code?: number; stderr?: string }
    return { code: failed.code ?? 1, stderr: failed.stderr ?? '' }
  }
}

function directives(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (match) found.set(match[1]!, [...(found.get(match[1]!) ?? []), match[2]!])
  }
  return found
}

describe('the systemd unit', () => {
  it('passes systemd-analyze verify without a warning, and a broken copy does not', async () => {
    const text = await readFile(unitPath, 'utf8')
    expect(await verifyUnit(text)).toEqual({ code: 0, stderr: '' })
    const broken = await verifyUnit(text.replace('RestartSec=5s', 'RestartSec=five').replace('Restart=on-failure', 'Restartt=on-failure'))
    expect(broken.stderr).toContain("Unknown key 'Restartt'")
    expect(broken.stderr).toContain('Failed to parse sec value')
  })

  it('restarts on failure but not on a configuration error, runs as its own user with the render group, and gets its state and cache folders from systemd', async () => {
    const unit = directives(await readFile(unitPath, 'utf8'))
    expect(unit.get('Restart')).toEqual(['on-failure'])
    expect(unit.get('RestartPreventExitStatus')).toEqual(['78'])
    expect(unit.get('User')).toEqual(['media-agent'])
    expect(unit.get('SupplementaryGroups')?.[0]?.split(' ')).toContain('render')
    expect(unit.get('StateDirectory')).toEqual(['media-agent'])
    expect(unit.get('CacheDirectory')).toEqual(['media-agent'])
    expect(unit.get('ExecStart')?.[0]).toMatch(/^\/usr\/bin\/media-agent daemon --config \/etc\/media-agent\/config\.toml$/)
  })

  it('hands the daemon the folders in $STATE_DIRECTORY and $CACHE_DIRECTORY as its defaults', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma18-dirs-'))
    try {
      const config = join(dir, 'config.toml')
      await writeFile(config, '[server]\nbase_url = "https://media.example"\naccess_token = "t"\n')
      const { stdout } = await run(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'config', 'check', '--config', config], {
        env: { ...process.env, STATE_DIRECTORY: '/var/lib/media-agent', CACHE_DIRECTORY: '/var/cache/media-agent', MEDIA_AGENT_ACCESS_TOKEN: '' },
      })
      expect(stdout).toContain('state_dir = "/var/lib/media-agent"')
      expect(stdout).toContain('dir = "/var/cache/media-agent/hls"')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the Dockerfile', () => {
  it('passes the Dockerfile linter, and a broken copy does not', async () => {
    const text = await readFile(dockerfilePath, 'utf8')
    expect(validate(text).map((problem) => `${problem.range.start.line + 1}: ${problem.message}`)).toEqual([])
    const broken = text.replace('EXPOSE 7890', 'EXPOSE seventy').replace('HEALTHCHECK --interval=30s', 'HEALTHCHECK --interval=often')
    expect(validate(broken).length).toBeGreaterThanOrEqual(2)
  })

  it('bundles ffmpeg and a checksum-verified tunnel helper, runs as a non-root user and checks health with media-agent status', async () => {
    const text = await readFile(dockerfilePath, 'utf8')
    const finalStage = text.slice(text.lastIndexOf('\nFROM '))
    expect(finalStage).toMatch(/apt-get install[^\n]*ffmpeg/)
    expect(text).toMatch(/sha256sum -c -/)
    expect(finalStage).toContain('COPY --from=tunnel-helper /cloudflared /usr/local/bin/cloudflared')
    const users = [...finalStage.matchAll(/^USER (\S+)/gm)].map((match) => match[1])
    expect(users.at(-1)).toBe('media-agent')
    expect(finalStage).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \["media-agent", "status"/m)
    expect(finalStage).toContain('STATE_DIRECTORY=/var/lib/media-agent')
  })
})
