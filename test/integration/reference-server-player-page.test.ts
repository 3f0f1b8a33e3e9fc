import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReferenceServer, playerPageUrl, type ReferenceServer } from '../../src/reference-server/index.js'

// The player page's routes (issue 17): one static document for both views with a strict CSP, hls.js from the npm
// package with a validator, nothing else answered, and the agent's report in the session view.
// The page itself plays in a real browser in test/e2e/player-browser.test.ts.

const accessToken = 'player-page-token'
let server: ReferenceServer

beforeAll(async () => {
  server = await createReferenceServer({ accessToken })
})
afterAll(async () => server.close())

describe('the player page routes', () => {
  it('serves the index and play pages as static HTML under a strict content security policy', async () => {
    for (const [path, shown] of [['/', 'index'], ['/play/some-session', 'play']] as const) {
      const answer = await request(`${server.url}${path}`)
      expect(answer.statusCode, path).toBe(200)
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
      const csp = String(answer.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toContain('unsafe-eval')
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      const html = await answer.body.text()
      expect(html).toContain('<script src="/player/app.js" defer></script>')
      // No inline script that would run: only the JSON settings block.
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual(['<script type="application/json" id="ma-settings">'])
      expect(html).not.toContain(accessToken)
      // One document holds both views (the page moves between them without a load), the one
      // the address names shown, the other hidden from the first paint on.
      expect(html).toContain(`<body data-page="${shown}">`)
      const hidden = shown === 'index' ? 'play' : 'index'
      expect(html).toMatch(new RegExp(`<main class="${shown}" id="${shown}-view">`))
      expect(html).toMatch(new RegExp(`<main class="${hidden}" id="${hidden}-view" hidden>`))
    }
  })

  it('serves hls.js byte for byte from the npm package, cacheable, with a validator that answers 304', async () => {
    const packaged = await readFile(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'))
    const answer = await request(`${server.url}/player/hls.min.js`)
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(answer.headers['cache-control']).toBe('public, max-age=86400')
    expect(Buffer.from(await answer.body.arrayBuffer()).equals(packaged)).toBe(true)
    const again = await request(`${server.url}/player/hls.min.js`, { headers: { 'if-none-match': String(answer.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect(await again.body.text()).toBe('')
  })

  it('answers 404 for anything else under the page and 405 for other methods', async () => {
    for (const path of ['/player/../package.json', '/player/secret.js', '/play/a/b', '/index.html']) {
      const answer = await request(`${server.url}${path}`)
      expect(answer.statusCode, path).toBe(404)
      await answer.body.dump()
    }
    const post = await request(`${server.url}/`, { method: 'POST', body: '{}' })
    expect(post.statusCode).toBe(405)
    await post.body.dump()
  })

  it('puts the access token in the fragment of the address it prints, never in the path or query', () => {
    const url = new URL(playerPageUrl(server.url, 'a/b+c'))
    expect(url.pathname).toBe('/')
    expect(url.search).toBe('')
    expect(new URLSearchParams(url.hash.slice(1)).get('token')).toBe('a/b+c')
  })

  it('adds the agent\'s latest report of a session to its view, null before any', async () => {
    const view = server.createStreamSession({ filePath: '/media/movie.mp4', quality: '720p' })
    const read = async () => (await (await request(`${server.url}/api/reference/sessions/${view.sessionId}`, { headers: { authorization: `Bearer ${accessToken}` } })).body.json()) as { report: unknown }
    expect((await read()).report).toBeNull()
    const sync = await request(`${server.url}/api/internal/agent/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'agent-1', version: '1.0.0', tasks: [], sessions: [{ sessionId: view.sessionId, state: 'failed', cacheHit: false, error: 'no such file' }], appliedControls: [], FunnelURL: '', VPNActive: false, VPNMode: 'off', VPNExitServer: '', streamServer: { port: 1, publicUrl: 'http://127.0.0.1:1', addresses: [] } }),
    })
    expect(sync.statusCode).toBe(200)
    await sync.body.dump()
    expect((await read()).report).toEqual({ sessionId: view.sessionId, state: 'failed', cacheHit: false, error: 'no such file' })
  })
})
