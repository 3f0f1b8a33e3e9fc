import { chmod, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

// Installs the faithful GPU fake (test/fixtures/fake-ffmpeg/fake-ffmpeg.mjs, docs/encoders.md
// "Faithful fakes") as an executable named `ffmpeg` in a temp dir: give its `path` to
// `[transcode] ffmpeg_path` or put its `dir` first on PATH.

export interface FakeFfmpegConfig {
  gpu: 'nvenc' | 'qsv' | 'vaapi' | 'videotoolbox' | 'none'
  /** Invocations that sleep forever: `version` (-version), `test-encode`, or `all`. */
  hang?: 'version' | 'test-encode' | 'all'
  /** The tallest frame the fake GPU encodes. */
  maxHeight?: number
  /** HLS encodes fail at encoder open (a consumer NVENC past its session limit); test encodes pass. */
  failSessions?: boolean
  vaapiDriver?: string
}

export interface FakeFfmpeg {
  dir: string
  path: string
  /** Every invocation so far, in order. */
  invocations(): Promise<{ pid: number; argv: string[] }[]>
  /** The host changes under a running agent (a GPU or driver gone, fixed): the next invocation sees it. */
  reconfigure(config: FakeFfmpegConfig): Promise<void>
  cleanup(): Promise<void>
}

const script = resolve(import.meta.dirname, '..', 'fixtures', 'fake-ffmpeg', 'fake-ffmpeg.mjs')

export async function installFakeFfmpeg(config: FakeFfmpegConfig): Promise<FakeFfmpeg> {
  const dir = await mkdtemp(join(tmpdir(), 'ma12-fake-ffmpeg-'))
  const log = join(dir, 'invocations.jsonl')
  const configPath = join(dir, 'config.json')
  await writeFile(configPath, JSON.stringify({ ...config, log, real: '/usr/bin/ffmpeg' }))
  await writeFile(log, '')
  const path = join(dir, 'ffmpeg')
  // exec: the fake keeps the PID the agent started, as the real binary would.
  await writeFile(path, `#!/bin/sh\nFAKE_FFMPEG_CONFIG='${configPath}' exec '${process.execPath}' '${script}' "$@"\n`)
  await chmod(path, 0o755)
  return {
    dir,
    path,
    async invocations() {
      const text = await readFile(log, 'utf8')
      return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { pid: number; argv: string[] })
    },
    // The fake reads its config at each start: an atomic rename, so no invocation reads half a file.
    async reconfigure(next) {
      await writeFile(`${configPath}.next`, JSON.stringify({ ...next, log, real: '/usr/bin/ffmpeg' }))
      await rename(`${configPath}.next`, configPath)
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  }
}

/** Whether a process with this PID still exists (a zombie counts as gone). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) Z /.test(stat)
  } catch {
    return false
  }
}
