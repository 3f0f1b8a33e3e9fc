// Runs one library scan of argv[2] and prints its skip counts and items as JSON: spawned as an
// unprivileged user by library-skips.test.ts, because root reads any file whatever its mode.
import { ProbeFailedError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import { createLibraryIndexStore } from '../../src/services/library/library-index.js'
import { createLibraryScanner } from '../../src/services/library/scanner.js'

const [root, stateDir, ...more] = process.argv.slice(2)
const scanner = createLibraryScanner({
  index: createLibraryIndexStore({ stateDir: stateDir!, logger: silentLogger() }),
  // Stands in for ffprobe: every readable file with a media extension is a 1 s audio file.
  inspect: async (path) => {
    if (path.includes('reject')) throw new ProbeFailedError('Invalid data', { details: { exitCode: 1 } })
    return { info: { durationSeconds: 1, formatName: 'wav', video: undefined, audio: [{ index: 0, codec: 'pcm_s16le', channels: 1, language: undefined }], subtitles: [] } }
  },
  logger: silentLogger(),
  probeConcurrency: 2,
  probeNiceness: 0,
  fsConcurrency: 2,
  yieldEvery: 16,
  skipExamples: 5,
  progressLogMs: 60_000,
})
const result = await scanner.scan([root!, ...more])
process.stdout.write(`${JSON.stringify({
  files: result.files,
  skipped: result.skipped,
  counts: result.skips.counts,
  examples: result.skips.examples,
  items: [...result.snapshot.values()].flatMap((items) => [...items.keys()]).sort(),
  dirs: result.dirs,
})}\n`)
