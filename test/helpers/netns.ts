// Test-made network namespaces with a veth pair to the host, and processes inside them. Every
// name is unique per test run; everything is removed again by name/PID (also after a failure).
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import type { Duplex } from 'node:stream'
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

// ---- wireguard-go peers and a bulk TCP server (tunnel tests and bench/wireguard.ts) -----------

export interface WireGuardGoPeer {
  readonly ifName: string
  readonly tunnelAddress: string
  readonly listenPort: number
  process: ResultPromise | undefined
  /** Starts (or restarts) wireguard-go with the same key, port, address and peers. */
  start(): Promise<void>
  stop(): Promise<void>
}

export interface WireGuardGoPeerOptions {
  link: NetnsLink
  /** Path of a file holding the private key (base64). */
  privateKeyFile: string
  listenPort: number
  tunnelAddress: string
  prefixLength: number
  peers: Array<{ publicKey: string; allowedIps: string; endpoint?: string }>
  /** Name prefix; a random suffix keeps /var/run/wireguard/<if>.sock unique. */
  prefix?: string
}

/** A wireguard-go interface inside a namespace, configured with `wg set`; ended by PID. */
export function wireGuardGoPeer(options: WireGuardGoPeerOptions): WireGuardGoPeer {
  const ifName = `${options.prefix ?? 'wgma'}${randomBytes(3).toString('hex')}`
  const { link } = options
  const peer: WireGuardGoPeer = {
    ifName,
    tunnelAddress: options.tunnelAddress,
    listenPort: options.listenPort,
    process: undefined,
    async start() {
      const child = spawnInNetns(link, 'wireguard-go', ['-f', ifName], { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: '1', LOG_LEVEL: 'error' })
      peer.process = child
      for (let i = 0; ; i++) {
        const shown = await inNetns(link, 'wg', ['show', ifName]).then(() => true, () => false)
        if (shown) break
        if (child.exitCode !== null || i > 200) {
          // wireguard-go logs to stdout (its banner goes to stderr): both, and how it ended, say why.
          if (child.exitCode === null) await killByPid(child)
          const ended = await child
          throw new Error(`wireguard-go did not come up (exit ${String(ended.exitCode)}, signal ${String(ended.signal)}): ${String(ended.stdout)} ${String(ended.stderr)}`)
        }
        await new Promise((r) => setTimeout(r, 50))
      }
      await inNetns(link, 'wg', ['set', ifName, 'private-key', options.privateKeyFile, 'listen-port', String(options.listenPort)])
      for (const p of options.peers) {
        await inNetns(link, 'wg', ['set', ifName, 'peer', p.publicKey, 'allowed-ips', p.allowedIps, ...(p.endpoint ? ['endpoint', p.endpoint] : [])])
      }
      await inNetns(link, 'ip', ['addr', 'add', `${options.tunnelAddress}/${options.prefixLength}`, 'dev', ifName])
      await inNetns(link, 'ip', ['link', 'set', ifName, 'up'])
    },
    async stop() {
      await killByPid(peer.process)
      peer.process = undefined
      rmSync(`/var/run/wireguard/${ifName}.sock`, { force: true })
    },
  }
  return peer
}

/** A veth pair between two test namespaces: a gets 10.252.x.1/30, b gets 10.252.x.2/30. */
export async function linkNamespaces(a: NetnsLink, b: NetnsLink): Promise<{ aAddress: string; bAddress: string; remove(): Promise<void> }> {
  const tag = randomBytes(3).toString('hex')
  const aIf = `xa${tag}`
  const bIf = `xb${tag}`
  const octet = a.octet
  const aAddress = `10.252.${octet}.1`
  const bAddress = `10.252.${octet}.2`
  const remove = async () => {
    await execa('ip', ['-n', a.ns, 'link', 'del', aIf], { reject: false })
  }
  try {
    await execa('ip', ['link', 'add', aIf, 'netns', a.ns, 'type', 'veth', 'peer', 'name', bIf, 'netns', b.ns])
    await execa('ip', ['-n', a.ns, 'addr', 'add', `${aAddress}/30`, 'dev', aIf])
    await execa('ip', ['-n', b.ns, 'addr', 'add', `${bAddress}/30`, 'dev', bIf])
    await execa('ip', ['-n', a.ns, 'link', 'set', aIf, 'up'])
    await execa('ip', ['-n', b.ns, 'link', 'set', bIf, 'up'])
  } catch (err) {
    await remove()
    throw err
  }
  return { aAddress, bAddress, remove }
}

/**
 * Source of a small node TCP server for bulk transfers (run with `node -e` inside a namespace).
 * A client sends one line: `DOWN <bytes> <seed>` - the server sends that many bytes of
 * bulkPattern(seed) and closes; `UP <bytes>` - the server reads that many bytes and answers with
 * their sha256 in hex and a newline. argv: host port. Prints "listening" once bound.
 */
export const bulkServerSource = String.raw`
const net = require('node:net'); const crypto = require('node:crypto');
function pattern(seed) { const words = new Uint32Array(262144); const k = crypto.createHash('sha256').update('seed:' + seed).digest();
  let a = k.readUInt32LE(0) | 1, b = k.readUInt32LE(4), c = k.readUInt32LE(8), d = k.readUInt32LE(12);
  for (let i = 0; i < words.length; i++) { const t = a ^ (a << 11); a = b; b = c; c = d; d = (d ^ (d >>> 19) ^ t ^ (t >>> 8)) >>> 0; words[i] = d }
  return Buffer.from(words.buffer).subarray(0, 1048573) }
const [host, port] = process.argv.slice(-2);
const server = net.createServer((socket) => {
  let head = Buffer.alloc(0); let mode;
  socket.on('error', () => {});
  socket.on('data', function onData(chunk) {
    if (mode === undefined) {
      head = Buffer.concat([head, chunk]); const nl = head.indexOf(10); if (nl < 0) return;
      const [verb, n, seed] = head.subarray(0, nl).toString().split(' '); const rest = head.subarray(nl + 1);
      if (verb === 'DOWN') { mode = 'down'; socket.removeListener('data', onData); const block = pattern(seed); let left = Number(n); let at = 0;
        const pump = () => { while (left > 0) { const len = Math.min(left, block.length - at, 262144); const chunk = block.subarray(at, at + len);
          at = (at + len) % block.length; left -= len; if (!socket.write(chunk)) { socket.once('drain', pump); return } } socket.end() }; pump(); return }
      mode = { left: Number(n), hash: crypto.createHash('sha256') }; chunk = rest;
    }
    if (mode === 'down' || chunk.length === 0) return;
    const take = chunk.subarray(0, mode.left); mode.hash.update(take); mode.left -= take.length;
    if (mode.left === 0) { socket.end(mode.hash.digest('hex') + '\n'); mode = 'done' }
  });
});
server.listen(Number(port), host, () => console.log('listening'));
`

/**
 * Asks a bulk server (bulkServerSource) on a connected socket for `bytes` of bulkPattern(seed)
 * and reads it to the end: the length received and its sha256.
 */
export async function downloadBulk(socket: Duplex, bytes: number, seed: string, onProgress?: (got: number) => void): Promise<{ got: number; sha256: string }> {
  socket.write(`DOWN ${bytes} ${seed}\n`)
  const hash = createHash('sha256')
  let got = 0
  for await (const chunk of socket as AsyncIterable<Buffer>) {
    got += chunk.length
    hash.update(chunk)
    onProgress?.(got)
  }
  return { got, sha256: hash.digest('hex') }
}

/** The byte pattern bulkServerSource sends for `seed`: a 1048573-byte block (prime length) repeated. */
export function bulkPattern(seed: string): Buffer {
  // xorshift128 keyed by sha256(seed): cheap enough for 100 connections, same code as the server
  const words = new Uint32Array(262144)
  const k = createHash('sha256').update(`seed:${seed}`).digest()
  let a = k.readUInt32LE(0) | 1
  let b = k.readUInt32LE(4)
  let c = k.readUInt32LE(8)
  let d = k.readUInt32LE(12)
  for (let i = 0; i < words.length; i++) {
    const t = a ^ (a << 11)
    a = b
    b = c
    c = d
    d = (d ^ (d >>> 19) ^ t ^ (t >>> 8)) >>> 0
    words[i] = d
  }
  return Buffer.from(words.buffer).subarray(0, 1048573)
}

/** sha256 of `bytes` bytes of the repeated pattern. */
export function bulkPatternSha256(seed: string, bytes: number): string {
  const block = bulkPattern(seed)
  const hash = createHash('sha256')
  for (let left = bytes; left > 0; ) {
    const len = Math.min(left, block.length)
    hash.update(block.subarray(0, len))
    left -= len
  }
  return hash.digest('hex')
}

/**
 * Starts a process inside the namespace and waits until it prints `ready` on stdout. The child
 * comes back wrapped: a ResultPromise is a thenable, and returning it bare would wait for exit.
 */
export async function spawnInNetnsUntil(link: NetnsLink, command: string, args: string[], ready: string, timeoutMs = 10_000): Promise<{ child: ResultPromise }> {
  const child = spawnInNetns(link, command, args)
  await new Promise<void>((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`${command} did not print ${ready}: ${seen}`)), timeoutMs)
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.includes(ready)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()))
    void child.then(() => {
      clearTimeout(timer)
      reject(new Error(`${command} exited before printing ${ready}: ${seen}`))
    })
  }).catch(async (err: unknown) => {
    await killByPid(child)
    throw err
  })
  return { child }
}
