import { join } from 'node:path'
import { fromCallback, fromPromise, type AnyActorRef } from 'xstate'
import type { Logger } from '../log.js'
import { timing, type AgentConfig } from '../config/schema.js'
import { funnelMachine, funnelRestartDelayMs, funnelStateName, type FunnelContext, type FunnelEvent, type FunnelInput, type HelperInput } from '../machines/funnel.machine.js'
import type { HelperRun } from '../services/funnel/helper-process.js'
import type { AdminRoute } from '../server/admin-server.js'
import type { FunnelStatus } from '../protocol/wire.js'
import type { Closer } from './create-system.js'

// The public tunnel as a part of the agent (issue 14; protocol.md 7.4; docs/funnel.md): binds
// the `funnel` machine to the helper download and the helper process, keeps the URL the sync
// reports, and serves `GET/POST /api/funnel` for `media-agent funnel on|off|status`.

export interface FunnelPartOptions {
  config: Pick<AgentConfig, 'funnel' | 'daemon' | 'stream' | 'testing'>
  logger: Logger
  /** The URL changed (set, rotated or cleared): sync now (protocol.md 1: a tunnel URL change). */
  changed(reason: string): void
}

export function managedHelperPath(stateDir: string): string {
  return join(stateDir, 'bin', 'cloudflared')
}

export function createFunnelPart(options: FunnelPartOptions) {
  const { config } = options
  const log = options.logger.child({ component: 'funnel' })
  const helperPath = config.funnel.helperPath || managedHelperPath(config.daemon.stateDir)
  let url = ''
  let actor: (() => AnyActorRef | undefined) | undefined
  const running = new Set<Promise<void>>()

  const logic = funnelMachine.provide({
    actors: {
      // Turning the funnel off (or stopping the agent) mid-download aborts the download.
      // The helper's modules (and undici) load on first use: an agent with the funnel off never pays for them.
      ensureHelper: fromPromise(async ({ signal }) => (await import('../services/funnel/helper-download.js')).ensureHelper({
        signal,
        helperPath: config.funnel.helperPath,
        managedPath: managedHelperPath(config.daemon.stateDir),
        urlBase: config.funnel.helperUrl,
        onDownload: (from) => log.info({ url: from, to: helperPath }, 'downloading the tunnel helper'),
      })),
      helper: fromCallback<FunnelEvent, HelperInput>(({ input, sendBack }) => {
        let live = true
        let run: HelperRun | undefined
        void import('../services/funnel/helper-process.js').then(({ startHelperRun }) => {
          if (!live) return
          run = startHelperRun({
            helperPath: input.helperPath,
            streamPort: config.stream.port,
            pollMs: timing(config, 'funnelReadyPollMs'),
            // After the cleanup below, a late exit of this run must not count against the next one.
            onEvent: (event) => {
              if (live) sendBack(event)
            },
          })
          log.info({ helperPath: input.helperPath }, 'tunnel helper started')
        }, (err: unknown) => {
          if (live) sendBack({ type: 'funnel.helper.exited', code: null, signal: null, rateLimited: false, stderrTail: [String((err as Error)?.message ?? err)] })
        })
        return () => {
          live = false
          if (run === undefined) return
          const stopped = run.stop().catch((err: unknown) => log.warn({ err }, 'tunnel helper did not stop cleanly'))
          running.add(stopped)
          void stopped.finally(() => running.delete(stopped))
        }
      }),
    },
    actions: {
      reportUrl: (_, params) => {
        if (params.url === url) return
        url = params.url
        log.info({ url }, url ? 'public tunnel URL' : 'public tunnel URL cleared')
        options.changed(url ? 'funnel url' : 'funnel url cleared')
      },
      logExit: ({ context }) => {
        const funnel = context as FunnelContext
        log.warn({ error: funnel.lastError, restartInMs: funnelRestartDelayMs(funnel), rateLimited: funnel.rateLimited }, 'public tunnel down; restarting with backoff')
      },
    },
  })

  const input: FunnelInput = {
    enabled: config.funnel.enabled,
    restartBaseMs: timing(config, 'funnelRestartBaseMs'),
    restartMaxMs: timing(config, 'funnelRestartMaxMs'),
    rateLimitedRestartMs: timing(config, 'funnelRateLimitedRestartMs'),
    healthyResetMs: timing(config, 'funnelHealthyResetMs'),
    startTimeoutMs: timing(config, 'funnelStartTimeoutMs'),
  }

  const status = (): FunnelStatus => {
    const snapshot = actor?.()?.getSnapshot() as { value: unknown; context: FunnelContext } | undefined
    const context = snapshot?.context
    return {
      enabled: context?.enabled ?? input.enabled,
      state: snapshot ? funnelStateName(snapshot.value) : 'off',
      url,
      restarts: context?.restarts ?? 0,
      helperPath,
      ...(context?.lastError ? { error: context.lastError } : {}),
    }
  }

  /** Turns the funnel on or off in the running agent (not persisted: the CLI writes the file). */
  const apply = (enabled: boolean) => {
    // Also what a respawned funnel actor starts with (the root spawns children with this object).
    input.enabled = enabled
    actor?.()?.send({ type: enabled ? 'funnel.enable' : 'funnel.disable' })
  }

  const adminRoutes: AdminRoute[] = [
    { method: 'GET', path: '/api/funnel', handle: () => ({ status: 200, json: status() }) },
    {
      method: 'POST',
      path: '/api/funnel',
      handle: ({ body }) => {
        const enabled = (body as { enabled?: unknown } | null)?.enabled
        if (typeof enabled !== 'boolean') return { status: 400, json: { error: 'bad_request', message: 'body must be {"enabled": true|false}' } }
        apply(enabled)
        return { status: 200, json: status() }
      },
    },
  ]

  const closers: Closer[] = [{
    name: 'funnel helper',
    // The actor's cleanup started the kill; wait until no helper process is left.
    close: async () => {
      await Promise.all([...running])
    },
  }]

  return {
    logic,
    input,
    adminRoutes,
    closers,
    url: () => url,
    status,
    apply,
    attach: (get: () => AnyActorRef | undefined) => {
      actor = get
    },
  }
}
