import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as defaults from '../../src/config/defaults.js'
import { parseConfigText, type LoadedConfig } from '../../src/config/load.js'
import { isLoopback, timing } from '../../src/config/schema.js'
import { ConfigError } from '../../src/errors.js'

const fixtures = join(import.meta.dirname, '../fixtures/config')
const home = '/home/ada'
const server = '[server]\nbase_url = "https://media.example"\naccess_token = "tok-123"\n'

function fixture(name: string, env: NodeJS.ProcessEnv = {}): LoadedConfig {
  const file = join(fixtures, name)
  return parseConfigText(readFileSync(file, 'utf8'), { file, env, homedir: home })
}

function text(toml: string, options: { env?: NodeJS.ProcessEnv; freshInstall?: boolean } = {}): LoadedConfig {
  return parseConfigText(toml, { file: '/etc/ma/config.toml', env: {}, homedir: home, ...options })
}

function configError(run: () => unknown): ConfigError {
  try {
    run()
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return err as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('a complete config file', () => {
  it('sets every key of the agent config from its file', () => {
    const { config, warnings, source } = fixture('full.toml')
    expect(source).toBe('file')
    expect(warnings).toEqual([])
    expect(config).toEqual({
      server: {
        baseUrl: 'https://media.example',
        accessToken: 'tok-123',
        mirrors: ['https://mirror-a.example', 'http://mirror-b.example:8080/base'],
        signingSecret: 's3cret',
      },
      daemon: { downlink: 'poll', stateDir: '/home/ada/state' },
      stream: { port: 18090, upnp: false, inlineReads: false },
      admin: { listen: { host: '::1', port: 17891 } },
      downloads: {
        dir: '/srv/downloads',
        seedRatio: 0,
        hlsCache: { enabled: false, sizeGb: 0.5, dir: '/home/ada/hls-cache' },
        vpn: { enabled: true },
        torrent: { dht: false, lsd: false, pex: false, utp: false, natTraversal: false, port: 51413, idleGraceMs: 90_000 },
      },
      funnel: { enabled: false, helperPath: '/home/ada/bin/cloudflared', helperUrl: 'https://mirror.example/cloudflared' },
      transcode: { encoder: 'h264_vaapi', ffmpegPath: '/home/ada/bin/ffmpeg', ffprobePath: '/opt/ffmpeg/bin/ffprobe' },
      library: { paths: ['/home/ada/Movies', '/mnt/media'], watch: false, rescanMinutes: 15 },
      testing: {},
    })
  })

  it('fills every key the file leaves out with the value from defaults.ts', () => {
    const { config } = fixture('minimal.toml')
    expect(config.daemon.downlink).toBe(defaults.downlinkMode)
    expect(config.stream).toEqual({ port: defaults.streamServerPort, upnp: defaults.streamUpnpEnabled, inlineReads: defaults.streamInlineReadsEnabled })
    expect(config.admin.listen).toEqual({ host: '127.0.0.1', port: 7891 })
    expect(config.downloads.seedRatio).toBe(defaults.seedRatio)
    expect(config.downloads.hlsCache).toEqual({ enabled: defaults.hlsCacheEnabled, sizeGb: defaults.hlsCacheSizeGb, dir: '/home/ada/.cache/media-agent/hls' })
    expect(config.downloads.vpn.enabled).toBe(defaults.vpnEnabled)
    expect(config.downloads.torrent).toEqual({ dht: true, lsd: true, pex: true, utp: true, natTraversal: true, port: 0, idleGraceMs: defaults.torrentIdleGraceMs })
    expect(config.transcode).toEqual({ encoder: 'auto', ffmpegPath: '', ffprobePath: '' })
    expect(config.server.mirrors).toEqual([])
    expect(config.server.signingSecret).toBeUndefined()
    expect(config.library).toEqual({ paths: [], watch: defaults.libraryWatchEnabled, rescanMinutes: defaults.libraryRescanMinutes })
  })
})

describe('the funnel default', () => {
  it('leaves the funnel off for an existing config that has no funnel key', () => {
    expect(fixture('minimal.toml').config.funnel.enabled).toBe(false)
  })

  it('turns the funnel on for a fresh-install file that has no funnel key', () => {
    expect(text(server, { freshInstall: true }).config.funnel.enabled).toBe(true)
  })

  it('follows the key when the file sets it, whatever its age', () => {
    expect(text(`${server}[funnel]\nenabled = true\n`).config.funnel.enabled).toBe(true)
    expect(text(`${server}[funnel]\nenabled = false\n`, { freshInstall: true }).config.funnel.enabled).toBe(false)
  })
})

describe('removed and unknown settings', () => {
  it('accepts every removed setting of the old agent with one warning naming them all', () => {
    const { config, warnings } = fixture('legacy-removed.toml')
    expect(config.downloads.dir).toBe('/srv/downloads')
    expect(warnings).toHaveLength(1)
    for (const key of ['poll_interval', 'ws_url', 'server.ws_url', 'server.heartbeat_interval', 'daemon.poll_interval', 'daemon.heartbeat_interval', 'downloads.webrtc']) {
      expect(warnings[0]).toContain(key)
    }
    expect(warnings[0]).toContain('legacy-removed.toml')
  })

  it('accepts a [downloads.webrtc] block of any shape without an error', () => {
    expect(text(`${server}[downloads]\nwebrtc = 5\n`).warnings).toEqual([expect.stringContaining('downloads.webrtc')])
    expect(text(`${server}[[downloads.webrtc]]\nx = 1\n`).warnings).toEqual([expect.stringContaining('downloads.webrtc')])
  })

  it('warns once for each unknown key, naming it with its dotted path', () => {
    const { warnings } = fixture('unknown-keys.toml')
    expect(warnings).toHaveLength(4)
    for (const key of ['colour', 'server.timeout', 'downloads.hls_cache.evict', 'extras']) {
      expect(warnings.filter((w) => w.endsWith(` ${key}`))).toHaveLength(1)
    }
  })

  it('quotes an unknown key that is not a bare TOML key', () => {
    expect(text(`${server}[stream]\n"a.b" = 1\n`).warnings).toEqual([expect.stringContaining('stream."a.b"')])
  })

  it('gives the removed-settings warning and the unknown-key warnings side by side', () => {
    const { warnings } = text(`${server}[daemon]\npoll_interval = 5\nfoo = 1\n`)
    expect(warnings).toEqual([expect.stringContaining('daemon.poll_interval'), expect.stringContaining('daemon.foo')])
  })
})

describe('wrong types and values', () => {
  const cases: Array<[string, string, string]> = [
    ['server.base_url', '[server]\nbase_url = "ftp://media.example"\naccess_token = "t"\n', 'http(s) URL'],
    ['server.base_url', '[server]\nbase_url = "not a url"\naccess_token = "t"\n', 'http(s) URL'],
    ['server.base_url', '[server]\nbase_url = "https://media.example/?a=1"\naccess_token = "t"\n', 'http(s) URL'],
    ['server.base_url', '[server]\nbase_url = 5\naccess_token = "t"\n', 'http(s) URL'],
    ['server.access_token', '[server]\nbase_url = "https://media.example"\naccess_token = "has space"\n', 'token'],
    ['server.mirrors[1]', `${server}mirrors = ["https://a.example", "file:///etc"]\n`, 'http(s) URL'],
    ['server.mirrors', `${server}mirrors = "https://a.example"\n`, 'array'],
    ['server.signing_secret', `${server}signing_secret = 1\n`, 'a string'],
    ['server', 'server = "https://media.example"\n', 'a table'],
    ['daemon.downlink', `${server}[daemon]\ndownlink = "websocket"\n`, '"auto", "sse", "poll"'],
    ['daemon.state_dir', `${server}[daemon]\nstate_dir = ""\n`, 'path'],
    ['stream.port', `${server}[stream]\nport = 0\n`, '1 to 65535'],
    ['stream.port', `${server}[stream]\nport = 65536\n`, '1 to 65535'],
    ['stream.port', `${server}[stream]\nport = 80.5\n`, '1 to 65535'],
    ['stream.port', `${server}[stream]\nport = "7890"\n`, '1 to 65535'],
    ['stream.upnp', `${server}[stream]\nupnp = "yes"\n`, 'true or false'],
    ['stream.inline_reads', `${server}[stream]\ninline_reads = 1\n`, 'true or false'],
    ['admin.listen', `${server}[admin]\nlisten = "127.0.0.1"\n`, 'host:port'],
    ['admin.listen', `${server}[admin]\nlisten = "127.0.0.1:99999"\n`, 'host:port'],
    ['admin.listen', `${server}[admin]\nlisten = 7891\n`, 'host:port'],
    ['downloads.dir', `${server}[downloads]\ndir = []\n`, 'path'],
    ['downloads.seed_ratio', `${server}[downloads]\nseed_ratio = -0.5\n`, '>= 0'],
    ['downloads.seed_ratio', `${server}[downloads]\nseed_ratio = inf\n`, 'finite'],
    ['downloads.seed_ratio', `${server}[downloads]\nseed_ratio = nan\n`, 'finite'],
    ['downloads.hls_cache.size_gb', `${server}[downloads.hls_cache]\nsize_gb = 0\n`, 'greater than 0'],
    ['downloads.hls_cache.enabled', `${server}[downloads.hls_cache]\nenabled = 1\n`, 'true or false'],
    ['downloads.hls_cache.dir', `${server}[downloads.hls_cache]\ndir = 1979-05-27\n`, 'path'],
    ['downloads.vpn.enabled', `${server}[downloads.vpn]\nenabled = "false"\n`, 'true or false'],
    ['downloads.vpn', `${server}[downloads]\nvpn = true\n`, 'a table'],
    ['funnel.enabled', `${server}[funnel]\nenabled = "on"\n`, 'true or false'],
    ['funnel.helper_url', `${server}[funnel]\nhelper_url = "ftp://mirror.example/"\n`, 'http(s) URL'],
    ['funnel.helper_path', `${server}[funnel]\nhelper_path = 7\n`, 'path string'],
    ['transcode.encoder', `${server}[transcode]\nencoder = "h265_nvenc"\n`, '"h264_videotoolbox"'],
    ['transcode.ffprobe_path', `${server}[transcode]\nffprobe_path = false\n`, 'path'],
    ['library.paths[0]', `${server}[library]\npaths = [1]\n`, 'path'],
    ['library.watch', `${server}[library]\nwatch = "yes"\n`, 'true or false'],
    ['library.rescan_minutes', `${server}[library]\nrescan_minutes = -5\n`, '>= 0'],
    ['testing.liveness_timeout_ms', `${server}[testing]\nliveness_timeout_ms = -1\n`, '>= 0'],
    ['testing', `testing = 1\n${server}`, 'a table'],
  ]

  it.each(cases)('rejects a wrong %s with an error naming the file, the key and what is expected', (key, toml, expected) => {
    const err = configError(() => text(toml))
    expect(err.code).toBe('MA_ERR_CONFIG')
    expect(err.message).toContain('/etc/ma/config.toml')
    expect(err.message).toContain(key)
    expect(err.message).toContain(expected)
    expect(err.details).toMatchObject({ file: '/etc/ma/config.toml', key, expected: expect.stringContaining(expected) })
  })

  it('requires the server address and the access token in a config file', () => {
    const missingToken = configError(() => fixture('missing-token.toml'))
    expect(missingToken.details).toMatchObject({ key: 'server.access_token' })
    expect(missingToken.message).toContain('missing')
    expect(configError(() => text('')).details).toMatchObject({ key: 'server.base_url' })
    expect(configError(() => text('[server]\nbase_url = ""\naccess_token = "t"\n')).details).toMatchObject({ key: 'server.base_url' })
  })

  it('never repeats a secret value in an error message', () => {
    const err = configError(() => text('[server]\nbase_url = "https://media.example"\naccess_token = "sekrit value"\n'))
    expect(err.message).not.toContain('sekrit')
    expect(JSON.stringify(err.details)).not.toContain('sekrit')
  })
})

describe('the admin listener address', () => {
  it('refuses a non-loopback address and explains that the admin API binds loopback only', () => {
    const err = configError(() => fixture('admin-not-loopback.toml'))
    expect(err.details).toMatchObject({ key: 'admin.listen' })
    expect(err.message).toContain('loopback')
    expect(err.message).toContain('0.0.0.0:7891')
    expect(err.message).toContain('admin-not-loopback.toml')
  })

  it.each(['192.168.1.10:7891', '[::]:7891', 'media.example:7891', '[fe80::1]:7891', '10.127.0.1:7891'])('refuses %s', (listen) => {
    expect(configError(() => text(`${server}[admin]\nlisten = "${listen}"\n`)).message).toContain('loopback')
  })

  it.each([
    ['127.0.0.1:7891', '127.0.0.1', 7891],
    ['127.0.0.53:1', '127.0.0.53', 1],
    ['localhost:65535', 'localhost', 65535],
    ['[::1]:7891', '::1', 7891],
    ['[::ffff:127.0.0.1]:7891', '::ffff:127.0.0.1', 7891],
  ])('accepts the loopback address %s', (listen, host, port) => {
    expect(text(`${server}[admin]\nlisten = "${listen}"\n`).config.admin.listen).toEqual({ host, port })
  })

  it('tells loopback hosts from the rest', () => {
    expect(isLoopback('127.1.2.3')).toBe(true)
    expect(isLoopback('LOCALHOST')).toBe(true)
    expect(isLoopback('0:0:0:0:0:0:0:1')).toBe(true)
    expect(isLoopback('::2')).toBe(false)
    expect(isLoopback('fe80::1%eth0')).toBe(false)
  })
})

describe('the ffmpeg and ffprobe paths', () => {
  it('takes FFMPEG_PATH and FFPROBE_PATH when the config leaves the paths empty', () => {
    const env = { FFMPEG_PATH: '/env/ffmpeg', FFPROBE_PATH: '~/env/ffprobe' }
    expect(fixture('minimal.toml', env).config.transcode).toMatchObject({ ffmpegPath: '/env/ffmpeg', ffprobePath: '/home/ada/env/ffprobe' })
  })

  it('prefers the config file setting over the environment variable', () => {
    const env = { FFMPEG_PATH: '/env/ffmpeg', FFPROBE_PATH: '/env/ffprobe' }
    expect(fixture('full.toml', env).config.transcode).toMatchObject({ ffmpegPath: '/home/ada/bin/ffmpeg', ffprobePath: '/opt/ffmpeg/bin/ffprobe' })
  })

  it('leaves the paths empty for a PATH lookup when neither the config nor the environment sets them', () => {
    expect(fixture('minimal.toml', { FFPROBE_PATH: '' }).config.transcode).toMatchObject({ ffmpegPath: '', ffprobePath: '' })
  })
})

describe('the [testing] table', () => {
  it('shortens the control-plane and downlink time constants for tests, with camelCase keys', () => {
    const { config, warnings } = fixture('testing-hooks.toml')
    expect(config.testing).toEqual({
      livenessTimeoutMs: 200,
      syncIntervalIdleMs: 50,
      syncIntervalWatchingMs: 20,
      longPollReprobeMs: 300,
      sseFailuresBeforeFallback: 1,
      readinessDeadlineMs: 500,
    })
    expect(warnings).toEqual([expect.stringContaining('[testing] overrides')])
  })

  it('gives the override when one is set and the value of defaults.ts otherwise', () => {
    const { config } = fixture('testing-hooks.toml')
    expect(timing(config, 'livenessTimeoutMs')).toBe(200)
    expect(timing(config, 'serverHeartbeatMs')).toBe(defaults.serverHeartbeatMs)
  })

  it('accepts any numeric time constant of defaults.ts by its snake_case name', () => {
    expect(text(`${server}[testing]\nthumbnail_timeout_ms = 10\nurl_source_rw_timeout_us = 5\n`).config.testing).toEqual({
      thumbnailTimeoutMs: 10,
      urlSourceRwTimeoutUs: 5,
    })
  })

  it('warns about a [testing] key that is no time constant instead of using it', () => {
    const { config, warnings } = text(`${server}[testing]\nmi_b = 1\nstream_server_port = 1\nnope_ms = 3\n`)
    expect(config.testing).toEqual({})
    expect(warnings).toEqual([expect.stringContaining('testing.mi_b'), expect.stringContaining('testing.stream_server_port'), expect.stringContaining('testing.nope_ms')])
  })
})

describe('paths in the config file', () => {
  it('expands ~ in every path setting', () => {
    const { config } = text(`${server}[daemon]\nstate_dir = "~"\n[downloads]\ndir = "~/dl"\n[downloads.hls_cache]\ndir = "~/c"\n[library]\npaths = ["~/m"]\n`)
    expect([config.daemon.stateDir, config.downloads.dir, config.downloads.hlsCache.dir, config.library.paths[0]]).toEqual([home, '/home/ada/dl', '/home/ada/c', '/home/ada/m'])
  })

  it('places the state and cache dirs under the XDG directories when the file does not set them', () => {
    const { config } = text(server, { env: { XDG_STATE_HOME: '/xdg/state', XDG_CACHE_HOME: '/xdg/cache' } })
    expect(config.daemon.stateDir).toBe('/xdg/state/media-agent')
    expect(config.downloads.hlsCache.dir).toBe('/xdg/cache/media-agent/hls')
  })

  it('lets the file override the XDG directories', () => {
    const { config } = text(`${server}[daemon]\nstate_dir = "/var/lib/ma"\n`, { env: { XDG_STATE_HOME: '/xdg/state' } })
    expect(config.daemon.stateDir).toBe('/var/lib/ma')
  })
})
