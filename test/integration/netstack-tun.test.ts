// The stack against the Linux kernel's own TCP/IP: a TUN device inside a test-made network
// namespace, bridged packet-for-packet to this process over loopback UDP by a small Python
// helper (TUNSETIFF needs an ioctl Node cannot make). The kernel end is plain Python sockets.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createSocket, type Socket } from 'node:dgram'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NetLink } from '../../src/services/netstack/link.js'
import type { NetStack } from '../../src/services/netstack/netstack.js'
import { createNetStack } from '../../src/services/netstack/netstack.js'
import type { TcpSocket } from '../../src/services/netstack/tcp-socket.js'

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import random; random.Random(1).randbytes(1)'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const usable = process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/dev/net/tun') && hasPython()

const KERNEL = '10.77.0.1'
const STACK = '10.77.0.2'
const ns = `ma-netstack-${process.pid}`
const tun = `matun${process.pid % 100000}`

const BRIDGE = String.raw`
import fcntl, os, select, socket, struct, sys
name, node_port = sys.argv[1], int(sys.argv[2])
fd = os.open('/dev/net/tun', os.O_RDWR)
fcntl.ioctl(fd, 0x400454ca, struct.pack('16sH', name.encode(), 0x0001 | 0x1000))  # TUNSETIFF, IFF_TUN|IFF_NO_PI
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
s.bind(('127.0.0.1', 0))
print(s.getsockname()[1], flush=True)
while True:
    ready, _, _ = select.select([fd, s], [], [])
    if fd in ready:
        s.sendto(os.read(fd, 65535), ('127.0.0.1', node_port))
    if s in ready:
        os.write(fd, s.recvfrom(65535)[0])
`

const TCP_SERVER = String.raw`
import hashlib, random, socket
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(('${KERNEL}', 9000))
srv.listen()
print('listening', flush=True)
c, _ = srv.accept()
h, n = hashlib.sha256(), 0
while True:
    d = c.recv(65536)
    if not d:
        break
    h.update(d)
    n += len(d)
payload = random.Random(7).randbytes(4 * 1024 * 1024)
c.sendall(f'{h.hexdigest()} {n} {hashlib.sha256(payload).hexdigest()}\n'.encode() + payload)
c.close()
`

const TCP_CLIENT = String.raw`
import hashlib, random, socket
payload = random.Random(8).randbytes(2 * 1024 * 1024)
c = socket.create_connection(('${STACK}', 7000), timeout=60)
c.sendall(payload)
c.shutdown(socket.SHUT_WR)
h, n = hashlib.sha256(), 0
while True:
    d = c.recv(65536)
    if not d:
        break
    h.update(d)
    n += len(d)
print(hashlib.sha256(payload).hexdigest(), h.hexdigest(), n, flush=True)
`

const DNS_SERVER = String.raw`
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('${KERNEL}', 53))
print('listening', flush=True)
while True:
    q, addr = s.recvfrom(512)
    end = 12
    while q[end]:
        end += 1 + q[end]
    question = q[12:end + 5]
    answer = b'\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04' + bytes([93, 184, 216, 34])
    s.sendto(q[:2] + b'\x81\x80\x00\x01\x00\x01\x00\x00\x00\x00' + question + answer, addr)
`

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8' })
}

/** Starts python3 in the namespace; resolves with the process and its first output line. */
function python(code: string, inNamespace: boolean): Promise<{ child: ChildProcess; firstLine: string; lines: string[] }> {
  const args = inNamespace ? ['netns', 'exec', ns, 'python3', '-c', code] : []
  const child = inNamespace ? spawn('ip', args, { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn('python3', ['-c', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const lines: string[] = []
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! })
    rl.on('line', (line) => {
      lines.push(line)
      if (lines.length === 1) resolve({ child, firstLine: line, lines })
    })
    child.on('exit', (code) => {
      if (lines.length === 0) reject(new Error(`python exited with ${code}`))
    })
  })
}

const children: ChildProcess[] = []
let workDir: string | undefined
let udp: Socket | undefined
let stack: NetStack | undefined

describe.skipIf(!usable)('the stack against the Linux kernel over a TUN device', () => {
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'ma-netstack-'))
    writeFileSync(join(workDir, 'bridge.py'), BRIDGE)
    udp = createSocket('udp4')
    await new Promise<void>((resolve) => udp!.bind(0, '127.0.0.1', resolve))
    udp.setRecvBufferSize(8 << 20)
    udp.setSendBufferSize(8 << 20)
    const nodePort = udp.address().port
    sh('ip', ['netns', 'add', ns])
    const bridge = spawn('python3', [join(workDir, 'bridge.py'), tun, String(nodePort)], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(bridge)
    const bridgePort = Number(await new Promise<string>((resolve) => createInterface({ input: bridge.stdout! }).once('line', resolve)))
    sh('ip', ['link', 'set', tun, 'netns', ns])
    sh('ip', ['-n', ns, 'addr', 'add', `${KERNEL}/24`, 'dev', tun])
    sh('ip', ['-n', ns, 'link', 'set', tun, 'mtu', '1420', 'up'])
    sh('ip', ['-n', ns, 'link', 'set', 'lo', 'up'])
    let handler: (packet: Uint8Array) => void = () => {}
    udp.on('message', (message) => handler(message))
    const link: NetLink = { mtu: 1420, send: (packet) => udp!.send(packet, bridgePort, '127.0.0.1'), onPacket: (h) => (handler = h) }
    stack = createNetStack({ link, localAddress: STACK, dnsServers: [KERNEL] })
  })

  afterAll(() => {
    stack?.close()
    for (const child of children) if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL')
    try {
      sh('ip', ['netns', 'del', ns])
    } catch {
      // not created
    }
    udp?.close()
    if (workDir) rmSync(workDir, { recursive: true, force: true })
  })

  it('the kernel answers our ping', async () => {
    const rtt = await stack!.ping(KERNEL, 5000)
    expect(rtt).toBeGreaterThanOrEqual(0)
  })

  it('resolves a name through a DNS server the kernel carries over UDP', async () => {
    await python(DNS_SERVER, true)
    await expect(stack!.resolve('tracker.example.org')).resolves.toBe('93.184.216.34')
  })

  it('sends 2 MiB to a kernel TCP server, half-closes, and reads 4 MiB back intact', async () => {
    await python(TCP_SERVER, true)
    const socket = await stack!.connect(KERNEL, 9000)
    const sent = createHash('sha256')
    const data = Buffer.alloc(2 * 1024 * 1024)
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919) & 0xff
    sent.update(data)
    socket.end(data)
    const chunks: Buffer[] = []
    for await (const chunk of socket) chunks.push(chunk as Buffer)
    const all = Buffer.concat(chunks)
    const newline = all.indexOf(10)
    const [gotHash, gotLength, payloadHash] = all.subarray(0, newline).toString().split(' ')
    expect(gotHash).toBe(sent.digest('hex'))
    expect(Number(gotLength)).toBe(data.length)
    const payload = all.subarray(newline + 1)
    expect(payload.length).toBe(4 * 1024 * 1024)
    expect(createHash('sha256').update(payload).digest('hex')).toBe(payloadHash)
  })

  it('accepts a kernel TCP client on a listening port and answers after its half-close', async () => {
    const reply = Buffer.alloc(1024 * 1024, 0x5a)
    stack!.listen(7000, (socket: TcpSocket) => {
      const hash = createHash('sha256')
      socket.on('data', (chunk) => hash.update(chunk))
      socket.on('end', () => socket.end(Buffer.concat([Buffer.from(hash.digest('hex')), reply])))
    }, { allowHalfOpen: true })
    const client = spawn('ip', ['netns', 'exec', ns, 'python3', '-c', TCP_CLIENT], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(client)
    let out = ''
    client.stdout!.on('data', (chunk) => (out += chunk))
    const code = await new Promise((resolve) => client.on('exit', resolve))
    expect(code).toBe(0)
    const [payloadHash, replyHash, replyLength] = out.trim().split(' ')
    expect(Number(replyLength)).toBe(64 + reply.length)
    const expectedReply = createHash('sha256').update(Buffer.concat([Buffer.from(payloadHash!), reply])).digest('hex')
    expect(replyHash).toBe(expectedReply)
  })
})
