import { spawn, type ChildProcess } from 'node:child_process'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createSocket } from 'node:dgram'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { freePort } from './ports.js'

// A real Debian opentracker on loopback. The Debian build is whitelist-only: it serves only the
// info hashes listed in `access.whitelist`, chroots to `tracker.rootdir` and drops to nobody, so
// the config and whitelist live in a world-readable temp dir.

export interface OpenTracker {
  port: number
  pid: number
  announceUrl: string
  /** Adds info hashes to the whitelist and resolves once opentracker serves them (it re-reads the list on SIGHUP, in the background). */
  allow(infoHashes: string[]): Promise<void>
  /** Resolves once the tracker counts at least `count` seeders of the info hash. */
  waitForSeeders(infoHash: string, count?: number, timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

export async function startOpentracker(infoHashes: string[] = []): Promise<OpenTracker> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-opentracker-'))
  await chmod(dir, 0o755)
  const port = await freePortTcpUdp()
  const allowed = new Set(infoHashes.map((h) => h.toLowerCase()))
  const writeWhitelist = async () => {
    await writeFile(join(dir, 'whitelist.txt'), [...allowed].map((h) => `${h}\n`).join(''), { mode: 0o644 })
    await chmod(join(dir, 'whitelist.txt'), 0o644)
  }
  await writeWhitelist()
  const conf = join(dir, 'opentracker.conf')
  await writeFile(conf, `listen.tcp_udp 127.0.0.1:${port}\ntracker.rootdir ${dir}\naccess.whitelist whitelist.txt\n`, { mode: 0o644 })
  await chmod(conf, 0o644)

  let output = ''
  const proc: ChildProcess = spawn('opentracker', ['-f', conf], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  proc.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  proc.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const spawnError = new Promise<never>((_, reject) => proc.once('error', reject))
  const pid = proc.pid
  if (pid === undefined) {
    await rm(dir, { recursive: true, force: true })
    throw await spawnError.catch((err: Error) => new Error(`cannot start opentracker (install the Debian package): ${err.message}`))
  }
  const base = `http://127.0.0.1:${port}`
  // If the test process dies without its afterAll, the tracker must not outlive it.
  const killOnExit = () => { try { process.kill(pid, 'SIGKILL') } catch {} }
  process.once('exit', killOnExit)

  const stop = async () => {
    process.off('exit', killOnExit)
    if (proc.exitCode === null && proc.signalCode === null) {
      process.kill(pid, 'SIGTERM')
      const timer = setTimeout(() => { try { process.kill(pid, 'SIGKILL') } catch {} }, 3000)
      await exited
      clearTimeout(timer)
    }
    await rm(dir, { recursive: true, force: true })
  }

  // opentracker reads the whitelist in its own thread (at start and on SIGHUP): a peer announcing
  // before that is refused ("not authorized") and does not ask again for its whole interval.
  // Probe with a throw-away peer (port 1) until its `started` is accepted, then take it off again.
  const whenServed = async (hashes: string[]) => {
    for (const h of hashes) {
      const probe = (event: string) => request(`${base}/announce?info_hash=${percentEncode(h)}&peer_id=-MA0000-whitelist000&port=1&uploaded=0&downloaded=0&left=0&numwant=0&event=${event}`, { reset: true })
      await until(async () => {
        const res = await probe('started').catch(() => null)
        if (!res) return false
        const body = await res.body.text()
        return res.statusCode === 200 && !body.includes('failure reason')
      }, 10_000, `opentracker to serve ${h} from its whitelist`)
      const res = await probe('stopped')
      const body = await res.body.text()
      if (res.statusCode !== 200 || body.includes('failure reason')) throw new Error(`opentracker kept the whitelist probe peer of ${h}: ${res.statusCode} ${body}`)
    }
  }

  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`opentracker exited with ${proc.exitCode}: ${output}`)
      const res = await request(`${base}/stats?mode=version`, { reset: true }).catch(() => null)
      if (!res) return false
      await res.body.dump()
      return true
    }, 10_000, 'opentracker to listen')
    await whenServed([...allowed])
  } catch (err) {
    await stop()
    throw err
  }

  return {
    port,
    pid,
    announceUrl: `${base}/announce`,
    async allow(more) {
      for (const h of more) allowed.add(h.toLowerCase())
      await writeWhitelist()
      process.kill(pid, 'SIGHUP')
      await whenServed(more)
    },
    async waitForSeeders(infoHash, count = 1, timeoutMs = 30_000) {
      const encoded = percentEncode(infoHash)
      let last = 'no answer yet'
      await until(async () => {
        // opentracker closes every connection after its answer: never reuse one.
        const res = await request(`${base}/scrape?info_hash=${encoded}`, { reset: true }).catch((err: Error) => {
          last = `scrape failed: ${err.message}`
          return null
        })
        if (!res) return false
        const body = await res.body.text()
        const complete = /8:completei(\d+)e/.exec(body)
        last = `scrape answered ${res.statusCode}, complete=${complete?.[1] ?? 'none'}`
        return complete !== null && Number(complete[1]) >= count
      }, timeoutMs, `${count} seeder(s) of ${infoHash} at the tracker`).catch((err: Error) => {
        const alive = proc.exitCode === null && proc.signalCode === null
        throw new Error(`${err.message} (last: ${last}; opentracker ${alive ? 'running' : `exited with ${proc.exitCode ?? proc.signalCode}`})`)
      })
    },
    stop,
  }
}

function percentEncode(infoHash: string): string {
  return [...Buffer.from(infoHash, 'hex')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
}

/** A port free for both TCP and UDP on loopback (opentracker listens on both). */
async function freePortTcpUdp(): Promise<number> {
  for (;;) {
    const port = await freePort()
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4')
      socket.once('error', () => resolve(false))
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)))
    })
    if (udpFree) return port
  }
}

/** Polls a condition until it holds: for waiting on an outside process's state, never as a sleep. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export { freePortTcpUdp as freePort }
