import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SourceMissingError } from '../../src/errors.js'
import { silentLogger } from '../../src/log.js'
import type { ByteSource } from '../../src/services/media/byte-source.js'
import { onLocalDisk } from '../../src/services/media/local-disk.js'
import { createLocalFileSource } from '../../src/services/media/local-file-source.js'
import { createSessionSource } from '../../src/services/media/session-source.js'

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

  it('answers from its descriptor until a revalidation sees the path name another file', async () => {
    const path = join(dir, 'd.mp4')
    await writeFile(path, 'one')
    const source = createLocalFileSource(path, { openCacheMs: 30 })
    const size = async (): Promise<number> => {
      const opened = await source.open(signal)
      await opened.close()
      return opened.size
    }
    expect(await size()).toBe(3)
    await writeFile(join(dir, 'd.new'), 'second')
    await rename(join(dir, 'd.new'), path)
    expect(await size()).toBe(3)
    const deadline = Date.now() + 2000
    let seen = 3
    while (seen === 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      seen = await size()
    }
    expect(seen).toBe(6)
  })

  it('reads positionally in the thread pool until the disk proved awake, then on the event loop', async () => {
    const path = join(dir, 'c.mp4')
    await writeFile(path, 'abcdefghijklmnopqrstuvwxyz')
    /** Two reads through one descriptor: where each ran, and what it read. */
    const readTwice = async (options: { inlineReadBytes: number; inlineReadSlowMs: number } | ByteSource) => {
      const source = 'open' in options ? options : createLocalFileSource(path, options)
      const opened = await source.open(signal)
      const results: Array<{ bytesRead: number; text: string; wasInline: boolean }> = []
      for (let index = 0; index < 2; index++) {
        const buffer = Buffer.alloc(8)
        let inline = true
        let wasInline = false
        const bytesRead = await new Promise<number>((resolve, reject) => {
          opened.readAt!(buffer, 2, 5, 20, (err, n) => {
            wasInline = inline
            if (err === null) resolve(n)
            else reject(err)
          })
          inline = false
        })
        results.push({ bytesRead, text: buffer.subarray(2, 2 + bytesRead).toString(), wasInline })
      }
      await opened.close()
      // Both ways read the same bytes at the same position into the same place.
      for (const result of results) expect([result.bytesRead, result.text]).toEqual([5, 'uvwxy'])
      return results.map(({ wasInline }) => wasInline)
    }
    // A new descriptor's first read goes to the pool (a spun-down disk must not stall the loop);
    // it came back fast, so the next one runs inline.
    expect(await readTwice({ inlineReadBytes: 1024, inlineReadSlowMs: 60_000 })).toEqual([false, true])
    // A pool read that was slow (here: every one) keeps the descriptor in the pool.
    expect(await readTwice({ inlineReadBytes: 1024, inlineReadSlowMs: -1 })).toEqual([false, false])
    // Inline reads off.
    expect(await readTwice({ inlineReadBytes: 0, inlineReadSlowMs: 60_000 })).toEqual([false, false])
    // ...as `[stream] inline_reads = false` turns them off for a session's file.
    const session = { sessionId: 's', PlayMethod: 'direct', quality: 'original', filePath: path }
    const off = await createSessionSource(session, { logger: silentLogger(), localFile: { inlineReadBytes: 0, inlineReadSlowMs: 60_000 } })
    expect(await readTwice(off.source)).toEqual([false, false])
    const on = await createSessionSource(session, { logger: silentLogger(), localFile: { inlineReadSlowMs: 60_000 } })
    expect(await readTwice(on.source)).toEqual([false, true])
  })

  it('reads inline only from a local disk (Linux), never from a path it cannot classify', async () => {
    expect(await onLocalDisk(dir)).toBe(process.platform === 'linux')
    expect(await onLocalDisk(join(dir, 'missing', 'x.mp4'))).toBe(false)
  })

  it('reports a missing file or a directory as a missing source', async () => {
    await expect(createLocalFileSource(join(dir, 'nope.mp4')).open(signal)).rejects.toBeInstanceOf(SourceMissingError)
    await expect(createLocalFileSource(dir).open(signal)).rejects.toBeInstanceOf(SourceMissingError)
  })
})
