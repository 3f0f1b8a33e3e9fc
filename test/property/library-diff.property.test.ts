import fc from 'fast-check'
import { mkdir, mkdtemp, rename, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProbeFailedError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { LibraryHoldings } from '../../src/reference-server/library.js'
import type { MediaInfo } from '../../src/services/ffmpeg/probe.js'
import { ackedOf, planUpload, type AckedLibrary } from '../../src/services/library/diff.js'
import { createLibraryIndexStore } from '../../src/services/library/library-index.js'
import { fileKindOf } from '../../src/services/library/media-kinds.js'
import { createLibraryScanner, type LibraryScanner } from '../../src/services/library/scanner.js'

// Issue 16, "Property test of the index diff": any sequence of adds, changes, removes and renames
// between scans yields exactly the right upload. A real folder is changed, the real scanner
// (walk, index in a state dir, sidecars) scans it with a stand-in for ffprobe that reads the
// file's first byte (V: video, A: audio, anything else: rejected), the planned upload is applied
// to the reference server's library, and after every scan:
//   - the server holds exactly the media files of the folder, with size, mtime and sidecars;
//   - a delta names exactly the new or changed items and exactly the gone paths;
//   - ffprobe ran on exactly the media-extension files new or changed by (path, size, mtime).

const names = ['a/one.mkv', 'a/one.srt', 'a/one.en.srt', 'a/two.mp4', 'b/song.flac', 'b/notes.txt', 'b/clip.webm', 'c/d/deep.avi', 'c/d/deep.vtt', 'top.mp3']
const contents = ['V1', 'V22', 'A333', 'X4', 'V5']

type Op =
  | { kind: 'write'; name: string; content: string }
  | { kind: 'touch'; name: string }
  | { kind: 'remove'; name: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'scan' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...names), content: fc.constantFrom(...contents) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('touch' as const), name: fc.constantFrom(...names) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom(...names) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'scan' as const }) },
)

interface ModelFile { content: string; mtime: number }
interface ExpectedItem { size: number; mtime: number; sidecars: string[] }

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ma16-diff-'))
})
afterAll(async () => rm(dir, { recursive: true, force: true }))

const stemOf = (name: string) => name.replace(/\.[^./]+$/, '')

/** The library the folder should give, computed from the model alone. */
function expectedLibrary(root: string, files: ReadonlyMap<string, ModelFile>): Map<string, ExpectedItem> {
  const items = new Map<string, ExpectedItem>()
  for (const [name, file] of files) {
    const kind = fileKindOf(name)
    if ((kind !== 'video' && kind !== 'audio') || !/^[VA]/.test(file.content)) continue
    const sidecars = kind === 'video'
      ? [...files.keys()].filter((other) => fileKindOf(other) === 'sidecar' && (stemOf(other) === stemOf(name) || stemOf(other) === `${stemOf(name)}.en`)).map((other) => join(root, other)).sort()
      : []
    items.set(join(root, name), { size: Buffer.byteLength(file.content), mtime: file.mtime, sidecars })
  }
  return items
}

describe('library index diff over a real folder', () => {
  it('uploads exactly the new, changed and removed items, probing exactly the new or changed files', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 4 }), async (ops, partMaxItems) => {
        const root = join(dir, `run-${run}`)
        const stateDir = join(dir, `state-${run++}`)
        await mkdir(root, { recursive: true })
        await mkdir(stateDir, { recursive: true })
        const probed: string[] = []
        const scanner: LibraryScanner = createLibraryScanner({
          index: createLibraryIndexStore({ stateDir, logger: silentLogger() }),
          inspect: async (path) => {
            probed.push(path)
            const { readFile } = await import('node:fs/promises')
            const first = (await readFile(path, 'utf8'))[0]
            if (first !== 'V' && first !== 'A') throw new ProbeFailedError('Invalid data found when processing input', { details: { exitCode: 1 } })
            const info: MediaInfo = {
              durationSeconds: 10,
              formatName: first === 'V' ? 'matroska,webm' : 'flac',
              video: first === 'V' ? { codec: 'h264', width: 640, height: 360, sampleAspectRatio: 1, frameRate: 25, pixelFormat: 'yuv420p' } : undefined,
              audio: [{ index: 0, codec: 'aac', channels: 2, language: 'eng' }],
              subtitles: [],
            }
            return { info }
          },
          logger: silentLogger(),
          probeConcurrency: 2,
          probeNiceness: 0,
          fsConcurrency: 2,
          yieldEvery: 4,
          skipExamples: 2,
          progressLogMs: 60_000,
        })
        const server = new LibraryHoldings()
        const files = new Map<string, ModelFile>()
        let clock = 1_700_000_000_000
        let acked: AckedLibrary = new Map()
        let baseScanId: string | undefined
        let previous = new Map<string, ExpectedItem>()
        let previousKeys = new Set<string>() // path|size|mtime of media-extension files at the last scan

        const write = async (name: string, content: string) => {
          const path = join(root, name)
          await mkdir(join(path, '..'), { recursive: true })
          await writeFile(path, content)
          clock += 1_000
          await utimes(path, clock / 1000, clock / 1000)
          files.set(name, { content, mtime: clock })
        }

        for (const op of [...ops, { kind: 'scan' } as Op]) {
          if (op.kind === 'write') await write(op.name, op.content)
          else if (op.kind === 'touch') {
            const file = files.get(op.name)
            if (file) await write(op.name, file.content)
          } else if (op.kind === 'remove') {
            if (!files.has(op.name)) continue
            await rm(join(root, op.name))
            files.delete(op.name)
          } else if (op.kind === 'rename') {
            const file = files.get(op.from)
            if (!file || op.from === op.to) continue
            await mkdir(join(root, op.to, '..'), { recursive: true })
            await rename(join(root, op.from), join(root, op.to))
            files.delete(op.from)
            files.set(op.to, file) // a rename keeps size and mtime
          } else {
            probed.length = 0
            const result = await scanner.scan([root])
            const plan = planUpload({ agentId: 'a1', scanId: result.scanId, full: baseScanId === undefined, baseScanId, acked, current: result.snapshot, partMaxItems })
            for (const body of plan.bodies) expect(server.apply(body)).toMatchObject({ ok: true })
            acked = ackedOf(result.snapshot)
            baseScanId = result.scanId

            const expected = expectedLibrary(root, files)
            // The server holds exactly the folder's media.
            const held = new Map((server.held('a1')?.libraries.flatMap((library) => library.items) ?? []).map((item) => [item.path, {
              size: item.size, mtime: item.mtime, sidecars: item.subtitles.flatMap((track) => (track.path ? [track.path] : [])).sort(),
            }]))
            expect(held).toEqual(expected)
            // A delta names exactly what changed.
            if (plan.mode === 'delta') {
              const sent = plan.bodies.flatMap((body) => body.libraries.flatMap((library) => library.items.map((item) => item.path))).sort()
              const removed = plan.bodies.flatMap((body) => body.libraries.flatMap((library) => library.removed ?? [])).sort()
              const changed = [...expected].filter(([path, item]) => JSON.stringify(previous.get(path)) !== JSON.stringify(item)).map(([path]) => path).sort()
              expect(sent).toEqual(changed)
              expect(removed).toEqual([...previous.keys()].filter((path) => !expected.has(path)).sort())
            }
            // ffprobe ran on exactly the media files new or changed by (path, size, mtime).
            const keys = new Set<string>()
            const wanted: string[] = []
            for (const [name, file] of files) {
              const kind = fileKindOf(name)
              if (kind !== 'video' && kind !== 'audio') continue
              const key = `${join(root, name)}|${Buffer.byteLength(file.content)}|${file.mtime}`
              keys.add(key)
              if (!previousKeys.has(key)) wanted.push(join(root, name))
            }
            expect([...probed].sort()).toEqual(wanted.sort())
            expect(result.probed).toBe(wanted.length)
            previous = expected
            previousKeys = keys
          }
        }
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
