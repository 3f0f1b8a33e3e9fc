#!/usr/bin/env node
// Quick measure (issue 20, docs/torrents.md "Memory"): RSS of one process seeding N complete
// 4 MiB torrents (no peers), with stock webtorrent 3 (fs-chunk-store, 20-piece cache per torrent,
// every piece hashed at each start: what the agent did before) or with the agent's engine (its
// file store, no piece cache, verified-piece maps). Not a bench (bench/ has `npm run bench -- seeding`):
// one JSON line per phase, for the notes of a change.
//
//   npm run build && node scripts/with-node.mjs node --expose-gc scripts/measure-seeding-rss.mjs agent 100
//   node scripts/with-node.mjs node --expose-gc scripts/measure-seeding-rss.mjs stock 100
import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const mode = process.argv[2] ?? 'agent'
const count = Number(process.argv[3] ?? 100)
// Each phase runs in a process of its own (argv[4] = the prepared directory): the parent's
// freed buffers of random data would otherwise hide what the engine allocates.
const prepared = process.argv[4]
const phaseName = process.argv[5]
const size = 4 * 1024 * 1024
const pieceLength = 256 * 1024
const offline = { dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false }

function bencode(value) {
  if (typeof value === 'number') return Buffer.from(`i${value}e`)
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    const buf = Buffer.isBuffer(value) ? value : Buffer.from(value)
    return Buffer.concat([Buffer.from(`${buf.length}:`), buf])
  }
  if (Array.isArray(value)) return Buffer.concat([Buffer.from('l'), ...value.map(bencode), Buffer.from('e')])
  const keys = Object.keys(value).sort()
  return Buffer.concat([Buffer.from('d'), ...keys.flatMap((k) => [bencode(k), bencode(value[k])]), Buffer.from('e')])
}

const root = prepared ?? (await mkdtemp(join(tmpdir(), 'ma-seeding-rss-')))
const torrents = prepared ? JSON.parse(await readFile(join(root, 'torrents.json'), 'utf8')).map((t) => ({ infoHash: t.infoHash, torrentFile: Buffer.from(t.torrentFile, 'base64') })) : []
for (let i = 0; i < (prepared ? 0 : count); i++) {
  const name = `t-${i}`
  const data = randomBytes(size)
  const pieces = []
  for (let o = 0; o < size; o += pieceLength) pieces.push(createHash('sha1').update(data.subarray(o, o + pieceLength)).digest())
  const info = { name, 'piece length': pieceLength, pieces: Buffer.concat(pieces), files: [{ length: size, path: ['data.bin'] }] }
  await mkdir(join(root, 'data', name), { recursive: true })
  await writeFile(join(root, 'data', name, 'data.bin'), data)
  torrents.push({ infoHash: createHash('sha1').update(bencode(info)).digest('hex'), torrentFile: bencode({ info }) })
}

const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10
function rss() {
  globalThis.gc?.()
  return mib(process.memoryUsage().rss)
}
const baseline = rss()

async function runAgent(phase) {
  const { WebTorrentEngine } = await import('../dist/services/torrent/engine.js')
  const { silentLogger } = await import('../dist/log.js')
  const engine = new WebTorrentEngine({ downloadDir: join(root, 'data'), stateDir: join(root, 'state'), logger: silentLogger(), announce: [], pex: false, ...offline })
  const started = performance.now()
  await Promise.all(torrents.map((t) => new Promise((resolve, reject) => engine.start({ infoHash: t.infoHash, torrentFile: t.torrentFile }, (e) => {
    if (e.type === 'done') resolve()
    if (e.type === 'error') reject(e.error)
  }))))
  const allSeedingMs = Math.round(performance.now() - started)
  await new Promise((resolve) => setTimeout(resolve, 2000))
  console.log(JSON.stringify({ mode, phase, torrents: count, allSeedingMs, rssMiB: rss(), baselineRssMiB: baseline, load: loadavg().map((l) => Math.round(l * 100) / 100) }))
  await engine.close()
}

async function runStock(phase) {
  const { default: WebTorrent } = await import('webtorrent')
  const client = new WebTorrent({ ...offline, utPex: false, tracker: false })
  const started = performance.now()
  await Promise.all(torrents.map((t) => new Promise((resolve, reject) => {
    const torrent = client.add(t.torrentFile, { path: join(root, 'data') })
    torrent.once('done', resolve)
    torrent.once('error', reject)
  })))
  const allSeedingMs = Math.round(performance.now() - started)
  await new Promise((resolve) => setTimeout(resolve, 2000))
  console.log(JSON.stringify({ mode, phase, torrents: count, allSeedingMs, rssMiB: rss(), baselineRssMiB: baseline, load: loadavg().map((l) => Math.round(l * 100) / 100) }))
  await new Promise((resolve) => client.destroy(resolve))
}

if (prepared) {
  await (mode === 'stock' ? runStock(phaseName) : runAgent(phaseName))
} else {
  await writeFile(join(root, 'torrents.json'), JSON.stringify(torrents.map((t) => ({ infoHash: t.infoHash, torrentFile: t.torrentFile.toString('base64') }))))
  try {
    for (const phase of ['first start', 'restart']) {
      const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, mode, String(count), root, phase], { stdio: ['ignore', 'inherit', 'inherit'] })
      if (run.status !== 0) process.exitCode = 1
    }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
