// Library sync as a part of the agent (issue 16; contract 1.9, 4.1; protocol.md 7.6;
// docs/library.md): the scanner (index in the state dir, niced ffprobe through the probe
// cache), the watcher, the uploader on the server API's dedicated library client, and the
// `library` child of the root. Admin routes serve `media-agent library status|scan`.
import { fromPromise, type AnyActorRef } from 'xstate'
import * as defaults from '../config/defaults.js'
import { timing, type AgentConfig } from '../config/schema.js'
import type { Logger } from '../log.js'
import {
  libraryMachine,
  libraryRetryDelayMs,
  libraryStateOf,
  type LibraryContext,
  type LibraryInput,
  type LibraryScanOutput,
  type LibraryUploadInput,
  type LibraryUploadOutput,
} from '../machines/library.machine.js'
import type { AdminRoute } from '../server/admin-server.js'
import { createProbeService, type ProbeService } from '../services/ffmpeg/probe.js'
import type { ServerApi } from '../services/http/server-api.js'
import { ackedOf, diffLibrary, itemCount, planUpload, type AckedLibrary } from '../services/library/diff.js'
import type { LibraryScanner, ScanResult } from '../services/library/scanner.js'
import { createLibraryWatcher, type LibraryWatcher } from '../services/library/watcher.js'
import { lazily } from '../services/runtime/lazily.js'
import type { Closer } from './create-system.js'

export interface LibraryPartOptions {
  config: Pick<AgentConfig, 'library' | 'daemon' | 'transcode' | 'testing'>
  logger: Logger
  agentId: string
  api: Pick<ServerApi, 'uploadLibrary'>
  /** The probe cache shared with HLS sessions; one of its own otherwise. */
  probe?: ProbeService
  /** Nice value of the scan's ffprobe; `libraryProbeNice` (19) unless a benchmark asks otherwise. */
  probeNiceness?: number
  /** True while a stream session is starting: the scan starts no ffprobe until it is ready. */
  playbackStarting?: () => boolean
  /** Told when a session starts: ffprobe runs in flight stop and run again once it is ready. */
  onPlaybackStart?: (listener: () => void) => () => void
}

/** `media-agent library status --json` (protocol.md 7.6), plus live progress and the last error. */
export interface LibraryStatus {
  state: 'idle' | 'scanning' | 'uploading' | 'failed'
  roots: string[]
  items: number
  lastScan: {
    scanId: string
    mode: 'full' | 'delta'
    files: number
    probed: number
    skipped: number
    uploadedItems: number
    ms: number
    removed: number
    parts: number
    bytes: number
  } | null
  progress?: { files: number; probed: number; toProbe: number }
  watched: number
  error?: string
}

export type ScanOutcome = 'pending' | 'acknowledged' | 'failed' | 'nothing'

export function createLibraryPart(options: LibraryPartOptions) {
  const { config } = options
  const log = options.logger.child({ component: 'library' })
  const roots = [...new Set(config.library.paths)]
  const probe = options.probe ?? createProbeService({ ffprobePath: config.transcode.ffprobePath || undefined, logger: log.child({ part: 'probe' }) })
  // The scanner and its index load with the first scan: an agent without library roots never pays for them.
  const scanner = lazily(async (): Promise<LibraryScanner> => {
    const [{ createLibraryScanner }, { createLibraryIndexStore }] = await Promise.all([import('../services/library/scanner.js'), import('../services/library/library-index.js')])
    return createLibraryScanner({
      index: createLibraryIndexStore({ stateDir: config.daemon.stateDir, logger: log }),
      inspect: (path, probeOptions) => probe.inspect(path, probeOptions),
      logger: log,
      probeConcurrency: timing(config, 'libraryProbeConcurrency'),
      probeNiceness: options.probeNiceness ?? defaults.libraryProbeNice,
      fsConcurrency: timing(config, 'libraryFsConcurrency'),
      yieldEvery: defaults.libraryYieldEveryFiles,
      skipExamples: defaults.librarySkipExamples,
      progressLogMs: timing(config, 'libraryProgressLogMs'),
      ...(options.playbackStarting
        ? { playbackStarting: options.playbackStarting, pauseMs: timing(config, 'libraryPlaybackPauseMs'), pauseMaxMs: timing(config, 'readinessDeadlineMs') }
        : {}),
      ...(options.onPlaybackStart ? { onPlaybackStart: options.onPlaybackStart } : {}),
    })
  })

  let actor: () => AnyActorRef | undefined = () => undefined
  const send = (event: { type: 'library.scan'; full?: boolean } | { type: 'library.changed' } | { type: 'library.unreliable' }) => actor()?.send(event)
  const context = (): LibraryContext | undefined => (actor()?.getSnapshot() as { context?: LibraryContext } | undefined)?.context
  const stateValue = (): string => String((actor()?.getSnapshot() as { value?: unknown } | undefined)?.value ?? 'idle')

  // The newest scan, and what the server holds (the base of the next delta).
  let latest: ScanResult | undefined
  let acked: AckedLibrary = new Map()

  let watcher: LibraryWatcher | undefined
  if (roots.length > 0) {
    if (config.library.watch) {
      watcher = createLibraryWatcher({
        roots,
        logger: log,
        batch: defaults.libraryYieldEveryFiles,
        onChange: () => send({ type: 'library.changed' }),
        onUnreliable: () => send({ type: 'library.unreliable' }),
      })
    }
  }

  const logic = libraryMachine.provide({
    actors: {
      scan: fromPromise<LibraryScanOutput, { roots: string[] }>(async ({ input, signal }) => {
        const result = await (await scanner.get()).scan(input.roots, { signal })
        latest = result
        await watcher?.update(result.dirs)
        const delta = diffLibrary(acked, result.snapshot)
        return { scanId: result.scanId, files: result.files, probed: result.probed, skipped: result.skipped, items: result.items, changes: delta.items + delta.removed, ms: result.ms }
      }),
      upload: fromPromise<LibraryUploadOutput, LibraryUploadInput>(async ({ input }) => {
        const scan = latest
        if (!scan || scan.scanId !== input.scanId) throw new Error(`scan ${input.scanId} is not the newest; nothing to upload`)
        const plan = planUpload({
          agentId: options.agentId, scanId: scan.scanId, full: input.full, baseScanId: input.baseScanId,
          acked, current: scan.snapshot, partMaxItems: timing(config, 'libraryPartMaxItems'),
        })
        let bytes = 0
        for (const body of plan.bodies) bytes += (await options.api.uploadLibrary(body)).bytes
        acked = ackedOf(scan.snapshot)
        return { mode: plan.mode, uploadedItems: plan.uploadedItems, removed: plan.removed, parts: plan.bodies.length, bytes }
      }),
    },
    actions: {
      logScanned: (_, { output }) => log.info(output, `library scan done: ${output.files} files seen, ${output.probed} probed, ${output.items} media items, ${output.changes} changes`),
      logUploaded: (_, { output, scanId }) => log.info({ scanId, ...output }, `library uploaded (${output.mode}): ${output.uploadedItems} items, ${output.removed} removed`),
      logFailed: ({ context }, { what }) => {
        const retryInMs = libraryRetryDelayMs(context)
        log.warn({ what, error: context.error, retryInMs }, `library ${what} failed; retrying in ${retryInMs} ms`)
      },
      logBaseMismatch: () => log.info('the server does not hold the base of this delta (409 base_mismatch); sending the whole library'),
    },
  })

  const rescanMinutes = config.library.rescanMinutes
  const input: LibraryInput = {
    roots,
    debounceMs: timing(config, 'libraryDebounceMs'),
    rescanMs: Math.round(rescanMinutes * 60_000),
    // Without watching, the periodic rescan is the only way changes are seen.
    periodic: !config.library.watch,
    retryBaseMs: timing(config, 'libraryRetryBaseMs'),
    retryMaxMs: timing(config, 'libraryRetryMaxMs'),
  }

  const status = (): LibraryStatus => {
    const ctx = context()
    const scan = ctx?.lastScan
    const upload = ctx?.lastUpload
    const progress = scanner.value?.progress()
    return {
      state: libraryStateOf(stateValue()),
      roots,
      items: latest ? itemCount(latest.snapshot) : 0,
      lastScan: scan
        ? {
            scanId: scan.scanId,
            mode: upload?.mode ?? 'full',
            files: scan.files,
            probed: scan.probed,
            skipped: scan.skipped,
            uploadedItems: upload?.uploadedItems ?? 0,
            ms: scan.ms,
            removed: upload?.removed ?? 0,
            parts: upload?.parts ?? 0,
            bytes: upload?.bytes ?? 0,
          }
        : null,
      ...(progress?.running ? { progress: { files: progress.files, probed: progress.probed, toProbe: progress.toProbe } } : {}),
      watched: watcher?.watched() ?? 0,
      ...(ctx?.error ? { error: ctx.error } : {}),
    }
  }

  /** Where a `library scan` that got `ticket` stands. */
  const outcome = (ticket: number): ScanOutcome => {
    const ctx = context()
    if (!ctx || roots.length === 0) return 'nothing'
    if (ctx.settledSeq >= ticket) return 'acknowledged'
    if (ctx.failedSeq >= ticket && stateValue() === 'failed') return 'failed'
    return 'pending'
  }

  const waitForOutcome = (ticket: number, waitMs: number): Promise<ScanOutcome> => new Promise((resolve) => {
    const ref = actor()
    const now = outcome(ticket)
    if (now !== 'pending' || !ref) return resolve(now)
    const finish = (value: ScanOutcome) => {
      clearTimeout(timer)
      subscription.unsubscribe()
      resolve(value)
    }
    const timer = setTimeout(() => finish(outcome(ticket)), waitMs)
    const subscription = ref.subscribe(() => {
      const next = outcome(ticket)
      if (next !== 'pending') finish(next)
    })
  })

  /** Starts a scan (coalesced with one under way); returns the ticket `library scan` waits on. */
  const requestScan = (full: boolean): number => {
    const ticket = (context()?.scanSeq ?? 0) + 1
    send({ type: 'library.scan', full })
    return ticket
  }

  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/library', handle: () => ({ status: 200, json: status() }) },
    {
      method: 'POST',
      path: '/api/library/scan',
      handle: ({ body }) => {
        if (roots.length === 0) return { status: 200, json: { ticket: 0, outcome: 'nothing', message: 'no [library] paths are configured' } }
        const full = typeof body === 'object' && body !== null && (body as { full?: unknown }).full === true
        return { status: 200, json: { ticket: requestScan(full), outcome: 'pending' } }
      },
    },
    {
      method: 'GET',
      path: '/api/library/scan',
      handle: async ({ url }) => {
        const ticket = Number(url.searchParams.get('ticket'))
        if (!Number.isInteger(ticket) || ticket < 0) return { status: 400, json: { error: 'bad_request', message: 'ticket must be a non-negative integer' } }
        const result = await waitForOutcome(ticket, timing(config, 'libraryScanWaitMs'))
        return { status: 200, json: { ticket, outcome: result, status: status() } }
      },
    },
  ]

  const closers: Closer[] = [{ name: 'library watcher', close: async () => watcher?.close() }]

  return {
    logic,
    input,
    closers,
    adminRoutes,
    status,
    /** Called once the root exists: how to reach the `library` actor. */
    attach(get: () => AnyActorRef | undefined) {
      actor = get
    },
    /** The `scan_library` control (protocol.md 1, 7.6): `full` asks for a full upload. */
    scan(full: boolean) {
      requestScan(full)
    },
    /** What `media-agent status` shows: files seen, probed, uploaded. */
    summary() {
      const current = status()
      return {
        state: current.state,
        items: current.items,
        files: current.progress?.files ?? current.lastScan?.files ?? 0,
        probed: current.progress?.probed ?? current.lastScan?.probed ?? 0,
        uploadedItems: current.lastScan?.uploadedItems ?? 0,
      }
    },
  }
}

export type LibraryPart = ReturnType<typeof createLibraryPart>
