import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import {
  libraryMachine,
  libraryRetryDelayMs,
  type LibraryContext,
  type LibraryInput,
  type LibraryScanOutput,
  type LibraryUploadInput,
  type LibraryUploadOutput,
} from '../../src/machines/library.machine.js'
import { allTransitions, describePath, reachableEdges, shortestPaths, transitionsNotTakenBy } from '../helpers/machine-paths.js'

// docs/library.md: every transition of the library machine is taken by a generated path, and
// over random requests, changes, outcomes and simulated time the actor never runs a scan and an
// upload at once, never loses a scan request, sends a full first and after base_mismatch, bases
// every delta on the last acknowledged scan, and debounces changes.

const scanOutput = (changes: number): LibraryScanOutput => ({ scanId: `scan-${changes}`, files: 10, probed: 1, skipped: 0, items: 5, changes, ms: 3 })
const uploadOutput = (mode: 'full' | 'delta'): LibraryUploadOutput => ({ mode, uploadedItems: 5, removed: 0, parts: 1, bytes: 100 })
const baseMismatch = Object.assign(new Error('base_mismatch'), { details: { status: 409, serverCode: 'base_mismatch' } })

const input = (roots: string[]): LibraryInput => ({ roots, debounceMs: 50, rescanMs: 1_000, periodic: false, retryBaseMs: 10, retryMaxMs: 80 })

describe('library machine paths', () => {
  const events: AnyEventObject[] = [
    { type: 'library.scan' },
    { type: 'library.scan', full: true },
    { type: 'library.changed' },
    { type: 'library.unreliable' },
    { type: 'xstate.done.actor.scan', output: scanOutput(0) },
    { type: 'xstate.done.actor.scan', output: scanOutput(3) },
    { type: 'xstate.error.actor.scan', error: new Error('index unwritable') },
    { type: 'xstate.done.actor.upload', output: uploadOutput('full') },
    { type: 'xstate.done.actor.upload', output: uploadOutput('delta') },
    { type: 'xstate.error.actor.upload', error: new Error('503') },
    { type: 'xstate.error.actor.upload', error: baseMismatch },
    { type: 'xstate.after.debounce.library.debouncing' },
    { type: 'xstate.after.rescanInterval.library.idle' },
    { type: 'xstate.after.backoff.library.failed' },
  ]
  // Done and error events only come from the child that runs.
  const eventsIn = (snapshot: AnyMachineSnapshot) => events.filter((event) => {
    const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
    return match === null || snapshot.children[match[2]!] !== undefined
  })
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const c = snapshot.context as LibraryContext
    return JSON.stringify([snapshot.value, c.fullOwed, c.baseScanId !== undefined, c.scanAgain, c.changedAgain, c.periodic, c.retry])
  }
  const inputs = [input(['/media']), input([])]
  // A vertex per state (the flags make ~450 of them): every edge for coverage, a path to each state.
  const edges = inputs.flatMap((machineInput) => reachableEdges(libraryMachine, { input: machineInput, events: eventsIn, serializeState, limit: 50_000 }))
  const paths = inputs.flatMap((machineInput) => shortestPaths(libraryMachine, { input: machineInput, events: eventsIn, serializeState, perTransition: false, limit: 50_000 }))

  it('cover every transition of the library machine', () => {
    expect(allTransitions(libraryMachine).length).toBeGreaterThan(15)
    // The dispatch on start is taken while the initial snapshot is made, which edges do not replay.
    const start = ['library.starting --always [hasRoots] #1--> library.scanning', 'library.starting --always #2--> library.idle']
    expect(inputs.map((machineInput) => createActor(libraryMachine, { input: machineInput }).getSnapshot().value)).toEqual(['scanning', 'idle'])
    expect(transitionsNotTakenBy(libraryMachine, edges).filter((key) => !start.includes(key))).toEqual([])
  })

  it('keep the scan count and the settled count in order on every edge', () => {
    for (const { prev, event, next } of edges) {
      const before = prev.context as LibraryContext
      const after = next.context as LibraryContext
      expect(next.status, `${String(prev.value)} --${event.type}-->`).toBe('active')
      expect(after.settledSeq).toBeLessThanOrEqual(after.scanSeq)
      // Only entering `scanning` starts a scan.
      if (after.scanSeq !== before.scanSeq) expect(next.value).toBe('scanning')
    }
  })

  it('never reach the error state, and never scan without roots', () => {
    for (const path of paths) {
      expect(path.state.status, describePath(path)).not.toBe('error')
      const context = path.state.context as LibraryContext
      if (context.roots.length === 0) expect(path.steps.every((step) => step.state.value === 'idle'), describePath(path)).toBe(true)
    }
  })

  it('send a full as the first upload and as the one after a base_mismatch', () => {
    let checked = 0
    for (const path of paths) {
      let uploadsSeen = 0
      let previous: AnyMachineSnapshot | undefined
      for (const step of path.steps) {
        const snapshot = step.state as AnyMachineSnapshot
        const context = snapshot.context as LibraryContext
        const uploadStarted = snapshot.value === 'uploading' && (previous?.value !== 'uploading' || step.event.type === 'xstate.error.actor.upload')
        if (uploadStarted) {
          const wantsFull = context.fullOwed || context.baseScanId === undefined
          if (uploadsSeen === 0 || step.event.type === 'xstate.error.actor.upload') {
            expect(wantsFull, describePath(path)).toBe(true)
            checked++
          }
          uploadsSeen++
        }
        previous = snapshot
      }
    }
    expect(checked).toBeGreaterThan(0)
  })
})

type Command =
  | { kind: 'scan'; full: boolean }
  | { kind: 'changed' }
  | { kind: 'advance'; ms: number }
  | { kind: 'scanDone'; changes: number }
  | { kind: 'scanFails' }
  | { kind: 'uploadDone' }
  | { kind: 'uploadFails'; mismatch: boolean }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.boolean().map((full): Command => ({ kind: 'scan', full })),
  fc.constant<Command>({ kind: 'changed' }),
  fc.integer({ min: 1, max: 200 }).map((ms): Command => ({ kind: 'advance', ms })),
  fc.nat(3).map((changes): Command => ({ kind: 'scanDone', changes })),
  fc.constant<Command>({ kind: 'scanFails' }),
  fc.constant<Command>({ kind: 'uploadDone' }),
  fc.boolean().map((mismatch): Command => ({ kind: 'uploadFails', mismatch })),
)

interface Pending<T, I> {
  input: I
  resolve(value: T): void
  reject(error: unknown): void
}

function harness(machineInput: LibraryInput) {
  const clock = new SimulatedClock()
  const scans: Pending<LibraryScanOutput, { roots: string[] }>[] = []
  const uploads: Pending<LibraryUploadOutput, LibraryUploadInput>[] = []
  let running = 0
  let maxRunning = 0
  // A stand-in whose outcome the test decides; counts how many run at once.
  const controlled = <T, I>(list: Pending<T, I>[]) => fromPromise<T, I>(({ input: actorInput, signal }) => new Promise<T>((resolve, reject) => {
    running++
    maxRunning = Math.max(maxRunning, running)
    let done = false
    const end = () => {
      if (!done) running--
      done = true
    }
    signal.addEventListener('abort', end)
    list.push({
      input: actorInput,
      resolve: (value) => { end(); resolve(value) },
      reject: (error) => { end(); reject(error) },
    })
  }))
  const machine = libraryMachine.provide({ actors: { scan: controlled(scans), upload: controlled(uploads) } })
  const actor = createActor(machine, { clock, input: machineInput })
  return { clock, scans, uploads, actor, maxRunning: () => maxRunning, scanCount: () => scans.length }
}

const flush = async () => {
  for (let i = 0; i < 6; i++) await Promise.resolve()
}

describe('library actor under random requests, changes, outcomes and time', () => {
  it('runs one scan or upload at a time, loses no scan request, and uploads a full first, after base_mismatch and on request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { maxLength: 40 }), async (commands) => {
        const h = harness(input(['/media']))
        h.actor.start()
        await flush()
        let lastAcked: string | undefined
        let mismatched = false
        let fullAsked = false
        let uploadsChecked = 0
        const checkUpload = (upload: Pending<LibraryUploadOutput, LibraryUploadInput>) => {
          // Every upload is checked once, when it starts.
          if ((upload as { checked?: boolean }).checked) return
          ;(upload as { checked?: boolean }).checked = true
          if (uploadsChecked === 0 || mismatched || fullAsked) expect(upload.input.full).toBe(true)
          if (!upload.input.full) expect(upload.input.baseScanId).toBe(lastAcked)
          uploadsChecked++
          mismatched = false
        }
        for (const command of commands) {
          const context = h.actor.getSnapshot().context
          const value = h.actor.getSnapshot().value
          const scan = value === 'scanning' ? h.scans.at(-1) : undefined
          const upload = value === 'uploading' ? h.uploads.at(-1) : undefined
          switch (command.kind) {
            case 'scan':
              if (command.full) fullAsked = true
              h.actor.send({ type: 'library.scan', full: command.full })
              break
            case 'changed':
              h.actor.send({ type: 'library.changed' })
              break
            case 'advance':
              h.clock.increment(command.ms)
              break
            case 'scanDone':
              scan?.resolve({ ...scanOutput(command.changes), scanId: `scan-${context.scanSeq}` })
              break
            case 'scanFails':
              scan?.reject(new Error('disk'))
              break
            case 'uploadDone':
              if (upload) {
                upload.resolve(uploadOutput(upload.input.full ? 'full' : 'delta'))
                lastAcked = upload.input.scanId
                if (upload.input.full) fullAsked = false
              }
              break
            case 'uploadFails':
              if (upload) {
                upload.reject(command.mismatch && !upload.input.full ? baseMismatch : new Error('503'))
                if (command.mismatch && !upload.input.full) {
                  // The server holds no base any more: the next upload is a full, based on nothing.
                  mismatched = true
                  lastAcked = undefined
                }
              }
              break
          }
          await flush()
          const after = h.actor.getSnapshot()
          expect(after.status).toBe('active')
          expect(h.maxRunning()).toBeLessThanOrEqual(1)
          if (after.value === 'uploading') checkUpload(h.uploads.at(-1)!)
          expect(after.context.settledSeq).toBeLessThanOrEqual(after.context.scanSeq)
          expect(after.context.baseScanId).toBe(lastAcked)
        }
        // A scan asked for now is served: once every scan and upload succeeds, it settles.
        const ticket = h.actor.getSnapshot().context.scanSeq + 1
        h.actor.send({ type: 'library.scan' })
        for (let round = 0; round < 20 && h.actor.getSnapshot().context.settledSeq < ticket; round++) {
          const { value, context } = h.actor.getSnapshot()
          if (value === 'scanning') h.scans.at(-1)!.resolve({ ...scanOutput(1), scanId: `scan-${context.scanSeq}` })
          else if (value === 'uploading') h.uploads.at(-1)!.resolve(uploadOutput(h.uploads.at(-1)!.input.full ? 'full' : 'delta'))
          else h.clock.increment(1_000)
          await flush()
        }
        expect(h.actor.getSnapshot().context.settledSeq).toBeGreaterThanOrEqual(ticket)
        h.actor.stop()
      }),
      { numRuns: 300 },
    )
  })

  it('debounces changes: a scan starts once the roots were quiet for the debounce, not before', async () => {
    const h = harness(input(['/media']))
    h.actor.start()
    await flush()
    h.scans.at(-1)!.resolve(scanOutput(0)) // the scan on start, and its full upload
    await flush()
    h.uploads.at(-1)!.resolve(uploadOutput('full'))
    await flush()
    expect(h.actor.getSnapshot().value).toBe('idle')
    const before = h.scanCount()
    for (let i = 0; i < 10; i++) {
      h.actor.send({ type: 'library.changed' })
      h.clock.increment(40) // under the 50 ms debounce each time
      await flush()
    }
    expect(h.scanCount()).toBe(before)
    h.clock.increment(10)
    await flush()
    expect(h.scanCount()).toBe(before + 1)
  })

  it('retries a failed upload after a backoff that doubles up to its cap', async () => {
    expect([1, 2, 3, 4, 5].map((failures) => libraryRetryDelayMs({ failures, retryBaseMs: 10, retryMaxMs: 80 }))).toEqual([10, 20, 40, 80, 80])
    const h = harness(input(['/media']))
    h.actor.start()
    await flush()
    h.scans.at(-1)!.resolve(scanOutput(2))
    await flush()
    h.uploads.at(-1)!.reject(new Error('503'))
    await flush()
    expect(h.actor.getSnapshot().value).toBe('failed')
    h.clock.increment(9)
    await flush()
    expect(h.uploads).toHaveLength(1)
    h.clock.increment(1)
    await flush()
    expect(h.uploads).toHaveLength(2)
    expect(h.uploads[1]!.input).toEqual(h.uploads[0]!.input) // the same scan: nothing lost
    h.uploads[1]!.reject(new Error('503'))
    await flush()
    h.clock.increment(19)
    await flush()
    expect(h.uploads).toHaveLength(2)
    h.clock.increment(1)
    await flush()
    expect(h.uploads).toHaveLength(3)
  })

  it('rescans periodically only when a root cannot be watched', async () => {
    const h = harness(input(['/media']))
    h.actor.start()
    await flush()
    h.scans.at(-1)!.resolve(scanOutput(0))
    await flush()
    h.uploads.at(-1)!.resolve(uploadOutput('full'))
    await flush()
    h.clock.increment(5_000)
    await flush()
    expect(h.scanCount()).toBe(1)
    h.actor.send({ type: 'library.unreliable' })
    h.clock.increment(1_000)
    await flush()
    expect(h.scanCount()).toBe(2)
  })
})
