// The agent's torrent engine in a process of its own, for `bench/torrent.ts`: its CPU time is then
// read from /proc/<pid>/stat exactly like qBittorrent's and aria2c's. Not a bench by itself (the
// leading underscore keeps it out of `npm run bench`).
//
// argv[2]: JSON { torrentPath, downloadDir }. Protocol on stdio, one word a line:
//   child -> "ready" (modules loaded; nothing started)   parent -> "go"
//   child -> "done" (every piece verified and written)   parent -> "quit" (close and exit)
// An engine error is printed as "error <message>" and the child exits 1.
import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import parseTorrent from 'parse-torrent'
import { silentLogger } from '../src/log.js'
import { WebTorrentEngine } from '../src/services/torrent/engine.js'

const { torrentPath, downloadDir } = JSON.parse(process.argv[2] ?? '{}') as { torrentPath: string; downloadDir: string }
const torrentFile = await readFile(torrentPath)
const { infoHash } = await parseTorrent(torrentFile)
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const next = async (word: string) => {
  const line = await lines.next()
  if (line.done || line.value.trim() !== word) throw new Error(`expected "${word}" from the bench, got ${line.done ? 'end of input' : JSON.stringify(line.value)}`)
}
process.stdout.write('ready\n')
await next('go')
// The options of the bench before it moved to a child process (and of the daemon on loopback):
// nothing that reaches past 127.0.0.1.
const engine = new WebTorrentEngine({
  downloadDir, logger: silentLogger(), piecePool: process.env.BENCH_TORRENT_PIECE_POOL !== '0', dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
})
try {
  await new Promise<void>((resolve, reject) => {
    engine.start({ infoHash, torrentFile }, (event) => {
      if (event.type === 'done') resolve()
      if (event.type === 'error') reject(event.error)
    })
  })
  process.stdout.write('done\n')
  await next('quit')
} catch (err) {
  process.stdout.write(`error ${(err as Error).message.replace(/\n/g, ' ')}\n`)
  process.exitCode = 1
} finally {
  await engine.close()
  lines.return?.()
  process.stdin.destroy()
}
