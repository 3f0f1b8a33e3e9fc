import { describe, expect, it } from 'vitest'
import { defaultConfigPath, defaultHlsCacheDir, defaultStateDir, expandHome } from '../../src/config/paths.js'

const home = '/home/ada'

describe('~ expansion', () => {
  it('replaces a leading ~ with the home directory', () => {
    expect(expandHome('~', home)).toBe(home)
    expect(expandHome('~/Downloads/media-agent', home)).toBe('/home/ada/Downloads/media-agent')
  })

  it('leaves other paths, ~user and a ~ inside a path as they are', () => {
    expect(expandHome('/srv/media', home)).toBe('/srv/media')
    expect(expandHome('relative/dir', home)).toBe('relative/dir')
    expect(expandHome('~bob/x', home)).toBe('~bob/x')
    expect(expandHome('/a/~/b', home)).toBe('/a/~/b')
    expect(expandHome('', home)).toBe('')
  })
})

describe('XDG base directories', () => {
  it('looks for the config file under XDG_CONFIG_HOME', () => {
    expect(defaultConfigPath({ XDG_CONFIG_HOME: '/xdg/config' }, home)).toBe('/xdg/config/media-agent/config.toml')
  })

  it('falls back to ~/.config when XDG_CONFIG_HOME is unset, empty or relative', () => {
    for (const env of [{}, { XDG_CONFIG_HOME: '' }, { XDG_CONFIG_HOME: 'rel/config' }]) {
      expect(defaultConfigPath(env, home)).toBe('/home/ada/.config/media-agent/config.toml')
    }
  })

  it('keeps state under XDG_STATE_HOME, else ~/.local/state/media-agent', () => {
    expect(defaultStateDir({ XDG_STATE_HOME: '/xdg/state' }, home)).toBe('/xdg/state/media-agent')
    expect(defaultStateDir({}, home)).toBe('/home/ada/.local/state/media-agent')
  })

  it('uses the folders systemd hands a service in STATE_DIRECTORY and CACHE_DIRECTORY before the XDG ones', () => {
    const env = { STATE_DIRECTORY: '/var/lib/media-agent:/var/lib/other', CACHE_DIRECTORY: '/var/cache/media-agent', XDG_STATE_HOME: '/xdg/state', XDG_CACHE_HOME: '/xdg/cache' }
    expect(defaultStateDir(env, home)).toBe('/var/lib/media-agent')
    expect(defaultHlsCacheDir(env, home)).toBe('/var/cache/media-agent/hls')
    // A relative or empty value is not systemd's: ignored like a relative XDG variable.
    expect(defaultStateDir({ STATE_DIRECTORY: 'rel', XDG_STATE_HOME: '/xdg/state' }, home)).toBe('/xdg/state/media-agent')
    expect(defaultHlsCacheDir({ CACHE_DIRECTORY: '' }, home)).toBe('/home/ada/.cache/media-agent/hls')
  })

  it('keeps the HLS cache under XDG_CACHE_HOME, else ~/.cache/media-agent/hls', () => {
    expect(defaultHlsCacheDir({ XDG_CACHE_HOME: '/xdg/cache' }, home)).toBe('/xdg/cache/media-agent/hls')
    expect(defaultHlsCacheDir({}, home)).toBe('/home/ada/.cache/media-agent/hls')
  })
})
