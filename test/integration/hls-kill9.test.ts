// No ffmpeg outlives a daemon killed with SIGKILL (docs/hls.md "Processes"): the child runs the
// engine, the test kills it without any chance to clean up and watches its ffmpeg die.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.js'
import { ffmpegProcessesMentioning, liveGroupMembers, waitUntil } from './hls-kit.js'

const child = join(import.meta.dirname, 'hls-kill9-child.ts')
let fixtures: MediaFixtures | undefined
const cleanup: (() => Promise<void>)[] = []

afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {})
  await fixtures?.cleanup()
})

describe('a killed daemon', () => {
  it('leaves no ffmpeg running after it is killed with SIGKILL', async () => {
    fixtures = await createMediaFixtures()
    const source = await fixtures.get('h264-360p')
    const workDir = await mkdtemp(join(tmpdir(), 'media-agent-hls-kill9-'))
    cleanup.push(() => rm(workDir, { recursive: true, force: true }))
    const proc = spawn(process.execPath, ['--import', 'tsx', child, source, workDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    cleanup.push(async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
    })
    let stderr = ''
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = ''
      proc.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString()
        const at = buffered.indexOf('\n')
        if (at >= 0) resolve(buffered.slice(0, at))
      })
      proc.once('exit', (code) => reject(new Error(`child exited ${String(code)}: ${stderr}`)))
    })
    expect(line).toMatch(/^running \d+/)
    const groups = line.slice('running '.length).split(',').map(Number)
    const ffmpegs = await ffmpegProcessesMentioning(workDir)
    expect(ffmpegs.length).toBeGreaterThan(0)
    for (const pgid of groups) cleanup.push(async () => { try { process.kill(-pgid, 'SIGKILL') } catch {} })

    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill('SIGKILL')
    await exited
    // The watchdog sees its stdin pipe close and SIGKILLs ffmpeg; sh and cat end with it.
    expect(await waitUntil(async () => (await ffmpegProcessesMentioning(workDir)).length === 0, 5_000)).toBe(true)
    for (const pgid of groups) expect(await waitUntil(async () => (await liveGroupMembers(pgid)).length === 0, 5_000)).toBe(true)
  }, 60_000)
})
