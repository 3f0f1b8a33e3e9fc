// Loading the config file (protocol.md 5): TOML text to a validated AgentConfig, the embedded
// default when no file exists, and the file a fresh install writes.
import { readFile } from 'node:fs/promises'
import { homedir as osHomedir } from 'node:os'
import { resolve } from 'node:path'
import { parse, stringify, TomlError } from 'smol-toml'
import { ConfigError } from '../errors.js'
import * as defaults from './defaults.js'
import { defaultConfigPath, expandHome, type Env } from './paths.js'
import { downlinkModes, encoders, validateConfig, type AgentConfig } from './schema.js'
import type { RawTable } from './section.js'

export { defaultConfigPath }
export type { AgentConfig }

export interface LoadedConfig {
  config: AgentConfig
  /** Removed and unknown keys, `[testing]` overrides: for the caller to log, one line each. */
  warnings: string[]
  source: 'file' | 'embedded-default'
  /** The file read, or, for the embedded default, the default path that was looked for. */
  path: string
}

export interface ParseConfigOptions {
  /** Named in errors and warnings. */
  file: string
  env?: NodeJS.ProcessEnv
  homedir?: string
  /** The file was just written by a fresh install (a missing `funnel.enabled` means on). */
  freshInstall?: boolean
}

/** Parses and validates config text. Throws ConfigError only. */
export function parseConfigText(text: string, options: ParseConfigOptions): LoadedConfig {
  const { file } = options
  let raw: RawTable
  try {
    raw = parse(text)
  } catch (err) {
    throw syntaxError(file, err)
  }
  const { config, warnings } = validateConfig(raw, {
    file,
    env: options.env ?? process.env,
    homedir: options.homedir ?? osHomedir(),
    freshInstall: options.freshInstall ?? false,
    requireServer: true,
  })
  return { config, warnings, source: 'file', path: file }
}

export interface LoadConfigOptions {
  /** `--config`: must exist. Without it the XDG default path is tried, then the embedded default. */
  path?: string
  env?: NodeJS.ProcessEnv
  homedir?: string
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env
  const homedir = options.homedir ?? osHomedir()
  const explicit = options.path !== undefined
  const file = explicit ? resolve(expandHome(options.path ?? '', homedir)) : defaultConfigPath(env, homedir)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && !explicit) {
      return { config: embeddedDefaultConfig(env, homedir), warnings: [], source: 'embedded-default', path: file }
    }
    const reason = code === 'ENOENT' ? 'it does not exist' : (err as Error).message
    throw new ConfigError(`Cannot read config file ${file}: ${reason}.`, { file, expected: 'a readable TOML file', cause: err })
  }
  // A file on disk was written before now, so a missing funnel key means a legacy config.
  return parseConfigText(text, { file, env, homedir, freshInstall: false })
}

/**
 * The configuration used when no file exists: every default, funnel as for a fresh install,
 * and no server (baseUrl and accessToken are ''; `npm start` fills them from its local
 * reference server).
 */
export function embeddedDefaultConfig(env: NodeJS.ProcessEnv = process.env, homedir: string = osHomedir()): AgentConfig {
  return validateConfig(Object.create(null) as RawTable, {
    file: '<embedded default>',
    env: env as Env,
    homedir,
    freshInstall: true,
    requireServer: false,
  }).config
}

function syntaxError(file: string, err: unknown): ConfigError {
  if (err instanceof TomlError) {
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '')
    // The code block of the TOML error is left out: it may quote a token.
    return new ConfigError(`Invalid config ${file}:${err.line}:${err.column}: TOML syntax error: ${reason}.`, {
      file,
      expected: 'a valid TOML document',
      cause: err,
      details: { line: err.line, column: err.column },
    })
  }
  return new ConfigError(`Invalid config ${file}: cannot parse it as TOML: ${err instanceof Error ? err.message : String(err)}.`, {
    file,
    expected: 'a valid TOML document',
    cause: err,
  })
}

// ---- the file a fresh install writes ----------------------------------------------------------

function tomlString(value: string): string {
  return stringify({ v: value }).trim().replace(/^v = /, '')
}

function tomlFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value)
}

/**
 * The TOML a fresh install writes (protocol.md 5), commented. It sets `[funnel] enabled`, so
 * the funnel stays on when the file is read back. Paths that follow the XDG base directories
 * are left commented out so that the variables keep working.
 */
export function renderFreshConfig(overrides: { baseUrl?: string; accessToken?: string } = {}): string {
  const pad = (line: string, comment: string): string => `${line.padEnd(28)} # ${comment}`
  return [
    '# media-agent configuration. Every key is described in docs/configuration.md.',
    '',
    '[server]',
    pad(`base_url = ${tomlString(overrides.baseUrl ?? '')}`, 'required: the web server, e.g. "https://media.example"'),
    pad(`access_token = ${tomlString(overrides.accessToken ?? '')}`, 'required: the token the web server issued'),
    `mirrors = [${defaults.serverMirrors.map(tomlString).join(', ')}]`,
    '# signing_secret = "<SIGNING_SECRET>"   # overrides the one from register',
    '',
    '[daemon]',
    pad(`downlink = ${tomlString(defaults.downlinkMode)}`, downlinkModes.join(' | ')),
    `# state_dir = ${tomlString(defaults.stateDir)}   # tasks.json, agent id, admin token; default $XDG_STATE_HOME/${defaults.appDirName}`,
    '',
    '[stream]',
    `port = ${defaults.streamServerPort}`,
    `upnp = ${String(defaults.streamUpnpEnabled)}`,
    '',
    '[admin]',
    pad(`listen = ${tomlString(defaults.adminListen)}`, "debug endpoint and the CLI's control API (loopback only)"),
    '',
    '[downloads]',
    `dir = ${tomlString(defaults.downloadsDir)}`,
    pad(`seed_ratio = ${tomlFloat(defaults.seedRatio)}`, 'seed a finished task until this ratio; 0 stops at once'),
    '',
    '[downloads.hls_cache]',
    `enabled = ${String(defaults.hlsCacheEnabled)}`,
    `size_gb = ${defaults.hlsCacheSizeGb}`,
    `# dir = ${tomlString(defaults.hlsCacheDir)}   # default $XDG_CACHE_HOME/${defaults.appDirName}/${defaults.hlsCacheDirName}`,
    '',
    '[downloads.vpn]',
    `enabled = ${String(defaults.vpnEnabled)}`,
    '',
    '[funnel]',
    pad(`enabled = ${String(defaults.funnelEnabledFreshInstall)}`, 'written by a fresh install; a config without this key is off'),
    '',
    '[transcode]',
    pad(`encoder = ${tomlString(defaults.transcodeEncoder)}`, encoders.join(' | ')),
    pad(`ffmpeg_path = ${tomlString(defaults.ffmpegPath)}`, 'empty: FFMPEG_PATH, then PATH'),
    pad(`ffprobe_path = ${tomlString(defaults.ffprobePath)}`, 'empty: FFPROBE_PATH, then PATH'),
    '',
    '[library]',
    `paths = [${defaults.libraryPaths.map(tomlString).join(', ')}]`,
    '',
  ].join('\n')
}
