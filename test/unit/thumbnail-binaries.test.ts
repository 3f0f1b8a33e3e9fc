import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FfmpegNotFoundError } from '../../src/errors.js'
import { resolveFfmpegBinaries, resolveFfmpegBinary } from '../../src/services/ffmpeg/binaries.js'

describe('finding ffmpeg and ffprobe', () => {
  let dir: string
  let onPath: string
  let elsewhere: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-binaries-'))
    onPath = join(dir, 'bin')
    elsewhere = join(dir, 'opt')
    for (const folder of [onPath, elsewhere]) {
      await mkdir(folder)
      for (const name of ['ffmpeg', 'ffprobe']) {
        await writeFile(join(folder, name), '#!/bin/sh\nexit 0\n')
        await chmod(join(folder, name), 0o755)
      }
    }
    await writeFile(join(dir, 'not-executable'), 'x')
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('takes the config key first, then the environment variable, then PATH', () => {
    const env = { PATH: onPath, FFPROBE_PATH: join(elsewhere, 'ffprobe') }
    expect(resolveFfmpegBinary('ffprobe', { env, configuredPath: join(elsewhere, 'ffprobe') })).toBe(join(elsewhere, 'ffprobe'))
    expect(resolveFfmpegBinary('ffprobe', { env, configuredPath: '' })).toBe(join(elsewhere, 'ffprobe'))
    expect(resolveFfmpegBinaries({ env: { PATH: `/nonexistent:${onPath}` } })).toEqual({ ffmpeg: join(onPath, 'ffmpeg'), ffprobe: join(onPath, 'ffprobe') })
  })

  it('names the config key when the configured path is wrong, instead of falling back', () => {
    expect(() => resolveFfmpegBinary('ffprobe', { env: { PATH: onPath }, configuredPath: join(dir, 'not-executable') }))
      .toThrow(/\[transcode\] ffprobe_path/)
  })

  it('names FFPROBE_PATH when the environment points nowhere', () => {
    expect(() => resolveFfmpegBinary('ffprobe', { env: { PATH: onPath, FFPROBE_PATH: join(dir, 'missing') } })).toThrow(/FFPROBE_PATH/)
  })

  it('tells a container user about FFPROBE_PATH, the config key and the package', () => {
    let error: unknown
    try {
      resolveFfmpegBinary('ffprobe', { env: { PATH: join(dir, 'empty') }, isContainer: true })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(FfmpegNotFoundError)
    expect((error as FfmpegNotFoundError).code).toBe('MA_ERR_FFMPEG_NOT_FOUND')
    const message = (error as Error).message
    expect(message).toContain('FFPROBE_PATH')
    expect(message).toContain('[transcode] ffprobe_path')
    expect(message).toContain('apt-get install -y ffmpeg')
  })

  it('tells a host user how to install ffmpeg', () => {
    expect(() => resolveFfmpegBinary('ffmpeg', { env: { PATH: '' }, isContainer: false })).toThrow(/not found on PATH.*apt-get install ffmpeg/)
  })
})
