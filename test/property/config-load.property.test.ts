import fc from 'fast-check'
import { stringify } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { parseConfigText, renderFreshConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'

const home = '/home/ada'

/** Loads or throws a ConfigError: anything else thrown fails the property. */
function loadsOrConfigError(text: string): boolean {
  try {
    const { config, warnings } = parseConfigText(text, { file: '/p/config.toml', env: { FFPROBE_PATH: '/x/ffprobe' }, homedir: home })
    expect(typeof config.server.baseUrl).toBe('string')
    expect(Array.isArray(warnings)).toBe(true)
    return true
  } catch (err) {
    if (!(err instanceof ConfigError) || err.code !== 'MA_ERR_CONFIG') throw err
    expect(err.details?.file).toBe('/p/config.toml')
    return false
  }
}

// Keys the loader knows, removed ones, and some it does not, so that generated documents hit
// every branch: right and wrong types in known places, removed blocks, unknown keys.
const leafKeys = [
  'base_url', 'access_token', 'mirrors', 'signing_secret', 'ws_url', 'poll_interval', 'heartbeat_interval',
  'downlink', 'state_dir', 'port', 'upnp', 'listen', 'dir', 'seed_ratio', 'enabled', 'size_gb', 'encoder',
  'ffmpeg_path', 'ffprobe_path', 'paths', 'liveness_timeout_ms', 'sse_failures_before_fallback', 'mi_b', '__proto__',
  'constructor', 'a.b', '',
]
const tableKeys = ['server', 'daemon', 'stream', 'admin', 'downloads', 'hls_cache', 'vpn', 'webrtc', 'funnel', 'transcode', 'library', 'testing', 'extra']

const scalar = fc.oneof(
  fc.string(),
  fc.constantFrom('auto', 'sse', 'poll', 'libx264', 'https://media.example', 'http://127.0.0.1:1', '127.0.0.1:7891', '[::1]:1', '0.0.0.0:80', '~/x', '', 'tok'),
  fc.integer(),
  fc.integer({ min: -2, max: 70_000 }),
  fc.double(),
  fc.boolean(),
  fc.date({ noInvalidDate: true }),
)
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), tie('table')),
  table: fc.dictionary(fc.constantFrom(...leafKeys, ...tableKeys), tie('value'), { maxKeys: 4 }),
})).value

const document = fc.record(
  {
    server: fc.record({ base_url: fc.oneof(fc.webUrl(), scalar), access_token: fc.oneof(fc.constant('tok'), scalar) }, { requiredKeys: [] }),
    daemon: fc.dictionary(fc.constantFrom(...leafKeys), value, { maxKeys: 4 }),
    stream: fc.dictionary(fc.constantFrom('port', 'upnp', 'extra'), value, { maxKeys: 3 }),
    admin: fc.dictionary(fc.constantFrom('listen'), value),
    downloads: fc.dictionary(fc.constantFrom(...leafKeys, 'hls_cache', 'vpn', 'webrtc'), value, { maxKeys: 5 }),
    funnel: fc.dictionary(fc.constantFrom('enabled'), value),
    transcode: fc.dictionary(fc.constantFrom('encoder', 'ffmpeg_path', 'ffprobe_path'), value, { maxKeys: 3 }),
    library: fc.dictionary(fc.constantFrom('paths'), fc.oneof(value, fc.array(fc.string()))),
    testing: fc.dictionary(fc.constantFrom(...leafKeys), value, { maxKeys: 4 }),
    extra: value,
  },
  { requiredKeys: [] },
)

// Mostly right values with removed and unknown keys among them: documents that load.
const goodDocument = fc.record(
  {
    server: fc.record({
      base_url: fc.webUrl({ withQueryParameters: false, withFragments: false }),
      access_token: fc.constantFrom('tok', 'a-b_c.d~e'),
      mirrors: fc.array(fc.webUrl({ withQueryParameters: false, withFragments: false }), { maxLength: 2 }),
      ws_url: fc.string(),
    }, { requiredKeys: ['base_url', 'access_token'] }),
    daemon: fc.record({ downlink: fc.constantFrom('auto', 'sse', 'poll'), state_dir: fc.constantFrom('~', '~/s', '/var/lib/ma'), poll_interval: value }, { requiredKeys: [] }),
    stream: fc.record({ port: fc.integer({ min: 1, max: 65_535 }), upnp: fc.boolean() }, { requiredKeys: [] }),
    admin: fc.record({ listen: fc.constantFrom('127.0.0.1:7891', '[::1]:1', 'localhost:65535') }, { requiredKeys: [] }),
    downloads: fc.record({
      seed_ratio: fc.double({ min: 0, max: 1e6, noNaN: true }),
      hls_cache: fc.record({ size_gb: fc.double({ min: 1e-3, max: 1e6, noNaN: true }), enabled: fc.boolean() }, { requiredKeys: [] }),
      webrtc: value,
    }, { requiredKeys: [] }),
    funnel: fc.record({ enabled: fc.boolean() }, { requiredKeys: [] }),
    transcode: fc.record({ encoder: fc.constantFrom('auto', 'libx264', 'h264_nvenc', 'h264_qsv', 'h264_videotoolbox', 'h264_vaapi'), ffprobe_path: fc.string() }, { requiredKeys: [] }),
    library: fc.record({ paths: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }) }, { requiredKeys: [] }),
    testing: fc.dictionary(fc.constantFrom('liveness_timeout_ms', 'readiness_deadline_ms', 'nope'), fc.nat()),
    heartbeat_interval: value,
    extra: value,
  },
  { requiredKeys: ['server'] },
)

function serialised(doc: unknown): string | undefined {
  try {
    return stringify(doc)
  } catch {
    return undefined // some generated shapes (mixed arrays of tables) are not expressible in TOML
  }
}

describe('loading arbitrary config text', () => {
  it('either loads or fails with a config error for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
      loadsOrConfigError(text)
    }), { numRuns: 2_000 })
  })

  it('either loads or fails with a config error for any TOML-looking text', () => {
    const fragment = fc.constantFrom('[server]\n', '[[server]]\n', 'base_url = ', '"https://x"', '\n', ' = ', '[downloads.webrtc]\n', 'port = 7890\n', '"', "'''", '[', ']', '{', '}', '=', '.', 'inf', '1e400', '0x1F', '99999999999999999999', '1979-05-27T07:32:00Z')
    fc.assert(fc.property(fc.array(fc.oneof(fragment, fc.string({ maxLength: 5 })), { maxLength: 30 }), (parts) => {
      loadsOrConfigError(parts.join(''))
    }), { numRuns: 2_000 })
  })

  it('either loads or fails with a config error for any TOML document of known and unknown keys', () => {
    const outcomes = { loaded: 0, refused: 0 }
    fc.assert(fc.property(fc.oneof(document, goodDocument), (doc) => {
      const text = serialised(doc)
      if (text === undefined) return
      if (loadsOrConfigError(text)) outcomes.loaded += 1
      else outcomes.refused += 1
    }), { numRuns: 2_000 })
    // Both branches must really be exercised for the property to mean something.
    expect(outcomes.loaded).toBeGreaterThan(100)
    expect(outcomes.refused).toBeGreaterThan(100)
  })
})

describe('the fresh-install file', () => {
  const token = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 64 })
  const baseUrl = fc.webUrl({ withQueryParameters: false, withFragments: false })

  it('reads back with the server it was written with and the funnel on', () => {
    fc.assert(fc.property(baseUrl, token, (url, accessToken) => {
      const { config, warnings } = parseConfigText(renderFreshConfig({ baseUrl: url, accessToken }), { file: 'c.toml', env: {}, homedir: home })
      expect(warnings).toEqual([])
      expect(config.server.accessToken).toBe(accessToken)
      expect(new URL(config.server.baseUrl).href.replace(/\/+$/, '')).toBe(new URL(url).href.replace(/\/+$/, ''))
      expect(config.server.baseUrl.endsWith('/')).toBe(false)
      expect(config.funnel.enabled).toBe(true)
    }), { numRuns: 500 })
  })

  it('reads back the same config after a second write and read', () => {
    fc.assert(fc.property(baseUrl, token, (url, accessToken) => {
      const first = parseConfigText(renderFreshConfig({ baseUrl: url, accessToken }), { file: 'c.toml', env: {}, homedir: home }).config
      const again = parseConfigText(renderFreshConfig(first.server), { file: 'c.toml', env: {}, homedir: home }).config
      expect(again).toEqual(first)
    }), { numRuns: 300 })
  })
})
