import { open, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { planSegments } from '../hls/playlists.js'

// VerifyComplete (contract 2.6 "integrity is verified on a cache HIT", contract 3 last row,
// protocol.md 7.1): run on every HIT before it is served. Cheap by design (hitReadyMs < 20 ms):
// sizes from stat, box headers and the first moof of each segment, never the media data.
//
// - entry.json parses, names the asked source (else a key collision: a MISS, entry left alone),
//   uses 2 s segments (entries of 0.9.9 had 4 s: invalid) and the segment count the duration
//   gives at 2 s; the highest seg-<N> on disk is that count - 1 and none is missing;
// - the bytes of the entry's files sum to entry.json's `bytes` (a truncated file changes it);
// - every segment is a sequence of ISO BMFF boxes that ends exactly at the file's end, has a moof
//   and an mdat, and the video track's `tfdt` puts seg-N at 2N s within one frame;
// - subtitle gate: every rendition the master playlist names has its playlist and a WebVTT file.

export interface EntryMeta {
  source: string
  quality: string
  audioIndex: number
  durationSeconds: number
  segmentSeconds: number
  segments: number
  bytes: number
  agentVersion: string
  /** Frame rate of the output (the `tfdt` tolerance is one frame). */
  frameRate?: number
  /** Subtitle stream indexes with a `sub-<k>.vtt` (the subtitle gate). */
  subtitles?: number[]
}

export type VerifyResult =
  | { ok: true; meta: EntryMeta }
  | { ok: false; collision: true; source: string }
  | { ok: false; collision: false; reason: string }

export const entryMetaFile = 'entry.json'
export const completeMarker = '.complete'
/** Files of an entry that are not part of its `bytes` (they describe it). */
const notCounted = new Set([entryMetaFile, completeMarker])
const segmentFile = /^seg-(\d+)\.m4s$/

const invalid = (reason: string): VerifyResult => ({ ok: false, collision: false, reason })

export function parseEntryMeta(text: string): EntryMeta | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const meta = value as Record<string, unknown>
  const numbers = ['audioIndex', 'durationSeconds', 'segmentSeconds', 'segments', 'bytes'] as const
  if (typeof meta.source !== 'string' || typeof meta.quality !== 'string' || typeof meta.agentVersion !== 'string') return undefined
  if (numbers.some((name) => typeof meta[name] !== 'number' || !Number.isFinite(meta[name]) || (meta[name] as number) < 0)) return undefined
  if (meta.frameRate !== undefined && (typeof meta.frameRate !== 'number' || !(meta.frameRate > 0))) return undefined
  if (meta.subtitles !== undefined && (!Array.isArray(meta.subtitles) || !meta.subtitles.every((k) => Number.isInteger(k) && k >= 0))) return undefined
  return meta as unknown as EntryMeta
}

interface Box { type: string; start: number; size: number; header: number }

/** Top-level boxes of a buffer region; undefined when a size runs past the end or below 8. */
function childBoxes(buffer: Buffer, start: number, end: number): Box[] | undefined {
  const boxes: Box[] = []
  let at = start
  while (at < end) {
    if (end - at < 8) return undefined
    let size = buffer.readUInt32BE(at)
    let header = 8
    if (size === 1) {
      if (end - at < 16) return undefined
      size = Number(buffer.readBigUInt64BE(at + 8))
      header = 16
    } else if (size === 0) size = end - at
    if (size < header || at + size > end) return undefined
    boxes.push({ type: buffer.toString('latin1', at + 4, at + 8), start: at, size, header })
    at += size
  }
  return boxes
}

const child = (buffer: Buffer, box: Box, type: string) => childBoxes(buffer, box.start + box.header, box.start + box.size)?.find((b) => b.type === type)

/** The video track's id and timescale from init.mp4 (moov/trak with an hdlr of `vide`). */
export function videoTrackOf(init: Buffer): { trackId: number; timescale: number } | undefined {
  const moov = childBoxes(init, 0, init.length)?.find((box) => box.type === 'moov')
  if (!moov) return undefined
  for (const trak of childBoxes(init, moov.start + 8, moov.start + moov.size) ?? []) {
    if (trak.type !== 'trak') continue
    const tkhd = child(init, trak, 'tkhd')
    const mdia = child(init, trak, 'mdia')
    const hdlr = mdia && child(init, mdia, 'hdlr')
    const mdhd = mdia && child(init, mdia, 'mdhd')
    if (!tkhd || !hdlr || !mdhd || init.toString('latin1', hdlr.start + 16, hdlr.start + 20) !== 'vide') continue
    const tkhdV1 = init[tkhd.start + 8] === 1
    const mdhdV1 = init[mdhd.start + 8] === 1
    return {
      trackId: init.readUInt32BE(tkhd.start + (tkhdV1 ? 28 : 20)),
      timescale: init.readUInt32BE(mdhd.start + (mdhdV1 ? 28 : 20)),
    }
  }
  return undefined
}

/** Decode time of `trackId` in a segment's first moof, or a reason the segment is malformed. */
export async function segmentStart(path: string, trackId: number): Promise<{ ticks: number } | { reason: string }> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const head = Buffer.alloc(16)
    let at = 0
    let moof: Buffer | undefined
    let mdat = false
    while (at < size) {
      const { bytesRead } = await handle.read(head, 0, Math.min(16, size - at), at)
      if (bytesRead < 8) return { reason: `a box header is cut at byte ${at}` }
      let boxSize = head.readUInt32BE(0)
      const type = head.toString('latin1', 4, 8)
      if (boxSize === 1 && bytesRead >= 16) boxSize = Number(head.readBigUInt64BE(8))
      else if (boxSize === 0) boxSize = size - at
      if (boxSize < 8 || at + boxSize > size) return { reason: `box ${JSON.stringify(type)} at byte ${at} runs past the end (truncated)` }
      if (type === 'moof' && !moof) {
        moof = Buffer.alloc(boxSize)
        await handle.read(moof, 0, boxSize, at)
      }
      if (type === 'mdat') mdat = true
      at += boxSize
    }
    if (!moof || !mdat) return { reason: 'no moof/mdat pair' }
    for (const traf of childBoxes(moof, 8, moof.length) ?? []) {
      if (traf.type !== 'traf') continue
      const tfhd = child(moof, traf, 'tfhd')
      const tfdt = child(moof, traf, 'tfdt')
      if (!tfhd || !tfdt || moof.readUInt32BE(tfhd.start + 12) !== trackId) continue
      const v1 = moof[tfdt.start + 8] === 1
      return { ticks: v1 ? Number(moof.readBigUInt64BE(tfdt.start + 12)) : moof.readUInt32BE(tfdt.start + 12) }
    }
    return { reason: 'no tfdt for the video track' }
  } finally {
    await handle.close()
  }
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<string | undefined>): Promise<string | undefined> {
  let next = 0
  let failure: string | undefined
  const lane = async () => {
    while (failure === undefined && next < items.length) {
      const reason = await work(items[next++]!)
      if (reason !== undefined) failure ??= reason
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return failure
}

export async function verifyEntry(dir: string, expectedSource: string, segmentSeconds = 2): Promise<VerifyResult> {
  let meta: EntryMeta | undefined
  try {
    meta = parseEntryMeta(await readFile(join(dir, entryMetaFile), 'utf8'))
  } catch {
    return invalid('entry.json is missing')
  }
  if (!meta) return invalid('entry.json is not a valid entry description')
  if (meta.source !== expectedSource) return { ok: false, collision: true, source: meta.source }
  if (meta.segmentSeconds !== segmentSeconds) return invalid(`made with ${meta.segmentSeconds} s segments (this version uses ${segmentSeconds} s)`)
  const expected = planSegments(meta.durationSeconds, segmentSeconds, meta.frameRate).count
  if (meta.segments !== expected) return invalid(`${meta.segments} segments where ${meta.durationSeconds} s at ${segmentSeconds} s gives ${expected}`)
  const names = await readdir(dir)
  const indexes = names.map((name) => segmentFile.exec(name)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]))
  const highest = indexes.length === 0 ? -1 : Math.max(...indexes)
  if (highest !== expected - 1 || new Set(indexes).size !== expected) return invalid(`highest segment is ${highest}, expected ${expected - 1} with none missing`)
  const counted = names.filter((name) => !notCounted.has(name) && !/\.(tmp|part)$/.test(name))
  const sizes = await Promise.all(counted.map(async (name) => {
    const info = await stat(join(dir, name))
    return info.isFile() ? info.size : 0
  }))
  const bytes = sizes.reduce((a, b) => a + b, 0)
  if (bytes !== meta.bytes) return invalid(`files hold ${bytes} bytes, entry.json says ${meta.bytes}`)
  let master: string
  let track: ReturnType<typeof videoTrackOf>
  try {
    master = await readFile(join(dir, 'master.m3u8'), 'utf8')
    await stat(join(dir, 'index.m3u8'))
    track = videoTrackOf(await readFile(join(dir, 'init.mp4')))
  } catch {
    return invalid('a playlist or init.mp4 is missing')
  }
  if (!track || track.timescale <= 0) return invalid('init.mp4 has no video track')
  // The subtitle gate: a rendition named in the master playlist must be there in full.
  for (const match of master.matchAll(/URI="sub-(\d+)\.m3u8"/g)) {
    const k = match[1]!
    try {
      await stat(join(dir, `sub-${k}.m3u8`))
      const vtt = await readFile(join(dir, `sub-${k}.vtt`), 'latin1')
      if (!vtt.replace(/^\uFEFF|^\xEF\xBB\xBF/, '').startsWith('WEBVTT')) return invalid(`sub-${k}.vtt is not WebVTT`)
    } catch {
      return invalid(`subtitle rendition ${k} is incomplete`)
    }
  }
  const tolerance = 1 / (meta.frameRate ?? 24) + 1e-6
  const { trackId, timescale } = track
  const failure = await eachLimited(Array.from({ length: expected }, (_, n) => n), 8, async (n) => {
    const start = await segmentStart(join(dir, `seg-${n}.m4s`), trackId).catch((err: unknown) => ({ reason: String(err) }))
    if ('reason' in start) return `seg-${n}.m4s: ${start.reason}`
    const at = start.ticks / timescale
    if (Math.abs(at - n * segmentSeconds) > tolerance) return `seg-${n}.m4s starts at ${at.toFixed(3)} s, not ${n * segmentSeconds} s`
    return undefined
  })
  if (failure) return invalid(failure)
  return { ok: true, meta }
}
