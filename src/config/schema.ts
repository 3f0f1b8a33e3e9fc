// The agent's configuration (protocol.md 5, contract 2.7): the typed shape and the validator
// from a parsed TOML document. Every default comes from defaults.ts; path defaults that follow
// the XDG base directories come from paths.ts.
import { readFileSync } from 'node:fs'
import { isIPv4, isIPv6 } from 'node:net'
import { userInfo } from 'node:os'
import { ConfigError } from '../errors.js'
import * as defaults from './defaults.js'
import { defaultDownloadsDir, defaultHlsCacheDir, defaultStateDir, expandHome, type Env } from './paths.js'
import {
  REQUIRED, Section, DocumentReport, asBoolean, asEnum, asHttpUrl, asNonEmptyString, asNumber, asPort, asString,
  type RawTable,
} from './section.js'

export const downlinkModes = ['auto', 'sse', 'poll'] as const
export type DownlinkMode = (typeof downlinkModes)[number]

export const encoders = ['auto', 'libx264', 'h264_nvenc', 'h264_qsv', 'h264_videotoolbox', 'h264_vaapi'] as const
export type Encoder = (typeof encoders)[number]

export interface ListenAddress {
  /** Without brackets (`::1`), as `net.Server.listen` takes it. */
  host: string
  port: number
}

export interface AgentConfig {
  server: {
    /** http(s) URL, normalised, without a trailing slash. Empty only in the embedded default. */
    baseUrl: string
    accessToken: string
    mirrors: string[]
    /** Overrides the signing secret handed out by register. */
    signingSecret?: string
    /** Where `accessToken` came from when not from `access_token`: the variable's name or the file. */
    accessTokenSource?: string
  }
  daemon: { downlink: DownlinkMode; stateDir: string }
  stream: { port: number; upnp: boolean; inlineReads: boolean }
  admin: { listen: ListenAddress }
  downloads: {
    dir: string
    seedRatio: number
    hlsCache: { enabled: boolean; sizeGb: number; dir: string }
    vpn: { enabled: boolean }
    /** Peer discovery and transport of the torrent engine (not in protocol.md: an agent extension). */
    torrent: { dht: boolean; lsd: boolean; pex: boolean; utp: boolean; natTraversal: boolean; port: number; idleGraceMs: number }
  }
  /** `helperPath`: used as is (a bundled helper); empty: the managed helper downloaded from `helperUrl` (protocol.md 7.4). */
  funnel: { enabled: boolean; helperPath: string; helperUrl: string }
  transcode: {
    encoder: Encoder
    /** Config key, else FFMPEG_PATH; empty means look `ffmpeg` up on PATH. */
    ffmpegPath: string
    /** Config key, else FFPROBE_PATH; empty means look `ffprobe` up on PATH. */
    ffprobePath: string
  }
  library: {
    paths: string[]
    /** Watch the roots for changes (protocol.md 7.6). */
    watch: boolean
    /** Periodic rescan of roots that cannot be watched reliably; 0: never. */
    rescanMinutes: number
  }
  /** The hidden `[testing]` table: shortened time constants for tests only (camelCase keys). */
  testing: Partial<Record<string, number>>
}

// ---- the [testing] table ----------------------------------------------------------------------

type NumericKeys<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T]

// Unit constants, and numbers that have a real config key, are not test hooks.
const notTimingKeys = ['MiB', 'GiB', 'adminBodyLimitBytes', 'streamServerPort', 'hlsCacheSizeGb', 'hlsCacheBytesPerGb', 'seedRatio', 'torrentPort'] as const

/** A numeric constant of defaults.ts that `[testing]` may override. */
export type TimingKey = Exclude<NumericKeys<typeof defaults>, (typeof notTimingKeys)[number]>

export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/** snake_case key of `[testing]` to the camelCase name in defaults.ts. */
export const testingKeys: ReadonlyMap<string, TimingKey> = new Map(
  Object.entries(defaults)
    .filter(([name, value]) => typeof value === 'number' && !(notTimingKeys as readonly string[]).includes(name))
    .map(([name]) => [camelToSnake(name), name as TimingKey]),
)

/** The value in force for a time constant: the `[testing]` override, else defaults.ts. */
export function timing(config: Pick<AgentConfig, 'testing'>, key: TimingKey): number {
  return config.testing[key] ?? defaults[key]
}

// ---- validation ------------------------------------------------------------------------------

export interface ValidateOptions {
  /** Named in every error and warning. */
  file: string
  env: Env
  homedir: string
  /** Whether the file was written by a fresh install: decides `funnel.enabled` when it is absent. */
  freshInstall: boolean
  /** False only for the embedded default, which has no server (the caller fills it in). */
  requireServer: boolean
}

export interface Validated {
  config: AgentConfig
  warnings: string[]
}

/** Keys of the old agent, accepted and ignored with one warning (protocol.md 5). */
const removedScalars = ['poll_interval', 'heartbeat_interval', 'ws_url'] as const

const pathExpected = 'a non-empty path string'

/** Throws ConfigError on the first wrong type or value. */
export function validateConfig(raw: RawTable, options: ValidateOptions): Validated {
  const report = new DocumentReport(options.file)
  const root = new Section(report, raw, '')
  const { env, homedir } = options
  const asPath = (value: unknown): string | undefined => {
    const path = asNonEmptyString(value)
    return path === undefined ? undefined : expandHome(path, homedir)
  }

  const serverTable = root.section('server')
  const required = options.requireServer ? REQUIRED : ''
  const baseUrl = serverTable.read('base_url', 'an http(s) URL such as "https://media.example"', asHttpUrl, required)
  // ---- the access token's sources, first to last (protocol.md 7.7; issue 18) ----
  const tokenFile = serverTable.read('access_token_file', pathExpected, asPath, '')
  const external = externalAccessToken(env, tokenFile, options.file)
  const accessToken = serverTable.read(
    // With a token from elsewhere, the fresh-install file's `access_token = ""` is fine.
    'access_token', tokenExpected, external === undefined ? asToken : (value) => (value === '' ? '' : asToken(value)), external === undefined ? required : '', { secret: true },
  )
  // ---- end access token sources ----
  const mirrors = serverTable.readArray(
    'mirrors', { array: 'an array of http(s) URLs', item: 'an http(s) URL' }, asHttpUrl, defaults.serverMirrors,
  )
  const signingSecret = serverTable.read('signing_secret', 'a string', asString, '', { secret: true })
  serverTable.finish(removedScalars)

  const daemonTable = root.section('daemon')
  const downlink = daemonTable.read('downlink', oneOf(downlinkModes), asEnum(downlinkModes), defaults.downlinkMode)
  const stateDir = daemonTable.read('state_dir', pathExpected, asPath, defaultStateDir(env, homedir))
  daemonTable.finish(removedScalars)

  const streamTable = root.section('stream')
  const port = streamTable.read('port', 'an integer from 1 to 65535', asPort, defaults.streamServerPort)
  const upnp = streamTable.read('upnp', 'true or false', asBoolean, defaults.streamUpnpEnabled)
  const inlineReads = streamTable.read('inline_reads', 'true or false', asBoolean, defaults.streamInlineReadsEnabled)
  streamTable.finish()

  const adminTable = root.section('admin')
  const listen = readListen(adminTable)
  adminTable.finish()

  const downloadsTable = root.section('downloads')
  const downloadsDir = downloadsTable.read('dir', pathExpected, asPath, defaultDownloadsDir(homedir))
  const seedRatio = downloadsTable.read('seed_ratio', 'a finite number >= 0', asNumber((n) => n >= 0), defaults.seedRatio)
  const cacheTable = downloadsTable.section('hls_cache')
  const hlsCache = {
    enabled: cacheTable.read('enabled', 'true or false', asBoolean, defaults.hlsCacheEnabled),
    sizeGb: cacheTable.read('size_gb', 'a finite number greater than 0', asNumber((n) => n > 0), defaults.hlsCacheSizeGb),
    dir: cacheTable.read('dir', pathExpected, asPath, defaultHlsCacheDir(env, homedir)),
  }
  cacheTable.finish()
  const vpnTable = downloadsTable.section('vpn')
  const vpn = { enabled: vpnTable.read('enabled', 'true or false', asBoolean, defaults.vpnEnabled) }
  vpnTable.finish()
  const torrentTable = downloadsTable.section('torrent')
  const onOff = (key: string, fallback: boolean) => torrentTable.read(key, 'true or false', asBoolean, fallback)
  const torrent = {
    dht: onOff('dht', defaults.torrentDht),
    lsd: onOff('lsd', defaults.torrentLsd),
    pex: onOff('pex', defaults.torrentPex),
    utp: onOff('utp', defaults.torrentUtp),
    natTraversal: onOff('nat_traversal', defaults.torrentNatUpnp && defaults.torrentNatPmp),
    port: torrentTable.read('port', 'an integer from 0 (any free port) to 65535', asNumber((n) => Number.isInteger(n) && n >= 0 && n <= 65535), defaults.torrentPort),
    // Dormant torrents (docs/torrents.md): seconds in the file, 0 = torrents never go dormant.
    idleGraceMs: Math.round(1000 * torrentTable.read('idle_grace_s', 'a number of seconds >= 0 (0: never dormant)', asNumber((n) => n >= 0), defaults.torrentIdleGraceMs / 1000)),
  }
  torrentTable.finish()
  downloadsTable.finish(['webrtc'])

  const funnelTable = root.section('funnel')
  const funnelDefault = options.freshInstall ? defaults.funnelEnabledFreshInstall : defaults.funnelEnabledLegacyConfig
  const funnel = {
    enabled: funnelTable.read('enabled', 'true or false', asBoolean, funnelDefault),
    helperPath: expandHome(funnelTable.read('helper_path', 'a path string (empty: the managed helper in the state dir)', asString, defaults.funnelHelperPath), homedir),
    helperUrl: funnelTable.read('helper_url', 'an http(s) URL, the base the helper asset name is appended to', asHttpUrl, defaults.funnelHelperUrlBase),
  }
  funnelTable.finish()

  const transcodeTable = root.section('transcode')
  const encoder = transcodeTable.read('encoder', oneOf(encoders), asEnum(encoders), defaults.transcodeEncoder)
  // Order (contract 2.7): the config key, then the environment variable, then PATH (not here).
  const ffmpegPath = transcodeTable.read('ffmpeg_path', 'a path string (empty: FFMPEG_PATH, then PATH)', asString, defaults.ffmpegPath)
  const ffprobePath = transcodeTable.read('ffprobe_path', 'a path string (empty: FFPROBE_PATH, then PATH)', asString, defaults.ffprobePath)
  transcodeTable.finish()

  const libraryTable = root.section('library')
  const libraryPaths = libraryTable.readArray(
    'paths', { array: 'an array of non-empty path strings', item: pathExpected }, asPath, defaults.libraryPaths,
  )
  const libraryWatch = libraryTable.read('watch', 'true or false', asBoolean, defaults.libraryWatchEnabled)
  const rescanMinutes = libraryTable.read('rescan_minutes', 'a finite number of minutes >= 0 (0: never)', asNumber((n) => n >= 0), defaults.libraryRescanMinutes)
  libraryTable.finish()

  const testing = readTesting(root.section('testing'))

  root.finish(removedScalars)

  const server: AgentConfig['server'] = { baseUrl, accessToken: external?.token ?? accessToken, mirrors }
  if (external !== undefined) server.accessTokenSource = external.source
  if (signingSecret !== '') server.signingSecret = signingSecret
  const config: AgentConfig = {
    server,
    daemon: { downlink, stateDir },
    stream: { port, upnp, inlineReads },
    admin: { listen },
    downloads: { dir: downloadsDir, seedRatio, hlsCache, vpn, torrent },
    funnel,
    transcode: {
      encoder,
      ffmpegPath: expandHome(ffmpegPath || env.FFMPEG_PATH || '', homedir),
      ffprobePath: expandHome(ffprobePath || env.FFPROBE_PATH || '', homedir),
    },
    library: { paths: libraryPaths, watch: libraryWatch, rescanMinutes },
    testing,
  }
  return { config, warnings: warningsOf(report, testing) }
}

function warningsOf(report: DocumentReport, testing: AgentConfig['testing']): string[] {
  const warnings: string[] = []
  if (report.removed.length > 0) {
    warnings.push(`${report.file}: ignoring removed settings ${report.removed.join(', ')}; they have no effect any more and can be deleted`)
  }
  for (const key of report.unknown) warnings.push(`${report.file}: ignoring unknown key ${key}`)
  const overrides = Object.entries(testing).map(([name, value]) => `${camelToSnake(name)} = ${String(value)}`)
  if (overrides.length > 0) warnings.push(`${report.file}: [testing] overrides are in effect (meant for tests only): ${overrides.join(', ')}`)
  return warnings
}

function oneOf(values: readonly string[]): string {
  return `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`
}

// Goes into an Authorization header: anything else would fail on every request instead of here.
const asToken = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[\x21-\x7e]+$/.test(value) ? value : undefined
const tokenExpected = 'a non-empty token of printable ASCII characters without spaces'

/**
 * The access token from the environment (`MEDIA_AGENT_ACCESS_TOKEN`), else from
 * `[server] access_token_file` (its content, one trailing newline dropped), as containers and
 * systemd credentials hand secrets over; undefined when neither is set.
 */
function externalAccessToken(env: Env, file: string, configFile: string): { token: string; source: string } | undefined {
  const fromEnv = env[defaults.accessTokenEnvVar]
  if (fromEnv !== undefined && fromEnv !== '') {
    if (asToken(fromEnv) === undefined) {
      throw new ConfigError(`Invalid ${defaults.accessTokenEnvVar} in the environment: it must be ${tokenExpected}; got a string with other characters.`, {
        key: defaults.accessTokenEnvVar, expected: tokenExpected,
      })
    }
    return { token: fromEnv, source: defaults.accessTokenEnvVar }
  }
  if (file === '') return undefined
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? `permission denied for ${userName()}` : (err as Error).message
    throw new ConfigError(`Invalid config ${configFile}: server.access_token_file ${file} cannot be read: ${reason}.`, {
      file: configFile, key: 'server.access_token_file', expected: 'a readable file holding the access token', cause: err,
    })
  }
  const token = text.replace(/\r?\n$/, '')
  if (asToken(token) === undefined) {
    throw new ConfigError(`Invalid config ${configFile}: the file ${file} (server.access_token_file) must hold ${tokenExpected} and at most one trailing newline.`, {
      file: configFile, key: 'server.access_token_file', expected: tokenExpected,
    })
  }
  return { token, source: file }
}

function userName(): string {
  try {
    return `user ${userInfo().username} (uid ${process.getuid?.() ?? '?'})`
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`
  }
}

const listenExpected = 'a host:port string such as "127.0.0.1:7891" (IPv6 in brackets: "[::1]:7891")'
const loopbackExpected = 'a loopback address: 127.0.0.1 (or any 127.x.x.x), [::1] or localhost, with a port from 1 to 65535'

function readListen(table: Section): ListenAddress {
  const text = table.read('listen', listenExpected, asString, defaults.adminListen)
  const match = /^(?:\[([^\]]*)\]|([^:[\]\s/]+)):(\d{1,5})$/.exec(text)
  const host = match?.[1] ?? match?.[2]
  const port = Number(match?.[3])
  if (match === null || host === undefined || (match[1] !== undefined && !isIPv6(host)) || asPort(port) === undefined) {
    return table.report.fail(table.key('listen'), listenExpected, text)
  }
  if (!isLoopback(host)) {
    return table.report.fail(table.key('listen'), loopbackExpected, text, {
      because: 'the admin API controls the agent and must bind loopback only',
    })
  }
  return { host, port }
}

export function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true
  if (isIPv4(host)) return host.startsWith('127.')
  if (isIPv6(host)) {
    let normal: string
    try {
      normal = new URL(`http://[${host}]/`).hostname
    } catch {
      return false // a zone id (fe80::1%eth0) is never loopback
    }
    return normal === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(normal)
  }
  return false
}

function readTesting(table: Section): AgentConfig['testing'] {
  const testing: AgentConfig['testing'] = {}
  for (const name of Object.keys(table.raw)) {
    const key = testingKeys.get(name)
    if (key === undefined) continue
    testing[key] = table.read(name, 'a finite number >= 0', asNumber((n) => n >= 0), 0)
  }
  table.finish()
  return testing
}
