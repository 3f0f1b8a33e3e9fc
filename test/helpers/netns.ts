// Test-made network namespaces with a veth pair to the host, and processes inside them. Every
// name is unique per test run; everything is removed again by name/PID (also after a failure).
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { execa, type ResultPromise } from 'execa'

export interface NetnsLink {
  ns: string
  hostIf: string
  nsIf: string
  hostAddress: string
  nsAddress: string
  /** Third octet of the 10.250.x.0/30 link and of the 10.251.x.0/24 tunnel range. */
  octet: number
}

/** Why namespace tests cannot run here, or undefined when they can. */
export async function netnsUnavailable(programs: string[] = []): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'network namespaces need Linux'
  if (process.getuid?.() !== 0) return 'network namespaces need root (run the integration tests as root)'
  if (!existsSync('/dev/net/tun')) return '/dev/net/tun is missing'
  for (const program of ['ip', ...programs]) {
    const found = await execa('sh', ['-c', `command -v ${program}`], { reject: false })
    if (found.exitCode !== 0) return `${program} is not installed (apt-get install wireguard-go wireguard-tools iproute2)`
  }
  return undefined
}

async function freeOctet(): Promise<number> {
  const { stdout } = await execa('ip', ['-4', '-o', 'addr', 'show'])
  for (let i = 0; i < 64; i++) {
    const octet = randomBytes(1)[0]!
    if (!stdout.includes(`10.250.${octet}.`) && !stdout.includes(`10.251.${octet}.`)) return octet
  }
  throw new Error('no free 10.250.x.0/30 test range')
}

/** Creates namespace + veth pair 10.250.x.1/30 (host) <-> 10.250.x.2/30 (namespace). */
export async function createNetnsLink(prefix = 'wgt'): Promise<NetnsLink> {
  const tag = randomBytes(3).toString('hex')
  const octet = await freeOctet()
  const link: NetnsLink = {
    ns: `${prefix}-${tag}`,
    hostIf: `vh${tag}`,
    nsIf: `vn${tag}`,
    hostAddress: `10.250.${octet}.1`,
    nsAddress: `10.250.${octet}.2`,
    octet,
  }
  try {
    await execa('ip', ['netns', 'add', link.ns])
    await execa('ip', ['link', 'add', link.hostIf, 'type', 'veth', 'peer', 'name', link.nsIf])
    await execa('ip', ['link', 'set', link.nsIf, 'netns', link.ns])
    await execa('ip', ['addr', 'add', `${link.hostAddress}/30`, 'dev', link.hostIf])
    await execa('ip', ['link', 'set', link.hostIf, 'up'])
    await execa('ip', ['-n', link.ns, 'addr', 'add', `${link.nsAddress}/30`, 'dev', link.nsIf])
    await execa('ip', ['-n', link.ns, 'link', 'set', link.nsIf, 'up'])
    await execa('ip', ['-n', link.ns, 'link', 'set', 'lo', 'up'])
  } catch (err) {
    await removeNetnsLink(link)
    throw err
  }
  return link
}

export async function removeNetnsLink(link: NetnsLink): Promise<void> {
  await execa('ip', ['netns', 'del', link.ns], { reject: false })
  await execa('ip', ['link', 'del', link.hostIf], { reject: false })
}

/** Runs a command inside the namespace (awaited). */
export function inNetns(link: NetnsLink, command: string, args: string[], input?: string) {
  return execa('ip', ['netns', 'exec', link.ns, command, ...args], input === undefined ? {} : { input })
}

/** Starts a long-running process inside the namespace; `ip netns exec` execs it, so the PID is its own. */
export function spawnInNetns(link: NetnsLink, command: string, args: string[], env: Record<string, string> = {}): ResultPromise {
  return execa('ip', ['netns', 'exec', link.ns, command, ...args], { reject: false, env, stdio: ['ignore', 'pipe', 'pipe'], buffer: true })
}

/** Kills a process by PID and waits for it to exit. */
export async function killByPid(child: ResultPromise | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null) return
  try {
    process.kill(child.pid, 'SIGTERM')
  } catch {
    return
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }, 3000)
  await child.catch(() => undefined)
  clearTimeout(timer)
}
