// Where ffmpeg and ffprobe are (contract 2.7, 7; protocol.md 5 `[transcode]`): the config key,
// then FFMPEG_PATH / FFPROBE_PATH, then PATH. A path given explicitly and wrong is an error
// naming where it came from, never a silent fall-through to another binary.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { FfmpegNotFoundError } from '../../errors.js'

export type FfmpegBinaryName = 'ffmpeg' | 'ffprobe'

export interface ResolveBinaryOptions {
  /** `[transcode] ffmpeg_path` / `ffprobe_path`; an empty string means unset. */
  configuredPath?: string | undefined
  env?: NodeJS.ProcessEnv
  /** Defaults to detectContainer(); decides which advice the error gives. */
  isContainer?: boolean
  platform?: NodeJS.Platform
}

export interface FfmpegBinaries {
  ffmpeg: string
  ffprobe: string
}

const envNames: Record<FfmpegBinaryName, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' }
const configKeys: Record<FfmpegBinaryName, string> = { ffmpeg: '[transcode] ffmpeg_path', ffprobe: '[transcode] ffprobe_path' }

// A PATH walk meets a missing candidate in nearly every directory: `throwIfNoEntry: false` keeps
// that from building an exception with a stack trace for each (~1 ms a lookup on a long PATH).
function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Docker (`/.dockerenv`), Podman (`/run/.containerenv`), or a container cgroup of PID 1. */
export function detectContainer(): boolean {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return true
  try {
    return /docker|kubepods|containerd|libpod|lxc/.test(readFileSync('/proc/1/cgroup', 'utf8'))
  } catch {
    return false
  }
}

function installAdvice(name: FfmpegBinaryName, container: boolean): string {
  const env = envNames[name]
  const key = configKeys[name]
  if (container) {
    return `${name} was not found in this container. Set ${env}=/path/to/${name}, or ${key} in config.toml, ` +
      'or install the ffmpeg package in the image (Debian/Ubuntu: apt-get install -y ffmpeg; Alpine: apk add ffmpeg).'
  }
  return `${name} was not found on PATH. Install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg; Fedora: dnf install ffmpeg; ` +
    `macOS: brew install ffmpeg), or set ${key} in config.toml or the ${env} environment variable.`
}

/** The absolute path of one binary; throws FfmpegNotFoundError with an actionable message. */
export function resolveFfmpegBinary(name: FfmpegBinaryName, options: ResolveBinaryOptions = {}): string {
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  const configured = options.configuredPath?.trim() ?? ''
  if (configured !== '') {
    if (isExecutableFile(configured)) return configured
    throw new FfmpegNotFoundError(`${name} is not an executable file at ${configured} (set by ${configKeys[name]}). Fix the path, or clear it to use ${envNames[name]} or PATH.`, {
      details: { binary: name, path: configured, from: configKeys[name] },
    })
  }
  const fromEnv = env[envNames[name]]?.trim() ?? ''
  if (fromEnv !== '') {
    if (isExecutableFile(fromEnv)) return fromEnv
    throw new FfmpegNotFoundError(`${name} is not an executable file at ${fromEnv} (set by ${envNames[name]}). Fix or unset ${envNames[name]}.`, {
      details: { binary: name, path: fromEnv, from: envNames[name] },
    })
  }
  const fileName = platform === 'win32' ? `${name}.exe` : name
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    const candidate = join(dir, fileName)
    if (isExecutableFile(candidate)) return candidate
  }
  const container = options.isContainer ?? detectContainer()
  throw new FfmpegNotFoundError(installAdvice(name, container), { details: { binary: name, from: 'PATH', container } })
}

export interface ResolveBinariesOptions {
  ffmpegPath?: string | undefined
  ffprobePath?: string | undefined
  env?: NodeJS.ProcessEnv
  isContainer?: boolean
  platform?: NodeJS.Platform
}

export function resolveFfmpegBinaries(options: ResolveBinariesOptions = {}): FfmpegBinaries {
  const common = {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.isContainer === undefined ? {} : { isContainer: options.isContainer }),
    ...(options.platform === undefined ? {} : { platform: options.platform }),
  }
  return {
    ffmpeg: resolveFfmpegBinary('ffmpeg', { ...common, configuredPath: options.ffmpegPath }),
    ffprobe: resolveFfmpegBinary('ffprobe', { ...common, configuredPath: options.ffprobePath }),
  }
}
