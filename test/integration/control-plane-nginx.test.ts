// A real nginx (the Debian package, started here on loopback) between the agent and the
// reference server: the downlink must notice a proxy that holds the SSE stream back and fall
// back to the wake long-poll (contract 3 "downlink" rows, 6.1, 6.2), and must stay on SSE when
// the server sends `X-Accel-Buffering: no`.
//
// What actually holds a stream back (checked against nginx 1.22): `proxy_buffering on` alone
// does not - nginx still writes each upstream read to the client at once. A filter that waits
// for more data unless told to flush does: gzip. With buffering on, nginx never flushes, so a
// gzip-ing proxy sits on the stream (headers included) until 8 KiB or so of compressed output
// pile up; `X-Accel-Buffering: no` turns buffering off for that response, every read is flushed
// and gzip emits a sync-flushed block per frame. The agent sends no Accept-Encoding, so the
// chain is the common CDN shape: an edge that asks its origin for gzip and inflates for the
// client (`gunzip on`), and an origin reverse proxy that compresses text/event-stream.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js'
import { downlinkMode, startAgentHarness, syncWhere, type AgentHarness } from '../helpers/agent-harness.js'
import { startNginx, type RunningNginx } from '../helpers/nginx.js'
import { freePort } from '../helpers/ports.js'

interface Proxy {
  url: string
  nginx: RunningNginx
  stop(): Promise<void>
}

/** Long enough for a held wake (the agent has no timeout on it either). */
const holdTimeouts = 'proxy_read_timeout 3600s; proxy_send_timeout 3600s;'

function upstreamBlock(upstream: string, timeouts = holdTimeouts): string {
  return `proxy_pass ${upstream}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_buffering on; ${timeouts}`
}

/**
 * `compressing`: edge (gunzip) -> origin (gzip, buffering) -> server; `plain`: one buffering
 * proxy; `shortReadTimeout`: one buffering proxy whose `proxy_read_timeout` (1 s here, 60 s by
 * default) cuts every held wake with 504.
 */
async function startProxy(upstream: string, shape: 'compressing' | 'plain' | 'shortReadTimeout'): Promise<Proxy> {
  const root = await mkdtemp(join(tmpdir(), 'ma-nginx-root-'))
  let lastError: unknown
  // The ports are picked free and then bound by nginx: someone may take one in between.
  for (let attempt = 0; attempt < 3; attempt++) {
    const edgePort = await freePort()
    const originPort = await freePort()
    const servers = shape === 'plain'
      ? `server { listen 127.0.0.1:${edgePort}; location / { ${upstreamBlock(upstream)} } }`
      : shape === 'shortReadTimeout'
        ? `server { listen 127.0.0.1:${edgePort}; location / { ${upstreamBlock(upstream, 'proxy_read_timeout 1s;')} } }`
        : `
  server {
    listen 127.0.0.1:${edgePort};
    location / { ${upstreamBlock(`http://127.0.0.1:${originPort}`)} proxy_set_header Accept-Encoding gzip; gunzip on; }
  }
  server {
    listen 127.0.0.1:${originPort};
    gzip on; gzip_types text/event-stream application/json; gzip_min_length 0; gzip_proxied any;
    location / { ${upstreamBlock(upstream)} proxy_pass_header X-Accel-Buffering; }
  }`
    try {
      const nginx = await startNginx({ root, httpDirectives: servers })
      return {
        url: `http://127.0.0.1:${edgePort}`,
        nginx,
        async stop() {
          await nginx.stop()
          await rm(root, { recursive: true, force: true })
        },
      }
    } catch (error) {
      lastError = error
    }
  }
  await rm(root, { recursive: true, force: true })
  throw lastError
}

let server: ReferenceServer | undefined
let proxy: Proxy | undefined
let harness: AgentHarness | undefined

afterEach(async () => {
  await harness?.stop()
  await proxy?.stop()
  await server?.close()
  harness = undefined
  proxy = undefined
  server = undefined
})

const livenessMs = 1_000
const testing = {
  liveness_timeout_ms: livenessMs,
  sse_failures_before_fallback: 2,
  long_poll_reprobe_ms: 3_000,
  sse_connect_timeout_ms: 5_000,
}

async function agentBehindNginx(options: {
  accelBufferingHeader: boolean
  shape: 'compressing' | 'plain' | 'shortReadTimeout'
  downlink?: 'auto' | 'poll'
  testing?: Record<string, number>
}): Promise<AgentHarness> {
  // Heartbeats well inside the shortened liveness window, as 15 s is inside 40 s.
  server = await createReferenceServer({ accessToken: 'nginx-test-token', heartbeatMs: 200, accelBufferingHeader: options.accelBufferingHeader })
  proxy = await startProxy(server.url, options.shape)
  harness = await startAgentHarness({ server, baseUrl: proxy.url, downlink: options.downlink ?? 'auto', testing: { ...testing, ...options.testing } })
  return harness
}

const context = (node: { context?: unknown } | undefined) => (node?.context ?? {}) as { connectedTo?: string; fallbacks?: number; failures?: number; wakeFailures?: number }
const proven = (node: { value?: unknown }) => JSON.stringify(node.value) === JSON.stringify({ sse: { attempt: { liveness: 'waiting', proof: 'proven' } } })

async function staysOnSse(h: AgentHarness, proxyUrl: string): Promise<void> {
  // Proven: a frame arrived a full liveness window after the stream opened, so it is not held.
  const node = await h.waitForNode('downlink', proven, 10_000, 'a proven SSE stream')
  expect(context(node).connectedTo).toBe(proxyUrl)
  expect(context(node).failures).toBe(0)

  const synced = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
  h.server.raiseWake('through nginx')
  await synced

  const control = h.server.queueControl({ kind: 'pause_task', taskId: 'behind-nginx' })
  await syncWhere(h.server, (record) => record.request.appliedControls.includes(control.id))
  expect(h.appliedLog.find((entry) => entry.id === control.id)?.origin).toBe('sse')
  expect(h.applied(control.id)).toBe(1)

  const after = await h.node('downlink')
  expect(downlinkMode(after)).toBe('sse')
  expect(context(after).fallbacks).toBe(0)
  expect(h.logs.some((line) => line.msg === 'downlink falls back to the wake long-poll')).toBe(false)
}

describe('the downlink behind a real nginx', () => {
  it('falls back to the wake long-poll when the proxy holds the stream back, and still syncs at once on every wake', async () => {
    // The three wakes below must land inside one long-poll period: a wake raised while the agent
    // re-probes SSE goes to a hold that is closing, so the period is long enough for a loaded host.
    const h = await agentBehindNginx({ accelBufferingHeader: false, shape: 'compressing', testing: { long_poll_reprobe_ms: 8_000 } })
    await h.waitForLog((line) => line.msg === 'downlink falls back to the wake long-poll', 15_000)
    await h.waitForNode('downlink', (node) => downlinkMode(node) === 'poll', 5_000, 'the long-poll')
    // Every attempt was caught by the liveness timer: nginx delivered not one frame.
    const unhealthy = h.logs.filter((line) => line.msg === 'downlink SSE attempt unhealthy')
    expect(unhealthy.length).toBeGreaterThanOrEqual(2)
    expect(unhealthy.every((line) => String(line.problem).includes(`no SSE frame within ${livenessMs} ms`))).toBe(true)

    for (const reason of ['one', 'two', 'three']) {
      // The wake is held through both nginx servers; the agent must be holding one now.
      if (h.server.connections().wake === 0) await h.server.waitFor('wakeHold', undefined, 10_000)
      const synced = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
      h.server.raiseWake(reason)
      await synced
    }

    // A control reaches it through the sync a wake brings (the command frame is stuck in nginx).
    const control = h.server.queueControl({ kind: 'pause_task', taskId: 'held-back' })
    await syncWhere(h.server, (record) => record.request.appliedControls.includes(control.id), 10_000)
    expect(h.applied(control.id)).toBe(1)
    expect(h.appliedLog.find((entry) => entry.id === control.id)?.origin).toBe('sync')

    // After the re-probe period it tries SSE again, and falls back again: the proxy still buffers.
    await h.waitForLog((line) => line.msg === 'downlink re-probes SSE', 15_000)
    await h.waitForNode('downlink', (node) => downlinkMode(node) === 'poll' && (context(node).fallbacks ?? 0) >= 2, 10_000, 'a second fallback')
  })

  it('stays on SSE through the same proxy when the server sends X-Accel-Buffering: no, and gets sync and command events through it', async () => {
    const h = await agentBehindNginx({ accelBufferingHeader: true, shape: 'compressing' })
    await staysOnSse(h, proxy!.url)
  })

  it('stays on SSE behind a plain proxy_buffering on reverse proxy, which passes each frame on at once', async () => {
    const h = await agentBehindNginx({ accelBufferingHeader: false, shape: 'plain' })
    await staysOnSse(h, proxy!.url)
  })

  it('keeps its long-poll at once after the proxy cuts a held wake with 504, and still syncs on the next wake', async () => {
    // The agent's own retry delays are made long, so a reconnect that waited for one would show.
    const h = await agentBehindNginx({
      accelBufferingHeader: false,
      shape: 'shortReadTimeout',
      downlink: 'poll',
      testing: { wake_held_reconnect_ms: 500, wake_retry_delay_ms: 30_000, wake_retry_max_ms: 30_000 },
    })
    await syncWhere(h.server, (record) => record.agentId === h.agentId)
    for (let cut = 0; cut < 3; cut++) {
      await h.server.waitFor('wakeRelease', (release) => release.status === 0, 5_000)
      await h.server.waitFor('wakeHold', undefined, 5_000)
    }
    const node = await h.node('downlink')
    expect(downlinkMode(node)).toBe('poll')
    expect(context(node).wakeFailures).toBe(0)
    expect(h.logs.filter((line) => /wake hold cut after a long hold/.test(line.msg)).length).toBeGreaterThanOrEqual(3)

    if (h.server.connections().wake === 0) await h.server.waitFor('wakeHold', undefined, 5_000)
    const synced = h.server.waitFor('sync', (record) => record.agentId === h.agentId)
    h.server.raiseWake('after proxy timeouts')
    await synced
  })
})
