import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import { freePort } from './opentracker.js'

// aria2c as an independent BitTorrent peer on loopback: everything that could reach past
// 127.0.0.1 (DHT, local peer discovery, peer exchange, IPv6) is off, and sockets bind to
// loopback. Plus mktorrent, to make real .torrent files.

export interface Aria2Peer {
  pid: number
  port: number
  /** Resolves when aria2c exits with 0 (a download with --seed-time=0 finished); rejects otherwise. */
  exited: Promise<void>
  output(): string
  stop(): Promise<void>
}

export interface Aria2Options {
  torrentPath: string
  /** Where the torrent's content is (seed) or goes (download). */
  dir: string
  mode: 'seed' | 'download'
  /** Seed mode: hash the data before seeding (default true; benchmarks skip it for data they just wrote). */
  verify?: boolean
  /** Extra aria2c flags. */
  args?: string[]
}

export async function startAria2(options: Aria2Options): Promise<Aria2Peer> {
  const port = await freePort()
  const args = [
    '--enable-dht=false', '--enable-dht6=false', '--bt-enable-lpd=false', '--enable-peer-exchange=false',
    '--disable-ipv6=true', '--interface=127.0.0.1', `--listen-port=${port}`,
    '--console-log-level=warn', '--summary-interval=0', '--show-console-readout=false',
    '--file-allocation=none', '--auto-save-interval=0', '--bt-save-metadata=false', '--rpc-save-upload-metadata=false',
    '--follow-torrent=true', '--check-certificate=false',
    `--dir=${options.dir}`,
    ...(options.mode === 'seed'
      ? ['--seed-ratio=0.0', ...(options.verify === false ? ['--bt-seed-unverified=true'] : ['--check-integrity=true', '--bt-seed-unverified=false'])]
      : ['--seed-time=0', '--bt-stop-timeout=0']),
    ...(options.args ?? []),
    options.torrentPath,
  ]
  let output = ''
  const proc: ChildProcess = spawn('aria2c', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  proc.stdout?.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000) })
  proc.stderr?.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000) })
  const pid = proc.pid
  if (pid === undefined) {
    const err = await new Promise<Error>((resolve) => proc.once('error', resolve))
    throw new Error(`cannot start aria2c (install the Debian package aria2): ${err.message}`)
  }
  const exited = new Promise<void>((resolve, reject) => {
    proc.once('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`aria2c exited with ${code ?? signal}: ${output.slice(-2000)}`))
    })
  })
  exited.catch(() => {})
  // If the test process dies without its cleanup, aria2c must not outlive it.
  const killOnExit = () => { try { process.kill(pid, 'SIGKILL') } catch {} }
  process.once('exit', killOnExit)
  exited.finally(() => process.off('exit', killOnExit)).catch(() => {})
  return {
    pid,
    port,
    exited,
    output: () => output,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      // aria2c announces "stopped" to the tracker on SIGTERM; a second signal forces it.
      process.kill(pid, 'SIGTERM')
      const timer = setTimeout(() => { try { process.kill(pid, 'SIGKILL') } catch {} }, 3000)
      await exited.catch(() => {})
      clearTimeout(timer)
    },
  }
}

const execFileAsync = promisify(execFile)

/** mktorrent: a .torrent of `contentPath` (file or directory) announcing to `announceUrl`. */
export async function mktorrent(contentPath: string, torrentPath: string, announceUrl: string, pieceLengthLog2 = 16): Promise<void> {
  await execFileAsync('mktorrent', ['-a', announceUrl, '-l', String(pieceLengthLog2), '-o', torrentPath, contentPath])
}
