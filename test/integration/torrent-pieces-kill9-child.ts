// Child of torrent-pieces-kill9.test.ts: downloads one torrent with a real engine whose
// verified-piece maps are written every few ms, printing how far it got, until it is killed.
import { readFile } from 'node:fs/promises'
import { silentLogger } from '../../src/log.js'
import { WebTorrentEngine } from '../../src/services/torrent/engine.js'

const [downloadDir, stateDir, announceUrl, torrentPath, infoHash] = process.argv.slice(2)
if (!downloadDir || !stateDir || !announceUrl || !torrentPath || !infoHash) throw new Error('usage: child <downloadDir> <stateDir> <announceUrl> <torrentFile> <infoHash>')

const engine = new WebTorrentEngine({
  downloadDir, stateDir, logger: silentLogger(), announce: [announceUrl], pieceMapWriteIntervalMs: 3,
  dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
})
engine.start({ infoHash, torrentFile: await readFile(torrentPath) }, (event) => {
  if (event.type === 'error') process.stderr.write(`error ${event.error.message}\n`)
})
setInterval(() => {
  const stats = engine.stats(infoHash)
  if (stats?.ready) process.stdout.write(`downloaded ${stats.downloaded}\n`)
}, 2)
