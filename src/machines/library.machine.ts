// The `library` actor (issue 16; contract 1.9, 4.1; protocol.md 7.6; docs/library.md). Pure: the
// scan and the upload are named actors bound in src/system/library-part.ts; the debounce, the
// periodic rescan and the retry backoff are named delays read from the context, so tests run
// them in milliseconds.
//
//   idle --library.changed--> debouncing --quiet for debounce--> scanning
//   idle --library.scan / periodic rescan--> scanning
//   scanning --changes (or a full is owed)--> uploading --2xx--> idle
//   scanning --no change--> idle                     (a scan with no change uploads nothing)
//   uploading --409 base_mismatch--> uploading (full)
//   scanning | uploading --failure--> failed --backoff--> scanning | uploading (what failed)
//
// A scan or change that arrives while scanning or uploading is remembered and served right
// after, so requests coalesce and none is lost. The upload always carries the difference
// between the last acknowledged scan and the newest one, so a failed upload loses nothing: the
// retry (or the next scan) sends it again.
import { assign, fromPromise, setup } from 'xstate'

export interface LibraryInput {
  /** `[library] paths`; none: the actor idles and never scans. */
  roots: string[]
  debounceMs: number
  /** Period of the rescan of roots that cannot be watched reliably; 0: never. */
  rescanMs: number
  /** True when some root is not watched (watch off, network or FUSE mount): rescan periodically. */
  periodic: boolean
  retryBaseMs: number
  retryMaxMs: number
}

/** What a scan found (src/services/library/scanner.ts). */
export interface LibraryScanOutput {
  scanId: string
  /** Files seen under the roots. */
  files: number
  /** ffprobe runs (new or changed media files only). */
  probed: number
  /** Files seen that are not listed: not media, unreadable, broken symlinks, ... */
  skipped: number
  /** Media items now in the library. */
  items: number
  /** New, changed and removed items against the last acknowledged scan. */
  changes: number
  ms: number
}

export interface LibraryUploadInput {
  scanId: string
  full: boolean
  baseScanId: string | undefined
}

export interface LibraryUploadOutput {
  mode: 'full' | 'delta'
  uploadedItems: number
  removed: number
  parts: number
  bytes: number
}

export type LibraryOutcome = 'acknowledged' | 'nothing' | 'failed'

/** The input, kept as is (`periodic` turns true when a root cannot be watched), and the sync state. */
export interface LibraryContext extends LibraryInput {
  /** The next upload must be `full`: the first after start, after base_mismatch, or asked for. */
  fullOwed: boolean
  /** The last scan the server acknowledged (`baseScanId` of a delta). */
  baseScanId: string | undefined
  /** A scan asked for while one was running: start another when this one is done. */
  scanAgain: boolean
  /** The watcher saw a change while scanning or uploading: debounce, then scan again. */
  changedAgain: boolean
  /** Counts scans started; `library scan` waits for the first scan numbered above what it saw. */
  scanSeq: number
  /** Scan number whose result is the one being (or to be) uploaded. */
  pendingSeq: number
  /** Highest scan number whose result the server holds (or that had nothing to upload). */
  settledSeq: number
  /** Scan number of the last failure. */
  failedSeq: number
  lastOutcome: LibraryOutcome | undefined
  /** Consecutive failures, for the backoff. */
  failures: number
  /** What failed last and is retried after the backoff. */
  retry: 'scan' | 'upload'
  lastScan: LibraryScanOutput | undefined
  lastUpload: LibraryUploadOutput | undefined
  error: string | undefined
}

export type LibraryEvent =
  /** `scan_library` control, `media-agent library scan`; `full` asks for a full upload. */
  | { type: 'library.scan'; full?: boolean }
  /** The watcher saw something change under a root. */
  | { type: 'library.changed' }
  /** A root cannot be watched (any more): rescan it periodically. */
  | { type: 'library.unreliable' }

export function libraryRetryDelayMs(context: Pick<LibraryContext, 'failures' | 'retryBaseMs' | 'retryMaxMs'>): number {
  const exponent = Math.min(Math.max(context.failures - 1, 0), 20)
  return Math.min(context.retryMaxMs, context.retryBaseMs * 2 ** exponent)
}

/** The upload was refused because the server does not hold its base (protocol.md 7.6). */
export function isBaseMismatch(error: unknown): boolean {
  const details = (error as { details?: { status?: unknown; serverCode?: unknown } } | undefined)?.details
  return details?.status === 409 && details.serverCode === 'base_mismatch'
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${(error as { code?: string }).code ?? error.name}: ${error.message}`
  return String(error)
}

export const libraryMachine = setup({
  types: {
    context: {} as LibraryContext,
    input: {} as LibraryInput,
    events: {} as LibraryEvent,
  },
  actors: {
    scan: fromPromise<LibraryScanOutput, { roots: string[] }>(async () => {
      throw new Error('scan is not bound')
    }),
    upload: fromPromise<LibraryUploadOutput, LibraryUploadInput>(async () => {
      throw new Error('upload is not bound')
    }),
  },
  guards: {
    hasRoots: ({ context }) => context.roots.length > 0,
    periodicRescan: ({ context }) => context.roots.length > 0 && context.periodic && context.rescanMs > 0,
    mustUpload: ({ context, event }) => context.fullOwed || ((event as unknown as { output?: LibraryScanOutput }).output?.changes ?? 0) > 0,
    baseMismatch: ({ context, event }) => !context.fullOwed && isBaseMismatch((event as unknown as { error?: unknown }).error),
    retryScan: ({ context }) => context.retry === 'scan',
    scanAgain: ({ context }) => context.scanAgain,
    changedAgain: ({ context }) => context.changedAgain,
  },
  actions: {
    rememberScanRequest: assign(({ context, event }) => ({
      scanAgain: true,
      fullOwed: context.fullOwed || (event.type === 'library.scan' && event.full === true),
    })),
    rememberChange: assign({ changedAgain: true }),
    markUnreliable: assign({ periodic: true }),
    /** What failed is retried after the backoff; `library scan` waiting on this scan reports it. */
    recordFailure: assign(({ context, event }, params: { what: 'scan' | 'upload' }) => ({
      failures: context.failures + 1,
      retry: params.what,
      failedSeq: params.what === 'scan' ? context.scanSeq : context.pendingSeq,
      lastOutcome: 'failed' as const,
      error: describe((event as unknown as { error?: unknown }).error),
    })),
    // Bound to the log in library-part.ts.
    logScanned: (_, _params: { output: LibraryScanOutput }) => {},
    logUploaded: (_, _params: { output: LibraryUploadOutput; scanId: string }) => {},
    /** Reads the error and the retry delay from the context `recordFailure` just updated. */
    logFailed: (_, _params: { what: 'scan' | 'upload' }) => {},
    logBaseMismatch: () => {},
  },
  delays: {
    debounce: ({ context }) => context.debounceMs,
    rescanInterval: ({ context }) => context.rescanMs,
    backoff: ({ context }) => libraryRetryDelayMs(context),
  },
}).createMachine({
  id: 'library',
  description: 'Library sync: scan the library roots (index keyed by path, size, mtime; only new or changed files probed) and upload full or delta LibrarySyncs, with debounce, periodic rescan and retry backoff.',
  context: ({ input }) => ({
    ...input,
    fullOwed: true,
    baseScanId: undefined,
    scanAgain: false,
    changedAgain: false,
    scanSeq: 0,
    pendingSeq: 0,
    settledSeq: 0,
    failedSeq: 0,
    lastOutcome: undefined,
    failures: 0,
    retry: 'scan',
    lastScan: undefined,
    lastUpload: undefined,
    error: undefined,
  }),
  initial: 'starting',
  on: {
    'library.unreliable': { actions: 'markUnreliable' },
  },
  states: {
    // Scans on start (issue 16) when there is anything to scan.
    starting: {
      always: [{ guard: 'hasRoots', target: 'scanning' }, { target: 'idle' }],
    },
    idle: {
      after: { rescanInterval: { guard: 'periodicRescan', target: 'scanning' } },
      on: {
        'library.scan': { guard: 'hasRoots', target: 'scanning', actions: 'rememberScanRequest' },
        'library.changed': { guard: 'hasRoots', target: 'debouncing' },
        // Re-entering starts the rescan timer, which did not count while every root was watched.
        'library.unreliable': { target: 'idle', reenter: true, actions: 'markUnreliable' },
      },
    },
    debouncing: {
      after: { debounce: { target: 'scanning' } },
      on: {
        // Re-entering restarts the debounce timer: the scan waits until the roots are quiet.
        'library.changed': { target: 'debouncing', reenter: true },
        'library.scan': { target: 'scanning', actions: 'rememberScanRequest' },
      },
    },
    scanning: {
      entry: assign(({ context }) => ({ scanSeq: context.scanSeq + 1, scanAgain: false, changedAgain: false })),
      invoke: {
        id: 'scan',
        src: 'scan',
        input: ({ context }) => ({ roots: context.roots }),
        onDone: [
          {
            guard: 'mustUpload',
            target: 'uploading',
            actions: [
              assign(({ context, event }) => ({ lastScan: event.output, pendingSeq: context.scanSeq, error: undefined })),
              { type: 'logScanned', params: ({ event }) => ({ output: event.output }) },
            ],
          },
          {
            target: 'settled',
            actions: [
              assign(({ context, event }) => ({
                lastScan: event.output,
                settledSeq: context.scanSeq,
                lastOutcome: 'nothing' as const,
                lastUpload: { mode: 'delta' as const, uploadedItems: 0, removed: 0, parts: 0, bytes: 0 },
                failures: 0,
                error: undefined,
              })),
              { type: 'logScanned', params: ({ event }) => ({ output: event.output }) },
            ],
          },
        ],
        onError: { target: 'failed', actions: [{ type: 'recordFailure', params: { what: 'scan' } }, { type: 'logFailed', params: { what: 'scan' } }] },
      },
      on: {
        'library.scan': { actions: 'rememberScanRequest' },
        'library.changed': { actions: 'rememberChange' },
      },
    },
    uploading: {
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ scanId: context.lastScan?.scanId ?? '', full: context.fullOwed || context.baseScanId === undefined, baseScanId: context.baseScanId }),
        onDone: {
          target: 'settled',
          actions: [
            assign(({ context, event }) => ({
              baseScanId: context.lastScan?.scanId,
              // A full asked for during a delta upload is still owed.
              fullOwed: context.fullOwed && event.output.mode !== 'full',
              lastUpload: event.output,
              settledSeq: context.pendingSeq,
              lastOutcome: 'acknowledged' as const,
              failures: 0,
              error: undefined,
            })),
            { type: 'logUploaded', params: ({ context, event }) => ({ output: event.output, scanId: context.lastScan?.scanId ?? '' }) },
          ],
        },
        onError: [
          // The server lost (or never had) the base: send everything, at once (protocol.md 7.6).
          { guard: 'baseMismatch', target: 'uploading', reenter: true, actions: [assign({ fullOwed: true, baseScanId: undefined }), 'logBaseMismatch'] },
          { target: 'failed', actions: [{ type: 'recordFailure', params: { what: 'upload' } }, { type: 'logFailed', params: { what: 'upload' } }] },
        ],
      },
      on: {
        'library.scan': { actions: 'rememberScanRequest' },
        'library.changed': { actions: 'rememberChange' },
      },
    },
    failed: {
      after: {
        backoff: [{ guard: 'retryScan', target: 'scanning' }, { target: 'uploading' }],
      },
      on: {
        // A new scan supersedes the retry: its upload carries everything not yet acknowledged.
        'library.scan': { target: 'scanning', actions: 'rememberScanRequest' },
        'library.changed': { actions: 'rememberChange' },
      },
    },
    // Where a finished scan or upload goes next: requests that arrived meanwhile come first.
    settled: {
      always: [
        { guard: 'scanAgain', target: 'scanning' },
        { guard: 'changedAgain', target: 'debouncing' },
        { target: 'idle' },
      ],
    },
  },
})

/** `library status --json` state (protocol.md 7.6): the transient states read as their neighbours. */
export function libraryStateOf(value: string): 'idle' | 'scanning' | 'uploading' | 'failed' {
  if (value === 'scanning' || value === 'uploading' || value === 'failed') return value
  return 'idle'
}
