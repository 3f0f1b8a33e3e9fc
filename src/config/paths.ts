// Path rules of the configuration (protocol.md 5): `~` expansion and the XDG base directories.
// Environment and home directory are parameters so that tests never depend on the machine.
import { homedir as osHomedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import * as defaults from './defaults.js'

export type Env = NodeJS.ProcessEnv

/**
 * Replaces a leading `~` (alone, or followed by a path separator) with the home directory.
 * `~user/...` is left as is: the agent only knows its own home.
 */
export function expandHome(path: string, homedir: string): string {
  if (path === '~') return homedir
  if (path.startsWith('~/') || (process.platform === 'win32' && path.startsWith('~\\'))) {
    return join(homedir, path.slice(2))
  }
  return path
}

// The XDG spec says a relative value must be ignored, as if the variable were unset.
function xdgBase(env: Env, name: string): string | undefined {
  const value = env[name]
  return value !== undefined && value !== '' && isAbsolute(value) ? value : undefined
}

/** `$XDG_CONFIG_HOME/media-agent`, else `~/.config/media-agent`. */
export function configHome(env: Env = process.env, homedir: string = osHomedir()): string {
  const base = xdgBase(env, 'XDG_CONFIG_HOME')
  return base === undefined ? expandHome(defaults.configDir, homedir) : join(base, defaults.appDirName)
}

/** `$XDG_CONFIG_HOME/media-agent/config.toml`, else `~/.config/media-agent/config.toml`. */
export function defaultConfigPath(env: Env = process.env, homedir: string = osHomedir()): string {
  return join(configHome(env, homedir), defaults.configFileName)
}

/**
 * systemd's `StateDirectory=`/`CacheDirectory=` hand the unit its folders in `$STATE_DIRECTORY`
 * and `$CACHE_DIRECTORY` (a colon-separated list when the unit names several; the first is ours).
 */
function systemdDirectory(env: Env, name: 'STATE_DIRECTORY' | 'CACHE_DIRECTORY'): string | undefined {
  const first = env[name]?.split(':')[0]
  return first !== undefined && first !== '' && isAbsolute(first) ? first : undefined
}

/** `$STATE_DIRECTORY` (systemd), else `$XDG_STATE_HOME/media-agent`, else `~/.local/state/media-agent`. */
export function defaultStateDir(env: Env = process.env, homedir: string = osHomedir()): string {
  const systemd = systemdDirectory(env, 'STATE_DIRECTORY')
  if (systemd !== undefined) return systemd
  const base = xdgBase(env, 'XDG_STATE_HOME')
  return base === undefined ? expandHome(defaults.stateDir, homedir) : join(base, defaults.appDirName)
}

/** `$CACHE_DIRECTORY/hls` (systemd), else `$XDG_CACHE_HOME/media-agent/hls`, else `~/.cache/media-agent/hls`. */
export function defaultHlsCacheDir(env: Env = process.env, homedir: string = osHomedir()): string {
  const systemd = systemdDirectory(env, 'CACHE_DIRECTORY')
  if (systemd !== undefined) return join(systemd, defaults.hlsCacheDirName)
  const base = xdgBase(env, 'XDG_CACHE_HOME')
  return base === undefined ? expandHome(defaults.hlsCacheDir, homedir) : join(base, defaults.appDirName, defaults.hlsCacheDirName)
}

/** `~/Downloads/media-agent`, expanded. */
export function defaultDownloadsDir(homedir: string = osHomedir()): string {
  return expandHome(defaults.downloadsDir, homedir)
}
