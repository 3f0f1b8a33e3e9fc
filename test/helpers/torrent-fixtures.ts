import { createHash, randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

// Small, self-made torrents for tests that need no mktorrent: a bencode encoder and a builder
// that returns the .torrent bytes, the info hash and the file contents.

type Bencodable = number | string | Buffer | Bencodable[] | { [key: string]: Bencodable }

export function bencode(value: Bencodable): Buffer {
  if (typeof value === 'number') return Buffer.from(`i${Math.trunc(value)}e`)
  if (typeof value === 'string') return bencode(Buffer.from(value))
  if (Buffer.isBuffer(value)) return Buffer.concat([Buffer.from(`${value.length}:`), value])
  if (Array.isArray(value)) return Buffer.concat([Buffer.from('l'), ...value.map(bencode), Buffer.from('e')])
  const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  return Buffer.concat([Buffer.from('d'), ...keys.flatMap((key) => [bencode(key), bencode(value[key]!)]), Buffer.from('e')])
}

export interface FixtureFile {
  /** Path inside the torrent, below its name. */
  path: string
  data: Buffer
}

export interface FixtureTorrent {
  name: string
  infoHash: string
  torrentFile: Buffer
  files: FixtureFile[]
  size: number
}

export function makeTorrent(options: { name: string; files: FixtureFile[]; pieceLength?: number; announce?: string[] }): FixtureTorrent {
  const pieceLength = options.pieceLength ?? 16 * 1024
  const all = Buffer.concat(options.files.map((f) => f.data))
  const pieces: Buffer[] = []
  for (let offset = 0; offset < all.length; offset += pieceLength) pieces.push(createHash('sha1').update(all.subarray(offset, offset + pieceLength)).digest())
  const info = {
    name: options.name,
    'piece length': pieceLength,
    pieces: Buffer.concat(pieces),
    files: options.files.map((f) => ({ length: f.data.length, path: f.path.split('/') })),
  }
  const torrent: { [key: string]: Bencodable } = { info }
  if (options.announce?.length) {
    torrent.announce = options.announce[0]!
    torrent['announce-list'] = options.announce.map((url) => [url])
  }
  const infoHash = createHash('sha1').update(bencode(info)).digest('hex')
  return { name: options.name, infoHash, torrentFile: bencode(torrent), files: options.files, size: all.length }
}

export function randomTorrent(name: string, sizes: number[], options: { pieceLength?: number; announce?: string[] } = {}): FixtureTorrent {
  return makeTorrent({
    name,
    files: sizes.map((size, index) => ({ path: index === 0 ? `a-${index}.bin` : `sub/f-${index}.bin`, data: randomBytes(size) })),
    ...options,
  })
}

/** Writes the torrent's files the way a client lays them out: `<dir>/<name>/<path>`. */
export async function writeTorrentFiles(dir: string, torrent: FixtureTorrent): Promise<void> {
  for (const file of torrent.files) {
    const path = join(dir, torrent.name, file.path)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, file.data)
  }
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}
