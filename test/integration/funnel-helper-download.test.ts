import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureHelper, helperTarget, validateHelperFile } from '../../src/services/funnel/helper-download.js'
import { buildFakeHelper, serveFakeHelper, type FakeHelperAssets } from '../helpers/fake-cloudflared.js'

// The managed tunnel helper (contract 4.5, protocol.md 7.4) against a loopback stand-in for the
// provider's release download: the fake helper compiled with gcc and padded to 12 MiB.

const child = join(import.meta.dirname, 'funnel-download-child.ts')

function runDaemonDownload(managedPath: string, urlBase: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, managedPath, urlBase], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    proc.stdout.on('data', (chunk) => (stdout += chunk))
    proc.stderr.on('data', (chunk) => (stderr += chunk))
    proc.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

function runHelper(path: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(path, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    proc.stderr.on('data', (chunk) => (stderr += chunk))
    proc.on('close', (code) => resolve({ code, stderr }))
  })
}

describe('the managed tunnel helper download', () => {
  let assets: FakeHelperAssets
  let dir: string

  beforeAll(async () => {
    const bytes = await buildFakeHelper()
    const arm = Buffer.from(bytes)
    arm[18] = 40 // EM_ARM: an asset for another machine
    assets = await serveFakeHelper(bytes, {
      sliceDelayMs: 5,
      assets: {
        html: Buffer.from('<!DOCTYPE html><html><body>error code: 1015</body></html>'),
        arm,
        short: bytes.subarray(0, 1024 * 1024),
      },
    })
    dir = await mkdtemp(join(tmpdir(), 'ma14-dl-'))
  })

  afterAll(async () => {
    await assets?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('two daemons downloading into one state dir at once both end with the same valid, runnable helper', async () => {
    const managed = join(dir, 'state', 'bin', 'cloudflared')
    const [a, b] = await Promise.all([runDaemonDownload(managed, assets.baseUrl), runDaemonDownload(managed, assets.baseUrl)])
    expect(a, a.stderr).toMatchObject({ code: 0, stdout: `${managed}\n` })
    expect(b, b.stderr).toMatchObject({ code: 0, stdout: `${managed}\n` })
    // Both really downloaded (neither found a finished file): the writes overlapped.
    expect([...assets.requests.values()].reduce((x, y) => x + y, 0)).toBe(2)
    expect((await readFile(managed)).equals(assets.bytes)).toBe(true)
    expect((await stat(managed)).mode & 0o777).toBe(0o755)
    await validateHelperFile(managed, helperTarget())
    // No temp file is left beside it.
    expect(await readdir(join(dir, 'state', 'bin'))).toEqual(['cloudflared'])
    // It runs, and refuses arguments that are not the agent's.
    const run = await runHelper(managed, ['tunnel', '--url', 'http://example.com'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('unexpected arguments')
  })

  it('uses a helper already in place without downloading it again', async () => {
    const managed = join(dir, 'state', 'bin', 'cloudflared')
    const before = assets.requests.size
    const total = [...assets.requests.values()].reduce((x, y) => x + y, 0)
    await expect(ensureHelper({ helperPath: '', managedPath: managed, urlBase: assets.baseUrl })).resolves.toBe(managed)
    expect(assets.requests.size).toBe(before)
    expect([...assets.requests.values()].reduce((x, y) => x + y, 0)).toBe(total)
  })

  it('replaces a managed helper that was corrupted on disk', async () => {
    const managed = join(dir, 'corrupt', 'bin', 'cloudflared')
    await ensureHelper({ helperPath: '', managedPath: managed, urlBase: assets.baseUrl })
    await writeFile(managed, 'truncated')
    await ensureHelper({ helperPath: '', managedPath: managed, urlBase: assets.baseUrl })
    expect((await readFile(managed)).equals(assets.bytes)).toBe(true)
  })

  it('clears away the temp file of a download whose daemon was killed, and keeps a live one', async () => {
    const bin = join(dir, 'abandoned', 'bin')
    const gone = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => gone.on('close', resolve))
    await mkdir(bin, { recursive: true })
    const abandoned = join(bin, `.cloudflared.${gone.pid}.0badf00d.part`)
    const inFlight = join(bin, `.cloudflared.${process.ppid}.0badf00d.part`)
    await writeFile(abandoned, 'half a helper')
    await writeFile(inFlight, 'being written by a live process')
    await ensureHelper({ helperPath: '', managedPath: join(bin, 'cloudflared'), urlBase: assets.baseUrl })
    expect((await readdir(bin)).sort()).toEqual([`.cloudflared.${process.ppid}.0badf00d.part`, 'cloudflared'])
  })

  it.each([
    ['an HTML error page', 'html', /bad magic/],
    ['a binary for another machine', 'arm', /machine 40/],
    ['a file far too small to be the helper', 'short', /size/],
  ])('refuses %s and installs nothing', async (_what, asset, reason) => {
    const managed = join(dir, `bad-${asset}`, 'bin', 'cloudflared')
    const base = assets.baseUrl.replace('/releases/', `/alt/${asset}/`)
    await expect(ensureHelper({ helperPath: '', managedPath: managed, urlBase: base })).rejects.toMatchObject({ code: 'MA_ERR_FUNNEL_HELPER_INVALID', message: expect.stringMatching(reason) })
    expect(await readdir(join(dir, `bad-${asset}`, 'bin'))).toEqual([])
  })

  it('stops a download that is aborted (funnel off, shutdown) and leaves nothing behind', async () => {
    const slow = await serveFakeHelper(assets.bytes, { sliceDelayMs: 50 })
    try {
      const bin = join(dir, 'aborted', 'bin')
      const abort = new AbortController()
      const download = ensureHelper({ helperPath: '', managedPath: join(bin, 'cloudflared'), urlBase: slow.baseUrl, signal: abort.signal })
      // Bounded wait until the download has really begun: its temp file exists.
      for (let i = 0; (await readdir(bin).catch(() => [])).length === 0; i++) {
        if (i > 200) throw new Error('the download never started')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      abort.abort()
      await expect(download).rejects.toMatchObject({ code: 'MA_ERR_FUNNEL_HELPER_DOWNLOAD' })
      expect(await readdir(bin)).toEqual([])
    } finally {
      await slow.close()
    }
  })

  it('says which URL failed when the download is missing', async () => {
    const managed = join(dir, 'missing', 'bin', 'cloudflared')
    const base = assets.baseUrl.replace('/releases/', '/nothing-here/')
    await expect(ensureHelper({ helperPath: '', managedPath: managed, urlBase: base })).rejects.toMatchObject({ code: 'MA_ERR_FUNNEL_HELPER_DOWNLOAD', message: expect.stringContaining('HTTP 404') })
  })

  it('uses a bundled helper_path as is, and refuses one that is not executable', async () => {
    const bundled = join(dir, 'bundled-cloudflared')
    await writeFile(bundled, '#!/bin/sh\n', { mode: 0o755 })
    await expect(ensureHelper({ helperPath: bundled, managedPath: join(dir, 'unused'), urlBase: 'http://127.0.0.1:9/' })).resolves.toBe(bundled)
    await writeFile(join(dir, 'not-exec'), 'x', { mode: 0o644 })
    await expect(ensureHelper({ helperPath: join(dir, 'not-exec'), managedPath: join(dir, 'unused'), urlBase: 'http://127.0.0.1:9/' })).rejects.toMatchObject({ code: 'MA_ERR_FUNNEL_HELPER_INVALID' })
  })
})
