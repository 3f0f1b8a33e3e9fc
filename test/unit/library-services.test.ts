import fc from 'fast-check'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import type { LibraryItem, LibrarySync } from '../../src/protocol/wire.js'
import { HttpError } from '../../src/reference-server/http.js'
import { LibraryHoldings } from '../../src/reference-server/library.js'
import { parseLibrarySync } from '../../src/reference-server/validate.js'
import { librarySyncBodies } from '../../src/services/library/diff.js'
import { createLibraryIndexStore, parseIndex } from '../../src/services/library/library-index.js'
import { fileKindOf, sidecarFor } from '../../src/services/library/media-kinds.js'
import { createLibraryScanner, type ScannerOptions } from '../../src/services/library/scanner.js'
import { fsTypeOf, isUnwatchableFsType, parseMountInfo } from '../../src/services/library/watcher.js'

const item = (path: string): LibraryItem => ({ path, size: 1, mtime: 2, audio: [], subtitles: [] })

/** A scanner over `dir` whose "ffprobe" is `inspect`, with small limits. */
function testScanner(dir: string, inspect: ScannerOptions['inspect'], more: Partial<ScannerOptions> = {}) {
  return createLibraryScanner({
    index: createLibraryIndexStore({ stateDir: join(dir, 'state'), logger: silentLogger() }),
    inspect,
    logger: silentLogger(),
    probeConcurrency: 2,
    probeNiceness: 0,
    fsConcurrency: 2,
    yieldEvery: 16,
    skipExamples: 1,
    progressLogMs: 60_000,
    ...more,
  })
}

describe('which files a library scan looks at (protocol.md 7.6)', () => {
  it('knows the video, audio and sidecar extensions, in any case, and nothing else', () => {
    expect(['a.MKV', 'b.m2ts', 'c.3gp', 'd.ogv'].map(fileKindOf)).toEqual(['video', 'video', 'video', 'video'])
    expect(['a.flac', 'b.OPUS', 'c.wav'].map(fileKindOf)).toEqual(['audio', 'audio', 'audio'])
    expect(['a.srt', 'b.vtt', 'c.ass', 'd.ssa'].map(fileKindOf)).toEqual(['sidecar', 'sidecar', 'sidecar', 'sidecar'])
    expect(['a.txt', 'b.nfo', 'c.jpg', 'mkv', 'd.mkv.part'].map(fileKindOf)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })

  it('takes a subtitle as a sidecar only beside a video with the same stem, reading a language tag', () => {
    expect(sidecarFor('/m/Film.mkv', '/m/Film.srt')).toEqual({ path: '/m/Film.srt', codec: 'subrip', language: 'und' })
    expect(sidecarFor('/m/Film.mkv', '/m/Film.en.srt')?.language).toBe('en')
    expect(sidecarFor('/m/Film.mkv', '/m/Film.pt_BR.forced.ass')).toEqual({ path: '/m/Film.pt_BR.forced.ass', codec: 'ass', language: 'pt-BR' })
    expect(sidecarFor('/m/Film.mkv', '/m/Film 2.srt')).toBeUndefined()
    expect(sidecarFor('/m/Film.mkv', '/m/Film.Extended.Cut.srt')).toBeUndefined()
    expect(sidecarFor('/m/Film.mkv', '/other/Film.srt')).toBeUndefined()
  })
})

describe('upload bodies in parts (protocol.md 7.6)', () => {
  it('splits a full over the part size into parts of at most that many items, in order, under one scanId', () => {
    fc.assert(fc.property(fc.array(fc.nat(12), { maxLength: 4 }), fc.integer({ min: 1, max: 10 }), (sizes, max) => {
      const libraries = sizes.map((size, r) => ({ root: `/r${r}`, items: Array.from({ length: size }, (_, i) => item(`/r${r}/${i}.mkv`)) }))
      const bodies = librarySyncBodies({ agentId: 'a', scanId: 's', mode: 'full', libraries, partMaxItems: max })
      const total = sizes.reduce((a, b) => a + b, 0)
      expect(bodies.length).toBe(total <= max ? 1 : Math.ceil(total / max))
      for (const [index, body] of bodies.entries()) {
        expect(body.scanId).toBe('s')
        expect(body.libraries.reduce((n, library) => n + library.items.length, 0)).toBeLessThanOrEqual(max)
        if (bodies.length > 1) expect([body.part, body.parts]).toEqual([index + 1, bodies.length])
        else expect(body.part).toBeUndefined()
      }
      // Every item once, in order; every root named somewhere, even an empty one.
      expect(bodies.flatMap((body) => body.libraries.flatMap((library) => library.items.map((entry) => entry.path)))).toEqual(libraries.flatMap((library) => library.items.map((entry) => entry.path)))
      expect(new Set(bodies.flatMap((body) => body.libraries.map((library) => library.root)))).toEqual(new Set(libraries.map((library) => library.root)))
    }))
  })
})

describe('the reference server library', () => {
  const full = (scanId: string, paths: string[], extra: Partial<LibrarySync> = {}): LibrarySync => ({ agentId: 'a', scanId, mode: 'full', libraries: [{ root: '/m', items: paths.map(item) }], ...extra })

  it('replaces on a full, applies a delta on its base, and answers base_mismatch on any other base', () => {
    const server = new LibraryHoldings()
    expect(server.apply({ agentId: 'a', scanId: 's0', mode: 'delta', baseScanId: 'none', libraries: [] })).toMatchObject({ ok: false, error: 'base_mismatch' })
    expect(server.apply(full('s1', ['/m/a.mkv', '/m/b.mkv']))).toEqual({ ok: true, complete: true })
    expect(server.apply({ agentId: 'a', scanId: 's2', mode: 'delta', baseScanId: 's1', libraries: [{ root: '/m', items: [item('/m/c.mkv')], removed: ['/m/a.mkv'] }] })).toMatchObject({ ok: true })
    expect(server.held('a')).toEqual({ scanId: 's2', libraries: [{ root: '/m', items: [item('/m/b.mkv'), item('/m/c.mkv')] }] })
    expect(server.apply({ agentId: 'a', scanId: 's3', mode: 'delta', baseScanId: 's1', libraries: [] })).toMatchObject({ ok: false, error: 'base_mismatch', held: 's2' })
    server.forget('a')
    expect(server.apply({ agentId: 'a', scanId: 's3', mode: 'delta', baseScanId: 's2', libraries: [] })).toMatchObject({ ok: false })
  })

  it('holds a full in parts only once every part arrived, and starts over for another scanId', () => {
    const server = new LibraryHoldings()
    server.apply(full('old', ['/m/old.mkv']))
    expect(server.apply(full('s1', ['/m/1.mkv'], { part: 1, parts: 2 }))).toEqual({ ok: true, complete: false })
    expect(server.held('a')?.scanId).toBe('old')
    expect(server.apply(full('s2', ['/m/x.mkv'], { part: 2, parts: 2 }))).toEqual({ ok: true, complete: false })
    expect(server.apply(full('s2', ['/m/y.mkv'], { part: 1, parts: 2 }))).toEqual({ ok: true, complete: true })
    expect(server.held('a')).toEqual({ scanId: 's2', libraries: [{ root: '/m', items: [item('/m/y.mkv'), item('/m/x.mkv')] }] })
  })

  it('refuses bodies with the wrong field types with a 400 naming the field', () => {
    const refused = (body: unknown) => {
      try {
        parseLibrarySync(body)
      } catch (err) {
        expect(err).toBeInstanceOf(HttpError)
        return (err as HttpError).message
      }
      throw new Error('accepted')
    }
    const good = full('s', ['/m/a.mkv'])
    expect(parseLibrarySync(good)).toBe(good)
    expect(refused({ ...good, libraries: [{ root: 'relative', items: [] }] })).toContain('absolute root')
    expect(refused({ ...good, libraries: [{ root: '/m', items: [{ ...item('/m/a.mkv'), mtime: 1.5 }] }] })).toContain('mtime')
    expect(refused({ ...good, libraries: [{ root: '/m', items: [item('a.mkv')] }] })).toContain('path')
    expect(refused({ ...good, libraries: [{ root: '/m', items: [], removed: ['x'] }] })).toContain('removed')
    expect(refused({ ...good, mode: 'delta' })).toContain('baseScanId')
    expect(refused({ ...good, part: 3, parts: 2 })).toContain('part')
    expect(refused({ ...good, mode: 'sideways' })).toContain('mode')
  })
})

describe('the library index in the state dir', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma16-index-'))
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('keeps what ffprobe said, rejected files too, across a save and a load', async () => {
    const store = createLibraryIndexStore({ stateDir: join(dir, 'new-state'), logger: silentLogger() })
    const entries = new Map([
      ['/m/a.mkv', { size: 10, mtime: 20, facts: { container: 'matroska,webm', durationSeconds: 3, audio: [], subtitles: [] } }],
      ['/m/fake.mkv', { size: 5, mtime: 6, facts: null }],
    ])
    await store.save(entries)
    expect(await store.load()).toEqual(entries)
  })

  it('sets a corrupt index aside and starts empty', async () => {
    await writeFile(join(dir, 'library-index.json'), '{"version":1,"entries":{"/m/a.mkv":"nope"}}')
    const store = createLibraryIndexStore({ stateDir: dir, logger: silentLogger() })
    expect((await store.load()).size).toBe(0)
    expect((await readdir(dir)).some((name) => name.startsWith('library-index.json.corrupt-'))).toBe(true)
    expect(() => parseIndex('[]')).toThrow()
  })
})

describe('which library folders can be watched', () => {
  const mountinfo = [
    '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
    '40 22 0:40 / /mnt/nas rw,relatime shared:20 - nfs4 nas:/export rw',
    '41 22 0:41 / /mnt/My\\040Drive rw,relatime - fuse.rclone remote: rw',
    '42 22 8:2 / /mnt/disk rw - xfs /dev/sdb1 rw',
  ].join('\n')

  it('finds the mount of a path (octal escapes decoded) and knows network and FUSE mounts', () => {
    const mounts = parseMountInfo(mountinfo)
    expect(fsTypeOf('/home/ada/Movies', mounts)).toBe('ext4')
    expect(fsTypeOf('/mnt/nas/films', mounts)).toBe('nfs4')
    expect(fsTypeOf('/mnt/My Drive/x', mounts)).toBe('fuse.rclone')
    expect(fsTypeOf('/mnt/diskette', mounts)).toBe('ext4')
    expect(['nfs4', 'cifs', 'fuse.rclone', 'fuse.sshfs', '9p'].every(isUnwatchableFsType)).toBe(true)
    expect(['ext4', 'xfs', 'btrfs', 'zfs', 'tmpfs', 'overlay'].some(isUnwatchableFsType)).toBe(false)
  })
})

describe('a scan beside playback', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma16-pause-'))
    for (const name of ['a.mkv', 'b.mkv', 'c.flac']) await writeFile(join(dir, name), name)
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('starts no ffprobe while a stream session is starting, and probes everything once it is ready', async () => {
    let starting = true
    const probed: string[] = []
    const scanner = testScanner(dir, async (path) => {
      probed.push(path)
      return { info: { durationSeconds: 1, formatName: 'flac', video: undefined, audio: [{ index: 0, codec: 'flac', channels: 2, language: undefined }], subtitles: [] } }
    }, { playbackStarting: () => starting, pauseMs: 5, pauseMaxMs: 60_000 })
    const scan = scanner.scan([dir])
    // The walk is done and the probes are due: none starts while the session is starting.
    for (let i = 0; i < 20 && !scanner.progress().toProbe; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(scanner.progress().toProbe).toBe(3)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(probed).toEqual([])
    starting = false
    expect((await scan).items).toBe(3)
    expect(probed).toHaveLength(3)
  })
})

describe('a session that starts during a scan', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma16-stop-'))
    for (const name of ['a.mkv', 'b.mkv', 'c.flac']) await writeFile(join(dir, name), name)
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('stops the ffprobe runs in flight and runs them again once the session is ready', async () => {
    let starting = false
    const listeners = new Set<() => void>()
    const calls: { path: string; aborted: boolean }[] = []
    // Runs until told to stop (or forever for the first two): what a slow ffprobe looks like.
    const scanner = testScanner(dir, (path, { signal }) => new Promise((resolve, reject) => {
        const call = { path, aborted: false }
        calls.push(call)
        const info = { durationSeconds: 1, formatName: 'flac', video: undefined, audio: [{ index: 0, codec: 'flac', channels: 2, language: undefined }], subtitles: [] }
        if (calls.length > 2) return resolve({ info })
        signal?.addEventListener('abort', () => {
          call.aborted = true
          reject(new Error('killed'))
        })
      }), {
      playbackStarting: () => starting,
      onPlaybackStart: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      pauseMs: 5,
    })
    const scan = scanner.scan([dir])
    for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(calls).toHaveLength(2)
    starting = true
    for (const listener of listeners) listener()
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(calls.map((call) => call.aborted)).toEqual([true, true])
    expect(calls).toHaveLength(2) // nothing new while the session starts
    starting = false
    const result = await scan
    expect(result.items).toBe(3)
    expect(result.skips.counts.probeFailed).toBe(0)
    expect(calls.slice(2).map((call) => call.path).sort()).toEqual([join(dir, 'a.mkv'), join(dir, 'b.mkv'), join(dir, 'c.flac')])
    expect(listeners.size).toBe(0)
  })
})
