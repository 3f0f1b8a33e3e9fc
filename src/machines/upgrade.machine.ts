import { setup, assign, fromPromise } from 'xstate'
import type { UpgradeOffer, UpgradeResult } from '../protocol/wire.js'

// The `upgrade` actor (contract 1.8, 2.5, 3; protocol.md 7.5; docs/upgrade.md). Pure: the
// download, the side-by-side install, the report (persist, then post) and the exit for a
// restart are named actors and actions bound in src/system/upgrade-part.ts.
//
// No loop, exactly one result per request: a target whose result was decided is remembered
// (`reported`, persisted in the state dir by the `report` actor) and every later sync that still
// shows the flag for it is ignored, until a sync shows the flag cleared (`forgetReported`). Only
// a new request (flag set again after being cleared) or `media-agent update` (`manual`) retries.
// The process that was just installed does not judge its own target as a no-op: it reports
// `success` once it has registered (`confirming`).

/**
 * What restarts the agent after it exits with 75 (docs/upgrade.md): `restart` (systemd, or a
 * supervisor declared with MEDIA_AGENT_SUPERVISOR=restart-on-75), `container` (the image is
 * replaced from outside: "managed externally"), `none` (nothing would bring it back).
 */
export type UpgradeSupervisor = 'restart' | 'container' | 'none'

export interface UpgradeInput {
  currentVersion: string
  supervisor: UpgradeSupervisor
  /** Targets whose result was posted while the server's flag stayed set (from the state dir). */
  reported?: readonly string[]
  /** Results decided but not posted yet (a rollback by the launcher, or a crash before the post). */
  unposted?: readonly UpgradeResult[]
  /** Set when this process is the version just installed: it reports `success` once registered. */
  justInstalled?: { fromVersion: string; toVersion: string }
}

/** The outcome of the latest attempt, for `media-agent update` (`none`: no upgrade offered). */
export interface UpgradeAttempt {
  seq: number
  outcome: UpgradeResult['outcome'] | 'none' | 'applied'
  targetVersion?: string
  error?: string
}

export interface UpgradeContext {
  currentVersion: string
  supervisor: UpgradeSupervisor
  reported: string[]
  /** Results to post, oldest first; the head is the one `reporting` posts. */
  queue: UpgradeResult[]
  justInstalled: { fromVersion: string; toVersion: string } | undefined
  /** The offer being applied (downloading, installing). */
  offer: UpgradeOffer | undefined
  /** The verified artifact of `offer`, between download and install. */
  artifactPath: string | undefined
  /**
   * `media-agent update` is waiting: the number of the last sync cycle that started before it
   * asked. Only a later cycle's answer can say "none offered" or retry a reported target; an
   * answer already on its way when it asked is handled as any other.
   */
  manualAfter: number | undefined
  last: UpgradeAttempt | undefined
  attempts: number
  /** The flag was seen down while a result was being posted: that target is not remembered. */
  forgetInFlight: boolean
}

export type UpgradeEvent =
  /** After every successful sync: the server's `upgradeRequested` and `upgrade`; `cycle` numbers the sync (counted at its start). */
  | { type: 'upgrade.sync'; requested: boolean; offer?: UpgradeOffer | undefined; cycle?: number }
  /** The control plane registered with the server. */
  | { type: 'upgrade.registered' }
  /** `media-agent update`: sync now and apply what is offered; `afterCycle`: the last sync cycle started so far. */
  | { type: 'upgrade.manual'; afterCycle: number }

export interface DownloadInput {
  offer: UpgradeOffer
}
export interface DownloadOutput {
  /** The verified artifact on disk (sha256 and size checked). */
  artifactPath: string
}
export interface InstallInput {
  offer: UpgradeOffer
  artifactPath: string
  fromVersion: string
}
export interface ReportInput {
  result: UpgradeResult
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const failure = (context: UpgradeContext, offer: UpgradeOffer, error: string): UpgradeResult => ({
  outcome: 'failure',
  fromVersion: context.currentVersion,
  toVersion: offer.targetVersion,
  error,
})

/** The sync answers a waiting `media-agent update`: it started after the request. */
const manualDue = (context: UpgradeContext, event: UpgradeEvent): boolean =>
  context.manualAfter !== undefined && event.type === 'upgrade.sync' && (event.cycle ?? Number.POSITIVE_INFINITY) > context.manualAfter

const offerOf = (event: UpgradeEvent): UpgradeOffer | undefined => (event.type === 'upgrade.sync' ? event.offer : undefined)

export const upgradeMachine = setup({
  types: {
    context: {} as UpgradeContext,
    events: {} as UpgradeEvent,
    input: {} as UpgradeInput,
  },
  actors: {
    download: fromPromise<DownloadOutput, DownloadInput>(async () => {
      throw new Error('upgrade: download is not bound')
    }),
    install: fromPromise<void, InstallInput>(async () => {
      throw new Error('upgrade: install is not bound')
    }),
    report: fromPromise<void, ReportInput>(async () => {
      throw new Error('upgrade: report is not bound')
    }),
  },
  actions: {
    /** Exit with 75 so the supervisor starts the version `versions/current` now names. */
    exitForRestart: (_, _params: { toVersion: string }) => {},
    /** Drop the remembered targets from the state dir: the server's flag is down. */
    forgetReported: () => {},
    /** Ask the control plane for a sync now (`media-agent update`). */
    requestSync: () => {},
    log: (_, _params: { level: 'info' | 'warn'; msg: string; data?: Record<string, unknown> }) => {},
  },
  guards: {
    flagDown: ({ event }) => event.type === 'upgrade.sync' && !event.requested,
    noOffer: ({ event }) => event.type === 'upgrade.sync' && event.offer === undefined,
    alreadyReported: ({ context, event }) => {
      const offer = offerOf(event)
      return !manualDue(context, event) && offer !== undefined && context.reported.includes(offer.targetVersion)
    },
    isCurrent: ({ context, event }) => offerOf(event)?.targetVersion === context.currentVersion,
    inContainer: ({ context }) => context.supervisor === 'container',
    noSupervisor: ({ context }) => context.supervisor === 'none',
    hasUnposted: ({ context }) => context.queue.length > 0,
    justInstalled: ({ context }) => context.justInstalled !== undefined,
  },
  delays: {
    reportRetry: 5_000,
  },
}).createMachine({
  id: 'upgrade',
  description: 'Self-upgrade: one result per requested targetVersion (noop, failure or, from the new version, success); install side by side and exit 75 for the supervisor.',
  context: ({ input }) => ({
    currentVersion: input.currentVersion,
    supervisor: input.supervisor,
    reported: [...(input.reported ?? [])],
    queue: [...(input.unposted ?? [])],
    justInstalled: input.justInstalled,
    offer: undefined,
    artifactPath: undefined,
    manualAfter: undefined,
    last: undefined,
    attempts: 0,
    forgetInFlight: false,
  }),
  initial: 'boot',
  // The flag seen down in any state (idle handles it itself): the server has its result, or
  // withdrew the request, so a later request for the same target is a new one.
  on: {
    'upgrade.sync': {
      guard: 'flagDown',
      actions: [assign({ reported: [] }), 'forgetReported'],
    },
  },
  states: {
    boot: {
      always: [
        { guard: 'hasUnposted', target: 'reporting' },
        { guard: 'justInstalled', target: 'confirming' },
        { target: 'idle' },
      ],
    },
    // The version just installed: its success counts once it has registered with the server.
    confirming: {
      on: {
        'upgrade.registered': {
          target: 'reporting',
          actions: assign(({ context }) => ({
            queue: [...context.queue, { outcome: 'success' as const, fromVersion: context.justInstalled!.fromVersion, toVersion: context.justInstalled!.toVersion }],
            justInstalled: undefined,
          })),
        },
      },
    },
    idle: {
      on: {
        'upgrade.manual': {
          actions: [assign({ manualAfter: ({ event }) => event.afterCycle }), 'requestSync'],
        },
        'upgrade.sync': [
          {
            guard: 'flagDown',
            actions: [
              assign(({ context, event }) => ({
                reported: [],
                ...(manualDue(context, event) ? { manualAfter: undefined, last: { seq: context.attempts + 1, outcome: 'none' as const }, attempts: context.attempts + 1 } : {}),
              })),
              'forgetReported',
            ],
          },
          {
            // protocol.md 1: `upgrade` is present with the flag; without it there is no target to report on.
            guard: 'noOffer',
            actions: [
              assign(({ context, event }) => ({
                ...(manualDue(context, event) ? { manualAfter: undefined, last: { seq: context.attempts + 1, outcome: 'failure' as const, error: 'the server requests an upgrade but offers no artifact' }, attempts: context.attempts + 1 } : {}),
              })),
              { type: 'log', params: { level: 'warn', msg: 'the server requests an upgrade without an offer (targetVersion, artifactUrl, sha256); nothing to apply' } },
            ],
          },
          // The result for this target is already in: the flag is just not down yet (no loop).
          { guard: 'alreadyReported' },
          {
            guard: 'isCurrent',
            target: 'reporting',
            actions: assign(({ context, event }) => ({
              manualAfter: undefined,
              queue: [...context.queue, { outcome: 'noop' as const, fromVersion: context.currentVersion, toVersion: offerOf(event)!.targetVersion }],
            })),
          },
          {
            guard: 'inContainer',
            target: 'reporting',
            actions: assign(({ context, event }) => ({ manualAfter: undefined, queue: [...context.queue, failure(context, offerOf(event)!, 'managed externally')] })),
          },
          {
            guard: 'noSupervisor',
            target: 'reporting',
            actions: assign(({ context, event }) => ({
              manualAfter: undefined,
              queue: [...context.queue, failure(context, offerOf(event)!, 'no supervisor would restart media-agent after exit 75 (run it under systemd, or set MEDIA_AGENT_SUPERVISOR=restart-on-75)')],
            })),
          },
          {
            target: 'downloading',
            actions: assign(({ event }) => ({ manualAfter: undefined, offer: offerOf(event)! })),
          },
        ],
      },
    },
    downloading: {
      entry: { type: 'log', params: ({ context }) => ({ level: 'info' as const, msg: 'downloading the upgrade artifact', data: { targetVersion: context.offer!.targetVersion } }) },
      invoke: {
        id: 'download',
        src: 'download',
        input: ({ context }) => ({ offer: context.offer! }),
        onDone: { target: 'installing', actions: assign({ artifactPath: ({ event }) => event.output.artifactPath }) },
        onError: {
          target: 'reporting',
          actions: assign(({ context, event }) => ({ queue: [...context.queue, failure(context, context.offer!, errorText(event.error))], offer: undefined })),
        },
      },
    },
    installing: {
      invoke: {
        id: 'install',
        src: 'install',
        input: ({ context }) => ({ offer: context.offer!, artifactPath: context.artifactPath!, fromVersion: context.currentVersion }),
        onDone: 'restarting',
        onError: {
          target: 'reporting',
          actions: assign(({ context, event }) => ({ queue: [...context.queue, failure(context, context.offer!, errorText(event.error))], offer: undefined, artifactPath: undefined })),
        },
      },
    },
    // `versions/current` names the new version: the old process reports nothing; the new one
    // posts `success` once it has registered, or the next start rolls it back (docs/upgrade.md).
    restarting: {
      entry: [
        assign(({ context }) => ({ last: { seq: context.attempts + 1, outcome: 'applied' as const, targetVersion: context.offer!.targetVersion }, attempts: context.attempts + 1 })),
        { type: 'exitForRestart', params: ({ context }) => ({ toVersion: context.offer!.targetVersion }) },
      ],
    },
    reporting: {
      on: {
        'upgrade.sync': { guard: 'flagDown', actions: [assign({ reported: [], forgetInFlight: true }), 'forgetReported'] },
      },
      invoke: {
        id: 'report',
        src: 'report',
        input: ({ context }) => ({ result: context.queue[0]! }),
        onDone: {
          target: 'reported',
          actions: assign(({ context }) => {
            const result = context.queue[0]!
            return {
              queue: context.queue.slice(1),
              reported: context.forgetInFlight || context.reported.includes(result.toVersion) ? context.reported : [...context.reported, result.toVersion],
              forgetInFlight: false,
              offer: undefined,
              artifactPath: undefined,
              attempts: context.attempts + 1,
              last: { seq: context.attempts + 1, outcome: result.outcome, targetVersion: result.toVersion, ...(result.error === undefined ? {} : { error: result.error }) },
            }
          }),
        },
        onError: {
          target: 'reportBackoff',
          actions: { type: 'log', params: ({ event }) => ({ level: 'warn' as const, msg: 'posting the upgrade result failed; retrying', data: { error: errorText(event.error) } }) },
        },
      },
    },
    reported: {
      always: [{ guard: 'hasUnposted', target: 'reporting' }, { guard: 'justInstalled', target: 'confirming' }, { target: 'idle' }],
    },
    // The result is decided and kept in the state dir; only the post is retried.
    reportBackoff: {
      on: {
        'upgrade.sync': { guard: 'flagDown', actions: [assign({ reported: [], forgetInFlight: true }), 'forgetReported'] },
      },
      after: { reportRetry: 'reporting' },
    },
  },
})

/** What `/api/status` and `/api/upgrade` show of the actor. */
export function upgradeStatusOf(snapshot: { value: unknown; context: UpgradeContext }): Record<string, unknown> {
  return {
    state: snapshot.value,
    currentVersion: snapshot.context.currentVersion,
    supervisor: snapshot.context.supervisor,
    ...(snapshot.context.offer ? { targetVersion: snapshot.context.offer.targetVersion } : {}),
    ...(snapshot.context.last ? { last: snapshot.context.last } : {}),
  }
}
