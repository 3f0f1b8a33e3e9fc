import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine } from '../../src/services/torrent/engine.js'
import { parsePieceMap } from '../../src/services/torrent/piece-map.js'
import { startOpentracker, type OpenTracker } from '../helpers/opentracker.js'
import { randomTorrent, writeTorrentFiles } from '../helpers/torrent-fixtures.js'

// docs/torrents.md, Resume: a kill -9 while pieces are being written never leaves a
// verified-piece map that names a piece whose bytes are not on disk. A child process downloads
// a torrent from a seeder in this process (real engines, real opentracker) with a map written
// every few ms; fast-check picks how far the download gets and how long after that the child is
// killed; every piece the map on disk names must then hash right in the files on disk.

const pieceLength = 64 * 1024
const torrent = randomTorrent('kill9', [9 * 1024 * 1024 + 12_345, 3 * 1024 * 1024], { pieceLength })
const all = Buffer.concat(torrent.files.map((f) => f.data))
const child = join(import.meta.dirname, 'torrent-pieces-kill9-child.ts')
const loopbackOnly = { dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false }

let root = ''
let tracker: OpenTracker
let seeder: WebTorrentEngine
const pids = new Set<number>()

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ma-pieces-kill9-'))
  tracker = await startOpentracker([torrent.infoHash])
  await writeTorrentFiles(join(root, 'seed'), torrent)
  await writeFile(join(root, 'kill9.torrent'), torrent.torrentFile)
  seeder = new WebTorrentEngine({ downloadDir: join(root, 'seed'), logger: silentLogger(), announce: [tracker.announceUrl], ...loopbackOnly })
  await new Promise<void>((resolve, reject) => seeder.start({ infoHash: torrent.infoHash, torrentFile: torrent.torrentFile }, (event) => {
    if (event.type === 'done') resolve()
    if (event.type === 'error') reject(event.error)
  }))
  await tracker.waitForSeeders(torrent.infoHash, 1)
}, 60_000)

afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  await seeder?.close()
  await tracker?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

/** Runs the child until it has `fraction` of the torrent, then kills it with SIGKILL `delayMs` later. */
function downloadAndKill(dir: string, fraction: number, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, join(dir, 'data'), join(dir, 'state'), tracker.announceUrl, join(root, 'kill9.torrent'), torrent.infoHash], { stdio: ['ignore', 'pipe', 'pipe'] })
    if (proc.pid) pids.add(proc.pid)
    let stderr = ''
    let buffered = ''
    let killing = false
    const kill = () => {
      if (killing) return
      killing = true
      setTimeout(() => proc.kill('SIGKILL'), delayMs)
    }
    // Never waits forever: a child that stalls is killed too (its map must hold all the same).
    const guard = setTimeout(kill, 30_000)
    proc.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) if (line.startsWith('downloaded ') && Number(line.slice(11)) >= fraction * torrent.size) kill()
    })
    proc.on('error', reject)
    proc.on('exit', (code, signal) => {
      clearTimeout(guard)
      if (proc.pid) pids.delete(proc.pid)
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code ?? signal}: ${stderr}`))
      else resolve()
    })
  })
}

async function piecesOnDiskThatAreWrong(dir: string, bitfield: Buffer, pieces: number): Promise<number[]> {
  const paths = torrent.files.map((f) => join(dir, 'data', torrent.name, f.path))
  const handles = await Promise.all(paths.map((path) => open(path, 'r').catch(() => null)))
  const wrong: number[] = []
  try {
    for (let index = 0; index < pieces; index++) {
      if (!(bitfield[index >> 3]! & (0x80 >> (index & 7)))) continue
      const start = index * pieceLength
      const end = Math.min(start + pieceLength, torrent.size)
      const bytes = Buffer.alloc(end - start)
      let offset = 0
      for (const [i, file] of torrent.files.entries()) {
        const fileStart = offset
        offset += file.data.length
        const a = Math.max(start, fileStart)
        const b = Math.min(end, offset)
        if (a >= b) continue
        await handles[i]?.read(bytes, a - start, b - a, a - fileStart)
      }
      const expected = createHash('sha1').update(all.subarray(start, end)).digest('hex')
      if (createHash('sha1').update(bytes).digest('hex') !== expected) wrong.push(index)
    }
  } finally {
    await Promise.all(handles.map((handle) => handle?.close()))
  }
  return wrong
}

describe('verified-piece maps under kill -9', () => {
  it('never name a piece whose bytes are not on disk, wherever the download is killed', async () => {
    const pieces = Math.ceil(torrent.size / pieceLength)
    const seen = { partial: 0, rounds: 0 }
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 0.95, noNaN: true }), fc.integer({ min: 0, max: 40 }), async (fraction, delayMs) => {
        const dir = await mkdtemp(join(root, 'round-'))
        await downloadAndKill(dir, fraction, delayMs)
        seen.rounds++
        const text = await readFile(join(dir, 'state', 'torrents', `${torrent.infoHash}.pieces.json`), 'utf8').catch(() => null)
        if (text === null) return
        const map = parsePieceMap(text, torrent.infoHash)
        expect(map).toBeDefined()
        const bitfield = Buffer.from(map!.bitfield, 'base64')
        let named = 0
        for (let index = 0; index < pieces; index++) if (bitfield[index >> 3]! & (0x80 >> (index & 7))) named++
        if (named > 0 && named < pieces) seen.partial++
        expect(await piecesOnDiskThatAreWrong(dir, bitfield, pieces)).toEqual([])
      }),
      { numRuns: 8 },
    )
    // The kills landed mid-download, with maps naming some pieces but not all.
    expect(seen.partial).toBeGreaterThan(0)
  }, 240_000)
})
