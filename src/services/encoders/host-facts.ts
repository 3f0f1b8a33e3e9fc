// The host half of the hardware diagnostic (issue 12, contract 2.4): GPU device files, who may
// open them, and the kernel drivers behind them. Reads only; `root` lets a test lay out a host.
import { readdir, readFile, readlink, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { HwAccelDiagnostic } from '../../protocol/wire.js'

export interface HostFactsOptions {
  /** Prefix of /dev, /proc and /sys (tests); '' for the real host. Paths are reported without it. */
  root?: string
  /** Whose access to check; the agent's own by default. */
  identity?: { uid: number; gids: readonly number[] }
  /** gid -> group name, for the advice (`render`, `video`); /etc/group under `root` by default. */
  groupName?: (gid: number) => Promise<string | undefined>
}

export interface HostFacts {
  devices: HwAccelDiagnostic['devices']
  drivers: string[]
}

/** Kernel modules of GPUs that can encode H.264 (QSV/VAAPI: i915, xe; VAAPI: amdgpu, radeon, nouveau; NVENC: nvidia). */
const gpuModules = ['i915', 'xe', 'amdgpu', 'radeon', 'nouveau', 'nvidia'] as const

export async function readHostFacts(options: HostFactsOptions = {}): Promise<HostFacts> {
  const root = options.root ?? ''
  const identity = options.identity ?? { uid: process.getuid?.() ?? 0, gids: process.getgroups?.() ?? [] }
  const groupName = options.groupName ?? ((gid: number) => groupNameFrom(join(root, '/etc/group'), gid))
  const names = async (dir: string, pattern: RegExp) => (await readdir(join(root, dir)).catch(() => [] as string[])).filter((name) => pattern.test(name)).sort()

  const devicePaths = [
    ...(await names('/dev/dri', /^renderD\d+$/)).map((name) => `/dev/dri/${name}`),
    ...(await names('/dev', /^nvidia(\d+|ctl|-uvm)$/)).map((name) => `/dev/${name}`),
  ]
  const devices: HostFacts['devices'] = []
  for (const path of devicePaths) {
    const driver = path.startsWith('/dev/nvidia') ? 'nvidia' : await drmDriver(root, basename(path))
    const device: HostFacts['devices'][number] = { path, driver }
    const problem = await accessProblem(join(root, path), path, identity, groupName)
    if (problem) device.error = problem
    devices.push(device)
  }

  const drivers: string[] = []
  const nvidia = await readFile(join(root, '/proc/driver/nvidia/version'), 'utf8').catch(() => undefined)
  const nvidiaVersion = nvidia && /Kernel Module\s+(?:for\s+\S+\s+)?([0-9][\w.]*)/.exec(nvidia)?.[1]
  if (nvidiaVersion) drivers.push(`nvidia ${nvidiaVersion}`)
  for (const module of gpuModules) {
    if (module === 'nvidia' && nvidiaVersion) continue
    const loaded = await stat(join(root, '/sys/module', module)).then(() => true, () => false)
    if (!loaded) continue
    const version = (await readFile(join(root, '/sys/module', module, 'version'), 'utf8').catch(() => '')).trim()
    drivers.push(version ? `${module} ${version}` : module)
  }
  return { devices, drivers }
}

/** `/sys/class/drm/renderD128/device/driver` links to the kernel driver (i915, amdgpu, ...). */
async function drmDriver(root: string, node: string): Promise<string> {
  const target = await readlink(join(root, '/sys/class/drm', node, 'device/driver')).catch(() => undefined)
  return target ? basename(target) : 'unknown'
}

/**
 * Why this user cannot open the device read-write, naming the group to join. Computed from the
 * mode bits, not access(2): the agent may run as root while diagnosing for a service user, and
 * a test runs as whoever it runs as.
 */
async function accessProblem(
  file: string,
  path: string,
  identity: { uid: number; gids: readonly number[] },
  groupName: (gid: number) => Promise<string | undefined>,
): Promise<string | undefined> {
  let info
  try {
    info = await stat(file)
  } catch (err) {
    return `cannot stat ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`
  }
  if (identity.uid === 0) return undefined
  const rw = (shift: number) => ((info.mode >> shift) & 0o6) === 0o6
  if (info.uid === identity.uid ? rw(6) : identity.gids.includes(info.gid) ? rw(3) : rw(0)) return undefined
  const group = (await groupName(info.gid)) ?? `gid ${info.gid}`
  return `permission denied: ${path} is read-write for group ${group} only, and this user (uid ${identity.uid}) is not in it; ` +
    `add it (usermod -aG ${group} <user>; in a container, --group-add ${info.gid}) and restart the agent`
}

async function groupNameFrom(file: string, gid: number): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '')
  for (const line of text.split('\n')) {
    const [name, , id] = line.split(':')
    if (name && id !== undefined && Number(id) === gid) return name
  }
  return undefined
}
