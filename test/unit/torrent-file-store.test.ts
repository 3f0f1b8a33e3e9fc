import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { FilePool, fileStoreFor, noDataOnDisk } from '../../src/services/torrent/file-store.js'

// The engine's chunk store (docs/torrents.md, What the engine changes behind webtorrent) on real
// files: chunks spanning files land at the right offsets, reads see exactly what was written,
// the pool never keeps more idle descriptors than allowed, and bad requests are refused.

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>()
  return { ...actual, mkdir: vi.fn(actual.mkdir), open: vi.fn(actual.open) }
})

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const put = (store: InstanceType<ReturnType<typeof fileStoreFor>>, index: number, buf: Buffer) =>
  new Promise<void>((resolve, reject) => store.put(index, buf, (err) => (err ? reject(err) : resolve())))
const get = (store: InstanceType<ReturnType<typeof fileStoreFor>>, index: number, opts: { offset?: number; length?: number } | null = null) =>
  new Promise<Buffer>((resolve, reject) => store.get(index, opts, (err, buf) => (err ? reject(err) : resolve(buf!))))

/** Files' sizes, a chunk length, and an order to write the chunks in (drawn by fast-check, so a failure replays from its seed). */
const layouts = fc.tuple(fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3000 }))
  .chain(([sizes, chunkLength]) => {
    const chunks = Math.ceil(sizes.reduce((sum, size) => sum + size, 0) / chunkLength)
    return fc.record({
      sizes: fc.constant(sizes),
      chunkLength: fc.constant(chunkLength),
      order: fc.shuffledSubarray([...Array(chunks).keys()], { minLength: chunks, maxLength: chunks }),
    })
  })

describe('file store', () => {
  it('writes chunks across file boundaries, in slices of any size, and reads any range back, with at most the allowed idle descriptors', async () => {
    await fc.assert(
      fc.asyncProperty(
        layouts,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 4000 }),
        async ({ sizes, chunkLength, order }, maxOpen, writeSliceBytes) => {
          const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
          dirs.push(dir)
          let offset = 0
          const files = sizes.map((length, i) => {
            const file = { path: `t/${i === 0 ? 'a' : `sub/f${i}`}.bin`, offset, length }
            offset += length
            return file
          })
          const total = offset
          const data = randomBytes(total)
          const pool = new FilePool({ maxOpen, writeSliceBytes })
          const store = new (fileStoreFor(pool))(chunkLength, { path: dir, files, length: total })
          const chunks = Math.ceil(total / chunkLength)
          expect([...order].sort((a, b) => a - b)).toEqual([...Array(chunks).keys()])
          // Written in the drawn order, concurrently.
          await Promise.all(order.map((i) => put(store, i, data.subarray(i * chunkLength, Math.min(total, (i + 1) * chunkLength)))))
          expect(pool.openCount).toBeLessThanOrEqual(maxOpen)
          for (let i = 0; i < chunks; i++) {
            const chunk = data.subarray(i * chunkLength, Math.min(total, (i + 1) * chunkLength))
            expect((await get(store, i)).equals(chunk)).toBe(true)
            const from = Math.floor(chunk.length / 3)
            expect((await get(store, i, { offset: from, length: chunk.length - from })).equals(chunk.subarray(from))).toBe(true)
          }
          await pool.sync(files.map((f) => join(dir, f.path)))
          await new Promise<void>((resolve) => store.close(() => resolve()))
          expect(pool.openCount).toBe(0)
          for (const file of files.filter((f) => f.length > 0)) {
            expect((await readFile(join(dir, file.path))).equals(data.subarray(file.offset, file.offset + file.length))).toBe(true)
          }
        },
      ),
      { numRuns: 40 },
    )
  })

  it('refuses a chunk of the wrong size, a range outside the chunk, a file that is short, and a path that leaves the download directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
    dirs.push(dir)
    const pool = new FilePool({ maxOpen: 4 })
    const Store = fileStoreFor(pool)
    const store = new Store(100, { path: dir, files: [{ path: 't/a.bin', offset: 0, length: 250 }], length: 250 })
    await expect(put(store, 0, Buffer.alloc(99))).rejects.toThrow(/must be 100 bytes/)
    await expect(put(store, 2, Buffer.alloc(100))).rejects.toThrow(/must be 50 bytes/)
    await expect(get(store, 0, { offset: 50, length: 60 })).rejects.toThrow(/outside chunk 0/)
    // Nothing written yet: no file, a read cannot be satisfied (verification says "not there") and creates nothing.
    await expect(get(store, 1)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(existsSync(join(dir, 't'))).toBe(false)
    await put(store, 0, Buffer.alloc(100, 1))
    await expect(get(store, 1)).rejects.toThrow(/shorter/)
    await put(store, 2, Buffer.alloc(50, 7))
    expect((await stat(join(dir, 't', 'a.bin'))).size).toBe(250)
    const escaping = new Store(100, { path: dir, files: [{ path: 't/../../x.bin', offset: 0, length: 100 }], length: 100 })
    await expect(put(escaping, 0, Buffer.alloc(100))).rejects.toMatchObject({ code: 'MA_ERR_TORRENT_METADATA' })
    await pool.closeAll()
  })

  it('keeps the bytes of reads in flight within its budget, one read always running and none overtaken', async () => {
    const pool = new FilePool({ maxOpen: 4, readBudgetBytes: 100 })
    let inFlight = 0
    let most = 0
    const started: number[] = []
    const read = (id: number, bytes: number) => pool.reading(bytes, async () => {
      started.push(id)
      inFlight += bytes
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 2))
      inFlight -= bytes
      return id
    })
    // A read bigger than the whole budget still runs (alone); small ones behind it wait their turn.
    expect(await Promise.all([read(1, 60), read(2, 30), read(3, 250), read(4, 10), read(5, 60), read(6, 40)])).toEqual([1, 2, 3, 4, 5, 6])
    expect(started).toEqual([1, 2, 3, 4, 5, 6])
    expect(most).toBe(250)
    most = 0
    const small = await Promise.all([...Array(20).keys()].map((i) => read(i, 30)))
    expect(small).toHaveLength(20)
    // Three of 30 bytes fit in 100 at once, never a fourth.
    expect(most).toBe(90)
  })

  it('tells a new download (files missing or empty) from one with data on disk, which must be verified', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
    dirs.push(dir)
    const paths = [join(dir, 'a.bin'), join(dir, 'sub', 'b.bin')]
    expect(await noDataOnDisk(paths)).toBe(true)
    await writeFile(paths[0]!, '')
    expect(await noDataOnDisk(paths)).toBe(true)
    await mkdir(join(dir, 'sub'))
    await writeFile(paths[1]!, 'x')
    expect(await noDataOnDisk(paths)).toBe(false)
    // A path below a file (ENOTDIR) holds nothing either.
    await writeFile(join(dir, 'file'), 'y')
    expect(await noDataOnDisk([join(dir, 'file', 'below')])).toBe(true)
  })

  it('creates a file and its directories on its first write only: a read or a descriptor opened again makes no directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
    dirs.push(dir)
    const files = [{ path: 't/sub/a.bin', offset: 0, length: 100 }, { path: 't/b.bin', offset: 100, length: 100 }]
    // One descriptor: every switch between the files closes one and opens the other again.
    const pool = new FilePool({ maxOpen: 1 })
    const store = new (fileStoreFor(pool))(50, { path: dir, files, length: 200 })
    const mkdirs = vi.mocked(fs.mkdir)
    const opens = vi.mocked(fs.open)
    mkdirs.mockClear()
    opens.mockClear()
    await expect(get(store, 0)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(mkdirs).not.toHaveBeenCalled()
    expect(existsSync(join(dir, 't'))).toBe(false)
    const data = randomBytes(200)
    for (let i = 0; i < 4; i++) await put(store, i, data.subarray(i * 50, (i + 1) * 50))
    // t/sub (recursively with t) for a.bin; b.bin's open then finds t.
    expect(mkdirs).toHaveBeenCalledTimes(1)
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await get(store, i)).equals(data.subarray(i * 50, (i + 1) * 50))).toBe(true)
    }
    expect(mkdirs).toHaveBeenCalledTimes(1)
    expect(opens.mock.calls.length).toBeGreaterThan(6)
    await pool.closeAll()
  })

  it('creates a missing file for a write that joins a read still opening it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
    dirs.push(dir)
    const pool = new FilePool({ maxOpen: 4 })
    const store = new (fileStoreFor(pool))(10, { path: dir, files: [{ path: 'new/a.bin', offset: 0, length: 10 }], length: 10 })
    const reading = get(store, 0)
    const writing = put(store, 0, Buffer.alloc(10, 3))
    await expect(reading).rejects.toMatchObject({ code: 'ENOENT' })
    await writing
    expect(await get(store, 0)).toEqual(Buffer.alloc(10, 3))
    await pool.closeAll()
  })

  it('closes a descriptor in use once its last request lets go, waiting without polling', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-file-store-'))
    dirs.push(dir)
    const path = join(dir, 'a.bin')
    const pool = new FilePool({ maxOpen: 4 })
    await pool.with(path, async () => {}, true)
    let released = false
    let letGo!: () => void
    const holding = new Promise<void>((resolve) => { letGo = resolve })
    const using = pool.with(path, async (fd) => {
      await holding
      // Still open: the close waited for this request.
      await new Promise<void>((resolve, reject) => fs.write(fd, Buffer.from('late'), 0, 4, 0, (err) => (err ? reject(err) : resolve())))
    }, true)
    const spy = vi.spyOn(globalThis, 'setImmediate')
    const releasing = pool.release([path]).then(() => { released = true })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(released).toBe(false)
    // The close waits on the request, not on a loop of event-loop turns.
    expect(spy).not.toHaveBeenCalled()
    spy.mockRestore()
    letGo()
    await using
    await releasing
    expect(pool.openCount).toBe(0)
    expect(await readFile(path, 'utf8')).toBe('late')
  })
})
