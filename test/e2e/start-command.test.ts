import { mkdir, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { request } from 'undici'
import { startDaemon, tempAgent, type DaemonProcess } from '../helpers/daemon.js'
import { freePort } from '../helpers/ports.js'

// `npm start` runs `media-agent start`: the user's config when there is one, else the embedded
// default (reference server + daemon on loopback). HOME and the XDG variables point into a
// temp dir so the test never reads or writes the real user's files.

let daemon: DaemonProcess | undefined
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  await daemon?.stop('SIGKILL')
  daemon = undefined
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function tempHome() {
  const home = await mkdtemp(join(tmpdir(), 'ma-home-'))
  cleanups.push(() => rm(home, { recursive: true, force: true }))
  return { home, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state'), XDG_CACHE_HOME: join(home, '.cache') } }
}

describe('media-agent start (what npm start runs)', () => {
  it('runs the daemon with the config at the default path, retrying an unreachable server, and exits 0 on SIGTERM', async () => {
    const { home, env } = await tempHome()
    const agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    cleanups.push(agent.cleanup)
    await mkdir(join(home, '.config', 'media-agent'), { recursive: true })
    await writeFile(join(home, '.config', 'media-agent', 'config.toml'), await readFile(agent.configPath))
    daemon = startDaemon(['start'], env)
    const retry = await daemon.waitForLog((line) => /retrying/.test(line.msg))
    expect(JSON.stringify(retry)).toContain('MA_ERR_SERVER_UNREACHABLE')
    expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  })

  it('with no config, runs a local reference server, prints its player page first, and registers the daemon with it', async () => {
    const { env } = await tempHome()
    daemon = startDaemon(['start'], env)
    await daemon.waitForLog((line) => line.msg === 'media-agent started')
    let stdout = ''
    daemon.child.stdout!.on('data', (chunk) => { stdout += chunk })
    const token = /access token\s+(\S+)/.exec(await waitForText(() => stdout, /access token\s+\S+/))?.[1]
    expect(token).toBeTruthy()
    // The reference server saw the agent register and sync.
    const base = /reference web server runs at (\S+) and/.exec(stdout)?.[1]
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // The first address of the banner is the player page, with the token in its fragment.
    expect(/https?:\/\/\S+/.exec(stdout)?.[0]).toBe(`${base}/#token=${token}`)
    const page = await request(`${base}/`)
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    expect(await page.body.text()).toContain('/player/app.js')
    const deadline = Date.now() + 20_000
    let syncs: unknown[] = []
    while (Date.now() < deadline) {
      const response = await request(`${base}/api/reference/syncs`, { headers: { authorization: `Bearer ${token}` } })
      syncs = (await response.body.json()) as unknown[]
      if (syncs.length > 0) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(syncs.length).toBeGreaterThan(0)
    expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  })
})

async function waitForText(read: () => string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`stdout never matched ${pattern}: ${read()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read()
}
