import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEntryMeta, verifyEntry, videoTrackOf } from '../../src/services/cache/verify-entry.js'

// VerifyComplete never throws on what it finds on disk: any damage is a clear "invalid" with a
// reason (docs/hls-cache.md). Real entries are checked with ffmpeg in test/integration/hls-cache.

const box = (type: string, payload: Buffer) => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(payload.length + 8)
  head.write(type, 4, 'latin1')
  return Buffer.concat([head, payload])
}
const full = (version: number, body: Buffer) => Buffer.concat([Buffer.from([version, 0, 0, 0]), body])
const u32 = (value: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(value)
  return b
}

/** A minimal init.mp4: one video trak (track 1, timescale 15360). */
const init = Buffer.concat([
  box('ftyp', Buffer.from('isom\0\0\0\0')),
  box('moov', box('trak', Buffer.concat([
    box('tkhd', full(0, Buffer.concat([Buffer.alloc(8), u32(1), Buffer.alloc(68)]))),
    box('mdia', Buffer.concat([
      box('mdhd', full(0, Buffer.concat([Buffer.alloc(8), u32(15360), Buffer.alloc(8)]))),
      box('hdlr', full(0, Buffer.concat([Buffer.alloc(4), Buffer.from('vide'), Buffer.alloc(13)]))),
    ])),
  ]))),
])
const segment = (seconds: number) => Buffer.concat([
  box('styp', Buffer.from('msdh\0\0\0\0')),
  box('moof', Buffer.concat([
    box('mfhd', full(0, u32(1))),
    box('traf', Buffer.concat([box('tfhd', full(0, u32(1))), box('tfdt', full(1, Buffer.concat([Buffer.alloc(4), u32(seconds * 15360)])))])),
  ])),
  box('mdat', Buffer.alloc(64, 7)),
])

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-agent-ma11-verify-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function writeEntry(name: string, files: Record<string, Buffer | string>, meta: Record<string, unknown>): Promise<string> {
  const path = join(dir, name)
  await import('node:fs/promises').then((fs) => fs.mkdir(path, { recursive: true }))
  let bytes = 0
  for (const [file, content] of Object.entries(files)) {
    await writeFile(join(path, file), content)
    bytes += Buffer.byteLength(content)
  }
  await writeFile(join(path, 'entry.json'), JSON.stringify({ source: '/m/x.mkv', quality: '480p', audioIndex: 0, durationSeconds: 6, segmentSeconds: 2, segments: 3, bytes, agentVersion: 't', frameRate: 30, ...meta }))
  return path
}

const goodFiles = () => ({ 'init.mp4': init, 'master.m3u8': '#EXTM3U\n', 'index.m3u8': '#EXTM3U\n', 'seg-0.m4s': segment(0), 'seg-1.m4s': segment(2), 'seg-2.m4s': segment(4) })

describe('VerifyComplete', () => {
  it('passes an entry whose segments start at 2N s and whose bytes add up', async () => {
    expect(await verifyEntry(await writeEntry('good', goodFiles(), {}), '/m/x.mkv')).toMatchObject({ ok: true })
  })

  it('calls an entry of another source a key collision, not damage', async () => {
    expect(await verifyEntry(await writeEntry('collision', goodFiles(), { source: '/m/other.mkv' }), '/m/x.mkv')).toEqual({ ok: false, collision: true, source: '/m/other.mkv' })
  })

  it('refuses a segment whose tfdt is off by more than a frame', async () => {
    const files = { ...goodFiles(), 'seg-1.m4s': segment(2.1) }
    expect(await verifyEntry(await writeEntry('tfdt', files, {}), '/m/x.mkv')).toMatchObject({ ok: false, reason: expect.stringContaining('seg-1.m4s starts at 2.100 s') })
  })

  it('refuses a missing segment, 4 s segments, a truncated box and a subtitle rendition without its file', async () => {
    const missing = goodFiles() as Record<string, Buffer | string>
    delete missing['seg-1.m4s']
    expect(await verifyEntry(await writeEntry('missing', missing, {}), '/m/x.mkv')).toMatchObject({ ok: false, reason: expect.stringContaining('highest segment') })
    expect(await verifyEntry(await writeEntry('four', goodFiles(), { segmentSeconds: 4, segments: 2 }), '/m/x.mkv')).toMatchObject({ ok: false, reason: expect.stringContaining('4 s segments') })
    const cut = { ...goodFiles(), 'seg-2.m4s': segment(4).subarray(0, 60) }
    expect(await verifyEntry(await writeEntry('cut', cut, {}), '/m/x.mkv')).toMatchObject({ ok: false, reason: expect.stringContaining('seg-2.m4s') })
    const subs = { ...goodFiles(), 'master.m3u8': '#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,URI="sub-0.m3u8"\n', 'sub-0.m3u8': '#EXTM3U\n' }
    expect(await verifyEntry(await writeEntry('subs', subs, {}), '/m/x.mkv')).toMatchObject({ ok: false, reason: 'subtitle rendition 0 is incomplete' })
  })

  it('never throws on random segment bytes or a random entry.json', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.string(), async (bytes, json) => {
      const files = { ...goodFiles(), 'seg-1.m4s': Buffer.from(bytes) }
      const result = await verifyEntry(await writeEntry('fuzz', files, {}), '/m/x.mkv')
      if (!Buffer.from(bytes).equals(segment(2))) expect(result.ok).toBe(false)
      expect(parseEntryMeta(json) === undefined || typeof parseEntryMeta(json) === 'object').toBe(true)
      expect(() => videoTrackOf(Buffer.from(bytes))).not.toThrow()
    }), { numRuns: 200 })
  })
})
