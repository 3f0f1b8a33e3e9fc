// The tunnel helper (cloudflared quick tunnels) as a file: the managed copy in the state dir,
// downloaded on first use and validated before it may ever run (contract 4.5, protocol.md 7.4).
//
// Concurrent daemons sharing one state dir must never clobber each other: each writes its own
// temp file opened `wx` (exclusive create), fsyncs it, validates it and renames it over the
// final name. rename(2) is atomic, so the final path always holds one complete, validated
// helper, whichever daemon finished last.
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, chmod, mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Agent, interceptors, request, type Dispatcher } from 'undici'
import {
  funnelHelperDownloadTimeoutMs, funnelHelperMaxBytes, funnelHelperMinBytes,
} from '../../config/defaults.js'
import { FunnelHelperDownloadError, FunnelHelperInvalidError, FunnelPlatformError } from '../../errors.js'

/** The release assets the provider publishes for Linux, by Node's `process.arch`. */
const assets: Record<string, { asset: string; elfClass: 1 | 2; machine: number }> = {
  x64: { asset: 'cloudflared-linux-amd64', elfClass: 2, machine: 62 }, // EM_X86_64
  arm64: { asset: 'cloudflared-linux-arm64', elfClass: 2, machine: 183 }, // EM_AARCH64
  arm: { asset: 'cloudflared-linux-arm', elfClass: 1, machine: 40 }, // EM_ARM (armhf)
  ia32: { asset: 'cloudflared-linux-386', elfClass: 1, machine: 3 }, // EM_386
}

export interface HelperTarget {
  asset: string
  elfClass: 1 | 2
  machine: number
}

export function helperTarget(platform: string = process.platform, arch: string = process.arch): HelperTarget {
  const target = platform === 'linux' ? assets[arch] : undefined
  if (!target) {
    throw new FunnelPlatformError(`no tunnel helper download for ${platform}/${arch} (only linux amd64, arm64, armhf and 386); install cloudflared and set [funnel] helper_path`)
  }
  return target
}

export function helperDownloadUrl(base: string, target: HelperTarget): string {
  return `${base.replace(/\/+$/, '')}/${target.asset}`
}

export interface SizeWindow {
  minBytes: number
  maxBytes: number
}

const defaultWindow: SizeWindow = { minBytes: funnelHelperMinBytes, maxBytes: funnelHelperMaxBytes }

/**
 * Why `header` (the first 20 bytes or more) of a file of `size` bytes is not a helper for
 * `target`, or undefined when it is one: ELF magic, class (32/64 bit), little-endian, and
 * e_machine, then the size window.
 */
export function elfProblem(header: Uint8Array, size: number, target: HelperTarget, window: SizeWindow = defaultWindow): string | undefined {
  if (header.length < 20 || header[0] !== 0x7f || header[1] !== 0x45 || header[2] !== 0x4c || header[3] !== 0x46) return 'not an ELF file (bad magic)'
  if (header[4] !== target.elfClass) return `ELF class ${header[4]} is not ${target.elfClass === 2 ? '64-bit' : '32-bit'} as this machine needs`
  if (header[5] !== 1) return 'not a little-endian ELF file'
  const machine = header[18]! | (header[19]! << 8)
  if (machine !== target.machine) return `ELF machine ${machine} is not ${target.machine} (this machine's)`
  if (size < window.minBytes || size > window.maxBytes) return `size ${size} bytes is outside ${window.minBytes}..${window.maxBytes}`
  return undefined
}

/** Throws FunnelHelperInvalidError unless the file at `path` is a helper for `target`. */
export async function validateHelperFile(path: string, target: HelperTarget, window: SizeWindow = defaultWindow): Promise<void> {
  let handle: FileHandle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    throw new FunnelHelperInvalidError(`tunnel helper ${path} cannot be read: ${(err as Error).message}`, { cause: err })
  }
  try {
    const { size } = await handle.stat()
    const header = Buffer.alloc(64)
    const { bytesRead } = await handle.read(header, 0, header.length, 0)
    const problem = elfProblem(header.subarray(0, bytesRead), size, target, window)
    if (problem) throw new FunnelHelperInvalidError(`tunnel helper ${path} is not usable: ${problem}`)
  } finally {
    await handle.close()
  }
}

export interface EnsureHelperOptions {
  /** `[funnel] helper_path`: used as is when set (a bundled helper). */
  helperPath: string
  /** `<state_dir>/bin/cloudflared`. */
  managedPath: string
  /** `[funnel] helper_url`. */
  urlBase: string
  target?: HelperTarget
  window?: SizeWindow
  timeoutMs?: number
  signal?: AbortSignal
  /** Told when a download starts (for the log). */
  onDownload?: (url: string) => void
}

/** The path of a helper that is there and valid, downloading the managed one when needed. */
export async function ensureHelper(options: EnsureHelperOptions): Promise<string> {
  if (options.helperPath) {
    // A bundled helper is the image builder's choice: it must exist and be executable, nothing more.
    try {
      if (!(await stat(options.helperPath)).isFile()) throw new Error('not a regular file')
      await access(options.helperPath, constants.X_OK)
    } catch (err) {
      throw new FunnelHelperInvalidError(`[funnel] helper_path ${options.helperPath} is not an executable file: ${(err as Error).message}`, { cause: err })
    }
    return options.helperPath
  }
  const target = options.target ?? helperTarget()
  const window = options.window ?? defaultWindow
  try {
    await validateHelperFile(options.managedPath, target, window)
    return options.managedPath
  } catch {
    // Missing, or left invalid by something else: download a fresh one.
  }
  await downloadHelper({ ...options, target, window })
  return options.managedPath
}

const tempPrefix = '.cloudflared.'

/** Temp files of downloads whose process is gone (killed mid-download): never renamed, never reused. */
async function removeAbandonedTempFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(/^\.cloudflared\.(\d+)\.[0-9a-f]+\.part$/.exec(name)?.[1])
    if (!pid || pid === process.pid || processExists(pid)) continue
    await rm(join(dir, name), { force: true })
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

let redirectingDispatcher: Dispatcher | undefined
const redirecting = (): Dispatcher => (redirectingDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 })))

async function downloadHelper(options: EnsureHelperOptions & { target: HelperTarget; window: SizeWindow }): Promise<void> {
  const url = helperDownloadUrl(options.urlBase, options.target)
  options.onDownload?.(url)
  const dir = dirname(options.managedPath)
  await mkdir(dir, { recursive: true })
  await removeAbandonedTempFiles(dir)
  const temp = join(dir, `${tempPrefix}${process.pid}.${randomBytes(4).toString('hex')}.part`)
  const timeoutMs = options.timeoutMs ?? funnelHelperDownloadTimeoutMs
  const handle = await open(temp, 'wx', 0o700)
  let closed = false
  try {
    let response
    try {
      response = await request(url, {
        // The provider's latest-release URL redirects to its asset storage.
        dispatcher: redirecting(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      })
    } catch (err) {
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: ${(err as Error).message}`, { cause: err })
    }
    if (response.statusCode !== 200) {
      await response.body.dump()
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: HTTP ${response.statusCode}`)
    }
    const declared = Number(response.headers['content-length'])
    if (Number.isFinite(declared) && declared > options.window.maxBytes) {
      await response.body.dump()
      throw new FunnelHelperInvalidError(`the tunnel helper at ${url} is ${declared} bytes, over the ${options.window.maxBytes} limit`)
    }
    let written = 0
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        written += chunk.length
        if (written > options.window.maxBytes) throw new FunnelHelperInvalidError(`the tunnel helper at ${url} is over the ${options.window.maxBytes} byte limit`)
        await handle.write(chunk)
      }
    } catch (err) {
      if (err instanceof FunnelHelperInvalidError) throw err
      throw new FunnelHelperDownloadError(`downloading the tunnel helper from ${url} failed: ${(err as Error).message}`, { cause: err })
    }
    await handle.sync()
    await handle.close()
    closed = true
    await validateHelperFile(temp, options.target, options.window)
    await chmod(temp, 0o755)
    await rename(temp, options.managedPath)
  } finally {
    if (!closed) await handle.close().catch(() => undefined)
    await rm(temp, { force: true })
  }
}
