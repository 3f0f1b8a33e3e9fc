// `npm run bench -- torrent`: the agent's torrent engine against aria2c downloading the same
// torrent from the same aria2c seeder over loopback (real opentracker), one after the other in
// one run. Prints ONE JSON line: both throughputs (MiB/s) and the ratio agent / aria2c.
// Size: BENCH_TORRENT_MB (default 1024); BENCH_TORRENT_ROUNDS (default 1) alternates the two that
// many times and keeps each one's best time.
//
// Both sides are timed the same way: from the moment the client is created (WebTorrentEngine
// constructed / aria2c spawned) until the last piece is verified and written (the engine's `done`
// / aria2c's exit with --seed-time=0, which is right after its last piece). Both include their
// tracker announce and peer connection set-up. Dirty pages are flushed (`sync`) before each side
// starts, so neither pays for the other's (or the seed file's) writeback.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import parseTorrent from 'parse-torrent'
import { silentLogger } from '../src/log.js'
import { WebTorrentEngine } from '../src/services/torrent/engine.js'
import { mktorrent, startAria2, type Aria2Peer } from '../test/helpers/aria2.js'
import { startOpentracker } from '../test/helpers/opentracker.js'

const MiB = 1024 * 1024
const sizeMb = Number(process.env.BENCH_TORRENT_MB ?? 1024)
const rounds = Math.max(1, Number(process.env.BENCH_TORRENT_ROUNDS ?? 1))
const round = (value: number, digits = 2) => Number(value.toFixed(digits))
const log = (message: string) => process.stderr.write(`[bench torrent] ${message}\n`)
/** Writes every dirty page back so that the next timed side starts from a quiet disk. */
const flushDisk = () => promisify(execFile)('sync').then(() => undefined)

export async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ma-bench-torrent-'))
  const content = join(dir, 'seed', 'bench.bin')
  await mkdir(join(dir, 'seed'))
  const handle = await open(content, 'w')
  const block = randomBytes(16 * MiB)
  for (let written = 0; written < sizeMb * MiB; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, sizeMb * MiB - written))
  }
  await handle.sync()
  await handle.close()
  const tracker = await startOpentracker()
  let seeder: Aria2Peer | undefined
  let leecher: Aria2Peer | undefined
  let engine: WebTorrentEngine | undefined
  try {
    const torrentPath = join(dir, 'bench.torrent')
    // 1 MiB pieces for big payloads, 256 KiB for quick runs.
    await mktorrent(content, torrentPath, tracker.announceUrl, sizeMb >= 512 ? 20 : 18)
    const torrentFile = await readFile(torrentPath)
    const { infoHash } = await parseTorrent(torrentFile)
    await tracker.allow([infoHash])
    seeder = await startAria2({ torrentPath, dir: join(dir, 'seed'), mode: 'seed', verify: false })
    await tracker.waitForSeeders(infoHash, 1, 120_000)
    log(`seeding ${sizeMb} MiB (${infoHash})`)

    const timeAgent = async (): Promise<number> => {
      await rm(join(dir, 'agent'), { recursive: true, force: true })
      await flushDisk()
      const started = performance.now()
      engine = new WebTorrentEngine({
        downloadDir: join(dir, 'agent'), logger: silentLogger(), dht: false, lsd: false, pex: false, utp: false, natUpnp: false, natPmp: false,
      })
      await new Promise<void>((resolve, reject) => {
        engine!.start({ infoHash, torrentFile }, (event) => {
          if (event.type === 'done') resolve()
          if (event.type === 'error') reject(event.error)
        })
      })
      const seconds = (performance.now() - started) / 1000
      await engine.close()
      engine = undefined
      log(`agent: ${round(seconds)} s`)
      return seconds
    }
    const timeAria2 = async (): Promise<number> => {
      await rm(join(dir, 'aria2'), { recursive: true, force: true })
      await flushDisk()
      const started = performance.now()
      leecher = await startAria2({ torrentPath, dir: join(dir, 'aria2'), mode: 'download' })
      await leecher.exited
      leecher = undefined
      const seconds = (performance.now() - started) / 1000
      log(`aria2c: ${round(seconds)} s`)
      return seconds
    }
    // On a shared machine the load moves under a run: with BENCH_TORRENT_ROUNDS > 1 the two
    // alternate (agent first in odd rounds, aria2c first in even ones) and each keeps its best time.
    const agentTimes: number[] = []
    const aria2Times: number[] = []
    for (let roundNo = 1; roundNo <= rounds; roundNo++) {
      if (roundNo % 2 === 1) {
        agentTimes.push(await timeAgent())
        aria2Times.push(await timeAria2())
      } else {
        aria2Times.push(await timeAria2())
        agentTimes.push(await timeAgent())
      }
    }
    const agentSeconds = Math.min(...agentTimes)
    const aria2Seconds = Math.min(...aria2Times)

    const agentMiBps = sizeMb / agentSeconds
    const aria2cMiBps = sizeMb / aria2Seconds
    process.stdout.write(`${JSON.stringify({
      bench: 'torrent',
      node: process.version,
      sizeMiB: sizeMb,
      rounds,
      agent: { seconds: round(agentSeconds, 3), MiBps: round(agentMiBps) },
      aria2c: { seconds: round(aria2Seconds, 3), MiBps: round(aria2cMiBps) },
      ratio: round(agentMiBps / aria2cMiBps, 3),
    })}\n`)
  } finally {
    await engine?.close()
    await leecher?.stop()
    await seeder?.stop()
    await tracker.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
