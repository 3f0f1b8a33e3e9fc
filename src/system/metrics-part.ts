import type { Actor, AnyActorRef, InspectionEvent } from 'xstate'
import type { agentMachine } from '../machines/agent.machine.js'
import { sessionReportOf, type SessionSnapshot } from '../machines/session.machine.js'
import type { TaskReport } from '../protocol/wire.js'
import type { AdminRoute } from '../server/admin-server.js'
import { createMetrics, type AgentMetrics, type DownlinkModeLabel } from '../services/metrics/metrics.js'
import { agentVersion } from '../version.js'

// `GET /metrics` (protocol.md 7.7, docs/operations.md "Metrics"). Control-plane, downlink and
// session figures are read off the actor system's inspection stream, so the machines stay as they
// are; the stream server, the HLS engine and the cache call the registry directly; tasks and
// sessions are counted when the route is scraped.

export interface MetricsPartOptions {
  tasks: { reports(): TaskReport[] }
  /** Milliseconds, monotonic; injected so latencies are testable. */
  now?: () => number
  /** Node's default process metrics (tests that only look at the agent's own may turn them off). */
  defaultMetrics?: boolean
}

export interface MetricsPart {
  metrics: AgentMetrics
  adminRoutes: AdminRoute[]
  /** Starts observing the root's system (call before the root starts: nothing is missed). */
  attach(root: Actor<typeof agentMachine>): void
}

export function createMetricsPart(options: MetricsPartOptions): MetricsPart {
  const metrics = createMetrics(options.defaultMetrics === false ? { defaultMetrics: false } : {})
  const now = options.now ?? (() => performance.now())
  let root: Actor<typeof agentMachine> | undefined

  metrics.gauge('info', 'Always 1; the agent version as a label', ['version'], () => [{ labels: { version: agentVersion }, value: 1 }])
  metrics.gauge('tasks', 'Download tasks by state', ['state'], () =>
    [...countBy(options.tasks.reports(), (task) => task.state)].map(([state, value]) => ({ labels: { state }, value })))
  metrics.gauge('task_bytes', 'Bytes of all download tasks: downloaded, uploaded, total size', ['kind'], () => {
    const reports = options.tasks.reports()
    const sum = (pick: (task: TaskReport) => number) => reports.reduce((total, task) => total + pick(task), 0)
    return [
      { labels: { kind: 'downloaded' }, value: sum((task) => task.downloaded) },
      { labels: { kind: 'uploaded' }, value: sum((task) => task.uploaded) },
      { labels: { kind: 'size' }, value: sum((task) => task.size) },
    ]
  })
  metrics.gauge('stream_sessions', 'Stream sessions by kind (hls, direct) and state', ['kind', 'state'], () => {
    const children = Object.entries(root?.getSnapshot().children ?? {}) as [string, AnyActorRef | undefined][]
    const sessions = children.filter(([id, child]) => id.startsWith('session:') && child !== undefined).map(([, child]) => child!.getSnapshot() as SessionSnapshot)
    return [...countBy(sessions, (snapshot) => `${snapshot.context.kind} ${sessionReportOf(snapshot).state}`)].map(([key, value]) => {
      const [kind = '', state = ''] = key.split(' ')
      return { labels: { kind, state }, value }
    })
  })

  const observer = inspectionObserver(metrics, now)
  return {
    metrics,
    adminRoutes: [
      {
        method: 'GET',
        path: '/metrics',
        handle: async () => ({ status: 200, text: await metrics.render(), contentType: metrics.contentType }),
      },
    ],
    attach(agent) {
      root = agent
      agent.system.inspect(observer)
    },
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1)
  return counts
}

/**
 * Turns inspection events into metric updates. Names it relies on: the control plane's invoke
 * `sync` (done / error), its `downlink.syncRequested` event, the downlink actor's top-level state
 * (`sse` / `poll`), the root's `logChildFailure` action, and `session:<id>` actors.
 */
export function inspectionObserver(metrics: AgentMetrics, now: () => number): (event: InspectionEvent) => void {
  // A wake waits for the next sync to start, and is measured when that sync ends (a wake that
  // arrives during a sync is carried by the follow-up, not the one in flight).
  let wakeWaiting: { source: 'sse' | 'wake'; at: number } | undefined
  let wakeInFlight: { source: 'sse' | 'wake'; at: number } | undefined
  let downlink: DownlinkModeLabel = 'none'
  const sessionsStarted = new Map<string, number>()

  return (event) => {
    const ref = event.actorRef as { id?: string; _parent?: { id?: string } }
    const id = ref.id ?? ''
    switch (event.type) {
      case '@xstate.actor':
        if (id === 'sync' && ref._parent?.id === 'controlPlane') {
          wakeInFlight = wakeWaiting
          wakeWaiting = undefined
        } else if (id.startsWith('session:')) {
          sessionsStarted.set(id, now())
        }
        return
      case '@xstate.event': {
        if (id !== 'controlPlane') return
        const type = event.event.type
        if (type === 'xstate.done.actor.sync' || type === 'xstate.error.actor.sync') {
          metrics.syncFinished(type === 'xstate.done.actor.sync')
          if (wakeInFlight && type === 'xstate.done.actor.sync') metrics.wakeToSync(wakeInFlight.source, (now() - wakeInFlight.at) / 1000)
          wakeInFlight = undefined
        } else if (type === 'downlink.syncRequested') {
          wakeWaiting ??= { source: (event.event as { source?: 'sse' | 'wake' }).source === 'sse' ? 'sse' : 'wake', at: now() }
        }
        return
      }
      case '@xstate.snapshot': {
        const snapshot = event.snapshot as { status?: string; value?: unknown; context?: { mode?: string } }
        if (id === 'downlink') {
          const top = snapshot.status !== 'active' ? 'none' : typeof snapshot.value === 'object' && snapshot.value !== null ? Object.keys(snapshot.value)[0] : snapshot.value
          const mode: DownlinkModeLabel = top === 'sse' ? 'sse' : top === 'poll' ? 'poll' : 'none'
          if (mode === downlink) return
          // Only `auto` falls back on its own; `poll` set by the server is not a fallback.
          if (downlink === 'sse' && mode === 'poll' && snapshot.context?.mode === 'auto') metrics.downlinkFallback()
          downlink = mode
          metrics.downlinkMode(mode)
        } else if (id.startsWith('session:')) {
          const started = sessionsStarted.get(id)
          if (started === undefined) return
          const session = snapshot as unknown as SessionSnapshot
          if (snapshot.status !== 'active') {
            sessionsStarted.delete(id)
          } else if (session.matches({ hls: 'ready' }) || session.matches({ direct: 'ready' })) {
            sessionsStarted.delete(id)
            metrics.sessionReady(session.context.kind === 'hls' ? 'hls' : 'direct', (now() - started) / 1000)
          }
        }
        return
      }
      case '@xstate.action':
        if (id === 'agent' && event.action.type === 'logChildFailure') {
          const child = (event.action.params as { child?: unknown } | undefined)?.child
          metrics.childRestarted(typeof child === 'string' ? child : 'unknown')
        }
        return
      default:
    }
  }
}
