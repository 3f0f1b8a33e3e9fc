import { execFile } from 'node:child_process'
import { copyFile, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LibraryItem } from '../../src/protocol/wire.js'
import type { LibraryRecord } from '../../src/reference-server/index.js'
import type { LibraryStatus } from '../../src/system/library-part.js'
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js'
import { runCli } from '../helpers/daemon.js'

// Issue 16 end to end: the agent in this process, the reference server on loopback, real
// ffprobe on real media made by ffmpeg. Scan on start (full), watcher + debounce (delta with
// exactly the changes), `library scan --full` and `library status --json`, the scan_library
// control with nothing changed (no upload), base_mismatch (a full follows), a failed upload
// retried with backoff without losing the scan, and the niced, bounded ffprobe processes.

const run = promisify(execFile)
const libraryPath = '/api/internal/agent/library'
let h: AgentHarness
let root: string

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args])
}

const heldItems = (): Map<string, LibraryItem> =>
  new Map((h.server.library(h.agentId)?.libraries.flatMap((library) => library.items) ?? []).map((item) => [item.path, item]))

async function adminGet<T>(path: string): Promise<T> {
  const token = (await readFile(h.agent.adminTokenPath, 'utf8')).trim()
  const response = await request(`${h.agent.admin.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  return (await response.body.json()) as T
}

/** The next accepted upload (or one already recorded after `after` uploads) matching `predicate`. */
function upload(after: number, predicate: (record: LibraryRecord) => boolean, timeoutMs = 30_000): Promise<LibraryRecord> {
  const past = h.server.libraryUploads().slice(after).find(predicate)
  if (past) return Promise.resolve(past)
  return h.server.waitFor('library', predicate, timeoutMs)
}

const pathsOf = (record: LibraryRecord) => record.upload.libraries.flatMap((library) => library.items.map((item) => item.path)).sort()
const removedOf = (record: LibraryRecord) => record.upload.libraries.flatMap((library) => library.removed ?? []).sort()

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  root = await mkdtemp(join(tmpdir(), 'ma16-library-'))
  await mkdir(join(root, 'movies'), { recursive: true })
  await mkdir(join(root, 'music'), { recursive: true })
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-metadata:s:a:0', 'language=eng', '-shortest', join(root, 'movies', 'clip.mp4')])
  await writeFile(join(root, 'movies', 'film.srt'), '1\n00:00:00,500 --> 00:00:01,500\nBonjour\n')
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=24:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=2', '-i', join(root, 'movies', 'film.srt'),
    '-map', '0:v', '-map', '1:a', '-map', '2:s', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-c:s', 'srt',
    '-metadata:s:a:0', 'language=deu', '-metadata:s:s:0', 'language=fra', '-shortest', join(root, 'movies', 'film.mkv')])
  await rm(join(root, 'movies', 'film.srt'))
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2', '-c:a', 'flac', join(root, 'music', 'tone.flac')])
  await writeFile(join(root, 'movies', 'clip.en.srt'), '1\n00:00:00,500 --> 00:00:01,500\nHello\n')
  await writeFile(join(root, 'movies', 'broken.mkv'), 'this is not a video')
  await writeFile(join(root, 'notes.txt'), 'not media')
  await symlink(join(root, 'movies', 'gone.mp4'), join(root, 'movies', 'dangling.mp4'))
  await symlink('..', join(root, 'movies', 'loop'))

  h = await startAgentHarness({
    logLevel: 'info',
    testing: { library_debounce_ms: 400, library_retry_base_ms: 50, library_retry_max_ms: 200, library_scan_wait_ms: 1_000 },
    extraToml: `[library]\npaths = [${JSON.stringify(root)}]\nwatch = true\n`,
  })
}, 120_000)

afterAll(async () => {
  await h?.stop()
  await rm(root, { recursive: true, force: true })
})

describe('library sync against the reference server with real ffprobe', () => {
  it('scans on start and uploads the whole library, with ffprobe facts and sidecars, skipping what is not media', async () => {
    const first = await upload(0, (record) => record.status === 204)
    expect(first.upload.mode).toBe('full')
    expect(first.upload.libraries.map((library) => library.root)).toEqual([root])
    const items = heldItems()
    expect([...items.keys()].sort()).toEqual([join(root, 'movies', 'clip.mp4'), join(root, 'movies', 'film.mkv'), join(root, 'music', 'tone.flac')])

    const clip = items.get(join(root, 'movies', 'clip.mp4'))!
    expect(Number.isInteger(clip.mtime)).toBe(true)
    expect(clip.size).toBeGreaterThan(1000)
    expect(clip.container).toContain('mp4')
    expect(clip.durationSeconds).toBeGreaterThan(1.5)
    expect(clip.video).toEqual({ codec: 'h264', width: 320, height: 240, fps: 25 })
    expect(clip.audio).toEqual([{ codec: 'aac', language: 'eng', channels: 1 }])
    expect(clip.subtitles).toEqual([{ codec: 'subrip', language: 'en', path: join(root, 'movies', 'clip.en.srt') }])
    const film = items.get(join(root, 'movies', 'film.mkv'))!
    expect(film.video).toMatchObject({ codec: 'h264', width: 640, height: 360 })
    expect(film.audio).toEqual([{ codec: 'aac', language: 'deu', channels: 1 }])
    expect(film.subtitles).toEqual([{ codec: 'subrip', language: 'fra' }])
    const tone = items.get(join(root, 'music', 'tone.flac'))!
    expect(tone.video).toBeUndefined()
    expect(tone.audio).toEqual([{ codec: 'flac', language: 'und', channels: 1 }])

    // The broken symlink, the loop and the fake .mkv: skipped, one log line each kind, never fatal.
    for (const kind of ['brokenSymlink', 'symlinkLoop', 'notMedia']) {
      const line = await h.waitForLog((entry) => entry.kind === kind && String(entry.msg).startsWith('library scan skipped'))
      expect(line.count).toBe(1)
    }
    const status = await adminGet<LibraryStatus>('/api/library')
    expect(status).toMatchObject({ roots: [root], items: 3 })
    expect(status.lastScan).toMatchObject({ mode: 'full', probed: 4, uploadedItems: 3, skipped: 2 })
  })

  it('sees changes through the watcher and uploads a delta of exactly them, probing only the new and changed files', async () => {
    await upload(0, (record) => record.status === 204)
    await h.waitForNode('library', (node) => node.value === 'idle', 15_000, 'idle')
    const before = h.server.libraryUploads().length
    const base = h.server.library(h.agentId)!.scanId
    await copyFile(join(root, 'movies', 'clip.mp4'), join(root, 'movies', 'copy.mp4'))
    await rm(join(root, 'music', 'tone.flac'))
    await rename(join(root, 'movies', 'film.mkv'), join(root, 'movies', 'renamed.mkv'))
    const delta = await upload(before, (record) => record.status === 204)
    expect(delta.upload.mode).toBe('delta')
    expect(delta.upload.baseScanId).toBe(base)
    expect(pathsOf(delta)).toEqual([join(root, 'movies', 'copy.mp4'), join(root, 'movies', 'renamed.mkv')])
    expect(removedOf(delta)).toEqual([join(root, 'movies', 'film.mkv'), join(root, 'music', 'tone.flac')])
    expect([...heldItems().keys()].sort()).toEqual([join(root, 'movies', 'clip.mp4'), join(root, 'movies', 'copy.mp4'), join(root, 'movies', 'renamed.mkv')])
    const status = await adminGet<LibraryStatus>('/api/library')
    expect(status.lastScan).toMatchObject({ mode: 'delta', probed: 2, uploadedItems: 2, removed: 2 })
  })

  it('`library scan --full` waits for the upload and exits 0; `library status --json` has the protocol shape', async () => {
    const configPath = join(h.dir, 'config.toml')
    await writeFile(configPath, h.configText)
    const before = h.server.libraryUploads().length
    const scan = await runCli(['library', 'scan', '--full', '--config', configPath])
    expect(scan.stderr).toBe('')
    expect(scan.code).toBe(0)
    expect(scan.stdout).toContain('library uploaded (full): 3 items')
    const full = h.server.libraryUploads().slice(before)
    expect(full.map((record) => record.upload.mode)).toEqual(['full'])
    const status = await runCli(['library', 'status', '--json', '--config', configPath])
    expect(status.code).toBe(0)
    const json = JSON.parse(status.stdout) as LibraryStatus
    expect(json).toMatchObject({ state: 'idle', roots: [root], items: 3 })
    // Nothing changed: nothing probed again.
    expect(json.lastScan).toMatchObject({ scanId: full[0]!.upload.scanId, mode: 'full', probed: 0, uploadedItems: 3 })
    expect(typeof json.lastScan!.files).toBe('number')
    expect(typeof json.lastScan!.skipped).toBe('number')
    expect(typeof json.lastScan!.ms).toBe('number')
  }, 60_000)

  it('a scan_library control with nothing changed scans and uploads nothing', async () => {
    const before = h.server.libraryUploads().length
    const seqBefore = ((await h.node('library'))!.context as { scanSeq: number }).scanSeq
    const control = h.server.requestScan({ agentId: h.agentId })
    await h.waitForNode('library', (node) => {
      const context = node.context as { settledSeq: number }
      return node.value === 'idle' && context.settledSeq > seqBefore
    }, 20_000, 'a settled scan')
    expect(h.applied(control.id)).toBe(1)
    expect(h.server.libraryUploads().length).toBe(before)
  })

  it('answers base_mismatch with a full when the server lost the library', async () => {
    const before = h.server.libraryUploads().length
    h.server.forgetLibrary()
    await copyFile(join(root, 'movies', 'clip.mp4'), join(root, 'movies', 'after-loss.mp4'))
    const full = await upload(before, (record) => record.status === 204)
    const sent = h.server.libraryUploads().slice(before)
    expect(sent.map((record) => [record.upload.mode, record.status])).toEqual([['delta', 409], ['full', 204]])
    expect(full.upload.mode).toBe('full')
    expect([...heldItems().keys()]).toContain(join(root, 'movies', 'after-loss.mp4'))
    expect(heldItems().size).toBe(4)
  })

  it('retries a failed upload with backoff and never loses the scan', async () => {
    await h.waitForNode('library', (node) => node.value === 'idle', 15_000, 'idle')
    const before = h.server.libraryUploads().length
    h.server.faults.failNext[libraryPath] = 2
    await writeFile(join(root, 'music', 'late.txt'), 'still not media')
    await copyFile(join(root, 'movies', 'clip.mp4'), join(root, 'music', 'late.mp4'))
    const delivered = await upload(before, (record) => record.status === 204)
    expect(h.server.faults.failNext[libraryPath] ?? 0).toBe(0)
    expect(pathsOf(delivered)).toEqual([join(root, 'music', 'late.mp4')])
    await h.waitForLog((line) => String(line.msg).startsWith('library upload failed; retrying in'))
    expect(heldItems().has(join(root, 'music', 'late.mp4'))).toBe(true)
  })

  it('runs ffprobe niced, never more than two at once, during a scan of many new files', async () => {
    await h.waitForNode('library', (node) => node.value === 'idle', 15_000, 'idle')
    await mkdir(join(root, 'many'))
    for (let i = 0; i < 30; i++) await copyFile(join(root, 'movies', 'clip.mp4'), join(root, 'many', `copy-${i}.mp4`))
    const before = h.server.libraryUploads().length
    const seen: { pid: string; nice: number }[] = []
    let maxAtOnce = 0
    let done = false
    const delivered = upload(before, (record) => record.status === 204 && pathsOf(record).length === 30).finally(() => { done = true })
    // Sample this process's ffprobe children from /proc until the upload lands.
    while (!done) {
      let atOnce = 0
      for (const pid of await readdir('/proc').catch(() => [] as string[])) {
        if (!/^\d+$/.test(pid)) continue
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
        const match = /^\d+ \((.*)\) \S+ (\d+)(?: \S+){14} (-?\d+)/.exec(stat)
        if (!match || match[1] !== 'ffprobe' || Number(match[2]) !== process.pid) continue
        atOnce++
        seen.push({ pid, nice: Number(match[3]) })
      }
      maxAtOnce = Math.max(maxAtOnce, atOnce)
    }
    await delivered
    expect(seen.length).toBeGreaterThan(0)
    expect(maxAtOnce).toBeLessThanOrEqual(2)
    // Sampled right at spawn a process may not be reniced yet; every later sample of it is 19.
    const last = new Map(seen.map((entry) => [entry.pid, entry.nice]))
    expect([...last.values()].every((nice) => nice === 19)).toBe(true)
  }, 60_000)
})
