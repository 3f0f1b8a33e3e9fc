import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SourceMissingError } from '../../src/errors.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'

describe('local file sources', () => {
  let dir: string
  const signal = new AbortController().signal

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ma-local-source-'))
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('serves one answer from the file it opened even if the path is replaced meanwhile', async () => {
    const path = join(dir, 'a.mp4')
    await writeFile(path, 'first version')
    const source = createLocalFileSource(path, { openCacheMs: 0 })
    const opened = await source.open(signal)
    await writeFile(join(dir, 'a.new'), 'second version, longer')
    await rename(join(dir, 'a.new'), path)
    expect(opened.size).toBe('first version'.length)
    expect(await text(await opened.read({ start: 0, end: 4 }, signal))).toBe('first')
    expect(await text(await opened.read({ start: 6, end: 12 }, signal))).toBe('version')
    await opened.close()

    const next = await source.open(signal)
    expect(next.size).toBe('second version, longer'.length)
    expect(await text(await next.read({ start: 0, end: 5 }, signal))).toBe('second')
    await next.close()
  })

  it('reuses one descriptor for requests close together and still reads every range', async () => {
    const path = join(dir, 'b.mkv')
    await writeFile(path, 'abcdefghijklmnopqrstuvwxyz')
    const source = createLocalFileSource(path)
    const [one, two] = await Promise.all([source.open(signal), source.open(signal)])
    expect(one.etag).toBe(two.etag)
    expect(one.contentType).toBe('video/x-matroska')
    expect(await text(await one.read({ start: 0, end: 2 }, signal))).toBe('abc')
    await one.close()
    expect(await text(await two.read({ start: 23, end: 25 }, signal))).toBe('xyz')
    await two.close()
  })

  it('reports a missing file or a directory as a missing source', async () => {
    await expect(createLocalFileSource(join(dir, 'nope.mp4')).open(signal)).rejects.toBeInstanceOf(SourceMissingError)
    await expect(createLocalFileSource(dir).open(signal)).rejects.toBeInstanceOf(SourceMissingError)
  })
})
