import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { embeddedDefaultConfig, loadConfig, parseConfigText, renderFreshConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

const fixtures = join(import.meta.dirname, '../fixtures/config')

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ma-config-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const err = await promise.then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(ConfigError)
  return err as ConfigError
}

describe('finding the config file', () => {
  it('reads $XDG_CONFIG_HOME/media-agent/config.toml when no path is given', async () => {
    const dir = join(home, 'xdg', 'media-agent')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'config.toml'), readFileSync(join(fixtures, 'minimal.toml')))
    const loaded = await loadConfig({ env: { XDG_CONFIG_HOME: join(home, 'xdg') }, homedir: home })
    expect(loaded.source).toBe('file')
    expect(loaded.path).toBe(join(dir, 'config.toml'))
    expect(loaded.config.server.baseUrl).toBe('https://media.example')
  })

  it('reads ~/.config/media-agent/config.toml when XDG_CONFIG_HOME is unset', async () => {
    await mkdir(join(home, '.config', 'media-agent'), { recursive: true })
    await writeFile(join(home, '.config', 'media-agent', 'config.toml'), readFileSync(join(fixtures, 'full.toml')))
    const loaded = await loadConfig({ env: {}, homedir: home })
    expect(loaded.source).toBe('file')
    expect(loaded.config.daemon.stateDir).toBe(join(home, 'state'))
  })

  it('treats a config file on disk that lacks the funnel key as a legacy config with the funnel off', async () => {
    const path = join(home, 'c.toml')
    await writeFile(path, readFileSync(join(fixtures, 'minimal.toml')))
    expect((await loadConfig({ path, env: {}, homedir: home })).config.funnel.enabled).toBe(false)
  })

  it('uses the embedded default, funnel on, when no config file exists at all', async () => {
    const loaded = await loadConfig({ env: {}, homedir: home })
    expect(loaded.source).toBe('embedded-default')
    expect(loaded.path).toBe(join(home, '.config', 'media-agent', 'config.toml'))
    expect(loaded.warnings).toEqual([])
    expect(loaded.config.funnel.enabled).toBe(true)
    expect(loaded.config.server).toEqual({ baseUrl: '', accessToken: '', mirrors: [] })
    expect(loaded.config).toEqual(embeddedDefaultConfig({}, home))
  })

  it('fails with the path when a config path is given but does not exist', async () => {
    const path = join(home, 'nope.toml')
    const err = await rejection(loadConfig({ path, env: {}, homedir: home }))
    expect(err.code).toBe('MA_ERR_CONFIG')
    expect(err.message).toContain(path)
    expect(err.details).toMatchObject({ file: path })
  })

  it('expands ~ in a config path given on the command line', async () => {
    await writeFile(join(home, 'mine.toml'), readFileSync(join(fixtures, 'minimal.toml')))
    const loaded = await loadConfig({ path: '~/mine.toml', env: {}, homedir: home })
    expect(loaded.path).toBe(join(home, 'mine.toml'))
  })

  it('fails with a config error when the config path is a directory', async () => {
    await rejection(loadConfig({ path: home, env: {}, homedir: home }))
  })
})

describe('file encodings', () => {
  it('accepts a file saved with a byte-order mark and CRLF line endings', () => {
    const text = '\uFEFF' + readFileSync(join(fixtures, 'full.toml'), 'utf8').replace(/\n/g, '\r\n')
    const { config } = parseConfigText(text, { file: 'c.toml', env: {}, homedir: '/home/ada' })
    expect(config.server.accessToken).toBe('tok-123')
    expect(config.library.paths).toEqual(['/home/ada/Movies', '/mnt/media'])
  })
})

describe('the embedded default', () => {
  it('has no server, and honours XDG dirs and the ffmpeg environment variables', () => {
    const config = embeddedDefaultConfig({ XDG_STATE_HOME: '/s', XDG_CACHE_HOME: '/c', FFPROBE_PATH: '/bin/ffprobe' }, '/home/ada')
    expect(config.server.baseUrl).toBe('')
    expect(config.server.accessToken).toBe('')
    expect(config.daemon.stateDir).toBe('/s/media-agent')
    expect(config.downloads.hlsCache.dir).toBe('/c/media-agent/hls')
    expect(config.downloads.dir).toBe('/home/ada/Downloads/media-agent')
    expect(config.transcode.ffprobePath).toBe('/bin/ffprobe')
    expect(config.testing).toEqual({})
  })
})

describe('TOML syntax errors', () => {
  it('names the file, the line and the column', () => {
    const file = join(fixtures, 'syntax-error.toml')
    let err: unknown
    try {
      parseConfigText(readFileSync(file, 'utf8'), { file, env: {}, homedir: '/home/ada' })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    const error = err as ConfigError
    expect(error.message).toContain(`${file}:3:16`)
    expect(error.details).toMatchObject({ file, line: 3, column: 16 })
  })

  it('does not quote the offending line, which may hold a token', () => {
    let message = ''
    try {
      parseConfigText('[server]\naccess_token = sekrit\n', { file: 'c.toml', env: {}, homedir: '/h' })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toContain('c.toml:2:')
    expect(message).not.toContain('sekrit')
  })
})

describe('the file a fresh install writes', () => {
  it('turns the funnel on explicitly, so it stays on when read back as an existing file', () => {
    const toml = renderFreshConfig({ baseUrl: 'https://media.example', accessToken: 'tok' })
    expect(toml).toMatch(/^\[funnel\]\nenabled = true/m)
    const { config, warnings } = parseConfigText(toml, { file: 'c.toml', env: {}, homedir: '/home/ada', freshInstall: false })
    expect(warnings).toEqual([])
    expect(config.funnel.enabled).toBe(true)
    expect(config.server).toEqual({ baseUrl: 'https://media.example', accessToken: 'tok', mirrors: [] })
  })

  it('reads back to the embedded default apart from the server', () => {
    const env = { XDG_STATE_HOME: '/s', XDG_CACHE_HOME: '/c' }
    const { config } = parseConfigText(renderFreshConfig({ baseUrl: 'https://media.example', accessToken: 'tok' }), { file: 'c.toml', env, homedir: '/h' })
    expect({ ...config, server: undefined }).toEqual({ ...embeddedDefaultConfig(env, '/h'), server: undefined })
  })

  it('comments the keys as protocol.md section 5 does', () => {
    const toml = renderFreshConfig()
    for (const line of ['downlink = "auto"', '# auto | sse | poll', 'seed_ratio = 1.0', '# empty: FFPROBE_PATH, then PATH', 'a config without this key is off', '# signing_secret']) {
      expect(toml).toContain(line)
    }
  })

  it('asks for the server when written without one', () => {
    let err: unknown
    try {
      parseConfigText(renderFreshConfig(), { file: 'c.toml', env: {}, homedir: '/h' })
    } catch (e) {
      err = e
    }
    expect((err as ConfigError).details).toMatchObject({ key: 'server.base_url' })
  })

  it('is documented key by key in docs/configuration.md', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/configuration.md'), 'utf8')
    const keys = [...renderFreshConfig().matchAll(/^#? ?([a-z_]+) = /gm)].map((m) => m[1] ?? '')
    const tables = [...renderFreshConfig().matchAll(/^\[([a-z_.]+)\]$/gm)].map((m) => m[1] ?? '')
    expect(keys.length).toBeGreaterThan(15)
    for (const name of keys) expect(docs).toContain(`\`${name}\``)
    for (const name of tables) expect(docs).toContain(`\`[${name}]\``)
  })
})
