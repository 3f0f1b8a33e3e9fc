import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort, until } from './opentracker.js'

// qBittorrent-nox (Debian `qbittorrent-nox`, libtorrent 2) as an independent BitTorrent client on
// loopback, driven through its WebUI API v2: the anchor of the torrent benchmarks and an interop
// peer for tests. Headless with its own profile directory: the legal notice accepted, DHT, local
// peer discovery, peer exchange and UPnP/NAT-PMP off, TCP only on 127.0.0.1, the WebUI
// without login for loopback clients (`WebUI\LocalHostAuth=false`) on a free port. Torrent
// queueing is off so that every added torrent is active (otherwise all but 5 wait as "queued").
// Started and stopped by PID; a profile the helper made is removed by stop().

export interface QbittorrentTorrentInfo {
  hash: string
  name: string
  /** downloading, stalledDL, checkingUP, uploading, stalledUP, pausedUP, error, ... */
  state: string
  progress: number
  size: number
  /** All-time total: qBittorrent folds the session's bytes into it on a timer, so it can lag a quick download. */
  downloaded: number
  /** Bytes downloaded since qBittorrent started: current as soon as the torrent completes. */
  downloaded_session: number
  uploaded: number
  save_path: string
}

export interface Qbittorrent {
  pid: number
  /** The BitTorrent listen port (TCP, 127.0.0.1). */
  port: number
  webUiUrl: string
  profileDir: string
  version: string
  /** Adds a .torrent through `torrents/add`; the content goes to (or is looked for in) savePath. */
  add(torrentFile: Uint8Array, savePath: string, options?: { skipChecking?: boolean; paused?: boolean }): Promise<void>
  /** `app/setPreferences` (WebUI API v2 names, e.g. `{ autorun_enabled: true, autorun_program: '...' }`). */
  setPreferences(preferences: Record<string, unknown>): Promise<void>
  /** `torrents/info`, optionally of some info hashes only. */
  info(hashes?: readonly string[]): Promise<QbittorrentTorrentInfo[]>
  /** Resolves when `torrents/info` of these hashes satisfies the predicate (polled every pollMs). */
  waitFor(hashes: readonly string[], predicate: (torrents: QbittorrentTorrentInfo[]) => boolean, options?: { timeoutMs?: number; pollMs?: number; what?: string }): Promise<QbittorrentTorrentInfo[]>
  /** Resolves (or rejects with its output) when the process has exited. */
  exited: Promise<void>
  output(): string
  /** Shuts qBittorrent down by PID (SIGTERM, SIGKILL after 10 s) and removes a profile the helper made. */
  stop(): Promise<void>
}

export interface QbittorrentOptions {
  /** Reuse a profile (a restart on the same fastresume data); the caller removes it. Default: a fresh temp one. */
  profileDir?: string
  /** Extra `qBittorrent.conf` lines under `[BitTorrent]` (`Session\...=...`). */
  session?: string[]
}

/** States in which a torrent holds every piece and serves them (qBittorrent 4.5 names). */
export const qbittorrentSeedingStates: ReadonlySet<string> = new Set(['uploading', 'stalledUP', 'forcedUP', 'queuedUP'])

export const seedingInQbittorrent = (torrent: QbittorrentTorrentInfo) => qbittorrentSeedingStates.has(torrent.state) && torrent.progress >= 1

export async function qbittorrentVersion(): Promise<string> {
  const { stdout } = await promisify(execFile)('qbittorrent-nox', ['--version'])
  return stdout.trim().replace(/^qBittorrent\s+/, '')
}

export async function startQbittorrent(options: QbittorrentOptions = {}): Promise<Qbittorrent> {
  const ownProfile = options.profileDir === undefined
  const profileDir = options.profileDir ?? await mkdtemp(join(tmpdir(), 'ma-qbittorrent-'))
  const port = await freePort()
  const webUiPort = await freePort()
  const configDir = join(profileDir, 'qBittorrent', 'config')
  await mkdir(configDir, { recursive: true })
  // Written on every start: a restart on the same profile gets new ports.
  await writeFile(join(configDir, 'qBittorrent.conf'), [
    '[LegalNotice]',
    'Accepted=true',
    '',
    '[BitTorrent]',
    'Session\\DHTEnabled=false',
    'Session\\LSDEnabled=false',
    'Session\\PeXEnabled=false',
    'Session\\QueueingSystemEnabled=false',
    'Session\\AnonymousModeEnabled=false',
    `Session\\Port=${port}`,
    'Session\\Interface=lo',
    'Session\\InterfaceName=lo',
    'Session\\InterfaceAddress=127.0.0.1',
    // Tests put several peers on 127.0.0.1; libtorrent allows one connection per IP by default.
    'Session\\MultiConnectionsPerIp=true',
    // libtorrent's SSRF mitigation refuses tracker URLs on loopback with odd paths; ours are loopback.
    'Session\\SSRFMitigation=false',
    'Session\\ValidateHTTPSTrackerCertificate=false',
    // TCP only, like the agent and aria2c on loopback here: libtorrent otherwise tries uTP first
    // and waits its 3 s uTP connect timeout before it falls back to TCP for a TCP-only peer.
    'Session\\BTProtocol=TCP',
    ...(options.session ?? []),
    '',
    '[Network]',
    'PortForwardingEnabled=false',
    '',
    '[Preferences]',
    'Connection\\UPnP=false',
    'General\\Locale=en',
    'WebUI\\Enabled=true',
    'WebUI\\Address=127.0.0.1',
    `WebUI\\Port=${webUiPort}`,
    'WebUI\\LocalHostAuth=false',
    'WebUI\\CSRFProtection=false',
    'WebUI\\ClickjackingProtection=false',
    'WebUI\\HostHeaderValidation=false',
    'WebUI\\UseUPnP=false',
    '',
  ].join('\n'))

  let output = ''
  const proc: ChildProcess = spawn('qbittorrent-nox', [`--profile=${profileDir}`, `--webui-port=${webUiPort}`, `--torrenting-port=${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
  })
  proc.stdout?.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000) })
  proc.stderr?.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000) })
  const pid = proc.pid
  if (pid === undefined) {
    const err = await new Promise<Error>((resolve) => proc.once('error', resolve))
    if (ownProfile) await rm(profileDir, { recursive: true, force: true })
    throw new Error(`cannot start qbittorrent-nox (install the Debian package qbittorrent-nox): ${err.message}`)
  }
  let exitedAlready = false
  const exited = new Promise<void>((resolve, reject) => {
    proc.once('exit', (code, signal) => {
      exitedAlready = true
      if (code === 0 || signal === 'SIGTERM') resolve()
      else reject(new Error(`qbittorrent-nox exited with ${code ?? signal}: ${output.slice(-2000)}`))
    })
  })
  exited.catch(() => {})
  // If the test process dies without its cleanup, qBittorrent must not outlive it.
  const killOnExit = () => { try { process.kill(pid, 'SIGKILL') } catch {} }
  process.once('exit', killOnExit)

  const webUiUrl = `http://127.0.0.1:${webUiPort}`
  const api = async (path: string, init?: RequestInit): Promise<Response> => {
    const response = await fetch(`${webUiUrl}/api/v2/${path}`, init)
    if (!response.ok) throw new Error(`qBittorrent ${path} answered ${response.status}: ${await response.text()}`)
    return response
  }

  const stop = async () => {
    process.off('exit', killOnExit)
    if (!exitedAlready) {
      process.kill(pid, 'SIGTERM')
      const timer = setTimeout(() => { try { process.kill(pid, 'SIGKILL') } catch {} }, 10_000)
      await exited.catch(() => {})
      clearTimeout(timer)
    }
    if (ownProfile) await rm(profileDir, { recursive: true, force: true })
  }

  let version = ''
  try {
    await until(async () => {
      if (exitedAlready) throw new Error(`qbittorrent-nox exited before its WebUI answered: ${output.slice(-2000)}`)
      const response = await fetch(`${webUiUrl}/api/v2/app/version`).catch(() => null)
      if (!response?.ok) return false
      version = (await response.text()).trim()
      return true
    }, 30_000, 'the qBittorrent WebUI to answer')
  } catch (err) {
    await stop()
    throw err
  }

  const info = async (hashes?: readonly string[]): Promise<QbittorrentTorrentInfo[]> => {
    const query = hashes === undefined ? '' : `?hashes=${hashes.map((h) => h.toLowerCase()).join('|')}`
    return (await (await api(`torrents/info${query}`)).json()) as QbittorrentTorrentInfo[]
  }

  return {
    pid,
    port,
    webUiUrl,
    profileDir,
    version,
    exited,
    output: () => output,
    async add(torrentFile, savePath, addOptions = {}) {
      const form = new FormData()
      form.append('torrents', new Blob([torrentFile], { type: 'application/x-bittorrent' }), 'add.torrent')
      form.append('savepath', savePath)
      form.append('paused', String(addOptions.paused ?? false))
      form.append('skip_checking', String(addOptions.skipChecking ?? false))
      form.append('contentLayout', 'Original')
      form.append('autoTMM', 'false')
      const response = await api('torrents/add', { method: 'POST', body: form })
      const text = (await response.text()).trim()
      // 4.5 answers "Ok." or "Fails." with 200.
      if (text !== 'Ok.') throw new Error(`qBittorrent refused the torrent: ${text}`)
    },
    info,
    async setPreferences(preferences) {
      await api('app/setPreferences', { method: 'POST', body: new URLSearchParams({ json: JSON.stringify(preferences) }) })
    },
    async waitFor(hashes, predicate, waitOptions = {}) {
      let last: QbittorrentTorrentInfo[] = []
      const deadline = Date.now() + (waitOptions.timeoutMs ?? 60_000)
      for (;;) {
        if (exitedAlready) throw new Error(`qbittorrent-nox exited: ${output.slice(-2000)}`)
        last = await info(hashes)
        if (last.length === hashes.length && predicate(last)) return last
        if (Date.now() > deadline) {
          const states = last.map((t) => `${t.hash.slice(0, 8)} ${t.state} ${(t.progress * 100).toFixed(1)}%`).slice(0, 10).join(', ')
          throw new Error(`timed out waiting for qBittorrent: ${waitOptions.what ?? 'condition'} (${last.length}/${hashes.length} known: ${states})`)
        }
        await new Promise((resolve) => setTimeout(resolve, waitOptions.pollMs ?? 100))
      }
    },
    stop,
  }
}
